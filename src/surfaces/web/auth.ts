/**
 * Who a web inbox request is from. Without a token (loopback only) every request is the machine's own person. With
 * `ASK_LATER_WEB_TOKEN`, every request needs the session cookie the sign-in form sets, or `Authorization: Bearer
 * <token>`. The form takes that shared token (the machine's own person), or a person's own token (`ask-later token
 * create --web`, checked by {@link WebPeople}): they then see and answer only the projects its patterns reach, under
 * its name. The cookie never holds a token: the shared one's session is an HMAC of it, a person's is named by
 * {@link WebPeople}, and it stops working the moment their token is revoked or expires. Secrets are compared in
 * constant time; logs carry no token.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { userInfo } from 'node:os';
import type { Logger } from '../../core/logger.js';
import { renderLoginPage } from '../../render/web/page.js';
import { WEB_ROUTES } from '../../render/web/routes.js';
import type { Actor } from '../access.js';
import { readBody } from './body.js';
import { checkSameOrigin } from './guards.js';
import { type LoginLimit, loginLimit } from './login-limit.js';
import { COMMON_HEADERS, HTML_HEADERS, methodNotAllowed, sendHtml } from './respond.js';

export const SESSION_COOKIE = 'ask_later_session';

/** The OS user's name, else `you`: who the page answers as. */
export function localDisplayName(): string {
  try {
    const name = userInfo().username.trim();
    return name === '' ? 'you' : name;
  } catch {
    return 'you';
  }
}

/** A person signed in with a token of their own. */
export interface WebPerson {
  /** The token's name: who answers (the answer's user id and display name). */
  readonly name: string;
  /** The project patterns the token reaches. */
  readonly projects: readonly string[];
}

/** A person's sign-in: their session (the cookie's value, never the token), or why the token is refused. */
export type PersonSignIn =
  | { readonly ok: true; readonly person: WebPerson; readonly session: string }
  | { readonly ok: false; readonly reason: string };

/**
 * People's own tokens (serve: the store's agent tokens created with `--web`). A person's session value contains a
 * `.`; the shared token's never does.
 */
export interface WebPeople {
  /** Check a token a person gave. */
  signIn(token: string): Promise<PersonSignIn>;
  /** The person a session names while their token is live, allowed for the web and not expired; else undefined. */
  person(session: string): Promise<WebPerson | undefined>;
}

export interface WebAuthOptions {
  /** The shared secret; absent or empty: no sign-in (loopback only). */
  readonly token?: string;
  /** People's own tokens, taken when sign-in is asked for (with `token`). */
  readonly people?: WebPeople;
  /** The name answers are sent under (default the OS user name, else `you`). */
  readonly displayName?: string;
  /**
   * Mark the session cookie `Secure` (the page is served over HTTPS: `ASK_LATER_PUBLIC_URL` is https). A request
   * arriving on a TLS socket gets it too.
   */
  readonly secureCookie?: boolean;
  /** How often one address may try to sign in (default: {@link loginLimit}'s). */
  readonly loginLimit?: LoginLimit;
  readonly logger: Logger;
}

export interface WebAuth {
  /** The machine's own person: who the page answers as without sign-in, or with the shared token. */
  readonly actor: Actor;
  /** The person a request is from, or undefined when it must sign in first. */
  actorOf(request: IncomingMessage): Promise<Actor | undefined>;
  /** `/login`: the form (GET), or the sign-in (POST, rate-limited per address) setting the session cookie. */
  login(request: IncomingMessage, response: ServerResponse, method: string): Promise<void>;
  /** `/logout`: a POST from the page's own origin clears the session cookie and goes back to the sign-in form. */
  logout(request: IncomingMessage, response: ServerResponse, method: string): void;
}

/** A person as the service sees them: platform `web`, their token's name, its patterns. */
export function personActor(person: WebPerson): Actor {
  return { platform: 'web', userId: person.name, displayName: person.name, projects: person.projects };
}

