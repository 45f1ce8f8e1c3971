/**
 * Who a request is: the bearer token checked against the store's tokens. Missing, malformed, unknown (never issued,
 * forged), revoked and expired all come out as 401, each with its own line; a token's secret is compared through its SHA-256
 * in constant time, and no line, log or error carries it.
 */
import type { IncomingMessage } from 'node:http';
import { tokenMatches } from '../../core/token-format.js';
import { TOKEN_PATTERN } from '../../core/token-shape.js';
import type { TokenRecord, TokenStore } from '../../store/token-port.js';
import { AgentRequestError } from './agent-request-error.js';

/** A token's last use is written at most this often per token and replica. */
const TOUCH_EVERY_MS = 60_000;

export interface Authenticator {
  /** The token the request carries, or AgentRequestError `unauthorized`. */
  authenticate(request: IncomingMessage): Promise<TokenRecord>;
}

export function createAuthenticator(tokens: TokenStore, now: () => number = Date.now): Authenticator {
  const touched = new Map<string, number>();
  return {
    async authenticate(request) {
      const token = bearer(request.headers.authorization);
      const id = TOKEN_PATTERN.exec(token)?.[1];
      if (id === undefined) {
        throw new AgentRequestError(
          'unauthorized',
          'the Authorization header carries no ask-later token (expected Bearer alt_…, from `ask-later token create`)',
        );
      }
      const record = await tokens.get(id);
      if (!record || !tokenMatches(token, record.hash)) {
        throw new AgentRequestError('unauthorized', 'the token is unknown or was revoked');
      }
      const at = now();
      if (record.expiresAt !== undefined && at >= record.expiresAt) {
        throw new AgentRequestError(
          'unauthorized',
          `the token expired on ${new Date(record.expiresAt).toISOString().slice(0, 10)} (ask for a new one: ask-later token create)`,
        );
      }
      if (at - (touched.get(id) ?? 0) >= TOUCH_EVERY_MS) {
        touched.set(id, at);
        if (touched.size > 10_000) touched.clear();
        // Best effort: a failed write of the last use never refuses the request.
        tokens.touch(id, at).catch(() => undefined);
      }
      return record;
    },
  };
}

function bearer(header: string | undefined): string {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match?.[1] ?? '';
}
