/**
 * Who a web inbox request is from. Without a token (loopback only) every request is the machine's own person. With
 * `ASK_LATER_WEB_TOKEN`, every request needs the session cookie the sign-in form sets, or `Authorization: Bearer
 * <token>`; the cookie holds an HMAC of the token, never the token. Secrets are compared in constant time.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { userInfo } from 'node:os';
import { renderLoginPage } from '../../blocks/web/page.js';
import { WEB_ROUTES } from '../../blocks/web/routes.js';
import type { Actor } from '../access.js';
import type { Logger } from '../logger.js';
import { readBody } from './body.js';
import { checkSameOrigin } from './guards.js';
import { COMMON_HEADERS, methodNotAllowed, sendHtml } from './respond.js';

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

export interface WebAuthOptions {
  /** The shared secret; absent or empty: no sign-in (loopback only). */
  readonly token?: string;
  /** The name answers are sent under (default the OS user name, else `you`). */
  readonly displayName?: string;
  readonly logger: Logger;
}

export interface WebAuth {
  /** The person the page answers as. */
  readonly actor: Actor;
  /** The person a request is from, or undefined when it must sign in first. */
  actorOf(request: IncomingMessage): Actor | undefined;
  /** `/login`: the form (GET), or the sign-in (POST) setting the session cookie. */
  login(request: IncomingMessage, response: ServerResponse, method: string): Promise<void>;
}

export function createWebAuth(options: WebAuthOptions): WebAuth {
  const actor: Actor = { platform: 'web', userId: 'local', displayName: options.displayName ?? localDisplayName() };
  const token = options.token === undefined || options.token === '' ? undefined : options.token;
  const session = token === undefined ? undefined : sessionValue(token);
  return {
    actor,
    actorOf(request) {
      if (token === undefined || session === undefined) return actor;
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (bearer !== undefined && sameSecret(bearer, token)) return actor;
      const cookie = cookieValue(request.headers.cookie, SESSION_COOKIE);
      return cookie !== undefined && sameSecret(cookie, session) ? actor : undefined;
    },
    async login(request, response, method) {
      if (token === undefined || session === undefined) {
        response.writeHead(303, { ...COMMON_HEADERS, location: WEB_ROUTES.page });
        response.end();
        return;
      }
      if (method === 'GET') return sendHtml(response, 200, renderLoginPage({ failed: false }));
      if (method !== 'POST') return methodNotAllowed(response, 'GET, POST');
      checkSameOrigin(request);
      const given = new URLSearchParams(await readBody(request)).get('token') ?? '';
      if (!sameSecret(given, token)) {
        options.logger.warn({ route: WEB_ROUTES.login }, 'web inbox: sign-in refused');
        return sendHtml(response, 401, renderLoginPage({ failed: true }));
      }
      response.writeHead(303, {
        ...COMMON_HEADERS,
        location: WEB_ROUTES.page,
        'set-cookie': `${SESSION_COOKIE}=${session}; Path=/; HttpOnly; SameSite=Strict`,
      });
      response.end();
    },
  };
}

/** The session cookie's value: derived from the token, so the cookie never holds the token itself. */
function sessionValue(token: string): string {
  return createHmac('sha256', token).update('ask-later web inbox session').digest('base64url');
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
