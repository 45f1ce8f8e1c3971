/** The agents' tokens in the embedded store: the `tokens` table (schema v6; `web`, v10). */
import type { TokenRecord, TokenStore } from '../token-port.js';
import { readTokenRecord, tokenRecordJson } from '../token-record.js';
import type { SqliteConnection } from './connection.js';

interface Row {
  id: string;
  name: string;
  hash: string;
  patterns: string;
  created_at: number | bigint;
  expires_at: number | bigint | null;
  last_used_at: number | bigint | null;
  web: number | bigint;
}

const SELECT = 'SELECT id, name, hash, patterns, created_at, expires_at, last_used_at, web FROM tokens';

export class SqliteTokenStore implements TokenStore {
  readonly #c: SqliteConnection;
  readonly #run: <T>(work: () => T | Promise<T>) => Promise<T>;

  /** `run` maps the driver's errors as the store does. */
  constructor(connection: SqliteConnection, run: <T>(work: () => T | Promise<T>) => Promise<T>) {
    this.#c = connection;
    this.#run = run;
  }

  create(record: TokenRecord): Promise<boolean> {
    return this.#run(() =>
      this.#c.write(() => {
        const result = this.#c
          .statement(
            'INSERT INTO tokens (id, name, hash, patterns, created_at, expires_at, web) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
          )
          .run(
            record.id,
            record.name,
            record.hash,
            JSON.stringify(record.patterns),
            record.createdAt,
            record.expiresAt ?? null,
            record.web === true ? 1 : 0,
          );
        return Number(result.changes) === 1;
      }),
    );
  }

  get(id: string): Promise<TokenRecord | undefined> {
    return this.#run(() => {
      const row = this.#c.statement(`${SELECT} WHERE id = ?`).get(id) as Row | undefined;
      return row ? fromRow(row) : undefined;
    });
  }

  list(): Promise<TokenRecord[]> {
    return this.#run(() =>
      (this.#c.statement(`${SELECT} ORDER BY created_at, id`).all() as unknown as Row[]).map(fromRow),
    );
  }

  revoke(nameOrId: string): Promise<TokenRecord | undefined> {
    return this.#run(() =>
      this.#c.write(() => {
        const row = (this.#c.statement(`${SELECT} WHERE name = ?`).get(nameOrId) ??
          this.#c.statement(`${SELECT} WHERE id = ?`).get(nameOrId)) as Row | undefined;
        if (!row) return undefined;
        this.#c.statement('DELETE FROM tokens WHERE id = ?').run(row.id);
        return fromRow(row);
      }),
    );
  }

  touch(id: string, at: number): Promise<void> {
    return this.#run(() => {
      this.#c.statement('UPDATE tokens SET last_used_at = ? WHERE id = ?').run(at, id);
    });
  }
}

/** A row through the same hand validation as Redis's JSON records. */
function fromRow(row: Row): TokenRecord {
  let patterns: unknown;
  try {
    patterns = JSON.parse(row.patterns);
  } catch {
    patterns = undefined;
  }
  const json = tokenRecordJson({
    id: row.id,
    name: row.name,
    hash: row.hash,
    patterns: patterns as string[],
    createdAt: Number(row.created_at),
    ...(row.expires_at !== null ? { expiresAt: Number(row.expires_at) } : {}),
    ...(Number(row.web) === 1 ? { web: true as const } : {}),
  });
  return readTokenRecord(json, row.id, row.last_used_at === null ? undefined : Number(row.last_used_at));
}
