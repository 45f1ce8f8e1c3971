/**
 * The web inbox's Answered view: the decision trail (`store/decision-query.ts`), newest answer first, with the
 * time-to-answer chart on top. Each decision shows its project, #id, ticket, question, the answer (labels, `Other`),
 * the notes per option nested under each option, the notes (a set: each question's under its ref and topic), who
 * answered and where, when it was asked, answered and delivered (and how), with Context and Impact
 * folded away. A search (every word, in question, context, ticket, answer or notes) and a project filter narrow
 * the list; it is read a page at a time from the store's answered index (Newest / Older links after a cursor), and
 * all three live in the URL, so a search is a link. Plain HTML: links and a GET form,
 * no script. Pure; every text goes through the `html` tag, Context and Impact through the safe Markdown renderer.
 *
 * The chart follows the project filter but not the search: it answers "how long do agents wait on us", which a
 * word in the questions does not change.
 */

import type { Decision, DecisionPage } from '../../core/decision.js';
import { formatDuration } from '../../core/duration.js';
import { formatQuestionRef, projectTag } from '../../core/question-ref.js';
import { timeToAnswer, timeToAnswerByDay } from '../../core/time-to-answer.js';
import { blockingBadge, elementKey, renderAllTexts, renderAnswer, renderTime, titleOf } from './card.js';
import { renderTimeToAnswerChart } from './chart.js';
import { deliveryPathName, placeName, projectName, stateName } from './format.js';
import { html, type SafeHtml } from './html.js';
import { LOGO, pageShell, viewTabs } from './page.js';
import { type AnsweredState, answeredHref, SEARCH_MAX, WEB_ROUTES } from './routes.js';

/** Decisions per page. */
export const ANSWERED_PAGE_SIZE = 25;

/** How many calendar days the chart covers, today included. */
export const CHART_DAYS = 7;

/** A project with answers, for the project filter. */
export interface AnsweredProject {
  readonly project: string;
  readonly answered: number;
}

export interface AnsweredInput {
  /** The page of decisions the state selects (`decisionsPage`), newest answer first. */
  readonly page: DecisionPage;
  /** The decisions of the chart's days, in the project in view (the chart does not follow the search). */
  readonly recent: readonly Decision[];
  /** Every project with answers, and how many. */
  readonly projects: readonly AnsweredProject[];
  readonly state: AnsweredState;
  /** The current time: the chart's last day. */
  readonly now: number;
  /** IANA time zone for the times shown and the chart's days (default the process's). */
  readonly timeZone?: string;
}

/** The whole Answered page. */
export function renderAnsweredPage(input: AnsweredInput): string {
  const { state, page } = input;
  const timeOptions = input.timeZone === undefined ? {} : { timeZone: input.timeZone };
  const projects = projectEntries(input.projects);
  const scope = projects.find((entry) => entry.tag === state.project);
  const inScope = state.project === undefined ? projects : scope === undefined ? [] : [scope];
  const answeredInScope = inScope.reduce((sum, entry) => sum + entry.answered, 0);
  // Without a search the trail's counts say where the page is; a search cannot count what it did not read.
  const total = state.search === undefined ? answeredInScope : undefined;
  const offset =
    total === undefined || page.remaining === undefined
      ? undefined
      : Math.max(0, total - page.remaining - page.decisions.length);

  const chart = renderTimeToAnswerChart(
    timeToAnswerByDay(input.recent, { now: input.now, days: CHART_DAYS, ...timeOptions }),
    state.project === undefined ? {} : { scope: scope?.label ?? 'a project with no answers' },
  );
  const list =
    page.decisions.length === 0
      ? html`<p class="empty">${emptyText(projects.length === 0, state)}</p>`
      : html`<ol class="list decisions" start="${(offset ?? 0) + 1}">${page.decisions.map((decision) => html`<li>${renderDecision(decision, timeOptions)}</li>`)}</ol>`;

  return pageShell(
    'Answered · ask-later inbox',
    html`<header class="top"><div class="brand">${LOGO}<div><h1>ask-later</h1><p class="sub">What people answered your coding agents, newest first</p></div></div></header>
${viewTabs('answered')}
<main id="answered">${chart}
${searchForm(state, projects)}
<p class="result-count" role="status">${resultText(page, state, scope?.label, total, offset)}</p>
${list}
${pager(page, state)}</main>`,
  );
}

