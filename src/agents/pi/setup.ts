/**
 * `ask-later setup pi [--project] [--remove] [--dry-run]`: writes ask-later's extension (extension-module.ts) into
 * pi's extensions folder, or takes it out. The user's (`$PI_CODING_AGENT_DIR/extensions`, else
 * `~/.pi/agent/extensions`) by default; with `--project` the repository's `.pi/extensions/` (pi reads it from the
 * directory it starts in: the git top-level here). The extension names this Node and this ask-later (the running CLI),
 * so its bridge runs the same build; its tools are the MCP server's, listed now. Idempotent; `--remove` deletes only
 * a file setup wrote (its first line says so) and the folders setup made for it when they are left empty; a file of
 * the same name that is not ask-later's is left as it is; `--dry-run` prints the change and writes nothing.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { findGitTopLevel } from '../../config/project.js';
import { agentTools, listedTool } from '../mcp/index.js';
import { currentRuntime, parseSetupFlags, type Runtime, type SetupIo } from '../opencode/setup.js';
import { EXTENSION_FILE, EXTENSION_MARKER, extensionModule } from './extension-module.js';

type Env = Readonly<Record<string, string | undefined>>;

export const USAGE = 'Usage: ask-later setup pi [--project] [--remove] [--dry-run]';

/** pi's own folder for the user (`PI_CODING_AGENT_DIR`, else `~/.pi/agent`). */
export function piAgentDir(env: Env): string {
  const dir = env.PI_CODING_AGENT_DIR?.trim();
  if (dir) return dir.startsWith('~/') ? join(env.HOME ?? homedir(), dir.slice(2)) : dir;
  return join(env.HOME ?? homedir(), '.pi', 'agent');
}

/** Where the extension goes: the user's extensions folder, or the repository's (`project`). */
export function piExtensionPath(env: Env, cwd: string, project: boolean): string {
  if (project) return join(findGitTopLevel(cwd) ?? cwd, '.pi', 'extensions', EXTENSION_FILE);
  return join(piAgentDir(env), 'extensions', EXTENSION_FILE);
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Run the command; resolves with the exit code (0, 1 when the file was refused, 2 on bad flags). */
export async function runSetupPi(
  args: readonly string[],
  env: Env,
  cwd: string,
  io: SetupIo,
  runtime: Runtime = currentRuntime(),
): Promise<number> {
  const flags = parseSetupFlags(args);
  if (typeof flags === 'string') {
    io.stderr.write(`ask-later setup pi: ${flags}\n${USAGE}\n`);
    return 2;
  }
  const path = piExtensionPath(env, cwd, flags.project);
  const text = read(path);
  if (text !== undefined && !text.startsWith(EXTENSION_MARKER)) {
    io.stderr.write(`ask-later setup pi: ${path} is not ask-later's extension; it was left as it is\n`);
    return 1;
  }
  const wanted = flags.remove ? undefined : extensionModule(runtime.node, runtime.cli, agentTools({}).map(listedTool));
  if (text === wanted) {
    io.stdout.write(`pi: ask-later is ${flags.remove ? 'not set up' : 'already set up'} in ${path}\n`);
    return 0;
  }
  const what = wanted === undefined ? 'delete' : text === undefined ? 'create' : 'update';
  io.stdout.write(`${flags.dryRun ? 'would ' : ''}${what} ${path}\n`);
  if (flags.dryRun) {
    if (wanted !== undefined) io.stdout.write(`${wanted.replace(/^/gm, '  | ')}\n`);
    return 0;
  }
  if (wanted === undefined) {
    unlinkSync(path);
    removeEmpty(dirname(path), flags.project ? 2 : 1);
    io.stdout.write('pi: ask-later removed; restart pi.\n');
    return 0;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, wanted);
  io.stdout.write('pi: ask-later set up (its extension); restart pi (or /reload) to load it.\n');
  return 0;
}

/** The folders setup may have made for the extension, if nothing else is in them. */
function removeEmpty(dir: string, levels: number): void {
  let current = dir;
  for (let level = 0; level < levels; level++) {
    if (!existsSync(current)) return;
    try {
      rmdirSync(current);
    } catch {
      return;
    }
    current = dirname(current);
  }
}
