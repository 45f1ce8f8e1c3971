/**
 * The agent side's settings (the MCP server and the hook): the store and the project, parsed from the environment
 * once. Split from `config.ts` so the hook, paid on every prompt, loads no zod (the serve side's routing file is
 * parsed with it); `config.ts` re-exports everything here. Problems are one line each, naming the variable, what it
 * needs and what came (never a secret: URLs are described by their scheme only).
 */
import { ConfigError } from './config-error.js';
import { projectFromEnvironment } from './project.js';

export interface StoreConfig {
  /** `redis://` or `rediss://` URL of the store. */
  readonly redisUrl: string;
  /** Namespace of every key (`ASK_LATER_REDIS_PREFIX`, default `al`): several inboxes can share one Redis. */
  readonly redisPrefix: string;
}

export interface AgentConfig extends StoreConfig {
  /** The project every question of this process belongs to (BRIEF "The project"). */
  readonly project: string;
}

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Every environment variable ask-later reads, for checks that other files (docker-compose.yml, docs) name only
 * real settings. Keep it in step with the loaders (here and in `config.ts`); `test/config.test.ts` checks that each
 * one is read.
 */
export const CONFIG_VARIABLES = [
  'REDIS_URL',
  'ASK_LATER_REDIS_PREFIX',
  'ASK_LATER_PROJECT',
  'CLAUDE_PROJECT_DIR',
  'PORT',
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
  'ASK_LATER_CONFIG',
] as const;

export function describeUrl(value: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1];
  return scheme ? `a ${scheme}: URL` : 'something that is not a URL';
}

/** The store settings: `REDIS_URL`, `ASK_LATER_REDIS_PREFIX`. */
export function loadStoreConfig(env: Env): StoreConfig {
  const raw = env.REDIS_URL?.trim();
  if (!raw) {
    throw new ConfigError('REDIS_URL is not set: point it at the Redis that holds the inbox (redis://host:6379)');
  }
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
  return Object.freeze({ redisUrl: raw, redisPrefix: prefix });
}

/** Settings of the agent-side commands (MCP server, hook): the store and the project. */
export function loadAgentConfig(env: Env, cwd: string): AgentConfig {
  return Object.freeze({ ...loadStoreConfig(env), project: projectFromEnvironment(env, cwd) });
}
