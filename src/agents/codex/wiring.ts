/**
 * What `ask-later setup codex` writes into Codex's `config.toml`, how ask-later's part is found again, and how it is
 * taken out. Pure: text in, text out (`toml-text.ts` does the line work).
 *
 * ask-later's part, appended as whole tables:
 * - `[mcp_servers.ask-later]`: `node <cli> mcp`, with the store's settings passed through from Codex's environment
 *   (`env_vars`: Codex gives MCP servers only a few variables of its own), its tools approved without asking;
 * - one `[[hooks.<event>]]` group per event, each running `node <cli> hook`: `UserPromptSubmit` (answers with the
 *   next prompt), `PostToolUse` (blocking answers with the next tool result), `PreToolUse` on `request_user_input`
 *   (Codex's own question, parked);
 * - `[hooks.state."<key>"]` with each hook's `trusted_hash`, in the user's `config.toml` (Codex reads trust from
 *   there only), so Codex runs them without asking for a review.
 */
import { type DueKind, dueShellPrefix } from '../hooks/due-marker.js';
import { type CodexHookEvent, trustedHash, trustKey } from './hook-trust.js';
import { type Section, sectionsOf, type TomlTable, tomlKey, tomlString, withoutSections } from './toml-text.js';

/** The name Codex knows ask-later's MCP server by (its tools reach the model as `mcp__ask_later`). */
export const MCP_SERVER = 'ask-later';

/** The absolute paths the hooks and the MCP server run: Node and ask-later's CLI (`dist/cli.js`, or a bundle). */
export interface Wiring {
  readonly node: string;
  readonly cli: string;
}

/** The agent side's settings, passed through to the MCP server when Codex's environment has them. */
export const PASSED_VARIABLES = [
  'REDIS_URL',
  'ASK_LATER_REDIS_PREFIX',
  'ASK_LATER_URL',
  'ASK_LATER_TOKEN',
  'ASK_LATER_DB',
  'XDG_STATE_HOME',
  'ASK_LATER_PROJECT',
  'ASK_LATER_DECIDED',
  // Where the due markers are (hooks/due-marker.ts): the MCP server keeps them, the hooks read them.
  'XDG_CACHE_HOME',
] as const;

/**
 * The hooks, in the order they are written. The prompt and tool hooks bound themselves well under 10 s, and first
 * ask the due markers in `sh` whether anything is due (`due`: which marker), so that Node starts only then.
 */
export const HOOKS: readonly {
  readonly event: CodexHookEvent;
  readonly matcher?: string;
  readonly timeout: number;
  readonly due?: DueKind;
}[] = [
  { event: 'UserPromptSubmit', timeout: 10, due: 'any' },
  { event: 'PostToolUse', timeout: 10, due: 'blocking' },
  { event: 'PreToolUse', matcher: 'request_user_input', timeout: 30 },
];

/** A POSIX shell word: as is when it is plain, else single-quoted. */
export function shellWord(value: string): string {
  return /^[A-Za-z0-9_/.:@%+=,-]+$/.test(value) ? value : `'${value.replaceAll("'", `'"'"'`)}'`;
}

/** The command a hook runs: `node <cli> hook`, after the due check of `due` when it has one. */
export function hookCommand(wiring: Wiring, due?: DueKind): string {
  const command = `${shellWord(wiring.node)} ${shellWord(wiring.cli)} hook`;
  return due === undefined ? command : `${dueShellPrefix(due)} ${command}`;
}

/** A hook command that is ask-later's: `… ask-later hook`, `… dist/cli.js hook`, `… ask-later.mjs hook`, `… hook.cjs`. */
const OUR_COMMAND = /(?:ask-later(?:\.mjs)?|[\\/]dist[\\/]cli\.js)['"]?\s+hook\s*$|hook\.cjs['"]?\s*$/;

export function isOurCommand(command: unknown): boolean {
  return typeof command === 'string' && OUR_COMMAND.test(command);
}

function array(value: readonly string[]): string {
  return `[${value.map(tomlString).join(', ')}]`;
}

/** `[mcp_servers.ask-later]`. */
export function mcpTable(wiring: Wiring): string {
  return [
    `[mcp_servers.${tomlKey(MCP_SERVER)}]`,
    `command = ${tomlString(wiring.node)}`,
    `args = ${array([wiring.cli, 'mcp'])}`,
    `env_vars = ${array(PASSED_VARIABLES)}`,
    'default_tools_approval_mode = "approve"',
    '',
  ].join('\n');
}

/** One `[[hooks.<event>]]` group per hook. */
export function hookTables(wiring: Wiring): string[] {
  return HOOKS.map((hook) =>
    [
      `[[hooks.${hook.event}]]`,
      ...(hook.matcher === undefined ? [] : [`matcher = ${tomlString(hook.matcher)}`]),
      `[[hooks.${hook.event}.hooks]]`,
      'type = "command"',
      `command = ${tomlString(hookCommand(wiring, hook.due))}`,
      `timeout = ${hook.timeout}`,
      '',
    ].join('\n'),
  );
}

/** `[hooks.state."<key>"]`. */
export function trustTable(entry: TrustEntry): string {
  return [`[hooks.state.${tomlString(entry.key)}]`, `trusted_hash = ${tomlString(entry.hash)}`, ''].join('\n');
}

export interface TrustEntry {
  readonly key: string;
  readonly hash: string;
}

function object(value: unknown): TomlTable | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as TomlTable) : undefined;
}

