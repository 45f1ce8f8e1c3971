/**
 * The web inbox's HTTP side. This file routes and runs the steps, one job per file: the Host / Origin rule
 * (`surfaces/origin-rule.ts`, guards.ts), the static assets, sign-in and who the request is from (auth.ts), the pages
 * (pages.ts), server-sent events (events.ts), and the JSON actions (body.ts, schemas.ts, actions.ts) through the same
 * pipeline as every surface, so the first answer wins across all of them; the answers (respond.ts).
 * `createWebInbox` gives a request handler that `serve` mounts next to its other routes; `startWebInbox` runs it on a
 * server of its own.
 *
 * Protection, since the page answers for the person: every request must name a host serve answers as and come from
 * no foreign page; with a token (required to bind beyond loopback) every request must be signed in (auth.ts); every
 * POST must be JSON from the page's own origin (a cross-site form cannot send it; a cross-site `fetch` of it needs a
 * CORS preflight, which is never granted); pages carry a Content-Security-Policy allowing only this origin's script
 * and stylesheet.
 *
 * Logs carry routes, statuses, refs and timings only; never question, answer or note text, never the token.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorFields, type Logger, silentLogger } from '../../core/logger.js';
import { INBOX_CLIENT_SCRIPT } from '../../generated/web-inbox-client.js';
import { renderLoginPage } from '../../render/web/page.js';
import { WEB_ROUTES } from '../../render/web/routes.js';
import { INBOX_STYLESHEET } from '../../render/web/style.js';
import type { Actor, InteractionService } from '../interactions.js';
import { type OriginRule, originRule } from '../origin-rule.js';
import { isStoreUnavailable } from '../store-failure.js';
import { runWebAction } from './actions.js';
import { createWebAuth, type WebPeople } from './auth.js';
import { readJson } from './body.js';
import { eventStreams } from './events.js';
import { checkSameOrigin } from './guards.js';
import type { LoginLimit } from './login-limit.js';
import { answeredPage, inboxPage } from './pages.js';
import { RequestRefusedError } from './request-refused-error.js';
import { COMMON_HEADERS, methodNotAllowed, sendHtml, sendJson, sendText } from './respond.js';
import type { WebSurface } from './surface.js';

export { localDisplayName, type PersonSignIn, type WebPeople, type WebPerson } from './auth.js';

export interface WebInboxOptions {
  /** The one service every surface answers through. Its routing must give platform `web` `[WEB_CHANNEL]`. */
  readonly interactions: InteractionService;
  /** The bridge's web surface: its change notices reach the open pages. */
  readonly surface: WebSurface;
  /**
   * When set (required when bound beyond loopback), every request needs it: the sign-in form's session cookie or
   * `Authorization: Bearer <token>`. When not set, only loopback host names are served.
   */
  readonly token?: string;
  /**
   * People's own tokens, taken beside `token` (sign-in form or bearer): each person sees and answers only the
   * projects their token reaches, under its name (auth.ts).
   */
  readonly people?: WebPeople;
  /** Which Host and Origin are answered (default: loopback names and IP addresses; serve adds its public URL's). */
  readonly origins?: OriginRule;
  readonly logger?: Logger;
  /** The name answers are sent under (default the OS user name, else `you`). */
  readonly displayName?: string;
  /** How long questions stay on the page once closed (answered, withdrawn, dismissed, expired; default 24 h). */
  readonly recentMs?: number;
  /** Most closed questions the page shows (default 50). */
  readonly recentMax?: number;
  /** Heartbeat comment interval on event streams (default 15 s), so proxies and browsers keep them open. */
  readonly heartbeatMs?: number;
  /** IANA time zone for the times shown (default the process's). */
  readonly timeZone?: string;
  /** Mark the session cookie `Secure`: people reach the page over HTTPS (serve: an https `ASK_LATER_PUBLIC_URL`). */
  readonly secureCookie?: boolean;
  /** How often one address may try to sign in (default: `loginLimit()`'s, ten tries a minute after a burst of ten). */
  readonly loginLimit?: LoginLimit;
  /** The clock that decides what is recent (default `Date.now`). */
  readonly now?: () => number;
}

export interface WebInbox {
  /**
   * Answer the request if it is one of the inbox's routes (`WEB_ROUTES`) and return true; return false, touching
   * nothing, for any other path (the caller answers it).
   */
  handle(request: IncomingMessage, response: ServerResponse): boolean;
  /** End every open event stream (call before closing the HTTP server, which would otherwise wait for them). */
  close(): void;
  /** The actor the page answers as (with the shared token, or none). */
  readonly actor: Actor;
}

