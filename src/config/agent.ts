/**
 * The agent side's settings (the MCP server and the hook): the store and the project, parsed from the environment
 * once. Split from `serve.ts` so the hook, paid on every prompt, loads no zod (the serve side's routing file is
 * parsed with it); `serve.ts` re-exports everything here. Problems are one line each, naming the variable, what it
 * needs and what came (never a secret: URLs are described by their scheme only).
 */
import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import { TOKEN_PATTERN, TOKEN_SHAPE } from '../core/token-shape.js';
import type { AgentStoreLocation, StoreLocation } from '../store/open.js';
import { defaultDatabasePath } from '../store/sqlite/path.js';
import { ConfigError } from './config-error.js';
import { projectFromEnvironment } from './project.js';

export type { AgentStoreLocation, StoreLocation } from '../store/open.js';

export interface StoreConfig {
  readonly store: StoreLocation;
}

/** The agent side's store: the store itself, or serve's agent API (`ASK_LATER_URL` + `ASK_LATER_TOKEN`). */
export interface AgentStoreConfig {
  readonly store: AgentStoreLocation;
}

/**
 * Which outcomes a delivery path beyond the prompt carries: those of blocking questions (the default), every one,
 * or none (the path is off).
 */
export const DELIVERY_REACHES = ['blocking', 'all', 'off'] as const;
export type DeliveryReach = (typeof DELIVERY_REACHES)[number];

/**
 * What becomes of the questions an agent asks with its own tool (Claude Code's AskUserQuestion, and its plan
 * approval): parked in the inbox while the agent carries on (`park`), parked and held up to `seconds` for an answer
 * that then comes back as the tool's own result (`wait`), or left to the agent's terminal dialog (`terminal`).
 */
export type CaptureMode =
  | { readonly kind: 'park' }
  | { readonly kind: 'wait'; readonly seconds: number }
  | { readonly kind: 'terminal' };

/** The longest `wait:<seconds>`: the plugin's hook gives the call 130 s. */
export const CAPTURE_WAIT_MAX_SECONDS = 120;

export interface AgentConfig extends AgentStoreConfig {
  /** The project every question of this process belongs to (BRIEF "The project"). */
  readonly project: string;
  /** `ASK_LATER_WAKE`: which outcomes wake an idle session. */
  readonly wake: DeliveryReach;
  /** `ASK_LATER_MIDTURN`: which outcomes join the context at the agent's next tool call. */
  readonly midturn: DeliveryReach;
  /** `ASK_LATER_ASK_USER_QUESTION` (or the plugin's `ask_user_question` option): the agent's own questions. */
  readonly capture: CaptureMode;
  /** `ASK_LATER_DECIDED`: whether `ask_later` first looks for decisions taken before (`check`) or not (`off`). */
  readonly decided: DecidedCheck;
}

/** Whether `ask_later` looks for earlier decisions like a new question before it parks it. */
export type DecidedCheck = 'check' | 'off';

/** `ASK_LATER_DECIDED`: `check` (default) or `off`. */
export function loadDecidedCheck(env: Env): DecidedCheck {
  const raw = env.ASK_LATER_DECIDED?.trim().toLowerCase() ?? '';
  if (raw === '' || raw === 'check') return 'check';
  if (raw === 'off') return 'off';
  const shown = raw.length > 20 ? `${raw.length} characters` : JSON.stringify(raw);
  throw new ConfigError(`ASK_LATER_DECIDED must be check or off, got ${shown}`);
}

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Every environment variable ask-later reads, for checks that other files (docker-compose.yml, docs) name only
 * real settings. Keep it in step with the loaders (here and in `serve.ts`); `test/config/serve.test.ts` checks that each
 * one is read.
 */
