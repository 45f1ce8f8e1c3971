/**
 * The web inbox's Answered view: the decision trail (`decisions/query.ts`), newest answer first, with the
 * time-to-answer chart on top. Each decision shows its project, #id, ticket, question, the answer (labels, `Other`),
 * the notes, who answered and where, when it was asked, answered and delivered (and how), with Context and Impact
 * folded away. A search (every word, in question, context, ticket, answer or notes) and a project filter narrow
 * the list; it is paged, and all three live in the URL, so a search is a link. Plain HTML: links and a GET form,
 * no script. Pure; every text goes through the `html` tag, Context and Impact through the safe Markdown renderer.
 *
 * The chart follows the project filter but not the search: it answers "how long do agents wait on us", which a
 * word in the questions does not change.
 */
import { describeSelection } from '../../core/answer.js';
import { formatDuration } from '../../core/duration.js';
import { formatQuestionRef, projectTag } from '../../core/question-ref.js';
import { timeToAnswer, timeToAnswerByDay } from '../../core/time-to-answer.js';
import { type Decision, decisionMatches } from '../../decisions/query.js';
import { elementKey, renderContextAndImpact, renderTime } from './card.js';
import { renderTimeToAnswerChart } from './chart.js';
import { deliveryPathName, placeName, projectName, stateName } from './format.js';
import { html, type SafeHtml } from './html.js';
import { LOGO, pageShell, viewTabs } from './page.js';
import { type AnsweredState, answeredHref, SEARCH_MAX, WEB_ROUTES } from './routes.js';

/** Decisions per page. */
export const ANSWERED_PAGE_SIZE = 25;

/** How many calendar days the chart covers, today included. */
export const CHART_DAYS = 7;

export interface AnsweredInput {
  /** Every decision, of every project, newest answer first (as `listDecisions` gives them). */
  readonly decisions: readonly Decision[];
  readonly state: AnsweredState;
  /** The current time: the chart's last day. */
  readonly now: number;
  /** IANA time zone for the times shown and the chart's days (default the process's). */
  readonly timeZone?: string;
  /** Decisions per page (default {@link ANSWERED_PAGE_SIZE}). */
  readonly pageSize?: number;
}

/** One page of the decisions the state selects. */
export interface AnsweredPage {
  readonly shown: readonly Decision[];
  /** How many decisions match, over every page. */
  readonly total: number;
  /** The page shown (the state's, brought within 1…pages). */
  readonly page: number;
  /** At least 1, even with nothing to show. */
  readonly pages: number;
}

function inProject(decision: Decision, tag: string | undefined): boolean {
  return tag === undefined || projectTag(decision.project) === tag;
}

/** The page of decisions the state selects: project, then search, then the page (past the last: the last). */
export function answeredPage(
  decisions: readonly Decision[],
  state: AnsweredState,
  pageSize = ANSWERED_PAGE_SIZE,
): AnsweredPage {
  const matching = decisions.filter(
    (decision) => inProject(decision, state.project) && decisionMatches(decision, state.search),
  );
  const pages = Math.max(1, Math.ceil(matching.length / pageSize));
  const page = Math.min(Math.max(1, state.page), pages);
  return { shown: matching.slice((page - 1) * pageSize, page * pageSize), total: matching.length, page, pages };
}

/** The whole Answered page. */
export function renderAnsweredPage(input: AnsweredInput): string {
  const { state } = input;
  const timeOptions = input.timeZone === undefined ? {} : { timeZone: input.timeZone };
  const selected = answeredPage(input.decisions, state, input.pageSize);
  const projects = projectsOf(input.decisions);
  const scope = projects.find((entry) => entry.tag === state.project);

  const chart = renderTimeToAnswerChart(
    timeToAnswerByDay(
      input.decisions.filter((decision) => inProject(decision, state.project)),
      { now: input.now, days: CHART_DAYS, ...timeOptions },
    ),
    state.project === undefined ? {} : { scope: scope?.label ?? 'a project with no answers' },
  );
  const list =
    selected.shown.length === 0
      ? html`<p class="empty">${emptyText(input.decisions.length, state)}</p>`
      : html`<ol class="list decisions" start="${(selected.page - 1) * (input.pageSize ?? ANSWERED_PAGE_SIZE) + 1}">${selected.shown.map((decision) => html`<li>${renderDecision(decision, timeOptions)}</li>`)}</ol>`;

  return pageShell(
    'Answered · ask-later inbox',
    html`<header class="top"><div class="brand">${LOGO}<div><h1>ask-later</h1><p class="sub">What people answered your coding agents, newest first</p></div></div></header>
${viewTabs('answered')}
<main id="answered">${chart}
${searchForm(state, projects)}
<p class="result-count" role="status">${resultText(selected, state, scope?.label)}</p>
${list}
${pager(selected, state)}</main>`,
  );
}

