/**
 * `ask-later setup codex [--project] [--remove] [--dry-run]`: wires ask-later into Codex CLI (0.169) by editing its
 * `config.toml` (`wiring.ts` says what is written): the user's (`$CODEX_HOME`, default `~/.codex`), or with
 * `--project` the repository's own `.codex/config.toml` (git top-level of the working directory), whose hooks'
 * trust still goes into the user's file (Codex reads trust from there only).
 *
 * Idempotent: run again, it changes nothing, or puts ask-later's part back as it should be. `--remove` takes out
 * exactly what it wrote; where Codex did not rewrite the file since, it comes back byte for byte, and a file that
 * held nothing else is deleted. `--dry-run` prints the change and writes nothing. A config that does not parse, or
 * whose own tables would clash with ask-later's, is left untouched with a one-line error (exit 1).
 */
import { mkdirSync, readFileSync, realpathSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { findGitTopLevel } from '../../config/project.js';
import { SetupRefusalError } from './setup-refusal-error.js';
import { appendTables, lineEnding, parseToml, type TomlTable } from './toml-text.js';
import {
  groupCounts,
  hookTables,
  MCP_SERVER,
  mcpTable,
  ourGroups,
  ourTrustKeys,
  type TrustEntry,
  trustEntries,
  trustTable,
  type Wiring,
  withoutAskLater,
} from './wiring.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface SetupIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

export interface SetupOptions {
  readonly project: boolean;
  readonly remove: boolean;
  readonly dryRun: boolean;
}

const USAGE = 'usage: ask-later setup codex [--project] [--remove] [--dry-run]';

/** The flags, or what is wrong with them. */
export function parseSetupArgs(args: readonly string[]): SetupOptions | string {
  const flags = { project: false, remove: false, dryRun: false };
  for (const arg of args) {
    if (arg === '--project') flags.project = true;
    else if (arg === '--remove') flags.remove = true;
    else if (arg === '--dry-run') flags.dryRun = true;
    else return `unknown argument ${JSON.stringify(arg.slice(0, 40))}; ${USAGE}`;
  }
  return flags;
}

/** Codex's home as Codex finds it: `CODEX_HOME` (resolved through symlinks, as Codex does), else `~/.codex`. */
export function codexHome(env: Env): string {
  const own = env.CODEX_HOME?.trim();
  if (own) {
    try {
      return realpathSync(own);
    } catch {
      return resolve(own);
    }
  }
  return join(env.HOME?.trim() || '/', '.codex');
}

/** One file's change: what it holds now (undefined: absent) and what it will hold (undefined: deleted). */
interface Change {
  readonly path: string;
  readonly before: string | undefined;
  readonly after: string | undefined;
  /** What ask-later's part in it is, for the summary line. */
  readonly what: string;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SetupRefusalError(`${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

function parsed(path: string, text: string): TomlTable {
  const result = parseToml(text);
  if (!result.ok) throw new SetupRefusalError(`${path} does not parse as TOML (${result.reason}); left untouched`);
  return result.doc;
}

/** `text` with ask-later's part (as found in `doc`) out, checked to parse and to hold nothing of ask-later's. */
function stripped(path: string, text: string, doc: TomlTable, removal: Parameters<typeof withoutAskLater>[2]) {
  const base = withoutAskLater(text, doc, removal);
  const baseDoc = parsed(path, base);
  const servers = baseDoc.mcp_servers as Record<string, unknown> | undefined;
  if (removal.mcp && servers?.[MCP_SERVER] !== undefined) {
    throw new SetupRefusalError(
      `${path} defines mcp_servers.${MCP_SERVER} in a form ask-later cannot edit (inline); take it out by hand; left untouched`,
    );
  }
  if (removal.hooks && ourGroups(baseDoc).size > 0) {
    throw new SetupRefusalError(
      `${path} holds ask-later's hooks in a form ask-later cannot edit (inline arrays); take them out by hand; left untouched`,
    );
  }
  return { base, baseDoc };
}

/** `base` with `tables` appended, checked to parse (an inline table of the same name would clash). */
function withTables(path: string, base: string, tables: readonly string[]): string {
  const after = appendTables(base, tables, lineEnding(base));
  const result = parseToml(after);
  if (!result.ok) {
    throw new SetupRefusalError(
      `${path} cannot take ask-later's tables (${result.reason}: its own hooks or MCP servers are written inline?); left untouched`,
    );
  }
  return after;
}

/** Trust entries not already in the user's file (a second table for one key would make it unparseable). */
function newTrust(entries: readonly TrustEntry[], userDoc: TomlTable, notes: string[]): TrustEntry[] {
  const states = ((userDoc.hooks as TomlTable | undefined)?.state ?? {}) as Record<string, { trusted_hash?: unknown }>;
  return entries.filter((entry) => {
    const existing = states[entry.key];
    if (existing === undefined) return true;
    if (existing.trusted_hash !== entry.hash) {
      notes.push(
        `Codex already has a trust entry for ${entry.key}: it will ask you to review ask-later's hook (/hooks)`,
      );
    }
    return false;
  });
}