export const CONFIG_VARIABLES = [
  'REDIS_URL',
  'ASK_LATER_REDIS_PREFIX',
  'ASK_LATER_URL',
  'ASK_LATER_TOKEN',
  'CLAUDE_PLUGIN_OPTION_SERVER_URL',
  'CLAUDE_PLUGIN_OPTION_TOKEN',
  'ASK_LATER_DB',
  'XDG_STATE_HOME',
  'HOME',
  'ASK_LATER_PROJECT',
  'CLAUDE_PROJECT_DIR',
  'ASK_LATER_WAKE',
  'ASK_LATER_MIDTURN',
  'ASK_LATER_ASK_USER_QUESTION',
  'CLAUDE_PLUGIN_OPTION_ASK_USER_QUESTION',
  'ASK_LATER_DECIDED',
  'ASK_LATER_STATUS_DEADLINE_MS',
  'ASK_LATER_HOOK_DEADLINE_MS',
  'PORT',
  'ASK_LATER_HOST',
  'ASK_LATER_WEB_TOKEN',
  'ASK_LATER_PUBLIC_URL',
  'SLACK_BOT_TOKEN',
  'SLACK_APP_TOKEN',
  'SLACK_SIGNING_SECRET',
  'SLACK_CHANNEL',
  'SLACK_API_URL',
  'SLACK_ALLOWED_USERS',
  'DISCORD_TOKEN',
  'DISCORD_CHANNEL',
  'DISCORD_GUILD_ID',
  'DISCORD_API_URL',
  'DISCORD_ALLOWED_USERS',
  'DISCORD_ALLOWED_ROLES',
  'TELEGRAM_BOT_TOKEN',
  'TELEGRAM_CHAT',
  'TELEGRAM_API_URL',
  'TELEGRAM_ALLOWED_USERS',
  'ASK_LATER_CONFIG',
  'ASK_LATER_METRICS_PROJECTS',
  'ASK_LATER_RETENTION_DAYS',
  'ASK_LATER_REMIND_AFTER',
] as const;

export function describeUrl(value: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1];
  return scheme ? `a ${scheme}: URL` : 'something that is not a URL';
}

/**
 * The store settings: `REDIS_URL` (and `ASK_LATER_REDIS_PREFIX`) for Redis; without it the embedded store at
 * `ASK_LATER_DB`, else `$XDG_STATE_HOME/ask-later/inbox.db`, else `~/.local/state/ask-later/inbox.db`.
 */
export function loadStoreConfig(env: Env, home: () => string = homedir): StoreConfig {
  // `home` is asked only when the environment has no absolute HOME (it reads the OS user database).
  const raw = env.REDIS_URL?.trim();
  if (!raw && env.ASK_LATER_URL?.trim()) {
    // Without this, the command would open this machine's embedded file instead of the team's inbox.
    throw new ConfigError(
      "this command works on the store itself: set REDIS_URL (ASK_LATER_URL reaches serve's agent API, which offers only what agents need)",
    );
  }
  if (!raw) return Object.freeze({ store: Object.freeze({ kind: 'sqlite', path: databasePath(env, home) }) });
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL, got ${describeUrl(raw)}`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL, got ${describeUrl(raw)}`);
  }
  const prefix = env.ASK_LATER_REDIS_PREFIX?.trim() || 'al';
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(prefix)) {
    throw new ConfigError(
      `ASK_LATER_REDIS_PREFIX must be 1–64 letters, digits or _ . : - (no braces), got ${prefix.length} characters`,
    );
  }
  return Object.freeze({ store: Object.freeze({ kind: 'redis', url: raw, prefix }) });
}

/**
 * The agent side's store (the MCP server, the hook, the status line, the waiter). Serve's agent API when a URL and
 * a token are given: `ASK_LATER_URL` and `ASK_LATER_TOKEN`, else the plugin's settings (`server_url`, `token`,
 * which Claude Code hands its hooks and, through `.mcp.json`, its MCP server as `CLAUDE_PLUGIN_OPTION_*`); each
 * variable wins over the plugin's setting. Otherwise as {@link loadStoreConfig}: `REDIS_URL`, else the embedded file.
 * `REDIS_URL` wins over the plugin's settings; with `ASK_LATER_URL` in the same environment it is a config error
 * (two stores: which one is meant cannot be guessed).
 */
