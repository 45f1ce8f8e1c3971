/**
 * What a waiter remembers about its session between runs: the outcomes it already woke the session for, per
 * project, so a session the model did not act on is not woken again for the same outcome. One small JSON file per
 * session under the plugin's data directory (`CLAUDE_PLUGIN_DATA`), else ask-later's state directory. Only the
 * waiter holding the session's lease writes it; a file that does not read counts as empty. Files of sessions
 * untouched for a week are removed when another is written.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

const STALE_MS = 7 * 24 * 60 * 60 * 1000;

/** Where session files live. */
export function sessionStateDir(env: Env): string {
  const plugin = env.CLAUDE_PLUGIN_DATA?.trim();
  if (plugin && isAbsolute(plugin)) return join(plugin, 'sessions');
  const state = env.XDG_STATE_HOME?.trim();
  if (state && isAbsolute(state)) return join(state, 'ask-later', 'sessions');
  const home = env.HOME?.trim();
  return join(home && isAbsolute(home) ? home : homedir(), '.local', 'state', 'ask-later', 'sessions');
}

interface SessionFile {
  readonly woken: Record<string, number[]>;
}

function fileOf(dir: string, sessionId: string): string {
  return join(dir, `${sessionId}.json`);
}

function read(dir: string, sessionId: string): SessionFile {
  try {
    const parsed = JSON.parse(readFileSync(fileOf(dir, sessionId), 'utf8')) as unknown;
    const woken = (parsed as { woken?: unknown } | null)?.woken;
    if (woken === null || typeof woken !== 'object' || Array.isArray(woken)) return { woken: {} };
    const clean: Record<string, number[]> = {};
    for (const [project, ids] of Object.entries(woken)) {
      if (Array.isArray(ids)) clean[project] = ids.filter((id): id is number => Number.isSafeInteger(id));
    }
    return { woken: clean };
  } catch {
    return { woken: {} };
  }
}

/** The question ids this session was already woken for, in `project`. */
export function loadWoken(dir: string, sessionId: string, project: string): ReadonlySet<number> {
  return new Set(read(dir, sessionId).woken[project] ?? []);
}

/** Remember the ids this session was woken for (the whole set for the project). */
export function saveWoken(dir: string, sessionId: string, project: string, ids: readonly number[]): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = read(dir, sessionId);
  // Keep the newest ids only: an outcome is delivered long before a thousand more are woken for.
  const next: SessionFile = { woken: { ...file.woken, [project]: [...new Set(ids)].slice(-1000) } };
  const path = fileOf(dir, sessionId);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(next), { mode: 0o600 });
  renameSync(temporary, path);
  removeStale(dir);
}

function removeStale(dir: string): void {
  const now = Date.now();
  try {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
    }
  } catch {
    // best effort
  }
}
