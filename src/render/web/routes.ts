/**
 * The web inbox's paths and its view state in the URL: the contract between the page, its client script and the
 * HTTP side (`surfaces/web/server.ts`). Pure. The paths themselves are in `paths.ts` (the client bundles that file).
 */

import { INBOX_FILTERS, type InboxFilter } from '../../core/inbox.js';
import { WEB_ROUTES } from './paths.js';

export { WEB_ROUTES, type WebRoutes } from './paths.js';

export { INBOX_FILTERS, type InboxFilter };

/**
 * What the page shows: a filter, optionally one project (by its tag, `core/question-ref.ts`), and where the page
 * starts (`after`: the ref of the question before it; absent: the first page).
 */
export interface InboxState {
  readonly filter: InboxFilter;
  readonly project?: string;
  readonly after?: string;
}

const TAG = /^[A-Za-z0-9_-]{16}$/;
const REF = /^[A-Za-z0-9_-]{16}\.[1-9]\d{0,8}$/;

/** The state in a query string; anything unknown falls back to All / every project (it only filters a view). */
export function parseInboxState(query: URLSearchParams): InboxState {
  const filter = query.get('filter');
  const project = query.get('project');
  const after = query.get('after');
  return {
    filter: INBOX_FILTERS.find((known) => known === filter) ?? 'all',
    ...(project !== null && TAG.test(project) ? { project } : {}),
    ...(after !== null && REF.test(after) ? { after } : {}),
  };
}

/** The query string (with its `?`, or empty) that {@link parseInboxState} reads back as `state`. */
export function inboxQuery(state: InboxState): string {
  const params = new URLSearchParams();
  if (state.filter !== 'all') params.set('filter', state.filter);
  if (state.project !== undefined) params.set('project', state.project);
  if (state.after !== undefined) params.set('after', state.after);
  const query = params.toString();
  return query === '' ? '' : `?${query}`;
}

/** The Answered view's state in the URL, so a search is a link: free text, one project (by tag), where the page starts. */
export interface AnsweredState {
  /** Free text matched against question, context, ticket, answer and notes (`store/decision-query.ts`). */
  readonly search?: string;
  readonly project?: string;
  /** The cursor the page before gave (its `next`): the page shows the decisions older than its last. */
  readonly after?: string;
}

/** The longest search the view takes; longer text is cut (it only filters a view). */
export const SEARCH_MAX = 200;

/** A trail cursor as `store/paging.ts` writes them (checked again by the store). */
const TRAIL_CURSOR = /^\d{27}\.[A-Za-z0-9_-]{16}$/;

/** The state in a query string (`q`, `project`, `after`); anything unknown falls back to no filter, newest first. */
export function parseAnsweredState(query: URLSearchParams): AnsweredState {
  const search = (query.get('q') ?? '').trim().slice(0, SEARCH_MAX);
  const project = query.get('project');
  const after = query.get('after');
  return {
    ...(search === '' ? {} : { search }),
    ...(project !== null && TAG.test(project) ? { project } : {}),
    ...(after !== null && TRAIL_CURSOR.test(after) ? { after } : {}),
  };
}

/** The Answered view's path and query that {@link parseAnsweredState} reads back as `state`. */
export function answeredHref(state: AnsweredState): string {
  const params = new URLSearchParams();
  if (state.search !== undefined) params.set('q', state.search);
  if (state.project !== undefined) params.set('project', state.project);
  if (state.after !== undefined) params.set('after', state.after);
  const query = params.toString();
  return query === '' ? WEB_ROUTES.answered : `${WEB_ROUTES.answered}?${query}`;
}
