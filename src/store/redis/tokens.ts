/**
 * The agents' tokens in Redis: one hash (`keys.ts`, `{tokens}`), so every command and script touches one key and
 * one slot. Creating and revoking are scripts (the name index and the record change together); reading and
 * recording the last use are single commands.
 */
import type { TokenRecord, TokenStore } from '../token-port.js';
import { readTokenRecord, tokenRecordJson } from '../token-record.js';
import { hashFromFlat } from './record.js';
import type { Script } from './scripts.js';
import { scripts } from './scripts.js';

export interface RedisTokenStoreDeps {
  /** The tokens hash's key. */
  readonly key: string;
  /** One command on the store's connection, errors mapped as the store maps them. */
  readonly command: (args: readonly string[]) => Promise<unknown>;
  /** One script on the store's connection (EVALSHA, EVAL when the server lacks it). */
  readonly eval: (script: Script, keys: readonly string[], args: readonly string[]) => Promise<unknown>;
}

export class RedisTokenStore implements TokenStore {
  readonly #deps: RedisTokenStoreDeps;

  constructor(deps: RedisTokenStoreDeps) {
    this.#deps = deps;
  }

  async create(record: TokenRecord): Promise<boolean> {
    const { key } = this.#deps;
    const reply = await this.#deps.eval(scripts.createToken, [key], [record.id, record.name, tokenRecordJson(record)]);
    return Number(reply) === 1;
  }

  async get(id: string): Promise<TokenRecord | undefined> {
    const { key } = this.#deps;
    const [record, used] = (await Promise.all([
      this.#deps.command(['HGET', key, `t:${id}`]),
      this.#deps.command(['HGET', key, `u:${id}`]),
    ])) as [unknown, unknown];
    if (typeof record !== 'string') return undefined;
    return readTokenRecord(record, id, typeof used === 'string' ? Number(used) : undefined);
  }

  async list(): Promise<TokenRecord[]> {
    const reply = await this.#deps.command(['HGETALL', this.#deps.key]);
    const fields = new Map(Object.entries(hashFromFlat(reply)));
    const records: TokenRecord[] = [];
    for (const [field, value] of fields) {
      if (!field.startsWith('t:')) continue;
      const id = field.slice(2);
      const used = fields.get(`u:${id}`);
      records.push(readTokenRecord(value, id, used === undefined ? undefined : Number(used)));
    }
    return records.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }

  async revoke(nameOrId: string): Promise<TokenRecord | undefined> {
    const reply = await this.#deps.eval(scripts.revokeToken, [this.#deps.key], [nameOrId]);
    return typeof reply === 'string' ? readTokenRecord(reply, nameOrId) : undefined;
  }

  async touch(id: string, at: number): Promise<void> {
    // A touch racing a revoke may leave a `u:` field behind: it names no live token and `list` skips it.
    await this.#deps.command(['HSET', this.#deps.key, `u:${id}`, String(at)]);
  }
}
