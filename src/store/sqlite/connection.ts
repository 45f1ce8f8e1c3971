/**
 * One connection to the inbox file: statements prepared once, write transactions, error mapping, and the watch
 * that tells waiters the file changed. Every state change runs in `BEGIN IMMEDIATE` (the write lock is taken
 * before anything is read, so two processes never decide on the same state). A process waits for another's write
 * transaction in steps of about a millisecond, without blocking its event loop (see {@link SqliteConnection.write}),
 * up to its busy timeout; other statements wait with SQLite's own busy handler (`busy_timeout`), which they need only
 * in rare moments (a checkpoint, a recovery).
 */

import { StoreUnavailableError } from '../store-unavailable-error.js';
import { type SqliteDatabase, type SqliteStatement, sqliteErrorCode } from './driver.js';

/**
 * How long a write waits between tries for the write lock: a millisecond or two (a write transaction here takes well
 * under one), with jitter, so that twelve processes writing in a burst take turns within a few milliseconds. SQLite's
 * own busy handler sleeps in growing steps up to 100 ms (or whole seconds where it was built without usleep), which
 * left a writer asleep while others took the lock in turn: a park's p99 of 676 ms with twelve processes.
 */
const LOCK_RETRY_MS = [1, 2] as const;

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
  readonly #busyTimeoutMs: number;

  /** `busyTimeoutMs`: the busy timeout the database was opened with (how long a write waits for the lock). */
  constructor(db: SqliteDatabase, pollIntervalMs: number, busyTimeoutMs: number) {
    this.db = db;
    this.#busyTimeoutMs = busyTimeoutMs;
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

  /**
   * Run `work` in one `BEGIN IMMEDIATE` transaction; roll back if it throws. Waiters are told after a commit. `work`
   * is synchronous, so a transaction never spans an await. While another connection holds the write lock, this waits
   * (asynchronously, a millisecond or two at a time) until it is free or the busy timeout has passed (then SQLite's
   * SQLITE_BUSY, which the store reports as unavailable).
   */
  async write<T>(work: () => T): Promise<T> {
    const deadline = Date.now() + this.#busyTimeoutMs;
    const [low, high] = LOCK_RETRY_MS;
    while (!this.#begin(Date.now() >= deadline)) {
      const left = deadline - Date.now();
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, Math.min(left, low + Math.random() * (high - low)))),
      );
    }
    return this.#commit(work);
  }

  /**
   * Try to take the write lock without waiting: false when another connection holds it, unless this is the `last` try
   * (then SQLite's SQLITE_BUSY error is thrown).
   */
  #begin(last: boolean): boolean {
    this.statement('PRAGMA busy_timeout = 0').get();
    try {
      this.statement('BEGIN IMMEDIATE').run();
      return true;
    } catch (error) {
      if (last || !sqliteErrorCode(error)?.startsWith('SQLITE_BUSY')) throw error;
      return false;
    } finally {
      if (this.db.open) this.#restoreBusyTimeout();
    }
  }

  #restoreBusyTimeout(): void {
    this.statement(`PRAGMA busy_timeout = ${Math.max(0, Math.trunc(this.#busyTimeoutMs))}`).get();
  }

  /** The transaction begun: `work`, then COMMIT (ROLLBACK if it throws). */
  #commit<T>(work: () => T): T {
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