/** One decision, as a card of the trail. */
export function renderDecision(decision: Decision, options: { readonly timeZone?: string } = {}): SafeHtml {
  const ref = formatQuestionRef(decision.project, decision.id);
  const { answer } = decision;
  const badge = decision.isBlocking
    ? html`<span class="badge badge-blocking">BLOCKING</span>`
    : html`<span class="badge badge-waiting">can wait</span>`;
  const notes =
    answer.notes === undefined || answer.notes.trim() === ''
      ? ''
      : html`<blockquote class="answer-notes">${answer.notes}</blockquote>`;
  const delivered =
    decision.deliveredAt === undefined
      ? html`<dd class="delivery">not yet: reaches the agent with the next prompt in its session</dd>`
      : html`<dd class="delivery is-delivered">${renderTime(decision.deliveredAt, options)}${decision.deliveredVia === undefined ? '' : ` · ${deliveryPathName(decision.deliveredVia)}`}</dd>`;
  return html`<article class="card decision is-closed ${decision.isBlocking ? 'is-blocking' : 'is-waiting'}" id="d-${elementKey(ref)}" data-ref="${ref}" data-status="${decision.status}" data-blocking="${String(decision.isBlocking)}">
<header class="card-head">${badge}<span class="project" title="${decision.project}">${projectName(decision.project)}</span>${decision.ticket === undefined ? '' : html`<span class="ticket">${decision.ticket}</span>`}<span class="qid">#${decision.id}</span><span class="state state-${decision.status}">${stateName(decision.status)}</span></header>
<h2 class="question">${decision.question}</h2>
<div class="outcome"><p class="answer">Answer: <strong>${describeSelection(decision, answer)}</strong></p>${notes}<p class="who">Answered by <strong>${answer.by.displayName}</strong> ${placeName(answer.by.platform)}</p></div>
<dl class="times"><dt>Asked</dt><dd>${renderTime(decision.createdAt, options)}</dd><dt>Answered</dt><dd>${renderTime(answer.at, options)} · after ${formatDuration(timeToAnswer(decision))}</dd><dt>Delivered</dt>${delivered}</dl>
<details class="more"><summary>Context and impact</summary>${renderContextAndImpact(decision)}</details>
</article>`;
}

interface ProjectEntry {
  readonly tag: string;
  readonly project: string;
  /** The last segment, or the whole name where two projects share it. */
  readonly label: string;
  readonly answered: number;
}

/** The projects with decisions, by name, and how many each has. */
function projectsOf(decisions: readonly Decision[]): ProjectEntry[] {
  const counts = new Map<string, { project: string; answered: number }>();
  for (const { project } of decisions) {
    const entry = counts.get(project) ?? { project, answered: 0 };
    counts.set(project, { project, answered: entry.answered + 1 });
  }
  const names = new Map<string, number>();
  for (const project of counts.keys()) names.set(projectName(project), (names.get(projectName(project)) ?? 0) + 1);
  return [...counts.values()]
    .map(({ project, answered }) => ({
      tag: projectTag(project),
      project,
      label: (names.get(projectName(project)) ?? 0) > 1 ? project : projectName(project),
      answered,
    }))
    .sort((a, b) => a.label.localeCompare(b.label) || a.project.localeCompare(b.project));
}

function searchForm(state: AnsweredState, projects: readonly ProjectEntry[]): SafeHtml {
  const total = projects.reduce((sum, entry) => sum + entry.answered, 0);
  const options = projects.map(
    (entry) =>
      html`<option value="${entry.tag}"${entry.tag === state.project ? ' selected' : ''} title="${entry.project}">${entry.label} (${entry.answered})</option>`,
  );
  if (state.project !== undefined && !projects.some((entry) => entry.tag === state.project)) {
    options.push(html`<option value="${state.project}" selected>(no answers)</option>`);
  }
  const filtered = state.search !== undefined || state.project !== undefined;
  return html`<form class="toolbar search" method="get" action="${WEB_ROUTES.answered}" role="search"><label class="search-text">Search <input type="search" name="q" value="${state.search ?? ''}" maxlength="${SEARCH_MAX}" placeholder="question, context, answer, notes"></label><label class="project-filter">Project <select name="project"><option value="">All projects (${total})</option>${options}</select></label><button type="submit" class="primary">Search</button>${filtered ? html`<a class="clear" href="${WEB_ROUTES.answered}">Clear</a>` : ''}</form>`;
}

function resultText(selected: AnsweredPage, state: AnsweredState, projectLabel: string | undefined): string {
  const what = selected.total === 1 ? '1 answered question' : `${selected.total} answered questions`;
  const search = state.search === undefined ? '' : ` matching “${state.search}”`;
  const where = state.project === undefined ? '' : ` in ${projectLabel ?? 'that project'}`;
  const page = selected.pages > 1 ? ` · page ${selected.page} of ${selected.pages}` : '';
  return `${what}${search}${where}${page}`;
}

function emptyText(all: number, state: AnsweredState): string {
  if (all === 0) return 'Nothing answered yet. Answers show up here, newest first, once someone answers a question.';
  return state.search === undefined ? 'Nothing answered in that project.' : 'No answered question matches that search.';
}

function pager(selected: AnsweredPage, state: AnsweredState): SafeHtml | string {
  if (selected.pages <= 1) return '';
  const link = (page: number, rel: 'prev' | 'next', label: string) =>
    page < 1 || page > selected.pages
      ? html`<span class="page-link is-off" aria-disabled="true">${label}</span>`
      : html`<a class="page-link" rel="${rel}" href="${answeredHref({ ...state, page })}">${label}</a>`;
  return html`<nav class="pager" aria-label="Pages">${link(selected.page - 1, 'prev', '← Newer')}<span class="page-of">Page ${selected.page} of ${selected.pages}</span>${link(selected.page + 1, 'next', 'Older →')}</nav>`;
}