export function createWebInbox(options: WebInboxOptions): WebInbox {
  const log = options.logger ?? silentLogger;
  const origins = options.origins ?? originRule();
  const auth = createWebAuth({
    logger: log,
    ...(options.token === undefined ? {} : { token: options.token }),
    ...(options.people === undefined ? {} : { people: options.people }),
    ...(options.displayName === undefined ? {} : { displayName: options.displayName }),
    ...(options.secureCookie === undefined ? {} : { secureCookie: options.secureCookie }),
    ...(options.loginLimit === undefined ? {} : { loginLimit: options.loginLimit }),
  });
  const signOut = options.token !== undefined && options.token !== '';
  const streams = eventStreams(options.surface, options.heartbeatMs ?? 15_000);
  const routes = new Set<string>(Object.values(WEB_ROUTES));
  const pages = {
    interactions: options.interactions,
    now: options.now ?? Date.now,
    ...(options.recentMs === undefined ? {} : { recentMs: options.recentMs }),
    ...(options.recentMax === undefined ? {} : { recentMax: options.recentMax }),
    ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
  };
  const actions = { interactions: options.interactions, surface: options.surface, logger: log };

  async function serve(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const method = request.method ?? 'GET';
    const path = url.pathname;

    const refused = origins.refusal(request.headers);
    if (refused !== undefined) return sendText(response, 403, `Refused: ${refused}.`);
    // Static assets hold no data: served without a session, so the sign-in page is styled too.
    if (path === WEB_ROUTES.style || path === WEB_ROUTES.script) {
      if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed(response, 'GET, HEAD');
      const [type, body] =
        path === WEB_ROUTES.style
          ? ['text/css; charset=utf-8', INBOX_STYLESHEET]
          : ['text/javascript; charset=utf-8', INBOX_CLIENT_SCRIPT];
      response.writeHead(200, { ...COMMON_HEADERS, 'content-type': type, 'cache-control': 'no-cache' });
      response.end(method === 'HEAD' ? undefined : body);
      return;
    }
    if (path === WEB_ROUTES.login) return auth.login(request, response, method);
    if (path === WEB_ROUTES.logout) return auth.logout(request, response, method);

    const actor = await auth.actorOf(request);
    if (actor === undefined) {
      if ((path === WEB_ROUTES.page || path === WEB_ROUTES.answered) && method === 'GET') {
        return sendHtml(response, 401, renderLoginPage({}));
      }
      return sendJson(response, 401, { ok: false, text: 'Sign in first.' });
    }

    if (path === WEB_ROUTES.page || path === WEB_ROUTES.inbox) {
      if (method !== 'GET') return methodNotAllowed(response, 'GET');
      return sendHtml(
        response,
        200,
        await inboxPage(pages, actor, url.searchParams, path === WEB_ROUTES.inbox, signOut),
      );
    }
    if (path === WEB_ROUTES.answered) {
      if (method !== 'GET') return methodNotAllowed(response, 'GET');
      return sendHtml(response, 200, await answeredPage(pages, actor, url.searchParams));
    }
    if (path === WEB_ROUTES.events) {
      if (method !== 'GET') return methodNotAllowed(response, 'GET');
      const recheck = async () => (await auth.actorOf(request)) !== undefined;
      return streams.open(request, response, actor, actor.projects === undefined ? undefined : recheck);
    }
    // The JSON actions.
    if (method !== 'POST') return methodNotAllowed(response, 'POST');
    checkSameOrigin(request);
    const body = await readJson(request);
    const started = Date.now();
    const result = await runWebAction(actions, actor, path, body);
    log.info({ route: path, ok: result.ok, ms: Date.now() - started }, 'web inbox: action');
    return sendJson(response, 200, result);
  }

  function fail(error: unknown, response: ServerResponse, path: string): void {
    if (error instanceof RequestRefusedError) {
      // A refusal is the caller's mistake (or the caller gone mid-body): a 4xx, logged at info.
      log.info({ route: path, status: error.status }, 'web inbox: request refused');
      if (!response.headersSent) sendJson(response, error.status, { ok: false, text: error.message });
      else response.end();
      return;
    }
    log.warn({ route: path, ...errorFields(error) }, 'web inbox: request failed');
    if (response.headersSent) {
      response.end();
      return;
    }
    const unavailable = isStoreUnavailable(error);
    const status = unavailable ? 503 : 500;
    const text = unavailable
      ? 'The ask-later store is unreachable; try again in a moment.'
      : 'Something went wrong in the inbox; try again.';
    if (path === WEB_ROUTES.page || path === WEB_ROUTES.answered) sendText(response, status, text);
    else sendJson(response, status, { ok: false, text });
  }

  return {
    actor: auth.actor,
    handle(request, response) {
      let url: URL;
      try {
        url = new URL(request.url ?? '/', 'http://inbox.invalid');
      } catch {
        return false;
      }
      if (!routes.has(url.pathname)) return false;
      serve(request, response, url).catch((error: unknown) => fail(error, response, url.pathname));
      return true;
    },
    close: () => streams.close(),
  };
}

export interface StartedWebInbox {
  readonly port: number;
  /** `http://host:port` as bound. */
  readonly url: string;
  readonly inbox: WebInbox;
  /** End the event streams and close the server. */
  stop(): Promise<void>;
}

/** Run the web inbox on a server of its own (tests, or a `serve` without other routes); 404 for other paths. */
export async function startWebInbox(
  options: WebInboxOptions & { readonly host?: string; readonly port?: number },
): Promise<StartedWebInbox> {
  const inbox = createWebInbox(options);
  const server: Server = createServer((request, response) => {
    if (!inbox.handle(request, response)) sendText(response, 404, 'Not found.');
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    inbox,
    stop: async () => {
      inbox.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
