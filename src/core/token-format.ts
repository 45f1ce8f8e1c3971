/**
 * Agent tokens: `alt_<id>_<secret>`, with a 12-character id (how the store finds the token; it names the token in
 * lists, and is no secret) and 43 characters of base64url secret (256 random bits). The store keeps the SHA-256 of
 * the whole token: a plain hash is right for a token of that entropy (there is nothing to guess), and it is compared
 * in constant time. The prefix lets secret scanners and people recognise one.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { TOKEN_PATTERN, TOKEN_PREFIX } from './token-shape.js';

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** A new token and its id. The token is shown once; only {@link hashToken} of it is kept. */
export function newToken(): { readonly token: string; readonly id: string } {
  const id = [...randomBytes(12)].map((byte) => ID_ALPHABET[byte % 32]).join('');
  const token = `${TOKEN_PREFIX}${id}_${randomBytes(32).toString('base64url')}`;
  return { token, id };
}

/** The id of a token of the right shape, else undefined. */
export function tokenId(token: string): string | undefined {
  return TOKEN_PATTERN.exec(token)?.[1];
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Whether `token` hashes to `hash`, compared in constant time. */
export function tokenMatches(token: string, hash: string): boolean {
  const given = Buffer.from(hashToken(token), 'hex');
  const kept = Buffer.from(hash, 'hex');
  return given.length === kept.length && timingSafeEqual(given, kept);
}
