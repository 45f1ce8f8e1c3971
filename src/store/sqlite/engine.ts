/**
 * Where better-sqlite3, the embedded store's engine on a Node without node:sqlite (driver.ts), comes from.
 *
 * An npm install of ask-later (a clone after `npm install`) resolves it from its own node_modules, and so does the
 * plugin when Claude Code runs it from that clone (a marketplace added by path runs in place). A plugin installed
 * from elsewhere (a git marketplace) has no node_modules: Claude Code installs plugin dependencies with scripts
 * disabled, so a native addon is never built there. So every process that found the engine itself records its
 * location in a small file next to the store (`sqlite-engine.json`), and a process that has none of its own loads
 * the engine from there. `serve`, the command a person starts first, always writes it.
 *
 * Loaded only when the embedded store is opened: Redis users never load it, and it is never bundled.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { SqliteEngineMissingError } from './engine-missing-error.js';

export type SqliteEngine = typeof BetterSqlite3;

/** The file next to the database that names the engine an npm install of ask-later uses. */
export const ENGINE_FILE = 'sqlite-engine.json';

interface EngineRecord {
  /** Absolute path of the better-sqlite3 package directory. */
  readonly module: string;
}

const MODULE = 'better-sqlite3';

/**
 * The engine for a database in `directory`: this install's own (recorded there), else the one recorded there.
 * Without a directory (an in-memory database) nothing is recorded or read. Throws `SqliteEngineMissingError` when
 * there is neither (or the recorded one no longer loads).
 */
export function loadSqliteEngine(directory: string | undefined): SqliteEngine {
  const require = createRequire(import.meta.url);
  let own: string | undefined;
  try {
    own = dirname(require.resolve(`${MODULE}/package.json`));
  } catch {
    own = undefined;
  }
  const recordPath = directory === undefined ? undefined : join(directory, ENGINE_FILE);
  if (own !== undefined) {
    const engine = require(MODULE) as SqliteEngine;
    if (recordPath !== undefined) record(recordPath, own);
    return engine;
  }
  const recorded = recordPath === undefined ? undefined : readRecord(recordPath);
  if (recorded === undefined) throw new SqliteEngineMissingError();
  try {
    return require(recorded.module) as SqliteEngine;
  } catch (error) {
    throw new SqliteEngineMissingError({ cause: error });
  }
}

function readRecord(path: string): EngineRecord | undefined {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
  const module = (data as { module?: unknown } | null)?.module;
  return typeof module === 'string' && isAbsolute(module) ? { module } : undefined;
}

/** Write the record if it says something else; best effort (a read-only directory just means no record). */
function record(path: string, module: string): void {
  if (readRecord(path)?.module === module) return;
  const text = `${JSON.stringify({ module } satisfies EngineRecord, null, 2)}\n`;
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text, { mode: 0o600 });
    renameSync(temporary, path);
  } catch {
    // The directory is created with the database; if it cannot be written, the store's open says so.
  }
}
