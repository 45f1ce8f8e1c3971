/**
 * The web inbox's paths and its view state in the URL: the contract between the page, its client script and the
 * HTTP side (`bot/web/server.ts`). Pure.
 */

/** Every path the web inbox answers. */
export const WEB_ROUTES = Object.freeze({
  page: '/',
  /** The inbox fragment (toolbar and cards) for the page's current query, swapped in by the client. */
  inbox: '/inbox',
  /** Server-sent events: one `message` (data: a question ref) whenever a question may have changed. */
  events: '/events',
  script: '/assets/inbox.js',
  style: '/assets/inbox.css',
  login: '/login',
  draft: '/api/draft',
  send: '/api/send',
  sendReady: '/api/send-ready',
  remove: '/api/remove',
});

import { INBOX_FILTERS, type InboxFilter } from '../../core/inbox.js';

export { INBOX_FILTERS, type InboxFilter };

/** What the page shows: a filter, and optionally one project (by its tag, `core/question-ref.ts`). */
export interface InboxState {
  readonly filter: InboxFilter;
  readonly project?: string;
}

const TAG = /^[A-Za-z0-9_-]{16}$/;

/** The state in a query string; anything unknown falls back to All / every project (it only filters a view). */
export function parseInboxState(query: URLSearchParams): InboxState {
  const filter = query.get('filter');
  const project = query.get('project');
  return {
    filter: INBOX_FILTERS.find((known) => known === filter) ?? 'all',
    ...(project !== null && TAG.test(project) ? { project } : {}),
  };
}

/** The query string (with its `?`, or empty) that {@link parseInboxState} reads back as `state`. */
export function inboxQuery(state: InboxState): string {
  const params = new URLSearchParams();
  if (state.filter !== 'all') params.set('filter', state.filter);
  if (state.project !== undefined) params.set('project', state.project);
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}
