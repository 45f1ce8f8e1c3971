/**
 * `ask-later doctor`: the config, then Redis, Slack, Discord and the Claude Code install, checked at the same time,
 * each network call bounded by a time-out. One line per check, in a fixed order; `fail` lines make the exit
 * non-zero, `warn` lines do not (see `check.ts`).
 */
import { homedir } from 'node:os';
import { loadServeConfig, loadStoreConfig, type ServeConfig, type StoreConfig } from '../config.js';
import { ConfigError } from '../config-error.js';
import { type CheckLine, fail, NETWORK_TIMEOUT_MS, ok } from './check.js';
import { checkClaudeCode } from './claude-code.js';
import { checkDiscord } from './discord.js';
import { checkRedis } from './redis.js';
import { checkSlack } from './slack.js';

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

function describeConfig(config: ServeConfig): string {
  const parts = [`Redis from REDIS_URL (key prefix ${config.redisPrefix})`];
  const routes = config.routes?.length ?? 0;
  if (routes > 0) parts.push(`${routes} route${routes === 1 ? '' : 's'} from ASK_LATER_CONFIG`);
  if (config.slack) {
    const mode = config.slack.appToken !== undefined ? 'Socket Mode' : `HTTP on PORT ${config.port}`;
    parts.push(`Slack (${mode}) to ${routedChannels(config, 'slack').join(', ')}`);
  }
  if (config.discord) parts.push(`Discord to ${routedChannels(config, 'discord').join(', ')}`);
  return `Config: ${parts.join('; ')}`;
}

/** Every check's line, in order: config, Redis, Slack, Discord, Claude Code. */
export async function diagnose(env: Env, options: DoctorOptions = {}): Promise<CheckLine[]> {
  const timeoutMs = options.timeoutMs ?? NETWORK_TIMEOUT_MS;
  const configLines: CheckLine[] = [];
  let serve: ServeConfig | undefined;
  let store: StoreConfig | undefined;
  try {
    serve = loadServeConfig(env);
    store = serve;
    configLines.push(ok(describeConfig(serve)));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    configLines.push(fail(`Config: ${error.message}`));
    // A platform's setting is wrong, or none is set: Redis can still be checked when its own settings are fine.
    try {
      store = loadStoreConfig(env);
    } catch {
      store = undefined;
    }
  }
  const [redis, slack, discord, claudeCode] = await Promise.all([
    store ? checkRedis(store, timeoutMs) : [],
    serve?.slack ? checkSlack(serve.slack, routedChannels(serve, 'slack'), timeoutMs) : [],
    serve?.discord ? checkDiscord(serve.discord, routedChannels(serve, 'discord'), timeoutMs) : [],
    checkClaudeCode({
      home: options.home ?? homedir(),
      cwd: options.cwd ?? process.cwd(),
      ...(store ? { redisUrl: store.redisUrl } : {}),
    }),
  ]);
  return [...configLines, ...redis, ...slack, ...discord, ...claudeCode];
}
