/**
 * Whether the agent side looks installed on this machine: the ask-later plugin enabled in Claude Code, or by hand a
 * `UserPromptSubmit` hook running `hook.cjs` / `ask-later hook` (or `collect_answers` as an `mcp_tool` hook) plus an
 * MCP server named `ask-later`; and then which delivery paths it gives (prompt, tool call, wake, with
 * `ASK_LATER_MIDTURN` / `ASK_LATER_WAKE` as Claude Code passes them, else as this environment sets them). Only files
 * are read (Claude Code's settings under the home directory, and the project's in the working directory). Never a
 * failure: the agents may run on another machine than `ask-later serve`.
 */
import { readFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import {
  type DeliveryReach,
  describeCaptureMode,
  describePermissionMode,
  describeStore,
  loadCaptureMode,
  loadDeliveryReach,
  loadPermissionMode,
  type PermissionMode,
  type StoreLocation,
} from '../../config/agent.js';
import { ConfigError } from '../../config/config-error.js';
import { type CheckLine, ok, warn } from './check.js';

export interface ClaudeCodeOptions {
  /** The home directory (`~`). */
  readonly home: string;
  /** The working directory: its `.claude/settings*.json` and `.mcp.json` count as a project install. */
  readonly cwd: string;
  /**
   * This machine's store, compared with the one Claude Code is given, if any: Redis by `REDIS_URL` (never
   * printed), the embedded store by `ASK_LATER_DB` (and a `REDIS_URL` given to Claude Code means another store).
   */
  readonly store?: StoreLocation;
  /** This environment: the delivery settings when Claude Code's settings do not set them. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

type Json = Record<string, unknown>;

interface SettingsFile {
  readonly path: string;
  readonly json: Json;
}

function object(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

/** A JSON file's object; undefined when absent; 'invalid' when it does not parse. */
async function readJson(path: string): Promise<Json | 'invalid' | undefined> {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return object(JSON.parse(raw)) ?? 'invalid';
  } catch {
    return 'invalid';
  }
}

const HOOK_COMMAND = /hook\.cjs|(?:ask-later(?:\.mjs)?|[\\/]dist[\\/]cli\.js)["']?\s+hook\b/;

const WAIT_COMMAND = /(?:ask-later(?:\.mjs)?|[\\/]dist[\\/]cli\.js)["']?\s+wait\b/;

/** The hooks of one event in a settings file. */
function hooksOf(settings: Json, event: string): Json[] {
  const groups = object(settings.hooks)?.[event];
  if (!Array.isArray(groups)) return [];
  return groups.flatMap((group) => {
    const hooks = object(group)?.hooks;
    return Array.isArray(hooks) ? hooks.map(object).filter((hook): hook is Json => hook !== undefined) : [];
  });
}

const callsCollect = (hook: Json) => hook.type === 'mcp_tool' && hook.tool === 'collect_answers';

/** Whether the file's `hooks.UserPromptSubmit` delivers answers: the ask-later hook command or `collect_answers`. */
function hasHook(settings: Json): boolean {
  return hooksOf(settings, 'UserPromptSubmit').some(
    (hook) => HOOK_COMMAND.test(String(hook.command ?? '')) || callsCollect(hook),
  );
}

/** The delivery paths a by-hand install wires beyond the prompt. */
function handWired(settings: readonly SettingsFile[]): { toolCall: boolean; wake: boolean } {
  return {
    toolCall: settings.some((file) => hooksOf(file.json, 'PostToolUse').some(callsCollect)),
    wake: settings.some((file) =>
      ['SessionStart', 'Stop'].some((event) =>
        hooksOf(file.json, event).some((hook) => WAIT_COMMAND.test(String(hook.command ?? ''))),
      ),
    ),
  };
}

/** Whether a by-hand install has a PreToolUse hook that captures AskUserQuestion (the command or the MCP tool). */
function captureWired(settings: readonly SettingsFile[]): boolean {
  return settings.some((file) =>
    hooksOf(file.json, 'PreToolUse').some(
      (hook) =>
        (hook.type === 'mcp_tool' && hook.tool === 'capture_question') ||
        (hook.type === 'command' &&
          /(?:ask-later\.mjs|[\\/]dist[\\/]cli\.js)["']?\s+hook\b/.test(String(hook.command ?? ''))),
    ),
  );
}

/**
 * The line saying what becomes of the agent's own AskUserQuestion calls and plan approvals: the mode
 * (`ASK_LATER_ASK_USER_QUESTION` from Claude Code's settings `env`, else this environment), and whether a hook
 * captures them at all.
 */
function captureLine(
  wired: boolean,
  settings: readonly SettingsFile[],
  env: Readonly<Record<string, string | undefined>>,
): CheckLine {
  if (!wired) {
    return ok(
      'Claude Code: AskUserQuestion and plan approvals: not captured, they stay in the terminal (no PreToolUse hook running ask-later hook or calling capture_question; README: What the agent gets)',
    );
  }
  const given = settings
    .map((file) => object(file.json.env)?.ASK_LATER_ASK_USER_QUESTION)
    .find((value) => typeof value === 'string');
  let mode: ReturnType<typeof loadCaptureMode>;
  try {
    mode = loadCaptureMode({
      ...env,
      ...(typeof given === 'string' ? { ASK_LATER_ASK_USER_QUESTION: given } : {}),
    });
  } catch (error) {
    if (error instanceof ConfigError) return warn(`Claude Code: ${error.message}`);
    throw error;
  }
  const what =
    mode.kind === 'park'
      ? 'parked in the inbox, the agent carries on'
      : mode.kind === 'wait'
        ? `parked, the call held up to ${mode.seconds} s for an answer`
        : "left to Claude Code's dialog";
  return ok(`Claude Code: AskUserQuestion and plan approvals: ${what} (${describeCaptureMode(mode)})`);
}

/** The line saying what becomes of permission prompts (the plugin's PermissionRequest hook; `ASK_LATER_PERMISSIONS`). */
function permissionsLine(
  settings: readonly SettingsFile[],
  env: Readonly<Record<string, string | undefined>>,
): CheckLine {
  const given = settings
    .map((file) => object(file.json.env)?.ASK_LATER_PERMISSIONS)
    .find((value) => typeof value === 'string');
  let mode: PermissionMode;
  try {
    mode = loadPermissionMode({ ...env, ...(typeof given === 'string' ? { ASK_LATER_PERMISSIONS: given } : {}) });
  } catch (error) {
    if (error instanceof ConfigError) return warn(`Claude Code: ${error.message}`);
    throw error;
  }
  const what =
    mode.kind === 'race'
      ? `the terminal and the inbox race, parked after ${mode.seconds} s with nobody answering`
      : mode.kind === 'wait'
        ? `posted to the inbox, held up to ${mode.seconds} s`
        : mode.kind === 'park'
          ? 'posted to the inbox and parked at once'
          : "left to Claude Code's dialog";
  return ok(`Claude Code: permission prompts: ${what} (${describePermissionMode(mode)})`);
}

/**
 * The line saying how answers reach the agent. `wired`: which paths the install has beyond the prompt; the
 * settings (Claude Code's `env` first, most specific file first, else this environment) say which outcomes each
 * carries.
 */
function deliveryLine(
  wired: { toolCall: boolean; wake: boolean },
  settings: readonly SettingsFile[],
  env: Readonly<Record<string, string | undefined>>,
): CheckLine {
  const reachOf = (name: 'ASK_LATER_MIDTURN' | 'ASK_LATER_WAKE'): DeliveryReach | string => {
    const given = settings.map((file) => object(file.json.env)?.[name]).find((value) => typeof value === 'string');
    try {
      return loadDeliveryReach(name, typeof given === 'string' ? given : env[name]);
    } catch (error) {
      if (error instanceof ConfigError) return error.message;
      throw error;
    }
  };
  const midturn = reachOf('ASK_LATER_MIDTURN');
  const wake = reachOf('ASK_LATER_WAKE');
  for (const problem of [midturn, wake]) {
    if (problem !== 'blocking' && problem !== 'all' && problem !== 'off') {
      return warn(`Claude Code: ${problem} — every ask-later tool and hook refuses to work until it is fixed`);
    }
  }
  const path = (what: string, on: boolean, reach: string, variable: string, hooks: string) => {
    if (!on) return `${what}: not set up (${hooks}; README: Claude Code)`;
    if (reach === 'off') return `${what}: off (${variable}=off)`;
    return `${what} (${reach === 'all' ? 'every answer' : 'answers to blocking questions'})`;
  };
  return ok(
    [
      'Claude Code: answers reach the agent with the next prompt',
      path(
        'at its next tool call',
        wired.toolCall,
        midturn,
        'ASK_LATER_MIDTURN',
        'no PostToolUse hook calling collect_answers',
      ),
      path(
        'by waking an idle session',
        wired.wake,
        wake,
        'ASK_LATER_WAKE',
        'no SessionStart/Stop hook running ask-later wait',
      ),
    ].join('; '),
  );
}

/** The `ask-later` entry of an `mcpServers` map, if any. */
function mcpServer(holder: Json | undefined): Json | undefined {
  return object(object(holder?.mcpServers)?.['ask-later']);
}

/** `true`/`false` when the file enables or disables an `ask-later@…` plugin; undefined when it does not say. */
function pluginEnabled(settings: Json): boolean | undefined {
  const enabled = object(settings.enabledPlugins);
  if (!enabled) return undefined;
  const key = Object.keys(enabled).find((name) => name.startsWith('ask-later@'));
  return key === undefined ? undefined : enabled[key] === true;
}

function variableOf(env: unknown, name: 'REDIS_URL' | 'ASK_LATER_DB'): string | undefined {
  const value = object(env)?.[name];
  return typeof value === 'string' ? value.trim() : undefined;
}

/** The store settings Claude Code passes to the agent side (settings `env`, the MCP server's `env`). */
interface GivenStore {
  readonly redisUrls: string[];
  readonly databases: string[];
}

function collect(given: GivenStore, env: unknown): void {
  const url = variableOf(env, 'REDIS_URL');
  if (url !== undefined) given.redisUrls.push(url);
  const database = variableOf(env, 'ASK_LATER_DB');
  if (database !== undefined) given.databases.push(database);
}

/** A ⚠ when Claude Code's settings point the agents at another store than this machine's settings. */
function storeMismatch(store: StoreLocation, given: GivenStore): CheckLine | undefined {
  const where = "(settings env or the MCP server's env)";
  if (store.kind === 'redis') {
    if (!given.redisUrls.some((url) => url !== store.url)) return undefined;
    return warn(
      `Claude Code: its REDIS_URL ${where} differs from this one — the agents and ask-later serve must share one Redis`,
    );
  }
  // A blank REDIS_URL is unset (the embedded store), as the config reads it.
  if (given.redisUrls.some((url) => url !== '')) {
    return warn(
      `Claude Code: its REDIS_URL ${where} sends the agents to Redis, but here REDIS_URL is not set (${describeStore(store)}) — the agents and ask-later serve must share one store: set the same REDIS_URL here, or remove it from Claude Code's settings`,
    );
  }
  const other = given.databases.find((path) => path !== '' && resolve(path) !== resolve(store.path));
  if (other !== undefined) {
    return warn(
      `Claude Code: its ASK_LATER_DB ${where} is ${other}, but here the embedded store is at ${store.path} — the agents and ask-later serve must share one file: set the same ASK_LATER_DB on both sides`,
    );
  }
  return undefined;
}

export async function checkClaudeCode(options: ClaudeCodeOptions): Promise<CheckLine[]> {
  const shown = (path: string): string => {
    const inHome = relative(options.home, path);
    if (!inHome.startsWith('..') && !inHome.startsWith(sep)) return `~/${inHome.split(sep).join('/')}`;
    return path;
  };
  const lines: CheckLine[] = [];
  // Most specific first, as Claude Code ranks them: local, project, user.
  const settingsPaths = [
    join(options.cwd, '.claude', 'settings.local.json'),
    join(options.cwd, '.claude', 'settings.json'),
    join(options.home, '.claude', 'settings.json'),
  ];
  const settings: SettingsFile[] = [];
  for (const path of [...new Set(settingsPaths)]) {
    const json = await readJson(path);
    if (json === 'invalid')
      lines.push(warn(`Claude Code: ${shown(path)} is not valid JSON — Claude Code cannot read it; fix it`));
    else if (json) settings.push({ path, json });
  }
  const userConfigPath = join(options.home, '.claude.json');
  const userConfig = await readJson(userConfigPath);
  const projectMcpPath = join(options.cwd, '.mcp.json');
  const projectMcp = await readJson(projectMcpPath);
  const installed = await readJson(join(options.home, '.claude', 'plugins', 'installed_plugins.json'));

  const given: GivenStore = { redisUrls: [], databases: [] };
  for (const file of settings) collect(given, file.json.env);

  const enabledIn = settings.find((file) => pluginEnabled(file.json) !== undefined);
  const isInstalled =
    typeof installed === 'object' &&
    Object.keys(object(installed.plugins) ?? {}).some((name) => name.startsWith('ask-later@'));
  const hookIn = settings.find((file) => hasHook(file.json));
  const userJson = typeof userConfig === 'object' ? userConfig : undefined;
  const projectEntry = object(object(userJson?.projects)?.[options.cwd]);
  const mcpSources: [Json | undefined, string][] = [
    [mcpServer(typeof projectMcp === 'object' ? projectMcp : undefined), shown(projectMcpPath)],
    [mcpServer(projectEntry), shown(userConfigPath)],
    [mcpServer(userJson), shown(userConfigPath)],
    ...settings.map((file): [Json | undefined, string] => [mcpServer(file.json), shown(file.path)]),
  ];
  const mcp = mcpSources.find(([entry]) => entry !== undefined);
  if (mcp) collect(given, mcp[0]?.env);

  if (enabledIn && pluginEnabled(enabledIn.json) === false) {
    lines.push(
      warn(
        `Claude Code: the ask-later plugin is disabled in ${shown(enabledIn.path)} — claude plugin enable ask-later@ask-later`,
      ),
    );
  } else if (enabledIn || isInstalled) {
    const where = enabledIn ? shown(enabledIn.path) : '~/.claude/plugins/installed_plugins.json';
    lines.push(ok(`Claude Code: the ask-later plugin is enabled (${where})`));
    lines.push(deliveryLine({ toolCall: true, wake: true }, settings, options.env ?? {}));
    lines.push(captureLine(true, settings, options.env ?? {}));
    lines.push(permissionsLine(settings, options.env ?? {}));
  } else if (hookIn && mcp) {
    lines.push(
      ok(`Claude Code: the prompt hook (${shown(hookIn.path)}) and the MCP server ask-later (${mcp[1]}) are set up`),
    );
    lines.push(deliveryLine(handWired(settings), settings, options.env ?? {}));
    lines.push(captureLine(captureWired(settings), settings, options.env ?? {}));
  } else if (hookIn) {
    lines.push(
      warn(
        `Claude Code: the prompt hook is set up (${shown(hookIn.path)}) but no MCP server ask-later — the agent cannot park questions: claude mcp add --scope user ask-later -- node /abs/path/ask-later/dist/cli.js mcp`,
      ),
    );
  } else if (mcp) {
    lines.push(
      warn(
        `Claude Code: the MCP server ask-later is set up (${mcp[1]}) but no UserPromptSubmit hook running ask-later hook — answers will not reach the agent: add the hook (README: Claude Code → By hand)`,
      ),
    );
  } else if (options.store?.kind === 'sqlite') {
    // The embedded store is this machine's: the agents must run here to reach it.
    lines.push(
      warn(
        'Claude Code: the ask-later plugin or hook was not found on this machine — add it with the two claude commands `ask-later serve` prints (claude plugin marketplace add …, claude plugin install ask-later@ask-later)',
      ),
    );
  } else {
    lines.push(
      warn(
        'Claude Code: the ask-later plugin or hook was not found on this machine — claude plugin install ask-later@ask-later (fine if the agents run on another machine)',
      ),
    );
  }
  const mismatch = options.store !== undefined ? storeMismatch(options.store, given) : undefined;
  if (mismatch) lines.push(mismatch);
  return lines;
}
