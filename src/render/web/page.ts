/**
 * The web inbox page: the shell (header, live mark, flash line, the inbox) and the inbox fragment the client swaps
 * in on every change (filters with counts, project filter with counts, "Send N answers", one page of the waiting
 * cards with a way to the next, then the recently closed ones). Also the sign-in page used when the inbox is bound
 * beyond loopback. Pure: what it draws is one page and the counts, never the whole store.
 */

import { entryReadiness, type InboxPage } from '../../core/inbox.js';
import { FILTER_LABELS, nothingInFilter } from '../vocabulary.js';
import { renderCard, type WebInboxItem } from './card.js';
import { KEY_HELP } from './client/keys.js';
import { answersCount, projectName } from './format.js';
import { html, SafeHtml } from './html.js';
import { INBOX_FILTERS, type InboxState, inboxQuery, WEB_ROUTES } from './routes.js';
import { pageTitle } from './title.js';

export { pageTitle } from './title.js';

/** A project the project filter offers, with how many of its questions wait (and how many of those block). */
export interface WebProjectEntry {
  readonly tag: string;
  readonly project: string;
  readonly waiting: number;
  readonly blocking: number;
}

export interface WebInboxView {
  /** One page of the waiting questions the state selects, with the viewer's drafts and the filters' counts. */
  readonly page: InboxPage<WebInboxItem>;
  /** The recently closed questions worth showing (newest first), within the state's project and filter. */
  readonly closed: readonly WebInboxItem[];
  /** Every project with questions waiting (or the one selected), and how many wait in each. */
  readonly projects: readonly WebProjectEntry[];
  readonly state: InboxState;
  /** IANA time zone for the times shown (default the process's). */
  readonly timeZone?: string;
}

/**
 * Waiting cards per page, bounded whatever the store holds: a single question's card is a few KB, a set's at most
 * ~50 KB (the largest set `ask_later` accepts, every character escaped at its longest; test/render/web/set.test.ts),
 * plus the notes the viewer typed (shown in their fields and in a set's review).
 */
export const WEB_PAGE_SIZE = 50;

/**
 * How many answers "Send N answers" sends: the waiting questions shown whose shown selection (the draft, else the
 * recommendation) is ready, exactly what each card's ready mark says and what `InteractionService.sendReady` sends
 * (the client sends the refs of the cards shown). A set counts once, and only when every one of its questions is.
 */
export function readyCount(items: readonly WebInboxItem[]): number {
  return items.filter((item) => item.question.status === 'pending' && entryReadiness(item) === 'ready').length;
}

/** Every project's waiting questions: the tab title's count. */
export function waitingTotal(projects: readonly WebProjectEntry[]): number {
  return projects.reduce((sum, entry) => sum + entry.waiting, 0);
}

/** Every project's waiting blocking questions: the tab title's first count. */
export function blockingTotal(projects: readonly WebProjectEntry[]): number {
  return projects.reduce((sum, entry) => sum + entry.blocking, 0);
}

/** The inbox fragment: what the client swaps into `#inbox` on every change. */
export function renderInboxFragment(view: WebInboxView): SafeHtml {
  const { page, state } = view;
  const counts = page.counts;
  const waiting = page.items.filter((item) => item.question.status === 'pending');
  const ready = readyCount(waiting);
  const cardOptions = view.timeZone === undefined ? {} : { timeZone: view.timeZone };

  const filters = INBOX_FILTERS.map((filter) => {
    const href =
      inboxQuery({ filter, ...(state.project === undefined ? {} : { project: state.project }) }) || WEB_ROUTES.page;
    const current = filter === state.filter;
    return html`<a class="filter${current ? ' is-current' : ''}" href="${href}" data-filter="${filter}"${current ? ' aria-current="true"' : ''}>${FILTER_LABELS[filter]} <span class="count">${counts[filter]}</span></a>`;
  });

  const scope = state.filter === 'all' ? '' : ` (${FILTER_LABELS[state.filter].toLowerCase()} only)`;
  const send =
    ready === 0
      ? html`<button type="button" class="primary send-ready" data-action="send-ready" disabled title="Pick an answer (Other needs a note) to send it">Nothing ready to send</button>`
      : html`<button type="button" class="primary send-ready" data-action="send-ready" data-count="${ready}" title="Sends every ready answer shown on this page${scope}">Send ${answersCount(ready)}</button>`;

  const waitingList =
    waiting.length > 0
      ? waiting.map((item) => renderCard(item, cardOptions))
      : html`<p class="empty">${emptyText(view)}</p>`;
  const closedList =
    view.closed.length === 0
      ? ''
      : html`<section id="closed" class="list" aria-label="Recently closed"><h2 class="list-title">Recently closed</h2>${view.closed.map((item) => renderCard(item, cardOptions))}</section>`;

  return html`<nav class="toolbar" aria-label="Filters" data-waiting="${waitingTotal(view.projects)}" data-blocking="${blockingTotal(view.projects)}"><div class="filters" role="group" aria-label="Show">${filters}</div>${projectFilter(view)}<span class="spacer"></span>${send}</nav>
<section id="pending" class="list" aria-label="Waiting">${waitingList}</section>
${pager(view)}${closedList}`;
}