/** The changes `options` asks for. */
export function planSetup(options: SetupOptions, env: Env, cwd: string, wiring: Wiring, notes: string[]): Change[] {
  const userPath = join(codexHome(env), 'config.toml');
  const userText = read(userPath);
  const userDoc = parsed(userPath, userText ?? '');
  if (!options.project) {
    const removal = { mcp: true, hooks: true, trustKeys: ourTrustKeys(userDoc, userPath) };
    const { base, baseDoc } = stripped(userPath, userText ?? '', userDoc, removal);
    if (options.remove) return [{ path: userPath, before: userText, after: emptyToNone(base), what: 'removed' }];
    const trust = newTrust(trustEntries(wiring, userPath, groupCounts(baseDoc)), baseDoc, notes);
    const after = withTables(userPath, base, [mcpTable(wiring), ...hookTables(wiring), ...trust.map(trustTable)]);
    return [{ path: userPath, before: userText, after, what: 'the MCP server, the hooks and their trust' }];
  }

  const top = findGitTopLevel(cwd);
  if (top === undefined) throw new SetupRefusalError(`--project needs a git repository, and ${cwd} is not in one`);
  const projectPath = join(top, '.codex', 'config.toml');
  const projectText = read(projectPath);
  const projectDoc = parsed(projectPath, projectText ?? '');
  const userRemoval = { mcp: false, hooks: false, trustKeys: ourTrustKeys(projectDoc, projectPath) };
  const user = stripped(userPath, userText ?? '', userDoc, userRemoval);
  const project = stripped(projectPath, projectText ?? '', projectDoc, {
    mcp: true,
    hooks: true,
    trustKeys: new Set(),
  });
  if (options.remove) {
    return [
      { path: projectPath, before: projectText, after: emptyToNone(project.base), what: 'removed' },
      { path: userPath, before: userText, after: emptyToNone(user.base), what: 'removed the trust entries' },
    ];
  }
  const trust = newTrust(trustEntries(wiring, projectPath, groupCounts(project.baseDoc)), user.baseDoc, notes);
  notes.push(`Codex reads ${join(top, '.codex')} only in a trusted project: trust ${top} when Codex asks`);
  return [
    {
      path: projectPath,
      before: projectText,
      after: withTables(projectPath, project.base, [mcpTable(wiring), ...hookTables(wiring)]),
      what: 'the MCP server and the hooks',
    },
    {
      path: userPath,
      before: userText,
      after: withTables(userPath, user.base, trust.map(trustTable)),
      what: "the trust in the project's hooks",
    },
  ];
}

/** A file that holds nothing (but blank lines) once ask-later's part is out is deleted. */
function emptyToNone(text: string): string | undefined {
  return text.trim() === '' ? undefined : text;
}

/** The lines that differ, as a minimal diff: the common head and tail skipped. */
export function describeChange(change: Change): string {
  const before = change.before === undefined ? [] : change.before.split('\n');
  const after = change.after === undefined ? [] : change.after.split('\n');
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  ) {
    tail++;
  }
  const removed = before.slice(head, before.length - tail).map((line) => `- ${line}`);
  const added = after.slice(head, after.length - tail).map((line) => `+ ${line}`);
  const state =
    change.before === undefined ? ' (new file)' : change.after === undefined ? ' (deleted: nothing else in it)' : '';
  return [`--- ${change.path}${state}`, ...removed, ...added].join('\n');
}

function apply(change: Change): void {
  if (change.after === change.before) return;
  if (change.after === undefined) {
    rmSync(change.path, { force: true });
    // The `.codex` folder setup made for a project goes too when nothing else is in it.
    try {
      rmdirSync(dirname(change.path));
    } catch {
      // not empty, or not ours to remove
    }
    return;
  }
  mkdirSync(dirname(change.path), { recursive: true });
  writeFileSync(change.path, change.after);
}

/** Run the command. 0 when done (or nothing to do), 1 when it refused, 2 on a bad argument. */
export async function runSetupCodex(
  args: readonly string[],
  env: Env,
  cwd: string,
  io: SetupIo,
  wiring: Wiring,
): Promise<number> {
  const options = parseSetupArgs(args);
  if (typeof options === 'string') {
    io.stderr.write(`ask-later setup codex: ${options}\n`);
    return 2;
  }
  const notes: string[] = [];
  let changes: Change[];
  try {
    changes = planSetup(options, env, cwd, wiring, notes);
  } catch (error) {
    if (!(error instanceof SetupRefusalError)) throw error;
    io.stderr.write(`ask-later setup codex: ${error.message}\n`);
    return 1;
  }
  const changed = changes.filter((change) => change.after !== change.before);
  if (options.dryRun) {
    if (changed.length === 0) io.stdout.write('ask-later setup codex: nothing to change\n');
    for (const change of changed) io.stdout.write(`${describeChange(change)}\n`);
    return 0;
  }
  for (const change of changed) apply(change);
  if (changed.length === 0) {
    io.stdout.write(`ask-later setup codex: ${options.remove ? 'nothing of ask-later to remove' : 'already set up'}\n`);
  }
  for (const change of changed) {
    const done = change.after === undefined ? 'deleted' : change.before === undefined ? 'created' : 'updated';
    io.stdout.write(`ask-later setup codex: ${done} ${change.path} (${change.what})\n`);
  }
  if (!options.remove) for (const note of notes) io.stdout.write(`ask-later setup codex: ${note}\n`);
  return 0;
}
