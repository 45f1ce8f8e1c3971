/** How the embedded store is opened: its file, its clock and its waits (the sections read them through context.ts). */
import type { CorruptRecordError } from '../corrupt-record-error.js';
import type { SqliteEngineName } from './driver.js';

export interface SqliteStoreOptions {
  /** The database file; created on first use, with its directories (see `defaultDatabasePath` in path.ts). */
  readonly path: string;
  /** The clock, ms since the epoch (default `Date.now`): expiry, leases, retention and event idle times. */
  readonly now?: () => number;
  /** How long delivered and cancelled questions (and events) are kept (default 30 days). */
  readonly retentionMs?: number;
  /** Told about records that cannot be read back; listings skip them instead of failing whole. */
  readonly onCorruptRecord?: (error: CorruptRecordError) => void;
  /**
   * How long a call waits for another process's write transaction before it fails with `StoreUnavailableError`
   * (default 2000 ms). A write waits a millisecond or two at a time without blocking the process (connection.ts);
   * the hook passes less than its deadline.
   */
  readonly busyTimeoutMs?: number;
  /** How often a blocking event read or a wait looks for other processes' commits (default 25 ms). */
  readonly pollIntervalMs?: number;
  /** Which SQLite engine (default node:sqlite where this Node has it, else better-sqlite3): see driver.ts. */
  readonly engine?: SqliteEngineName;
}
