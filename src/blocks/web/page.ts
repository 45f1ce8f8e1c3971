/**
 * The web inbox page: the shell (header, live mark, flash line, the inbox) and the inbox fragment the client swaps
 * in on every change (filters with counts, project filter, "Send N answers", the waiting cards, then the recently
 * closed ones). Also the sign-in page used when the inbox is bound beyond loopback. Pure.
 */

import { shownReadiness } from '../../core/inbox.js';
import { projectTag } from '../../core/question-ref.js';
import { renderCard, type WebInboxItem } from './card.js';
import { answersCount, projectName } from './format.js';
import { html, SafeHtml } from './html.js';
import { INBOX_FILTERS, type InboxFilter, type InboxState, inboxQuery, WEB_ROUTES } from './routes.js';

export interface WebInboxView {
  /** Pending questions and the recently closed ones worth showing, of every project, with the viewer's drafts. */
  readonly items: readonly WebInboxItem[];
  readonly state: InboxState;
  /** IANA time zone for the times shown (default the process's). */
  readonly timeZone?: string;
}

const FILTER_LABELS: Readonly<Record<InboxFilter, string>> = {
  all: 'All',
  blocking: 'Blocking',
  'non-blocking': 'Non-blocking',
};

function inProject(item: WebInboxItem, project: string | undefined): boolean {
  return project === undefined || projectTag(item.question.project) === project;
}

function inFilter(item: WebInboxItem, filter: InboxFilter): boolean {
  return filter === 'all' || item.question.isBlocking === (filter === 'blocking');
}

/** The waiting questions the state shows: blocking first, then oldest first. */
export function waitingShown(items: readonly WebInboxItem[], state: InboxState): WebInboxItem[] {
  return items
    .filter(
      (item) => item.question.status === 'pending' && inProject(item, state.project) && inFilter(item, state.filter),
    )
    .sort(
      (a, b) =>
        Number(b.question.isBlocking) - Number(a.question.isBlocking) ||
        a.question.createdAt - b.question.createdAt ||
        a.question.id - b.question.id,
    );
}

/** When a closed question last changed (delivery, answer, closure), for ordering the closed list. */
export function closedAt(item: WebInboxItem): number {
  const q = item.question;
  return q.deliveredAt ?? q.answer?.at ?? q.closure?.at ?? q.createdAt;
}

/** The closed questions the state shows, most recently closed first. */
export function closedShown(items: readonly WebInboxItem[], state: InboxState): WebInboxItem[] {
  return items
    .filter(
      (item) => item.question.status !== 'pending' && inProject(item, state.project) && inFilter(item, state.filter),
    )
    .sort((a, b) => closedAt(b) - closedAt(a));
}

/** How many waiting questions each filter shows (within the selected project). */
export function inboxCounts(items: readonly WebInboxItem[], project?: string): Record<InboxFilter, number> {
  const state = (filter: InboxFilter): InboxState => (project === undefined ? { filter } : { filter, project });
  return {
    all: waitingShown(items, state('all')).length,
    blocking: waitingShown(items, state('blocking')).length,
    'non-blocking': waitingShown(items, state('non-blocking')).length,
  };
}

/**
 * How many answers "Send N answers" sends: the waiting questions in view whose shown selection (the draft, else the
 * recommendation) is ready, exactly what each card's ready mark says and what `InteractionService.sendReady` sends.
 */
export function readyCount(items: readonly WebInboxItem[], state: InboxState): number {
  return waitingShown(items, state).filter((item) => shownReadiness(item.question, item.draft) === 'ready').length;
}

interface ProjectEntry {
  readonly tag: string;
  readonly project: string;
  readonly waiting: number;
}

/** The projects with anything shown, by name; how many questions wait in each. */
function projectsOf(items: readonly WebInboxItem[]): ProjectEntry[] {
  const byTag = new Map<string, ProjectEntry>();
  for (const { question } of items) {
    const tag = projectTag(question.project);
    const entry = byTag.get(tag) ?? { tag, project: question.project, waiting: 0 };
    byTag.set(tag, { ...entry, waiting: entry.waiting + (question.status === 'pending' ? 1 : 0) });
  }
  return [...byTag.values()].sort(
    (a, b) => projectName(a.project).localeCompare(projectName(b.project)) || a.project.localeCompare(b.project),
  );
}

/** The inbox fragment: what the client swaps into `#inbox` on every change. */
export function renderInboxFragment(view: WebInboxView): SafeHtml {
  const { items, state } = view;
  const counts = inboxCounts(items, state.project);
  const waiting = waitingShown(items, state);
  const closed = closedShown(items, state);
  const ready = readyCount(items, state);
  const cardOptions = view.timeZone === undefined ? {} : { timeZone: view.timeZone };

  const filters = INBOX_FILTERS.map((filter) => {
    const href = inboxQuery({ ...state, filter }) || WEB_ROUTES.page;
    const current = filter === state.filter;
    return html`<a class="filter${current ? ' is-current' : ''}" href="${href}" data-filter="${filter}"${current ? ' aria-current="true"' : ''}>${FILTER_LABELS[filter]} <span class="count">${counts[filter]}</span></a>`;
  });

  const scope = state.filter === 'all' ? '' : ` (${FILTER_LABELS[state.filter].toLowerCase()} only)`;
  const send =
    ready === 0
      ? html`<button type="button" class="primary send-ready" data-action="send-ready" disabled title="Pick an answer (Other needs a note) to send it">Nothing ready to send</button>`
      : html`<button type="button" class="primary send-ready" data-action="send-ready" data-count="${ready}" title="Sends every ready answer shown${scope}">Send ${answersCount(ready)}</button>`;

  const waitingList =
    waiting.length > 0
      ? waiting.map((item) => renderCard(item, cardOptions))
      : html`<p class="empty">${emptyText(items, state)}</p>`;
  const closedList =
    closed.length === 0
      ? ''
      : html`<section id="closed" class="list" aria-label="Recently closed"><h2 class="list-title">Recently closed</h2>${closed.map((item) => renderCard(item, cardOptions))}</section>`;

  return html`<nav class="toolbar" aria-label="Filters" data-waiting="${inboxCounts(items).all}"><div class="filters" role="group" aria-label="Show">${filters}</div>${projectFilter(items, state)}<span class="spacer"></span>${send}</nav>
<section id="pending" class="list" aria-label="Waiting">${waitingList}</section>
${closedList}`;
}