export function createWebAuth(options: WebAuthOptions): WebAuth {
  const actor: Actor = { platform: 'web', userId: 'local', displayName: options.displayName ?? localDisplayName() };
  const token = options.token === undefined || options.token === '' ? undefined : options.token;
  const session = token === undefined ? undefined : sessionValue(token);
  const people = options.people;
  const limit = options.loginLimit ?? loginLimit();
  const cookieAttributes = (request: IncomingMessage): string =>
    `Path=/; HttpOnly; SameSite=Strict${options.secureCookie === true || isTls(request) ? '; Secure' : ''}`;

  /** Whoever `given` (a token from the form or a bearer header) signs in as, with their session; or why not. */
  async function signIn(given: string): Promise<{ actor: Actor; session: string } | { reason: string }> {
    if (token !== undefined && session !== undefined && sameSecret(given, token)) return { actor, session };
    if (people === undefined || given === '') return { reason: 'That token is not one this inbox accepts.' };
    const person = await people.signIn(given);
    return person.ok ? { actor: personActor(person.person), session: person.session } : { reason: person.reason };
  }

  return {
    actor,
    async actorOf(request) {
      if (token === undefined || session === undefined) return actor;
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (bearer !== undefined) {
        const signedIn = await signIn(bearer);
        if ('actor' in signedIn) return signedIn.actor;
      }
      const cookie = cookieValue(request.headers.cookie, SESSION_COOKIE);
      if (cookie === undefined) return undefined;
      if (!cookie.includes('.')) return sameSecret(cookie, session) ? actor : undefined;
      const person = await people?.person(cookie);
      return person === undefined ? undefined : personActor(person);
    },
    async login(request, response, method) {
      if (token === undefined || session === undefined) {
        response.writeHead(303, { ...COMMON_HEADERS, location: WEB_ROUTES.page });
        response.end();
        return;
      }
      if (method === 'GET') return sendHtml(response, 200, renderLoginPage({}));
      if (method !== 'POST') return methodNotAllowed(response, 'GET, POST');
      checkSameOrigin(request);
      const waitMs = limit.take(request.socket.remoteAddress);
      if (waitMs > 0) {
        options.logger.warn({ route: WEB_ROUTES.login, status: 429 }, 'web inbox: sign-in tries too frequent');
        response.writeHead(429, {
          ...COMMON_HEADERS,
          ...HTML_HEADERS,
          'retry-after': String(Math.ceil(waitMs / 1000)),
        });
        response.end(renderLoginPage({ refused: 'Too many sign-in tries from here; wait a minute and try again.' }));
        return;
      }
      const given = (new URLSearchParams(await readBody(request)).get('token') ?? '').trim();
      const signedIn = await signIn(given);
      if (!('actor' in signedIn)) {
        options.logger.warn({ route: WEB_ROUTES.login }, 'web inbox: sign-in refused');
        return sendHtml(response, 401, renderLoginPage({ refused: signedIn.reason }));
      }
      // Which kind of sign-in, never who: a person's token is named after them.
      options.logger.info(
        { route: WEB_ROUTES.login, signIn: signedIn.actor === actor ? 'shared' : 'person' },
        'web inbox: signed in',
      );
      response.writeHead(303, {
        ...COMMON_HEADERS,
        location: WEB_ROUTES.page,
        'set-cookie': `${SESSION_COOKIE}=${signedIn.session}; ${cookieAttributes(request)}`,
      });
      response.end();
    },
    logout(request, response, method) {
      if (method !== 'POST') return methodNotAllowed(response, 'POST');
      checkSameOrigin(request);
      // The request's body (a form's nothing) is not read; the connection closes with the answer if one was sent.
      response.writeHead(303, {
        ...COMMON_HEADERS,
        location: WEB_ROUTES.page,
        'set-cookie': `${SESSION_COOKIE}=; ${cookieAttributes(request)}; Max-Age=0`,
      });
      response.end();
      options.logger.info({ route: WEB_ROUTES.logout }, 'web inbox: signed out');
    },
  };
}

/** The session cookie's value: derived from the token, so the cookie never holds the token itself. */
function sessionValue(token: string): string {
  return createHmac('sha256', token).update('ask-later web inbox session').digest('base64url');
}

/** Whether the request came over TLS (serve itself terminating it). */
function isTls(request: IncomingMessage): boolean {
  return (request.socket as { encrypted?: boolean }).encrypted === true;
}

/** Constant-time comparison of two secrets of any length. */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}