/** Where the page is among the filter's questions, and the links to the first and the next page. */
function pager(view: WebInboxView): SafeHtml | string {
  const { page, state } = view;
  const shown = page.items.length;
  if (page.offset === 0 && page.next === undefined && state.after === undefined) return '';
  const total = page.offset + shown + page.remaining;
  const where = shown === 0 ? `${total} waiting` : `${page.offset + 1}–${page.offset + shown} of ${total}`;
  const base = { filter: state.filter, ...(state.project === undefined ? {} : { project: state.project }) };
  const first =
    state.after === undefined
      ? html`<span class="page-link is-off" aria-disabled="true">← First page</span>`
      : html`<a class="page-link" href="${inboxQuery(base) || WEB_ROUTES.page}" data-page="first">← First page</a>`;
  const next =
    page.next === undefined
      ? html`<span class="page-link is-off" aria-disabled="true">Next →</span>`
      : html`<a class="page-link" rel="next" href="${inboxQuery({ ...base, after: page.next })}" data-page="next">Next ${Math.min(WEB_PAGE_SIZE, page.remaining)} →</a>`;
  return html`<nav class="pager" aria-label="Pages">${first}<span class="page-of">${where}</span>${next}</nav>
`;
}

function emptyText(view: WebInboxView): string {
  const { page, state } = view;
  if (page.offset > 0) return 'Nothing more here: the questions of this page were answered meanwhile.';
  if (page.counts.all > 0) return nothingInFilter(state.filter);
  return 'Nothing waiting. When an agent parks a question, it shows up here.';
}

function projectFilter(view: WebInboxView): SafeHtml {
  const { state } = view;
  const projects = [...view.projects].sort(
    (a, b) => projectName(a.project).localeCompare(projectName(b.project)) || a.project.localeCompare(b.project),
  );
  const names = new Map<string, number>();
  for (const entry of projects) names.set(projectName(entry.project), (names.get(projectName(entry.project)) ?? 0) + 1);
  const options = projects.map((entry) => {
    const name = projectName(entry.project);
    const label = (names.get(name) ?? 0) > 1 ? entry.project : name;
    return html`<option value="${entry.tag}"${entry.tag === state.project ? ' selected' : ''} title="${entry.project}">${label} (${entry.waiting})</option>`;
  });
  if (state.project !== undefined && !projects.some((entry) => entry.tag === state.project)) {
    options.push(html`<option value="${state.project}" selected>(no questions now)</option>`);
  }
  return html`<form class="project-filter" method="get" action="${WEB_ROUTES.page}">${state.filter === 'all' ? '' : html`<input type="hidden" name="filter" value="${state.filter}">`}<label>Project <select name="project" data-project-filter><option value="">All projects (${waitingTotal(projects)})</option>${options}</select></label><noscript><button type="submit">Show</button></noscript></form>`;
}

