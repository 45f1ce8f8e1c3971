/**
 * The embedded store's check: the file opens as the commands open it (`openStore`: its directory and the file are
 * created on first use, the schema is brought up to date, WAL is turned on), then a read-only look says which
 * SQLite, through which engine (node:sqlite built into Node, or better-sqlite3) and why, and whether the file
 * really is in WAL mode. Nothing is read from the questions: no line quotes their text. Both engines are
 * synchronous, so a file locked by another process blocks this process for the busy time-out: kept short, so the
 * network checks running alongside still answer within theirs.
 */
import { dirname } from 'node:path';
import { openStore, type StoreLocation } from '../../store/open.js';
import type { Store } from '../../store/port.js';
import { sqliteErrorCode } from '../../store/sqlite/driver.js';
import { SqliteEngineMissingError } from '../../store/sqlite/engine-missing-error.js';
import { NewerSchemaError } from '../../store/sqlite/newer-schema-error.js';
import { type CheckLine, fail, ok, warn } from './check.js';

type SqliteLocation = Extract<StoreLocation, { kind: 'sqlite' }>;

/** The longest a locked file may block doctor (the process waits synchronously). */
const BUSY_TIMEOUT_MS = 1000;

const ELSEWHERE = 'set ASK_LATER_DB to a file in a directory this user can write';

/** The first error code (`ENOTDIR`, `SQLITE_NOTADB`, …) along the cause chain, or the NewerSchemaError in it. */
function rootCause(error: unknown): { readonly code?: string; readonly newer?: NewerSchemaError } {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof NewerSchemaError) return { newer: current };
    const code = sqliteErrorCode(current) ?? (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,63}$/.test(code)) return { code };
    current = current.cause;
  }
  return {};
}

/** Why the file cannot be used and what to do, in one line: codes only, never an error's message. */
function describeFailure(error: unknown, path: string): string {
  if (error instanceof SqliteEngineMissingError) return error.message;
  const { code, newer } = rootCause(error);
  if (newer) {
    return `the file was written by a newer ask-later (schema version ${newer.found}; this one reads up to ${newer.known}) — upgrade ask-later here and wherever the agents run it`;
  }
  const dir = dirname(path);
  // SQLite's extended codes (SQLITE_IOERR_SHORT_READ, SQLITE_READONLY_DIRECTORY) by their primary code.
  const primary = code?.startsWith('SQLITE_') ? /^SQLITE_[A-Z]+/.exec(code)?.[0] : code;
  switch (primary) {
    case 'ENOTDIR':
    case 'EEXIST':
      return `its directory ${dir} cannot be made: a file is in the way (${code}) — ${ELSEWHERE}, or move that file away`;
    case 'EISDIR':
      return `the path is a directory (EISDIR) — set ASK_LATER_DB to a file path, such as ${path}/inbox.db`;
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
    case 'SQLITE_READONLY':
    case 'SQLITE_PERM':
    case 'SQLITE_CANTOPEN':
      return `this user cannot write the file or its directory (${code}) — give it write access to ${dir}, or ${ELSEWHERE}`;
    case 'ENOSPC':
    case 'SQLITE_FULL':
      return `the disk is full (${code}) — free some space, or ${ELSEWHERE} on another disk`;
    case 'SQLITE_NOTADB':
    case 'SQLITE_CORRUPT':
      return `the file is not a SQLite database, or is damaged (${code}) — move it away (a new one is created on first use), or set ASK_LATER_DB to another file`;
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return `another process held its write lock for over ${BUSY_TIMEOUT_MS / 1000} s (${code}) — run doctor again; if it stays locked, stop the ask-later process stuck on it`;
    case 'SQLITE_IOERR':
      return `an I/O error (${code}) — check the disk; WAL needs a local file system (not a network share)`;
    default:
      return `it cannot be opened (${code ?? (error instanceof Error ? error.name : 'unknown error')})`;
  }
}

/** SQLite's version, the engine and why, and the file's journal mode, read on a read-only connection of their own. */
async function inspect(path: string): Promise<{ version: string; engine: string; journalMode: string } | undefined> {
  try {
    const { defaultEngine, openDatabase } = await import('../../store/sqlite/driver.js');
    const { engine, why } = defaultEngine();
    const db = openDatabase(path, { directory: dirname(path), busyTimeoutMs: BUSY_TIMEOUT_MS, readOnly: true });
    try {
      const version = String((db.prepare('SELECT sqlite_version() AS v').get() as { v: unknown }).v);
      const journalMode = String((db.prepare('PRAGMA journal_mode').get() as { journal_mode: unknown }).journal_mode);
      return { version, engine: `${engine}: ${why}`, journalMode };
    } finally {
      db.close();
    }
  } catch {
    return undefined;
  }
}

export async function checkSqlite(location: SqliteLocation): Promise<CheckLine[]> {
  const { path } = location;
  let store: Store;
  try {
    store = await openStore(location, { busyTimeoutMs: BUSY_TIMEOUT_MS });
  } catch (error) {
    return [fail(`Embedded store at ${path}: ${describeFailure(error, path)}`)];
  }
  try {
    const found = await inspect(path);
    if (found === undefined) return [ok(`Embedded store at ${path}`)];
    if (found.journalMode.toLowerCase() !== 'wal') {
      return [
        warn(
          `Embedded store at ${path} (SQLite ${found.version} via ${found.engine}), journal mode ${found.journalMode}, not WAL: its file system may not support WAL (network shares do not) — put ASK_LATER_DB on a local disk`,
        ),
      ];
    }
    return [ok(`Embedded store at ${path} (SQLite ${found.version}, WAL, via ${found.engine})`)];
  } finally {
    await store.close().catch(() => undefined);
  }
}