/** The hook groups of one event in a parsed config (`[[hooks.<event>]]`), or [] when there are none. */
function groupsOf(doc: TomlTable, event: string): unknown[] {
  const groups = object(doc.hooks)?.[event];
  return Array.isArray(groups) ? groups : [];
}

/** Whether a group holds ask-later's hook alone (one command hook or more, each `… ask-later hook`). */
function isOurGroup(group: unknown): boolean {
  const hooks = object(group)?.hooks;
  return (
    Array.isArray(hooks) &&
    hooks.length > 0 &&
    hooks.every((hook) => object(hook)?.type === 'command' && isOurCommand(object(hook)?.command))
  );
}

/** Per event, the indices of ask-later's groups in a parsed config. */
export function ourGroups(doc: TomlTable): Map<string, number[]> {
  const found = new Map<string, number[]>();
  for (const event of Object.keys(object(doc.hooks) ?? {})) {
    const indices = groupsOf(doc, event).flatMap((group, index) => (isOurGroup(group) ? [index] : []));
    if (indices.length > 0) found.set(event, indices);
  }
  return found;
}

/** The trust keys of ask-later's hooks in a parsed config that lives at `file`. */
export function ourTrustKeys(doc: TomlTable, file: string): Set<string> {
  const keys = new Set<string>();
  for (const [event, indices] of ourGroups(doc)) {
    for (const index of indices) {
      const hooks = object(groupsOf(doc, event)[index])?.hooks as unknown[];
      for (let handler = 0; handler < hooks.length; handler++) keys.add(trustKey(file, event, index, handler));
    }
  }
  return keys;
}

/** The number of hook groups each event already has in a parsed config. */
export function groupCounts(doc: TomlTable): Map<string, number> {
  return new Map(HOOKS.map((hook) => [hook.event, groupsOf(doc, hook.event).length]));
}

/** The trust entries for the hooks {@link hookTables} writes after `counts` existing groups, in the file `file`. */
export function trustEntries(wiring: Wiring, file: string, counts: ReadonlyMap<string, number>): TrustEntry[] {
  return HOOKS.map((hook) => ({
    key: trustKey(file, hook.event, counts.get(hook.event) ?? 0, 0),
    hash: trustedHash(hook.event, hook.matcher, { command: hookCommand(wiring, hook.due), timeout: hook.timeout }),
  }));
}

/** What to take out of a config: its MCP server, its hook groups (found in `doc`), trust entries by key. */
export interface Removal {
  readonly mcp: boolean;
  readonly hooks: boolean;
  readonly trustKeys: ReadonlySet<string>;
}

/** `text` (parsed as `doc`) without ask-later's part as `removal` names it. */
export function withoutAskLater(text: string, doc: TomlTable, removal: Removal): string {
  const groups = removal.hooks ? ourGroups(doc) : new Map<string, number[]>();
  const { sections } = sectionsOf(text);
  const drop = new Set<number>();
  // The group each `[[hooks.<event>]]` section opened, for the sub-tables that follow it.
  const current = new Map<string, number>();
  for (const section of sections) {
    if (isDropped(section, removal, groups, current)) drop.add(section.start);
  }
  return withoutSections(text, (section: Section) => drop.has(section.start));
}

function isDropped(
  section: Section,
  removal: Removal,
  groups: ReadonlyMap<string, number[]>,
  current: Map<string, number>,
): boolean {
  const [root, name, ...rest] = section.header.path;
  if (root === 'mcp_servers' && name === MCP_SERVER) return removal.mcp;
  if (root !== 'hooks' || name === undefined) return false;
  if (name === 'state') return rest.length === 1 && removal.trustKeys.has(rest[0] as string);
  if (rest.length === 0 && section.header.array) current.set(name, section.index);
  const group = current.get(name);
  return group !== undefined && (groups.get(name)?.includes(group) ?? false);
}