export function loadAgentStoreConfig(env: Env, home: () => string = homedir): AgentStoreConfig {
  const redis = env.REDIS_URL?.trim();
  const envUrl = env.ASK_LATER_URL?.trim();
  if (redis && envUrl) {
    throw new ConfigError(
      "REDIS_URL and ASK_LATER_URL are both set: set REDIS_URL for the store itself, or ASK_LATER_URL and ASK_LATER_TOKEN for serve's agent API, not both",
    );
  }
  if (redis) return loadStoreConfig(env, home);
  const envToken = env.ASK_LATER_TOKEN?.trim();
  const pluginUrl = env.CLAUDE_PLUGIN_OPTION_SERVER_URL?.trim();
  const pluginToken = env.CLAUDE_PLUGIN_OPTION_TOKEN?.trim();
  const url = envUrl || pluginUrl;
  const token = envToken || pluginToken;
  if (!url && !token) return loadStoreConfig(env, home);
  const urlName = envUrl ? 'ASK_LATER_URL' : "the plugin's server_url setting";
  const tokenName = envToken ? 'ASK_LATER_TOKEN' : "the plugin's token setting";
  if (!url) {
    throw new ConfigError(`ASK_LATER_URL must be set with ${tokenName}: the URL of ask-later serve`);
  }
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new ConfigError(`${urlName} must be an http:// or https:// URL of ask-later serve, got ${describeUrl(url)}`);
  }
  if (!token) {
    throw new ConfigError(`ASK_LATER_TOKEN must be set with ${urlName}: a token from \`ask-later token create\``);
  }
  if (!TOKEN_PATTERN.test(token)) {
    throw new ConfigError(
      `${tokenName} must be a token from \`ask-later token create\` (${TOKEN_SHAPE}), got ${token.length} characters that are not one`,
    );
  }
  return Object.freeze({ store: Object.freeze({ kind: 'http', url, token }) });
}

/**
 * The embedded store's file. It must not depend on the working directory: the MCP server and the hook run in each
 * project's directory and must all find the one file `serve` reads.
 */
function databasePath(env: Env, home: () => string): string {
  const explicit = env.ASK_LATER_DB?.trim();
  if (explicit && !isAbsolute(explicit)) {
    throw new ConfigError(
      `ASK_LATER_DB must be an absolute path (every project's session must find the same file), got ${JSON.stringify(explicit.slice(0, 60))}`,
    );
  }
  let dir = env.HOME?.trim() ?? '';
  if (!isAbsolute(dir)) {
    try {
      dir = home();
    } catch {
      dir = '';
    }
  }
  const state = env.XDG_STATE_HOME?.trim();
  if (!explicit && !(state && isAbsolute(state)) && !isAbsolute(dir)) {
    throw new ConfigError(
      'the embedded store needs a home directory (HOME is not set): set ASK_LATER_DB to the database file, or REDIS_URL',
    );
  }
  return defaultDatabasePath(env, dir);
}

/** How a store location reads in messages: never a URL's credentials, never a token. */
export function describeStore(location: AgentStoreLocation): string {
  if (location.kind === 'http') return `ask-later serve at ${describeServeUrl(location.url)} (agent token)`;
  return location.kind === 'redis'
    ? `Redis from REDIS_URL (key prefix ${location.prefix})`
    : `the embedded store at ${location.path}`;
}

/** Serve's URL without credentials, path or query: scheme, host and port. */
export function describeServeUrl(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return describeUrl(url);
  }
}

/** `ASK_LATER_WAKE` / `ASK_LATER_MIDTURN`: blocking (default), all or off. */
export function loadDeliveryReach(
  name: 'ASK_LATER_WAKE' | 'ASK_LATER_MIDTURN',
  value: string | undefined,
): DeliveryReach {
  const raw = value?.trim().toLowerCase() ?? '';
  if (raw === '') return 'blocking';
  if ((DELIVERY_REACHES as readonly string[]).includes(raw)) return raw as DeliveryReach;
  const shown = raw.length > 20 ? `${raw.length} characters` : JSON.stringify(raw);
  throw new ConfigError(`${name} must be blocking, all or off, got ${shown}`);
}

/**
 * `ASK_LATER_ASK_USER_QUESTION`, else the plugin's option (`CLAUDE_PLUGIN_OPTION_ASK_USER_QUESTION`, "" when unset):
 * `park` (default), `wait:<seconds>` (1 to {@link CAPTURE_WAIT_MAX_SECONDS}) or `terminal`.
 */
