/**
 * The SQLite engine under the embedded store: Node's own `node:sqlite` where the running Node has it (22.5 and
 * later, without a flag from 22.13), else better-sqlite3, a native addon (Node 20; engine.ts says where it comes
 * from). Both are synchronous and open the same file format (WAL included), so a file written by one reads with
 * the other. The store sees only the small part both share: prepared statements (`run`, `get`, `all` with `?`
 * parameters), `exec`, whether a transaction is open, and SQLite's result codes (`SQLITE_BUSY`, …) on errors.
 *
 * One process uses one engine per file: two SQLite libraries in one process do not see each other's POSIX file
 * locks (SQLite's own warning about linking it twice), so mixing them on one file there could corrupt it. Different
 * processes may use different engines (the MCP server on Node 24, `serve` on Node 20).
 *
 * Loaded only when the embedded store is opened.
 */
import { loadSqliteEngine } from './engine.js';

export type SqliteEngineName = 'node:sqlite' | 'better-sqlite3';

export type SqlValue = string | number | bigint | null | Uint8Array;

/** Positional values for `?`, or one object for named `@name` parameters (both engines take both). */
export type SqlParam = SqlValue | Readonly<Record<string, SqlValue>>;

export interface SqliteStatement {
  run(...params: SqlParam[]): { readonly changes: number | bigint };
  get(...params: SqlParam[]): unknown;
  all(...params: SqlParam[]): unknown[];
}

export interface SqliteDatabase {
  readonly engine: SqliteEngineName;
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  readonly inTransaction: boolean;
  readonly open: boolean;
  close(): void;
}

export interface OpenDatabaseOptions {
  /** The directory of the database, where engine.ts records and finds better-sqlite3; undefined for `:memory:`. */
  readonly directory: string | undefined;
  /** How long a statement waits for another connection's lock (SQLite's busy timeout). */
  readonly busyTimeoutMs: number;
  readonly readOnly?: boolean;
  /** Which engine (tests run both); default node:sqlite when this Node has it. */
  readonly engine?: SqliteEngineName;
}

/** The part of `node:sqlite` used here (Node 20's types do not have the module). */
interface NodeSqlite {
  readonly DatabaseSync: new (
    path: string,
    options: { readonly readOnly: boolean; readonly timeout: number },
  ) => {
    prepare(sql: string): unknown;
    exec(sql: string): void;
    readonly isTransaction: boolean;
    readonly isOpen: boolean;
    close(): void;
  };
}

/** `node:sqlite` when this Node has it without a flag, else undefined. */
export function nodeSqlite(): NodeSqlite | undefined {
  const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  try {
    return getBuiltin?.call(process, 'node:sqlite') as NodeSqlite | undefined;
  } catch {
    return undefined;
  }
}

/** The engine `openDatabase` picks by default here, and why (for doctor). */
export function defaultEngine(): { readonly engine: SqliteEngineName; readonly why: string } {
  return nodeSqlite()
    ? { engine: 'node:sqlite', why: `built into Node ${process.versions.node}` }
    : { engine: 'better-sqlite3', why: `Node ${process.versions.node} has no node:sqlite (22.13 and later do)` };
}

export function openDatabase(path: string, options: OpenDatabaseOptions): SqliteDatabase {
  const engine = options.engine ?? defaultEngine().engine;
  if (engine === 'node:sqlite') {
    const sqlite = nodeSqlite();
    if (!sqlite) throw new Error(`node:sqlite is not available in Node ${process.versions.node}`);
    const db = new sqlite.DatabaseSync(path, { readOnly: options.readOnly ?? false, timeout: options.busyTimeoutMs });
    return {
      engine,
      prepare: (sql) => db.prepare(sql) as SqliteStatement,
      exec: (sql) => db.exec(sql),
      get inTransaction() {
        return db.isTransaction;
      },
      get open() {
        return db.isOpen;
      },
      close: () => db.close(),
    };
  }
  const Engine = loadSqliteEngine(options.directory);
  const db = new Engine(path, {
    timeout: options.busyTimeoutMs,
    ...(options.readOnly ? { readonly: true, fileMustExist: true } : {}),
  });
  return {
    engine,
    prepare: (sql) => db.prepare(sql) as unknown as SqliteStatement,
    exec: (sql) => {
      db.exec(sql);
    },
    get inTransaction() {
      return db.inTransaction;
    },
    get open() {
      return db.open;
    },
    close: () => {
      db.close();
    },
  };
}

/** SQLite's primary result codes by number (node:sqlite reports numbers; better-sqlite3 names). */
const PRIMARY_CODES: Readonly<Record<number, string>> = {
  1: 'SQLITE_ERROR',
  3: 'SQLITE_PERM',
  4: 'SQLITE_ABORT',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  7: 'SQLITE_NOMEM',
  8: 'SQLITE_READONLY',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  15: 'SQLITE_PROTOCOL',
  19: 'SQLITE_CONSTRAINT',
  26: 'SQLITE_NOTADB',
};

/**
 * SQLite's result code of an error from either engine (`SQLITE_BUSY`, `SQLITE_IOERR_SHORT_READ` from better-sqlite3;
 * the primary code's name from node:sqlite's number), or `SQLITE_MISUSE` for a statement on a closed connection.
 */
export function sqliteErrorCode(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  if (typeof code === 'string' && code.startsWith('SQLITE_')) return code;
  if (typeof errcode === 'number') return PRIMARY_CODES[errcode & 0xff] ?? `SQLITE_${errcode & 0xff}`;
  if (/database (connection )?is not open/i.test(error.message)) return 'SQLITE_MISUSE';
  return undefined;
}