/** One decision, as a card of the trail. */
export function renderDecision(decision: Decision, options: { readonly timeZone?: string } = {}): SafeHtml {
  const ref = formatQuestionRef(decision.project, decision.id);
  const { answer } = decision;
  const delivered =
    decision.deliveredAt === undefined
      ? html`<dd class="delivery">not yet: reaches the agent with the next prompt in its session</dd>`
      : html`<dd class="delivery is-delivered">${renderTime(decision.deliveredAt, options)}${decision.deliveredVia === undefined ? '' : ` · ${deliveryPathName(decision.deliveredVia)}`}</dd>`;
  const size =
    decision.members === undefined ? '' : html`<span class="set-size">${decision.members.length} questions</span>`;
  return html`<article class="card decision is-closed${decision.members === undefined ? '' : ' is-set'} ${decision.isBlocking ? 'is-blocking' : 'is-waiting'}" id="d-${elementKey(ref)}" data-ref="${ref}" data-status="${decision.status}" data-blocking="${String(decision.isBlocking)}">
<header class="card-head">${blockingBadge(decision.isBlocking)}<span class="project" title="${decision.project}">${projectName(decision.project)}</span>${decision.ticket === undefined ? '' : html`<span class="ticket">${decision.ticket}</span>`}<span class="qid">#${decision.id}</span>${size}<span class="state state-${decision.status}">${stateName(decision.status)}</span></header>
<h2 class="question">${titleOf(decision)}</h2>
<div class="outcome">${renderAnswer(decision, answer)}<p class="who">Answered by <strong>${answer.by.displayName}</strong> ${placeName(answer.by.platform)}</p></div>
<dl class="times"><dt>Asked</dt><dd>${renderTime(decision.createdAt, options)}</dd><dt>Answered</dt><dd>${renderTime(answer.at, options)} · after ${formatDuration(timeToAnswer(decision))}</dd><dt>Delivered</dt>${delivered}</dl>
<details class="more"><summary>Context and impact</summary>${renderAllTexts(decision)}</details>
</article>`;
}

interface ProjectEntry {
  readonly tag: string;
  readonly project: string;
  /** The last segment, or the whole name where two projects share it. */
  readonly label: string;
  readonly answered: number;
}

/** The projects with answers, by name (the whole name where two share their last segment). */
function projectEntries(projects: readonly AnsweredProject[]): ProjectEntry[] {
  const withAnswers = projects.filter((entry) => entry.answered > 0);
  const names = new Map<string, number>();
  for (const { project } of withAnswers) names.set(projectName(project), (names.get(projectName(project)) ?? 0) + 1);
  return withAnswers
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

function resultText(
  page: DecisionPage,
  state: AnsweredState,
  projectLabel: string | undefined,
  total: number | undefined,
  offset: number | undefined,
): string {
  const shown = page.decisions.length;
  const where = state.project === undefined ? '' : ` in ${projectLabel ?? 'that project'}`;
  if (total !== undefined) {
    const what = total === 1 ? '1 answered question' : `${total} answered questions`;
    const range =
      page.next !== undefined || (offset ?? 0) > 0 ? ` · ${(offset ?? 0) + 1}–${(offset ?? 0) + shown}` : '';
    return `${what}${where}${range}`;
  }
  const search = ` matching “${state.search ?? ''}”`;
  const what =
    page.next === undefined
      ? shown === 1
        ? '1 answered question'
        : `${shown} answered questions`
      : `${shown} answered questions shown (more follow)`;
  return state.after === undefined ? `${what}${search}${where}` : `${what}${search}${where}, older than the last page`;
}

function emptyText(none: boolean, state: AnsweredState): string {
  if (none) return 'Nothing answered yet. Answers show up here, newest first, once someone answers a question.';
  if (state.after !== undefined) return 'Nothing older matches.';
  return state.search === undefined ? 'Nothing answered in that project.' : 'No answered question matches that search.';
}

function pager(page: DecisionPage, state: AnsweredState): SafeHtml | string {
  if (page.next === undefined && state.after === undefined) return '';
  const { after: _, ...base } = state;
  const newest =
    state.after === undefined
      ? html`<span class="page-link is-off" aria-disabled="true">← Newest</span>`
      : html`<a class="page-link" href="${answeredHref(base)}">← Newest</a>`;
  const older =
    page.next === undefined
      ? html`<span class="page-link is-off" aria-disabled="true">Older →</span>`
      : html`<a class="page-link" rel="next" href="${answeredHref({ ...base, after: page.next })}">Older →</a>`;
  return html`<nav class="pager" aria-label="Pages">${newest}${older}</nav>`;
}