export function loadCaptureMode(env: Env): CaptureMode {
  const own = env.ASK_LATER_ASK_USER_QUESTION?.trim() ?? '';
  const name = own !== '' ? 'ASK_LATER_ASK_USER_QUESTION' : "the plugin's ask_user_question option";
  const raw = (own !== '' ? own : (env.CLAUDE_PLUGIN_OPTION_ASK_USER_QUESTION?.trim() ?? '')).toLowerCase();
  if (raw === '' || raw === 'park') return { kind: 'park' };
  if (raw === 'terminal') return { kind: 'terminal' };
  const seconds = /^wait:(\d{1,3})$/.exec(raw)?.[1];
  if (seconds !== undefined && Number(seconds) >= 1 && Number(seconds) <= CAPTURE_WAIT_MAX_SECONDS) {
    return { kind: 'wait', seconds: Number(seconds) };
  }
  const shown = raw.length > 20 ? `${raw.length} characters` : JSON.stringify(raw);
  throw new ConfigError(
    `${name} must be park, wait:<seconds> (1 to ${CAPTURE_WAIT_MAX_SECONDS}) or terminal, got ${shown}`,
  );
}

/** How a capture mode reads in `doctor` and messages: `park`, `wait:30`, `terminal`. */
export function describeCaptureMode(mode: CaptureMode): string {
  return mode.kind === 'wait' ? `wait:${mode.seconds}` : mode.kind;
}

/**
 * The deadlines that can be set, and their ranges in ms: by when, from its process start, the command is done (a
 * store that has not answered by then is given up on). The hook's stays under its claim's 5 s lease, so a lease
 * only lapses when a hook died.
 */
export const DEADLINE_SETTINGS = {
  ASK_LATER_STATUS_DEADLINE_MS: { min: 100, max: 10_000 },
  ASK_LATER_HOOK_DEADLINE_MS: { min: 500, max: 4000 },
} as const;

/** A deadline setting's value, or undefined when unset (for the command's default). */
export function loadDeadline(env: Env, name: keyof typeof DEADLINE_SETTINGS): number | undefined {
  // Each read named in full (test/config/serve.test.ts finds the settings read by their names).
  const value =
    name === 'ASK_LATER_HOOK_DEADLINE_MS' ? env.ASK_LATER_HOOK_DEADLINE_MS : env.ASK_LATER_STATUS_DEADLINE_MS;
  const raw = value?.trim() ?? '';
  if (raw === '') return undefined;
  const { min, max } = DEADLINE_SETTINGS[name];
  const ms = /^\d{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
  if (ms >= min && ms <= max) return ms;
  const shown = raw.length > 20 ? `${raw.length} characters` : JSON.stringify(raw);
  throw new ConfigError(`${name} must be a whole number of milliseconds from ${min} to ${max}, got ${shown}`);
}

/**
 * Each agent-side setting's own parser, the very ones {@link loadAgentConfig} and the hook's deadline use, so that
 * `doctor` can run them one by one and list every problem.
 */
export function agentSettingParsers(env: Env): (() => unknown)[] {
  return [
    () => loadAgentStoreConfig(env),
    () => loadDeliveryReach('ASK_LATER_WAKE', env.ASK_LATER_WAKE),
    () => loadDeliveryReach('ASK_LATER_MIDTURN', env.ASK_LATER_MIDTURN),
    () => loadCaptureMode(env),
    () => loadDecidedCheck(env),
    () => loadDeadline(env, 'ASK_LATER_HOOK_DEADLINE_MS'),
    () => loadDeadline(env, 'ASK_LATER_STATUS_DEADLINE_MS'),
  ];
}

/** Settings of the agent-side commands (MCP server, hooks, waiter): the store, the project, the delivery paths. */
export function loadAgentConfig(env: Env, cwd: string): AgentConfig {
  return Object.freeze({
    ...loadAgentStoreConfig(env),
    project: projectFromEnvironment(env, cwd),
    wake: loadDeliveryReach('ASK_LATER_WAKE', env.ASK_LATER_WAKE),
    midturn: loadDeliveryReach('ASK_LATER_MIDTURN', env.ASK_LATER_MIDTURN),
    capture: loadCaptureMode(env),
    decided: loadDecidedCheck(env),
  });
}
