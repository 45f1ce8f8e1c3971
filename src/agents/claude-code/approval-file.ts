/**
 * What a session remembers of its permission prompts between hook runs, on this machine: which approval (project,
 * question id) each parked call is, keyed by the call's binding (tool and input hash) in one small file per session,
 * and which approvals granted "once" were used. A use is taken by creating a marker file exclusively (`wx`), so two
 * hooks racing for the same once-grant cannot both win. Files that do not read count as empty; files untouched
 * for a week are removed when another is written.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const STALE_MS = 7 * 24 * 60 * 60 * 1000;
/** A session parks a handful of prompts; the newest are kept. */
const KEPT = 200;

/** Where one parked call's approval is. */
export interface ParkedApproval {
  readonly project: string;
  readonly id: number;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

function dirOf(stateDir: string): string {
  return join(stateDir, 'approvals');
}

/** Session ids come from the agent: hashed, so no id can name a path. */
function fileOf(stateDir: string, session: string): string {
  return join(dirOf(stateDir), `${digest(session)}.json`);
}

function keyOf(tool: string, input: string): string {
  return `${tool}\n${input}`;
}

function read(stateDir: string, session: string): Record<string, ParkedApproval> {
  try {
    const parsed = JSON.parse(readFileSync(fileOf(stateDir, session), 'utf8')) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const clean: Record<string, ParkedApproval> = {};
    for (const [key, value] of Object.entries(parsed)) {
      const { project, id } = (value ?? {}) as { project?: unknown; id?: unknown };
      if (typeof project === 'string' && Number.isSafeInteger(id)) clean[key] = { project, id: id as number };
    }
    return clean;
  } catch {
    return {};
  }
}

/** The approval this session parked for the call (tool, input hash), if any. */
export function loadApproval(
  stateDir: string,
  session: string,
  tool: string,
  input: string,
): ParkedApproval | undefined {
  return read(stateDir, session)[keyOf(tool, input)];
}

/** Remember that this session's call (tool, input hash) was parked as `approval`. */
export function saveApproval(
  stateDir: string,
  session: string,
  tool: string,
  input: string,
  approval: ParkedApproval,
): void {
  const kept = Object.entries({ ...read(stateDir, session), [keyOf(tool, input)]: approval }).slice(-KEPT);
  const dir = dirOf(stateDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = fileOf(stateDir, session);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(Object.fromEntries(kept)), { mode: 0o600 });
  renameSync(temporary, path);
  removeStale(dir);
}

/** Take the one use of a once-grant: true for the first caller only, ever. */
export function takeOnce(stateDir: string, approval: ParkedApproval): boolean {
  const dir = dirOf(stateDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(join(dir, `used-${digest(`${approval.project}\n${approval.id}`)}`), '', { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EEXIST') return false;
    throw error;
  }
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
