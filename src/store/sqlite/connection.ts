/**
 * One connection to the inbox file: statements prepared once, write transactions, error mapping, and the watch
 * that tells waiters the file changed. Every state change runs in `BEGIN IMMEDIATE` (the write lock is taken
 * before anything is read, so two processes never decide on the same state), and `busy_timeout` makes a process
 * wait for another's transaction instead of failing.
 */

import { StoreUnavailableError } from '../store-unavailable-error.js';
import { type SqliteDatabase, type SqliteStatement, sqliteErrorCode } from './driver.js';

/** SQLite result codes (and prefixes of extended ones) that mean "the file cannot be used now", not a bug. */
const UNAVAILABLE_CODES = [
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_CANTOPEN',
  'SQLITE_NOTADB',
  'SQLITE_CORRUPT',
  'SQLITE_IOERR',
  'SQLITE_FULL',
  'SQLITE_READONLY',
  'SQLITE_PERM',
  'SQLITE_PROTOCOL',
];
/** File-system errors met while creating the file's directory. */
const FS_CODES = ['EACCES', 'EPERM', 'ENOTDIR', 'EROFS', 'ENOSPC', 'EEXIST', 'ENOENT', 'ELOOP'];

/** Rethrow "the file cannot be used" as `StoreUnavailableError`; anything else unchanged. */
export function toStoreError(error: unknown): unknown {
  if (error instanceof StoreUnavailableError || !(error instanceof Error)) return error;
  const sqlite = sqliteErrorCode(error);
  if (sqlite !== undefined && UNAVAILABLE_CODES.some((c) => sqlite === c || sqlite.startsWith(`${c}_`))) {
    return new StoreUnavailableError({ cause: error });
  }
  // A statement on a closed connection (the store was closed).
  if (sqlite === 'SQLITE_MISUSE') return new StoreUnavailableError({ cause: error });
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && FS_CODES.includes(code)) return new StoreUnavailableError({ cause: error });
  return error;
}

/** A point in the file's history: compare with a later one to know whether anything was committed since. */
interface Mark {
  readonly data: number;
  readonly local: number;
}

interface Waiter {
  readonly mark: Mark;
  readonly wake: () => void;
}

/**
 * Tells waiters (a blocking event read, `waitWhilePending`) that the file changed. Commits of this process wake
 * them at once; commits of other processes are seen by polling `PRAGMA data_version` (which changes when another
 * connection commits) every `intervalMs`, only while someone waits.
 */
export class ChangeWatch {
  readonly #dataVersion: () => number;
  readonly #intervalMs: number;
  readonly #waiters = new Set<Waiter>();
  #local = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(dataVersion: () => number, intervalMs: number) {
    this.#dataVersion = dataVersion;
    this.#intervalMs = intervalMs;
  }

  /** Take before checking the state; pass to {@link wait} so a change in between is not missed. */
  mark(): Mark {
    return { data: this.#dataVersion(), local: this.#local };
  }

  /** This process committed. */
  notify(): void {
    this.#local++;
    this.#tick();
  }

  /** Resolves when the file changed since `mark`, after `ms`, or when `signal` aborts or the watch closes. */
  wait(mark: Mark, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        clearTimeout(timeout);
        signal?.removeEventListener('abort', done);
        this.#waiters.delete(waiter);
        if (this.#waiters.size === 0) this.#stop();
        resolve();
      };
      const waiter: Waiter = { mark, wake: done };
      const timeout = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener('abort', done, { once: true });
      this.#waiters.add(waiter);
      this.#timer ??= setInterval(() => this.#tick(), this.#intervalMs);
      this.#tick();
    });
  }

  /** Wake every waiter and stop polling. */
  close(): void {
    for (const waiter of [...this.#waiters]) waiter.wake();
    this.#stop();
  }

  #tick(): void {
    if (this.#waiters.size === 0) return;
    let data: number;
    try {
      data = this.#dataVersion();
    } catch {
      this.close(); // the connection is gone: let every waiter look (and fail) for itself
      return;
    }
    for (const waiter of [...this.#waiters]) {
      if (waiter.mark.data !== data || waiter.mark.local !== this.#local) waiter.wake();
    }
  }

  #stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

export class SqliteConnection {
  readonly db: SqliteDatabase;
  readonly watch: ChangeWatch;
  readonly #statements = new Map<string, SqliteStatement>();

  constructor(db: SqliteDatabase, pollIntervalMs: number) {
    this.db = db;
    const dataVersion = db.prepare('PRAGMA data_version');
    this.watch = new ChangeWatch(
      () => Number((dataVersion.get() as { data_version: number | bigint }).data_version),
      pollIntervalMs,
    );
  }

  /** A statement, prepared on first use (the hook uses a handful of the store's, so none is prepared up front). */
  statement(sql: string): SqliteStatement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /** Run `work` in one `BEGIN IMMEDIATE` transaction; roll back if it throws. Waiters are told after a commit. */
  write<T>(work: () => T): T {
    this.statement('BEGIN IMMEDIATE').run();
    let result: T;
    try {
      result = work();
      this.statement('COMMIT').run();
    } catch (error) {
      if (this.db.inTransaction) this.statement('ROLLBACK').run();
      throw error;
    }
    this.watch.notify();
    return result;
  }

  close(): void {
    this.watch.close();
    if (this.db.open) this.db.close();
  }
}
