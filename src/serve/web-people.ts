/**
 * People's own tokens for the web inbox (`surfaces/web/auth.ts`'s {@link WebPeople}): the store's agent tokens created with
 * `ask-later token create --web`. A person sees and answers the projects the token reaches, under its name.
 *
 * A person's session (the cookie's value) is `<token id>.<HMAC of a fixed text, keyed by the token's SHA-256>`: it
 * holds no token, and it stops working the moment the token is revoked (its record is gone) or expires (checked on
 * every request). Whoever reads the store's token hashes could make one; they can write answers to the store already.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { tokenId, tokenMatches } from '../core/token-format.js';
import type { TokenRecord, TokenStore } from '../store/token-port.js';
import type { WebPeople, WebPerson } from '../surfaces/web/auth.js';

/** A token's last use is written at most this often per token and replica (as the agent API does). */
const TOUCH_EVERY_MS = 60_000;

const ID = /^[a-z2-7]{12}$/;

export function webPeople(tokens: TokenStore, now: () => number = Date.now): WebPeople {
  const touched = new Map<string, number>();
  const touch = (id: string) => {
    const at = now();
    if (at - (touched.get(id) ?? 0) < TOUCH_EVERY_MS) return;
    touched.set(id, at);
    if (touched.size > 10_000) touched.clear();
    // Best effort: a failed write of the last use never refuses the person.
    tokens.touch(id, at).catch(() => undefined);
  };
  return {
    async signIn(token) {
      const id = tokenId(token);
      const record = id === undefined ? undefined : await tokens.get(id);
      if (!record || !tokenMatches(token, record.hash)) {
        return { ok: false, reason: 'That token is not one this inbox accepts: it is unknown, or it was revoked.' };
      }
      const refused = refusal(record, now());
      if (refused !== undefined) return { ok: false, reason: refused };
      touch(record.id);
      return { ok: true, person: personOf(record), session: `${record.id}.${sessionMac(record.hash)}` };
    },
    async person(session) {
      const [id, mac, ...rest] = session.split('.');
      if (id === undefined || mac === undefined || rest.length > 0 || !ID.test(id)) return undefined;
      const record = await tokens.get(id);
      if (!record || !sameMac(mac, sessionMac(record.hash)) || refusal(record, now()) !== undefined) return undefined;
      touch(record.id);
      return personOf(record);
    },
  };
}

/** Why a live token of the right secret cannot sign in to the web inbox, or undefined when it can. */
function refusal(record: TokenRecord, at: number): string | undefined {
  if (record.web !== true) {
    return 'That token is for agents only. A token that signs you in here is made with ask-later token create --web.';
  }
  if (record.expiresAt !== undefined && at >= record.expiresAt) {
    return `That token expired on ${new Date(record.expiresAt).toISOString().slice(0, 10)}; ask for a new one.`;
  }
  return undefined;
}

function personOf(record: TokenRecord): WebPerson {
  return { name: record.name, projects: record.patterns };
}

function sessionMac(hash: string): string {
  return createHmac('sha256', Buffer.from(hash, 'hex'))
    .update('ask-later web inbox person session')
    .digest('base64url');
}

function sameMac(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