/** An inbox tray, drawn inline (an emoji depends on the machine's fonts). */
export const LOGO = new SafeHtml(
  '<svg class="logo" viewBox="0 0 24 24" width="34" height="34" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"><path d="M3 13l2.5-7.5A2 2 0 0 1 7.4 4h9.2a2 2 0 0 1 1.9 1.5L21 13"/><path d="M3 13v5a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2v-5h-5l-1.5 2.5h-5L8 13z"/></svg>',
);

export interface PageOptions {
  /** Whose answers the page sends (the OS user name), shown in the header. */
  readonly viewer: string;
  /** Offer sign-out (the inbox asks for a token): a POST form, as the origin rule and the same-origin check want. */
  readonly signOut?: boolean;
}

/**
 * A whole HTML document: the head every page shares (stylesheet; the referrer kept to this origin, so the page's own
 * form posts carry their `Origin`) and `body`.
 */
export function pageShell(title: string, body: SafeHtml): string {
  return `<!doctype html>
${html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="same-origin"><title>${title}</title><link rel="icon" href="data:,"><link rel="stylesheet" href="${WEB_ROUTES.style}"></head><body>${body}</body></html>`}
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

/** The whole page, server-rendered with the current inbox; the client script keeps it live. */
export function renderInboxPage(view: WebInboxView, options: PageOptions): string {
  return pageShell(
    pageTitle(waitingTotal(view.projects), blockingTotal(view.projects)),
    html`<header class="top"><div class="brand">${LOGO}<div><h1>ask-later</h1><p class="sub">Questions your coding agents parked · answering as <strong>${options.viewer}</strong></p></div></div><div class="top-side"><button type="button" id="notify" class="keys-button" hidden title="A desktop notification for each new blocking question">Notify me</button><button type="button" class="keys-button" data-action="keys" aria-haspopup="dialog" aria-keyshortcuts="?">Keys <kbd>?</kbd></button><span id="live" class="live" data-live="connecting">connecting…</span>${options.signOut === true ? html`<form class="sign-out" method="post" action="${WEB_ROUTES.logout}"><button type="submit" class="keys-button">Sign out</button></form>` : ''}</div></header>
${viewTabs('waiting')}
<p id="flash" class="flash" role="status" aria-live="polite" hidden></p>
<main id="inbox">${renderInboxFragment(view)}</main>
${renderKeysHelp()}
<script src="${WEB_ROUTES.script}" defer></script>`,
  );
}

/** The `?` overlay: every key of the inbox (`client/keys.ts`), as a modal dialog the client opens and Escape closes. */
export function renderKeysHelp(): SafeHtml {
  const rows = KEY_HELP.map(
    (entry) =>
      html`<dt>${entry.keys.map((key) => (key === '…' ? html`<span class="keys-to">to</span>` : html`<kbd>${key}</kbd>`))}</dt><dd>${entry.what}</dd>`,
  );
  return html`<dialog id="keys-help" class="keys-help" aria-labelledby="keys-title"><h2 id="keys-title">Keyboard</h2><p class="keys-intro">Keys act on the focused question: reach one with Tab, or with j and k. What you type in a notes field stays text.</p><dl class="keys-list">${rows}</dl><div class="keys-actions"><button type="button" class="primary" data-action="close-keys">Close</button></div></dialog>`;
}

/**
 * The sign-in page shown when the inbox asks for a token (bound beyond loopback): the one it was started with
 * (`ASK_LATER_WEB_TOKEN`), or a person's own (`ask-later token create --web`). `refused`: why the last try was.
 */
export function renderLoginPage(options: { readonly refused?: string }): string {
  return pageShell(
    'ask-later inbox: sign in',
    html`<main class="login">${LOGO}<h1>ask-later</h1><p>This inbox is shared beyond this machine. Sign in with your own token (<code>ask-later token create --web</code>) or the one the inbox was started with (<code>ASK_LATER_WEB_TOKEN</code>).</p>${options.refused === undefined ? '' : html`<p class="flash flash-warn" role="alert">${options.refused}</p>`}<form method="post" action="${WEB_ROUTES.login}"><label>Token <input type="password" name="token" autocomplete="current-password" required autofocus></label><button type="submit" class="primary">Sign in</button></form></main>`,
  );
}
