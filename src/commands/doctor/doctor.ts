/**
 * `ask-later doctor`: every setting through the parser the part that reads it uses, each problem its own line (not
 * only the first); then the store (Redis, or the embedded SQLite file, and the events the bridge gave up on), in the
 * embedded setup whether serve answers at its address (`serve.ts`), Slack, Discord, Telegram, the Claude Code,
 * Codex and OpenCode installs; on an agent machine set up for HTTP, serve, the token and the installs instead
 * (`agent-http.ts`). Checks run at the same time, each network call bounded by a time-out. One line per check, in a
 * fixed order; `fail` lines make the exit non-zero, `warn` lines do not (see `check.ts`).
 */
import { isIPv6 } from 'node:net';
import { homedir } from 'node:os';
import { type AgentStoreLocation, agentSettingParsers, loadAgentStoreConfig } from '../../config/agent.js';
import { ConfigError } from '../../config/config-error.js';
import { settingProblems } from '../../config/problems.js';
import { projectFromEnvironment } from '../../config/project.js';
import {
  describeStore,
  loadHostOr,
  loadPort,
  loadServeConfig,
  loadStoreConfig,
  type ServeConfig,
  type StoreConfig,
  serveSettingParsers,
} from '../../config/serve.js';
import type { HttpStoreLocation } from '../../store/open.js';
import { checkAgentHttp } from './agent-http.js';
import { type CheckLine, fail, NETWORK_TIMEOUT_MS, ok } from './check.js';
import { checkClaudeCode } from './claude-code.js';
import { checkCodex } from './codex.js';
import { checkDiscord } from './discord.js';
import { checkFailedEvents } from './failed-events.js';
import { checkOpenCode } from './opencode.js';
import { checkRedis } from './redis.js';
import { checkServeAnswers } from './serve.js';
import { checkSlack } from './slack.js';
import { checkSqlite } from './sqlite.js';
import { checkTelegram } from './telegram.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface DoctorOptions {
  /** Where Claude Code's user settings live (default the home directory). */
  readonly home?: string;
  /** Where a project's Claude Code settings would be (default the working directory). */
  readonly cwd?: string;
  /** Each network call's time-out (default {@link NETWORK_TIMEOUT_MS}). */
  readonly timeoutMs?: number;
}

/** Every channel some project can be routed to on one platform: the default one first, then the routes', once each. */
function routedChannels(config: ServeConfig, platform: 'slack' | 'discord'): string[] {
  const channels = [config[platform]?.channel, ...(config.routes ?? []).map((route) => route[platform])];
  return [...new Set(channels.filter((channel): channel is string => channel !== undefined))];
}

/** Every Telegram chat some project can be routed to: the default one first, then the routes', once each. */
function routedChats(config: ServeConfig): string[] {
  const chats = [config.telegram?.chat, ...(config.routes ?? []).map((route) => route.telegram)];
  return [...new Set(chats.filter((chat): chat is string => chat !== undefined))];
}

