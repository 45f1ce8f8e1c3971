/**
 * Every path the web inbox answers: the contract between the page, its client script (`client/`, which bundles this
 * file, so it imports nothing) and the HTTP side (`surfaces/web/server.ts`). `routes.ts` re-exports it with the URL state.
 */
export const WEB_ROUTES = Object.freeze({
  page: '/',
  /** The inbox fragment (toolbar and cards) for the page's current query, swapped in by the client. */
  inbox: '/inbox',
  /** The decision trail: answered questions, newest first, searchable and paged (`AnsweredState` in routes.ts). */
  answered: '/answered',
  /** Server-sent events: one `message` (data: a question ref) whenever a question may have changed. */
  events: '/events',
  script: '/assets/inbox.js',
  style: '/assets/inbox.css',
  login: '/login',
  /** Sign-out: a POST from the page's own form; the session cookie is cleared. */
  logout: '/logout',
  draft: '/api/draft',
  /** What Send would send (a set's review before it is sent), without sending. */
  review: '/api/review',
  send: '/api/send',
  sendReady: '/api/send-ready',
  remove: '/api/remove',
});

/** The paths, as the client script receives them. */
export type WebRoutes = typeof WEB_ROUTES;
