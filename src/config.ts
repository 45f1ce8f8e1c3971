/**
 * The environment, parsed and validated once into a frozen Config. Nothing else reads `process.env`: commands get
 * the parts they need from here. Problems are one line each, naming the variable, what it needs and what came
 * (never a secret: URLs are described by their scheme only).
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

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Every environment variable ask-later reads, for checks that other files (docker-compose.yml, docs) name only
 * real settings. Keep it in step with the loaders below; `test/config.test.ts` checks that each one is read here.
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
] as const;

function describeUrl(value: string): string {
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

/** Slack, when `SLACK_BOT_TOKEN` is set. */
export interface SlackConfig {
  readonly botToken: string;
  /** Socket Mode when set (`xapp-…`); otherwise HTTP with `signingSecret`. */
  readonly appToken?: string;
  readonly signingSecret?: string;
  /** The channel every project's questions go to (a routing table comes later). */
  readonly channel: string;
  /** Web API base URL, ending with `/` (proxies, GovSlack, tests). */
  readonly apiUrl?: string;
  /** Slack user ids allowed to answer; empty: everyone in the channel. */
  readonly allowedUsers: readonly string[];
}

/** Discord, when `DISCORD_TOKEN` is set. Every id is a snowflake (17–20 digits). */
export interface DiscordConfig {
  /** The bot token (Developer Portal → the application → Bot). */
  readonly token: string;
  /** The channel id every project's questions go to (a routing table comes later). */
  readonly channel: string;
  /** Register `/questions` in this guild (instant); absent: as a global command (can take up to an hour). */
  readonly guildId?: string;
  /** REST base without a version, no trailing slash (`https://discord.com/api`; proxies, tests). */
  readonly apiUrl?: string;
  /** Discord user ids allowed to answer; with `allowedRoles` both empty: everyone in the channel. */
  readonly allowedUsers: readonly string[];
  /** Discord role ids whose members may answer. */
  readonly allowedRoles: readonly string[];
}

export interface ServeConfig extends StoreConfig {
  /** HTTP port for Slack's requests and `GET /healthz` (`PORT`, default 3000). */
  readonly port: number;
  /** At least one of `slack` and `discord` is set. */
  readonly slack?: SlackConfig;
  readonly discord?: DiscordConfig;
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter(Boolean);
}

function httpUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an http:// or https:// URL, got ${describeUrl(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must be an http:// or https:// URL, got ${describeUrl(value)}`);
  }
  return value.endsWith('/') ? value : `${value}/`;
}

function loadSlackConfig(env: Env): SlackConfig | undefined {
  const botToken = env.SLACK_BOT_TOKEN?.trim();
  if (!botToken) {
    const stray = ['SLACK_APP_TOKEN', 'SLACK_SIGNING_SECRET', 'SLACK_CHANNEL'].find((name) => env[name]?.trim());
    if (stray) throw new ConfigError(`${stray} is set but SLACK_BOT_TOKEN is not: set the bot token (xoxb-…) too`);
    return undefined;
  }
  if (!botToken.startsWith('xoxb-')) {
    throw new ConfigError('SLACK_BOT_TOKEN must be a bot token starting with xoxb-, got one that does not');
  }
  const appToken = env.SLACK_APP_TOKEN?.trim() || undefined;
  if (appToken && !appToken.startsWith('xapp-')) {
    throw new ConfigError('SLACK_APP_TOKEN must be an app-level token starting with xapp-, got one that does not');
  }
  const signingSecret = env.SLACK_SIGNING_SECRET?.trim() || undefined;
  if (!appToken && !signingSecret) {
    throw new ConfigError(
      'SLACK_SIGNING_SECRET is not set: HTTP mode needs it to check requests (or set SLACK_APP_TOKEN for Socket Mode)',
    );
  }
  const channel = env.SLACK_CHANNEL?.trim();
  if (!channel) throw new ConfigError('SLACK_CHANNEL is not set: name the channel id questions go to (C…)');
  if (!/^[CG][A-Z0-9]{2,}$/.test(channel)) {
    throw new ConfigError(
      `SLACK_CHANNEL must be a channel id such as C0123ABCD (not a #name), got ${JSON.stringify(channel.slice(0, 30))}`,
    );
  }
  const allowedUsers = list(env.SLACK_ALLOWED_USERS);
  const bad = allowedUsers.find((id) => !/^[UW][A-Z0-9]{2,}$/.test(id));
  if (bad)
    throw new ConfigError(
      `SLACK_ALLOWED_USERS must list user ids such as U0123ABCD, got ${JSON.stringify(bad.slice(0, 30))}`,
    );
  const apiUrl = env.SLACK_API_URL?.trim() ? httpUrl('SLACK_API_URL', env.SLACK_API_URL.trim()) : undefined;
  return Object.freeze({
    botToken,
    channel,
    allowedUsers,
    ...(appToken ? { appToken } : {}),
    ...(signingSecret ? { signingSecret } : {}),
    ...(apiUrl ? { apiUrl } : {}),
  });
}