/** The web inbox's address as `serve` binds it: `http://127.0.0.1:7420/`, `http://[::1]:7420/`. */
function webAddress(config: Pick<ServeConfig, 'host' | 'port'>): string {
  const host = isIPv6(config.host) ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}/`;
}

function describeConfig(config: ServeConfig): string {
  const parts = [describeStore(config.store)];
  const routes = config.routes?.length ?? 0;
  if (routes > 0) parts.push(`${routes} route${routes === 1 ? '' : 's'} from ASK_LATER_CONFIG`);
  const token = config.webToken !== undefined ? ' (asks for ASK_LATER_WEB_TOKEN)' : '';
  const reached = config.publicUrl !== undefined ? `, reached as ${config.publicUrl}` : '';
  parts.push(`web inbox on ${webAddress(config)}${token}${reached}`);
  if (config.slack) {
    // HTTP mode: Slack's requests come to /slack/events on the web inbox's port.
    const mode = config.slack.appToken !== undefined ? 'Socket Mode' : `HTTP at /slack/events on PORT ${config.port}`;
    parts.push(`Slack (${mode}) to ${routedChannels(config, 'slack').join(', ')}`);
  }
  if (config.discord) parts.push(`Discord to ${routedChannels(config, 'discord').join(', ')}`);
  if (config.telegram) {
    const mode = config.publicUrl !== undefined ? 'webhook' : 'long polling';
    parts.push(`Telegram (${mode}) to ${routedChats(config).join(', ')}`);
  }
  if (!config.slack && !config.discord && !config.telegram) {
    parts.push('no Slack or Discord: answers come from the web inbox');
  }
  return `Config: ${parts.join('; ')}`;
}

/** The store, and when it is fine, the events the bridge gave up on. */
async function checkStore(config: StoreConfig, timeoutMs: number): Promise<CheckLine[]> {
  const lines =
    config.store.kind === 'redis' ? await checkRedis(config.store, timeoutMs) : await checkSqlite(config.store);
  if (lines.some((line) => line.status === 'fail')) return lines;
  return [...lines, ...(await checkFailedEvents(config.store, timeoutMs))];
}

/**
 * An agent machine set up for HTTP (ASK_LATER_URL and a token, or the plugin's settings): the agent side's config,
 * serve and the token, and the Claude Code install. Serve's own settings (the store, Slack, Discord) are serve's
 * machine's business there.
 */
async function diagnoseAgentHttp(
  env: Env,
  location: HttpStoreLocation,
  options: DoctorOptions,
  timeoutMs: number,
): Promise<CheckLine[]> {
  const cwd = options.cwd ?? process.cwd();
  const project = projectFromEnvironment(env, cwd);
  const [agent, claudeCode, codex] = await Promise.all([
    checkAgentHttp(location, project, timeoutMs),
    checkClaudeCode({ home: options.home ?? homedir(), cwd, env }),
    checkCodex({ ...env, HOME: options.home ?? homedir() }, cwd),
  ]);
  const openCode = checkOpenCode({ ...env, HOME: options.home ?? env.HOME }, cwd);
  return [
    ok(`Config: agents over HTTP, ${describeStore(location)}; project ${project}`),
    ...agent,
    ...claudeCode,
    ...codex,
    ...openCode,
  ];
}

/** Every problem among the settings the agent side reads (and serve's too unless `agentOnly`), one line each. */
function settingLines(env: Env, agentOnly: boolean): CheckLine[] {
  const parsers = agentOnly ? agentSettingParsers(env) : [...agentSettingParsers(env), ...serveSettingParsers(env)];
  return settingProblems(parsers).map((problem) => fail(`Config: ${problem}`));
}

/** Every check's line, in order: config, the store, serve (embedded setup), Slack, Discord, Telegram, Claude Code, Codex, OpenCode. */
export async function diagnose(env: Env, options: DoctorOptions = {}): Promise<CheckLine[]> {
  const timeoutMs = options.timeoutMs ?? NETWORK_TIMEOUT_MS;
  let agentStore: AgentStoreLocation | undefined;
  try {
    agentStore = loadAgentStoreConfig(env).store;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // ASK_LATER_URL with a bad token (or both REDIS_URL and ASK_LATER_URL): say so, and check nothing it would need.
    if (env.ASK_LATER_URL?.trim() || env.ASK_LATER_TOKEN?.trim()) return settingLines(env, true);
  }
  if (agentStore?.kind === 'http') {
    const problems = settingLines(env, true);
    const lines = await diagnoseAgentHttp(env, agentStore, options, timeoutMs);
    return problems.length > 0 ? [...problems, ...lines.slice(1)] : lines;
  }
  const configLines = settingLines(env, false);
  let serve: ServeConfig | undefined;
  let store: StoreConfig | undefined;
  if (configLines.length === 0) {
    serve = loadServeConfig(env);
    store = serve;
    configLines.push(ok(describeConfig(serve)));
  } else {
    // A platform's or the web inbox's setting is wrong: the store can still be checked when its own settings are fine.
    try {
      store = loadStoreConfig(env);
    } catch {
      store = undefined;
    }
  }
  // The embedded setup has no one else to run serve: say whether it answers, at the address it would bind.
  const serveAddress = store?.store.kind === 'sqlite' ? webAddressOf(env) : undefined;
  const cwd = options.cwd ?? process.cwd();
  const [serveLines, storeLines, slack, discord, telegram, claudeCode, codex] = await Promise.all([
    serveAddress !== undefined ? checkServeAnswers(serveAddress, timeoutMs) : [],
    store ? checkStore(store, timeoutMs) : [],
    serve?.slack ? checkSlack(serve.slack, routedChannels(serve, 'slack'), timeoutMs) : [],
    serve?.discord ? checkDiscord(serve.discord, routedChannels(serve, 'discord'), timeoutMs) : [],
    serve?.telegram ? checkTelegram(serve.telegram, routedChats(serve), timeoutMs) : [],
    checkClaudeCode({
      home: options.home ?? homedir(),
      cwd: options.cwd ?? process.cwd(),
      env,
      ...(store ? { store: store.store } : {}),
    }),
    checkCodex({ ...env, HOME: options.home ?? homedir() }, cwd),
  ]);
  const openCode = checkOpenCode({ ...env, HOME: options.home ?? env.HOME }, options.cwd ?? process.cwd());
  return [
    ...configLines,
    ...storeLines,
    ...serveLines,
    ...slack,
    ...discord,
    ...telegram,
    ...claudeCode,
    ...codex,
    ...openCode,
  ];
}

/** The web inbox's address from PORT and ASK_LATER_HOST, or the defaults where one is wrong (its line says so). */
function webAddressOf(env: Env): string {
  let port = 7420;
  try {
    port = loadPort(env);
  } catch {
    // PORT's own line names the problem.
  }
  return webAddress({ host: loadHostOr(env), port });
}
