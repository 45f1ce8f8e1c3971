/**
 * `ask-later setup opencode [--project] [--remove] [--dry-run]`: wires ask-later into OpenCode, or unwires it.
 *
 * Two files: the MCP server in OpenCode's config (`"mcp": {"ask-later": …}` in `opencode.jsonc` or `opencode.json`,
 * edited as text by config-edit.ts) and the plugin module (plugin-module.ts) in OpenCode's `plugins/` folder. The
 * user's config (`$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`) by default; with `--project` the repository's
 * own (`opencode.json` at the git top-level, the plugin in `.opencode/plugins/`). Both name this Node and this
 * ask-later (the running CLI or bundle), so the plugin's bridge and the MCP server run the same build. Idempotent;
 * `--remove` takes out exactly what it put in; `--dry-run` prints the change and writes nothing. A config it cannot
 * parse is left untouched, with one line saying why, and nothing else is written.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { findGitTopLevel } from '../../config/project.js';
import { type ConfigEdit, type McpEntry, withAskLater, withoutAskLater } from './config-edit.js';
import { PLUGIN_FILE, PLUGIN_MARKER, pluginModule } from './plugin-module.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface SetupIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

export interface SetupFlags {
  readonly project: boolean;
  readonly remove: boolean;
  readonly dryRun: boolean;
}

/** Where ask-later goes in OpenCode, for this scope. */
export interface OpenCodePaths {
  readonly config: string;
  readonly plugin: string;
}

export const USAGE = 'Usage: ask-later setup opencode [--project] [--remove] [--dry-run]';

/** The flags, or a reason they are wrong. */
export function parseSetupFlags(args: readonly string[]): SetupFlags | string {
  const known = ['--project', '--remove', '--dry-run'];
  const unknown = args.filter((arg) => !known.includes(arg));
  if (unknown.length > 0) return `unexpected ${JSON.stringify(unknown[0])}; expected --project, --remove or --dry-run`;
  return { project: args.includes('--project'), remove: args.includes('--remove'), dryRun: args.includes('--dry-run') };
}

/** OpenCode's user config folder. */
export function userConfigDir(env: Env): string {
  const xdg = env.XDG_CONFIG_HOME?.trim();
  return join(xdg ? xdg : (env.HOME ?? homedir()), ...(xdg ? [] : ['.config']), 'opencode');
}

/** The files for the user's config, or the repository's (`project`). */
export function openCodePaths(env: Env, cwd: string, project: boolean): OpenCodePaths {
  const dir = project ? (findGitTopLevel(cwd) ?? cwd) : userConfigDir(env);
  const jsonc = join(dir, 'opencode.jsonc');
  const config = existsSync(jsonc) ? jsonc : join(dir, 'opencode.json');
  const plugin = project ? join(dir, '.opencode', 'plugins', PLUGIN_FILE) : join(dir, 'plugins', PLUGIN_FILE);
  return { config, plugin };
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The change to one file: its new text, or deleted. */
type FileChange = { readonly path: string; readonly text: string | undefined };

/** What this ask-later is: `node <cli>`. */
export interface Runtime {
  readonly node: string;
  readonly cli: string;
}

export function currentRuntime(): Runtime {
  const script = process.argv[1] ?? '';
  return { node: process.execPath, cli: existsSync(script) ? realpathSync(script) : script };
}

/** Run the command; resolves with the exit code (0, 1 when a file was refused, 2 on bad flags). */
export async function runSetupOpenCode(
  args: readonly string[],
  env: Env,
  cwd: string,
  io: SetupIo,
  runtime: Runtime = currentRuntime(),
): Promise<number> {
  const flags = parseSetupFlags(args);
  if (typeof flags === 'string') {
    io.stderr.write(`ask-later setup opencode: ${flags}\n${USAGE}\n`);
    return 2;
  }
  const paths = openCodePaths(env, cwd, flags.project);
  const entry: McpEntry = { type: 'local', command: [runtime.node, runtime.cli, 'mcp'], enabled: true };
  const configText = read(paths.config);
  const edit: ConfigEdit = flags.remove ? withoutAskLater(configText) : withAskLater(configText, entry);
  if (edit.kind === 'refused') {
    io.stderr.write(`ask-later setup opencode: ${paths.config} was left as it is: ${edit.reason}\n`);
    return 1;
  }
  const pluginText = read(paths.plugin);
  if (pluginText !== undefined && !pluginText.startsWith(PLUGIN_MARKER)) {
    io.stderr.write(`ask-later setup opencode: ${paths.plugin} is not ask-later's plugin; it was left as it is\n`);
    return 1;
  }
  const changes: FileChange[] = [];
  if (edit.kind === 'write') changes.push({ path: paths.config, text: edit.text });
  if (edit.kind === 'delete') changes.push({ path: paths.config, text: undefined });
  if (flags.remove) {
    if (pluginText !== undefined) changes.push({ path: paths.plugin, text: undefined });
  } else {
    const wanted = pluginModule(runtime.node, runtime.cli);
    if (pluginText !== wanted) changes.push({ path: paths.plugin, text: wanted });
  }

  if (changes.length === 0) {
    io.stdout.write(`OpenCode: ask-later is ${flags.remove ? 'not set up' : 'already set up'} in ${paths.config}\n`);
    return 0;
  }
  for (const change of changes) {
    const what = change.text === undefined ? 'delete' : existsSync(change.path) ? 'update' : 'create';
    io.stdout.write(`${flags.dryRun ? 'would ' : ''}${what} ${change.path}\n`);
    if (flags.dryRun && change.text !== undefined) {
      io.stdout.write(`${change.text.replace(/^/gm, '  | ')}\n`);
    }
  }
  if (flags.dryRun) return 0;
  for (const change of changes) {
    if (change.text === undefined) {
      unlinkSync(change.path);
      // Folders setup made for the plugin, if nothing else is in them.
      if (change.path === paths.plugin) removeEmpty(dirname(change.path), flags.project ? 2 : 1);
    } else {
      mkdirSync(dirname(change.path), { recursive: true });
      writeFileSync(change.path, change.text);
    }
  }
  io.stdout.write(
    flags.remove
      ? 'OpenCode: ask-later removed; restart OpenCode.\n'
      : 'OpenCode: ask-later set up (MCP server and plugin); restart OpenCode to load it.\n',
  );
  return 0;
}

function removeEmpty(dir: string, levels: number): void {
  let current = dir;
  for (let level = 0; level < levels; level++) {
    try {
      rmdirSync(current);
    } catch {
      return;
    }
    current = dirname(current);
  }
}