/** What `serve` says when neither platform is configured. */
export const NOTHING_TO_SERVE =
  'Nothing to serve: set SLACK_BOT_TOKEN, SLACK_CHANNEL and SLACK_SIGNING_SECRET (or SLACK_APP_TOKEN) to answer from Slack, or DISCORD_TOKEN and DISCORD_CHANNEL to answer from Discord';

/** A Discord id: a snowflake, 17–20 digits. */
const SNOWFLAKE = /^\d{17,20}$/;

function quoted(value: string): string {
  return JSON.stringify(value.slice(0, 30));
}

function snowflakes(name: string, what: string, value: string | undefined): string[] {
  const ids = list(value);
  const bad = ids.find((id) => !SNOWFLAKE.test(id));
  if (bad !== undefined) {
    throw new ConfigError(`${name} must list ${what} ids (17–20 digits each, comma-separated), got ${quoted(bad)}`);
  }
  return ids;
}

function loadDiscordConfig(env: Env): DiscordConfig | undefined {
  const token = env.DISCORD_TOKEN?.trim();
  if (!token) {
    const stray = ['DISCORD_CHANNEL', 'DISCORD_GUILD_ID', 'DISCORD_ALLOWED_USERS', 'DISCORD_ALLOWED_ROLES'].find(
      (name) => env[name]?.trim(),
    );
    if (stray) throw new ConfigError(`${stray} is set but DISCORD_TOKEN is not: set the bot token too`);
    return undefined;
  }
  // A bot token is three base64url parts joined by dots; never quote it back.
  if (!/^[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{10,}$/.test(token)) {
    throw new ConfigError(
      "DISCORD_TOKEN must be the bot token from the Developer Portal's Bot page (three dot-separated parts, no 'Bot ' prefix), got one that is not",
    );
  }
  const channel = env.DISCORD_CHANNEL?.trim();
  if (!channel) {
    throw new ConfigError(
      'DISCORD_CHANNEL is not set: name the channel id questions go to (17–20 digits: Developer Mode → Copy Channel ID)',
    );
  }
  if (!SNOWFLAKE.test(channel)) {
    throw new ConfigError(`DISCORD_CHANNEL must be a channel id of 17–20 digits (not a #name), got ${quoted(channel)}`);
  }
  const guildId = env.DISCORD_GUILD_ID?.trim() || undefined;
  if (guildId !== undefined && !SNOWFLAKE.test(guildId)) {
    throw new ConfigError(`DISCORD_GUILD_ID must be a server (guild) id of 17–20 digits, got ${quoted(guildId)}`);
  }
  const allowedUsers = snowflakes('DISCORD_ALLOWED_USERS', 'user', env.DISCORD_ALLOWED_USERS);
  const allowedRoles = snowflakes('DISCORD_ALLOWED_ROLES', 'role', env.DISCORD_ALLOWED_ROLES);
  const rawApi = env.DISCORD_API_URL?.trim();
  let apiUrl: string | undefined;
  if (rawApi) {
    apiUrl = httpUrl('DISCORD_API_URL', rawApi).replace(/\/+$/, '');
    if (/\/v\d+$/.test(apiUrl)) {
      throw new ConfigError(
        `DISCORD_API_URL must be the API base without a version (https://discord.com/api), got one ending in ${/\/v\d+$/.exec(apiUrl)?.[0]}`,
      );
    }
  }
  return Object.freeze({
    token,
    channel,
    allowedUsers,
    allowedRoles,
    ...(guildId !== undefined ? { guildId } : {}),
    ...(apiUrl !== undefined ? { apiUrl } : {}),
  });
}

/** Settings of `ask-later serve`: the store, the port, and each chat surface that is configured. */
export function loadServeConfig(env: Env): ServeConfig {
  const store = loadStoreConfig(env);
  const rawPort = env.PORT?.trim() || '3000';
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port > 65535) {
    throw new ConfigError(`PORT must be a port number from 0 to 65535, got ${JSON.stringify(rawPort.slice(0, 20))}`);
  }
  const slack = loadSlackConfig(env);
  const discord = loadDiscordConfig(env);
  if (!slack && !discord) throw new ConfigError(NOTHING_TO_SERVE);
  return Object.freeze({ ...store, port, ...(slack ? { slack } : {}), ...(discord ? { discord } : {}) });
}
