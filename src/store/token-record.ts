/**
 * A token record as both adapters keep it (Redis: JSON in the tokens hash; SQLite: the tokens table's columns), read
 * back with hand validation like the question records: a record that does not parse raises CorruptTokenError
 * naming the token id and the field.
 */
import { CorruptTokenError } from './corrupt-token-error.js';
import type { TokenRecord } from './token-port.js';

/** Names of tokens: a person's handle, a machine, a team (`alice`, `ci-runner`, `team.web`). */
export const TOKEN_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

export function tokenRecordJson(record: TokenRecord): string {
  return JSON.stringify({
    v: 1,
    id: record.id,
    name: record.name,
    hash: record.hash,
    patterns: record.patterns,
    createdAt: record.createdAt,
    ...(record.expiresAt !== undefined ? { expiresAt: record.expiresAt } : {}),
    ...(record.web === true ? { web: true } : {}),
  });
}

export function readTokenRecord(json: string, id: string, lastUsedAt?: number): TokenRecord {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new CorruptTokenError(id, 'the record is not JSON');
  }
  const fields = (value !== null && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const field = <T>(name: string, ok: (v: unknown) => v is T): T => {
    const v = fields[name];
    if (!ok(v)) throw new CorruptTokenError(id, `\`${name}\` is missing or of the wrong type`);
    return v;
  };
  const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
  const isPatterns = (v: unknown): v is string[] => Array.isArray(v) && v.length > 0 && v.every(isString);
  const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
  const expiresAt = fields.expiresAt === undefined ? undefined : field('expiresAt', isTime);
  const web = fields.web === undefined ? false : field('web', (v): v is boolean => typeof v === 'boolean');
  return {
    id: field('id', isString),
    name: field('name', isString),
    hash: field('hash', (v): v is string => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v)),
    patterns: field('patterns', isPatterns),
    createdAt: field('createdAt', isTime),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
    ...(web ? { web: true as const } : {}),
    ...(lastUsedAt !== undefined && Number.isSafeInteger(lastUsedAt) ? { lastUsedAt } : {}),
  };
}
