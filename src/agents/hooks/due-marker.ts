/**
 * "Is anything due here?", asked before Node starts (BRIEF "Delivery", issue 37): a directory of marker files per
 * working directory, which a `sh` one-liner reads with builtins only (no fork, no store round trip).
 *
 * `<cache>/ask-later/due<cwd>/` holds
 * - `watcher.<pid>`: one per live watcher (the MCP server of a session started in that directory, `due-watcher.ts`),
 *   which follows the store's changes for its project and keeps the markers below current;
 * - `any`: something may be due for the project (any outcome); `blocking`: something may be due that a tool call
 *   carries (`PostToolUse` with `ASK_LATER_MIDTURN=blocking`).
 *
 * The hook skips Node only when the marker is absent *and* a watcher is alive; with no watcher it runs as before.
 * A watcher sets both markers on every change of its project (and when it starts, and when its store fails), after
 * the change is in the store. A hook run clears a marker only when it ends with nothing of that kind left and the
 * marker still holds the token it read before it looked (compare and delete by rename), so an outcome that lands
 * while it looks leaves the marker set: a stale "nothing due" is impossible while a watcher lives, and a stale
 * "due" costs one ordinary run. The rule is one function ({@link dueDir}) shared by the shell line and Node.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/** Which marker: every outcome (the prompt), or those a tool call carries (blocking ones). */
export type DueKind = 'any' | 'blocking';

/** The markers' directory for a working directory (absolute): `${XDG_CACHE_HOME:-$HOME/.cache}/ask-later/due<cwd>`. */
export function dueDir(env: Env, cwd: string): string | undefined {
  const cache = env.XDG_CACHE_HOME || (env.HOME ? join(env.HOME, '.cache') : undefined);
  if (cache === undefined || !cwd.startsWith('/')) return undefined;
  return `${cache}/ask-later/due${cwd}`;
}

/**
 * The shell line that ends at once when nothing of `kind` is due and a watcher lives, and otherwise runs `command`
 * (`exec`, so the hook is Node's own process, its stdin untouched). POSIX `sh` builtins only, and `cat` (one exec, no
 * fork) to read the agent's JSON to its end, so that the agent never writes into a closed pipe; `$PWD` is the hook's
 * working directory, as `process.cwd()` is the watcher's.
 */
export function dueShellPrefix(kind: DueKind): string {
  return (
    `d="\${XDG_CACHE_HOME:-$HOME/.cache}/ask-later/due$PWD"; ` +
    `if [ ! -e "$d/${kind}" ]; then for w in "$d"/watcher.*; do kill -0 "\${w##*.}" 2>/dev/null && exec cat >/dev/null; done; fi; exec`
  );
}

/** Set both markers (something may be due), each with a new token. Best effort: a failure leaves Node to run. */
export function markDue(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    for (const kind of ['any', 'blocking'] as const) {
      const temporary = join(dir, `.${kind}.${process.pid}.${randomUUID()}`);
      writeFileSync(temporary, randomUUID());
      // A rename replaces the marker whole: a reader sees the old token or the new one, never a mix.
      renameSync(temporary, join(dir, kind));
    }
  } catch {
    // The directory cannot be written: no watcher file can be either, so hooks run Node.
  }
}

/** Whether a marker says something may be due in the directory of `cwd` (one `stat`, or two). */
export function markedDue(env: Env, cwd: string): boolean {
  const dir = dueDir(env, cwd);
  return dir !== undefined && (existsSync(join(dir, 'any')) || existsSync(join(dir, 'blocking')));
}

/** The marker's token now, or undefined when it is absent. */
export function readDue(dir: string, kind: DueKind): string | undefined {
  try {
    return readFileSync(join(dir, kind), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Clear the marker if it still holds `token` (read before the run looked at the store). Compare and delete by
 * rename: the marker is moved aside first, so a watcher's new one written meanwhile is not deleted, and one moved
 * aside that turns out newer is put back.
 */
export function clearDue(dir: string, kind: DueKind, token: string | undefined): void {
  if (token === undefined) return;
  const aside = join(dir, `.${kind}.clear.${process.pid}.${randomUUID()}`);
  try {
    renameSync(join(dir, kind), aside);
  } catch {
    return; // already gone
  }
  try {
    if (readFileSync(aside, 'utf8') !== token) renameSync(aside, join(dir, kind));
  } catch {
    // Put back failed: leave "due" (a watcher's next change sets it again; until then Node runs only if no watcher).
    markDue(dir);
  } finally {
    rmSync(aside, { force: true });
  }
}

/** This process as a watcher of `dir`; returns the way to stop being one. */
export function registerWatcher(dir: string): () => void {
  const file = join(dir, `watcher.${process.pid}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, '');
  return () => rmSync(file, { force: true });
}