function emptyText(items: readonly WebInboxItem[], state: InboxState): string {
  if (inboxCounts(items, state.project).all > 0) return `Nothing ${FILTER_LABELS[state.filter].toLowerCase()} waiting.`;
  return 'Nothing waiting. When an agent parks a question, it shows up here.';
}

function projectFilter(items: readonly WebInboxItem[], state: InboxState): SafeHtml {
  const projects = projectsOf(items);
  const names = new Map<string, number>();
  for (const entry of projects) names.set(projectName(entry.project), (names.get(projectName(entry.project)) ?? 0) + 1);
  const total = projects.reduce((sum, entry) => sum + entry.waiting, 0);
  const options = projects.map((entry) => {
    const name = projectName(entry.project);
    const label = (names.get(name) ?? 0) > 1 ? entry.project : name;
    return html`<option value="${entry.tag}"${entry.tag === state.project ? ' selected' : ''} title="${entry.project}">${label} (${entry.waiting})</option>`;
  });
  if (state.project !== undefined && !projects.some((entry) => entry.tag === state.project)) {
    options.push(html`<option value="${state.project}" selected>(no questions now)</option>`);
  }
  return html`<form class="project-filter" method="get" action="${WEB_ROUTES.page}">${state.filter === 'all' ? '' : html`<input type="hidden" name="filter" value="${state.filter}">`}<label>Project <select name="project" data-project-filter><option value="">All projects (${total})</option>${options}</select></label><noscript><button type="submit">Show</button></noscript></form>`;
}

/** An inbox tray, drawn inline (an emoji depends on the machine's fonts). */
export const LOGO = new SafeHtml(
  '<svg class="logo" viewBox="0 0 24 24" width="34" height="34" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"><path d="M3 13l2.5-7.5A2 2 0 0 1 7.4 4h9.2a2 2 0 0 1 1.9 1.5L21 13"/><path d="M3 13v5a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2v-5h-5l-1.5 2.5h-5L8 13z"/></svg>',
);

export interface PageOptions {
  /** Whose answers the page sends (the OS user name), shown in the header. */
  readonly viewer: string;
}

/** A whole HTML document: the head every page shares (stylesheet, no referrer) and `body`. */
export function pageShell(title: string, body: SafeHtml): string {
  return `<!doctype html>
${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer"><title>${title}</title><link rel="icon" href="data:,"><link rel="stylesheet" href="${WEB_ROUTES.style}"></head><body>${body}</body></html>`}
`;
}

/** The web inbox's views, one tab each. */
export type WebView = 'waiting' | 'answered';

/** The Waiting | Answered tabs; `current` is marked for assistive technology too. */
export function viewTabs(current: WebView): SafeHtml {
  const tab = (view: WebView, href: string, label: string) =>
    html`<a class="tab${view === current ? ' is-current' : ''}" href="${href}" data-view="${view}"${view === current ? html` aria-current="page"` : ''}>${label}</a>`;
  return html`<nav class="tabs" aria-label="Views">${tab('waiting', WEB_ROUTES.page, 'Waiting')}${tab('answered', WEB_ROUTES.answered, 'Answered')}</nav>`;
}

/** `(3) ask-later inbox`: the tab shows how many questions wait (the client keeps it current). */
export function pageTitle(waiting: number): string {
  return waiting === 0 ? 'ask-later inbox' : `(${waiting}) ask-later inbox`;
}

/** The whole page, server-rendered with the current inbox; the client script keeps it live. */
export function renderInboxPage(view: WebInboxView, options: PageOptions): string {
  return pageShell(
    pageTitle(inboxCounts(view.items).all),
    html`<header class="top"><div class="brand">${LOGO}<div><h1>ask-later</h1><p class="sub">Questions your coding agents parked · answering as <strong>${options.viewer}</strong></p></div></div><span id="live" class="live" data-live="connecting">connecting…</span></header>
${viewTabs('waiting')}
<p id="flash" class="flash" role="status" aria-live="polite" hidden></p>
<main id="inbox">${renderInboxFragment(view)}</main>
<script src="${WEB_ROUTES.script}" defer></script>`,
  );
}

/** The sign-in page shown when the inbox needs `ASK_LATER_WEB_TOKEN` (bound beyond loopback). */
export function renderLoginPage(options: { readonly failed: boolean }): string {
  return pageShell(
    'ask-later inbox: sign in',
    html`<main class="login">${LOGO}<h1>ask-later</h1><p>This inbox is shared beyond this machine. Enter the token it was started with (<code>ASK_LATER_WEB_TOKEN</code>).</p>${options.failed ? html`<p class="flash flash-warn" role="alert">That token is not the one the inbox was started with.</p>` : ''}<form method="post" action="${WEB_ROUTES.login}"><label>Token <input type="password" name="token" autocomplete="current-password" required autofocus></label><button type="submit" class="primary">Sign in</button></form></main>`,
  );
}
