/**
 * What ask-later remembers about a Claude Code session between processes, in one small JSON file per session under
 * the plugin's data directory (`CLAUDE_PLUGIN_DATA`), else ask-later's state directory:
 * - `woken`: the outcomes a waiter already woke the session for, per project, so a session the model did not act on
 *   is not woken again for the same outcome (only the waiter holding the session's lease writes it);
 * - `plans`: the plans the session's ExitPlanMode calls parked, per project, digest → question id, so the same
 *   plan's next call finds its approval.
 * A file that does not read counts as empty. Files of sessions untouched for a week are removed when another is
 * written.
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
  readonly plans: Record<string, Record<string, number>>;
}

function fileOf(dir: string, sessionId: string): string {
  return join(dir, `${sessionId}.json`);
}

function read(dir: string, sessionId: string): SessionFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(fileOf(dir, sessionId), 'utf8')) as unknown;
  } catch {
    return { woken: {}, plans: {} };
  }
  const woken: Record<string, number[]> = {};
  for (const [project, ids] of entries((parsed as { woken?: unknown } | null)?.woken)) {
    if (Array.isArray(ids)) woken[project] = ids.filter((id): id is number => Number.isSafeInteger(id));
  }
  const plans: Record<string, Record<string, number>> = {};
  for (const [project, digests] of entries((parsed as { plans?: unknown } | null)?.plans)) {
    const clean: Record<string, number> = {};
    for (const [digest, id] of entries(digests)) if (Number.isSafeInteger(id)) clean[digest] = id as number;
    plans[project] = clean;
  }
  return { woken, plans };
}

/** An object's entries; nothing for anything else. */
function entries(value: unknown): [string, unknown][] {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [];
}

function write(dir: string, sessionId: string, next: SessionFile): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = fileOf(dir, sessionId);
  const temporary = `${path}.${process.pid}.tmp`;
  // Sections with nothing in them are left out.
  const kept = Object.fromEntries(Object.entries(next).filter(([, section]) => Object.keys(section).length > 0));
  writeFileSync(temporary, JSON.stringify(kept), { mode: 0o600 });
  renameSync(temporary, path);
  removeStale(dir);
}

/** The question ids this session was already woken for, in `project`. */
export function loadWoken(dir: string, sessionId: string, project: string): ReadonlySet<number> {
  return new Set(read(dir, sessionId).woken[project] ?? []);
}

/** Remember the ids this session was woken for (the whole set for the project). */
export function saveWoken(dir: string, sessionId: string, project: string, ids: readonly number[]): void {
  const file = read(dir, sessionId);
  // Keep the newest ids only: an outcome is delivered long before a thousand more are woken for.
  write(dir, sessionId, { ...file, woken: { ...file.woken, [project]: [...new Set(ids)].slice(-1000) } });
}

/** The question a plan of this session was parked as (by its digest), in `project`. */
export function loadPlan(dir: string, sessionId: string, project: string, digest: string): number | undefined {
  return read(dir, sessionId).plans[project]?.[digest];
}

/** The plans this session parked in `project`, digest → question id. */
export function loadPlans(dir: string, sessionId: string, project: string): Readonly<Record<string, number>> {
  return read(dir, sessionId).plans[project] ?? {};
}

/** Remember that this session's plan (its digest) was parked as question `id`. */
export function savePlan(dir: string, sessionId: string, project: string, digest: string, id: number): void {
  const file = read(dir, sessionId);
  // A session parks a handful of plans; keep the newest 50.
  const kept = Object.entries({ ...file.plans[project], [digest]: id }).slice(-50);
  write(dir, sessionId, { ...file, plans: { ...file.plans, [project]: Object.fromEntries(kept) } });
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
