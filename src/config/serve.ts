/**
 * The environment, parsed and validated once into a frozen Config. Nothing else reads `process.env`: commands get
 * the parts they need from here. Problems are one line each, naming the variable, what it needs and what came
 * (never a secret: URLs are described by their scheme only).
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { z } from 'zod';
import { DURATION_EXPECTED, parseDuration } from '../core/duration.js';
import { ConfigError } from './config-error.js';

export {
  type AgentConfig,
  CONFIG_VARIABLES,
  describeStore,
  type Env,
  loadAgentConfig,
  loadStoreConfig,
  type StoreConfig,
  type StoreLocation,
} from './agent.js';

import { describeUrl, type Env, loadStoreConfig, type StoreConfig } from './agent.js';
import type { RoutingRoute } from './routing.js';

/** Slack, when `SLACK_BOT_TOKEN` is set. */
export interface SlackConfig {
  readonly botToken: string;
  /** Socket Mode when set (`xapp-…`); otherwise HTTP with `signingSecret`. */
  readonly appToken?: string;
  readonly signingSecret?: string;
  /**
   * `SLACK_CHANNEL`: where the questions of projects no route matches go. Absent when the routing file routes
   * projects to Slack and everything else stays off Slack.
   */
  readonly channel?: string;
  /** Web API base URL, ending with `/` (proxies, GovSlack, tests). */
  readonly apiUrl?: string;
  /** Slack user ids allowed to answer; empty: everyone in the channel. */
  readonly allowedUsers: readonly string[];
}

/** Discord, when `DISCORD_TOKEN` is set. Every id is a snowflake (17–20 digits). */
export interface DiscordConfig {
  /** The bot token (Developer Portal → the application → Bot). */
  readonly token: string;
  /**
   * `DISCORD_CHANNEL`: where the questions of projects no route matches go. Absent when the routing file routes
   * projects to Discord and everything else stays off Discord.
   */
  readonly channel?: string;
  /** Register `/questions` in this guild (instant); absent: as a global command (can take up to an hour). */
  readonly guildId?: string;
  /** REST base without a version, no trailing slash (`https://discord.com/api`; proxies, tests). */
  readonly apiUrl?: string;
  /** Discord user ids allowed to answer; with `allowedRoles` both empty: everyone in the channel. */
  readonly allowedUsers: readonly string[];
  /** Discord role ids whose members may answer. */
  readonly allowedRoles: readonly string[];
}

/** Telegram, when `TELEGRAM_BOT_TOKEN` is set. Chat and user ids are integers (a group's are negative). */
export interface TelegramConfig {
  /** The bot token from @BotFather (`123456:ABC…`). */
  readonly token: string;
  /**
   * `TELEGRAM_CHAT`: where the questions of projects no route matches go (a group, channel or private chat id).
   * Absent when the routing file routes projects to Telegram and everything else stays off Telegram.
   */
  readonly chat?: string;
  /** Bot API root without a trailing slash (`https://api.telegram.org`; a self-hosted Bot API server, tests). */
  readonly apiUrl?: string;
  /** Telegram user ids allowed to answer; empty: everyone in the chat. */
  readonly allowedUsers: readonly string[];
}

export interface ServeConfig extends StoreConfig {
  /** The one HTTP port: the web inbox, `GET /healthz`, and Slack's requests in HTTP mode (`PORT`, default 7420). */
  readonly port: number;
  /** The address it binds (`ASK_LATER_HOST`, default `127.0.0.1`); beyond loopback only with `webToken`. */
  readonly host: string;
  /** `ASK_LATER_WEB_TOKEN`: when set, the web inbox asks for it (required when `host` is not loopback). */
  readonly webToken?: string;
  /**
   * `ASK_LATER_PUBLIC_URL`'s origin (`https://ask-later.example.com`): the address people and agents reach serve at
   * through a name; requests naming that host, and pages of that origin, are answered (`surfaces/origin-rule.ts`).
   */
  readonly publicUrl?: string;
  /** None set: the web inbox alone. */
  readonly slack?: SlackConfig;
  readonly discord?: DiscordConfig;
  readonly telegram?: TelegramConfig;
  /** The routing file's routes (`ASK_LATER_CONFIG`), in order: the first that matches a project wins. None: every
   * project goes to `SLACK_CHANNEL` / `DISCORD_CHANNEL`. */
  readonly routes?: readonly RoutingRoute[];
  /**
   * `ASK_LATER_METRICS_PROJECTS=1`: `/metrics` counts questions per project, with project names as a label. Absent
   * (0 or unset): totals only, no project name in the metrics.
   */
  readonly metricsProjects?: boolean;
  /** `ASK_LATER_REMIND_AFTER` in ms (0: off): `remindAfter` where no route sets it. Absent: 30 minutes. */
  readonly remindAfterMs?: number;
  /**
   * `ASK_LATER_RETENTION_DAYS` in ms: how long delivered (and cancelled) questions are kept before serve's sweep
   * purges them. Absent: the store's default, 30 days.
   */
  readonly retentionMs?: number;
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

function loadSlackConfig(env: Env, routes: readonly RoutingRoute[]): SlackConfig | undefined {
  const botToken = env.SLACK_BOT_TOKEN?.trim();
  if (!botToken) {
    const stray = ['SLACK_APP_TOKEN', 'SLACK_SIGNING_SECRET', 'SLACK_CHANNEL'].find((name) => env[name]?.trim());
    if (stray) throw new ConfigError(`${stray} is set but SLACK_BOT_TOKEN is not: set the bot token (xoxb-…) too`);
    const routed = routes.findIndex((route) => route.slack !== undefined);
    if (routed >= 0) {
      throw new ConfigError(
        `ASK_LATER_CONFIG routes[${routed}].slack names a Slack channel but SLACK_BOT_TOKEN is not set: set the bot token (xoxb-…) too`,
      );
    }
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
  const channel = env.SLACK_CHANNEL?.trim() || undefined;
  if (channel === undefined && !routes.some((route) => route.slack !== undefined)) {
    throw new ConfigError(
      'SLACK_CHANNEL is not set: name the channel id questions go to (C…), or route projects to Slack channels in ASK_LATER_CONFIG',
    );
  }
  if (channel !== undefined && !SLACK_CHANNEL_ID.test(channel)) {
    throw new ConfigError(
      `SLACK_CHANNEL must be a channel id such as C0123ABCD (not a #name), got ${JSON.stringify(channel.slice(0, 30))}`,
    );
  }
  const allowedUsers = list(env.SLACK_ALLOWED_USERS);
  const bad = allowedUsers.find((id) => !SLACK_USER_ID.test(id));
  if (bad)
    throw new ConfigError(
      `SLACK_ALLOWED_USERS must list user ids such as U0123ABCD, got ${JSON.stringify(bad.slice(0, 30))}`,
    );
  const apiUrl = env.SLACK_API_URL?.trim() ? httpUrl('SLACK_API_URL', env.SLACK_API_URL.trim()) : undefined;
  return Object.freeze({
    botToken,
    ...(channel !== undefined ? { channel } : {}),
    allowedUsers,
    ...(appToken ? { appToken } : {}),
    ...(signingSecret ? { signingSecret } : {}),
    ...(apiUrl ? { apiUrl } : {}),
  });
}

/** A Discord id: a snowflake, 17–20 digits. */
const SNOWFLAKE = /^\d{17,20}$/;
/** A Slack channel id: public `C…`, private (older) `G…`. */
const SLACK_CHANNEL_ID = /^[CG][A-Z0-9]{2,}$/;
/** A Slack user id: `U…`, Enterprise Grid `W…`. */
const SLACK_USER_ID = /^[UW][A-Z0-9]{2,}$/;

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

function loadDiscordConfig(env: Env, routes: readonly RoutingRoute[]): DiscordConfig | undefined {
  const token = env.DISCORD_TOKEN?.trim();
  if (!token) {
    const stray = ['DISCORD_CHANNEL', 'DISCORD_GUILD_ID', 'DISCORD_ALLOWED_USERS', 'DISCORD_ALLOWED_ROLES'].find(
      (name) => env[name]?.trim(),
    );
    if (stray) throw new ConfigError(`${stray} is set but DISCORD_TOKEN is not: set the bot token too`);
    const routed = routes.findIndex((route) => route.discord !== undefined);
    if (routed >= 0) {
      throw new ConfigError(
        `ASK_LATER_CONFIG routes[${routed}].discord names a Discord channel but DISCORD_TOKEN is not set: set the bot token too`,
      );
    }
    return undefined;
  }
  // A bot token is three base64url parts joined by dots; never quote it back.
  if (!/^[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{10,}$/.test(token)) {
    throw new ConfigError(
      "DISCORD_TOKEN must be the bot token from the Developer Portal's Bot page (three dot-separated parts, no 'Bot ' prefix), got one that is not",
    );
  }
  const channel = env.DISCORD_CHANNEL?.trim() || undefined;
  if (channel === undefined && !routes.some((route) => route.discord !== undefined)) {
    throw new ConfigError(
      'DISCORD_CHANNEL is not set: name the channel id questions go to (17–20 digits: Developer Mode → Copy Channel ID), or route projects to Discord channels in ASK_LATER_CONFIG',
    );
  }
  if (channel !== undefined && !SNOWFLAKE.test(channel)) {
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
    ...(channel !== undefined ? { channel } : {}),
    allowedUsers,
    allowedRoles,
    ...(guildId !== undefined ? { guildId } : {}),
    ...(apiUrl !== undefined ? { apiUrl } : {}),
  });
}

/** A Telegram chat id: an integer, negative for groups and channels (`-1001234567890`). */
const TELEGRAM_CHAT_ID = /^-?[1-9]\d{0,15}$/;
/** A Telegram user id: a positive integer. */
const TELEGRAM_USER_ID = /^[1-9]\d{0,15}$/;

function loadTelegramConfig(env: Env, routes: readonly RoutingRoute[]): TelegramConfig | undefined {
  const token = env.TELEGRAM_BOT_TOKEN?.trim();
  if (!token) {
    const stray = ['TELEGRAM_CHAT', 'TELEGRAM_ALLOWED_USERS', 'TELEGRAM_API_URL'].find((name) => env[name]?.trim());
    if (stray)
      throw new ConfigError(`${stray} is set but TELEGRAM_BOT_TOKEN is not: set the bot token from @BotFather too`);
    const routed = routes.findIndex((route) => route.telegram !== undefined);
    if (routed >= 0) {
      throw new ConfigError(
        `ASK_LATER_CONFIG routes[${routed}].telegram names a Telegram chat but TELEGRAM_BOT_TOKEN is not set: set the bot token from @BotFather too`,
      );
    }
    return undefined;
  }
  // `<bot id>:<secret>`; never quote it back.
  if (!/^\d{3,15}:[A-Za-z0-9_-]{30,}$/.test(token)) {
    throw new ConfigError(
      'TELEGRAM_BOT_TOKEN must be the bot token @BotFather gave (digits, a colon, then 30 or more letters, digits, _ or -), got one that is not',
    );
  }
  const chat = env.TELEGRAM_CHAT?.trim() || undefined;
  if (chat === undefined && !routes.some((route) => route.telegram !== undefined)) {
    throw new ConfigError(
      'TELEGRAM_CHAT is not set: name the chat id questions go to (an integer such as -1001234567890), or route projects to Telegram chats in ASK_LATER_CONFIG',
    );
  }
  if (chat !== undefined && !TELEGRAM_CHAT_ID.test(chat)) {
    throw new ConfigError(
      `TELEGRAM_CHAT must be a chat id, an integer such as -1001234567890 (not a @name), got ${quoted(chat)}`,
    );
  }
  const allowedUsers = list(env.TELEGRAM_ALLOWED_USERS);
  const bad = allowedUsers.find((id) => !TELEGRAM_USER_ID.test(id));
  if (bad !== undefined) {
    throw new ConfigError(
      `TELEGRAM_ALLOWED_USERS must list user ids (positive integers, comma-separated), got ${quoted(bad)}`,
    );
  }
  const rawApi = env.TELEGRAM_API_URL?.trim();
  const apiUrl = rawApi ? httpUrl('TELEGRAM_API_URL', rawApi).replace(/\/+$/, '') : undefined;
  return Object.freeze({
    token,
    ...(chat !== undefined ? { chat } : {}),
    allowedUsers,
    ...(apiUrl !== undefined ? { apiUrl } : {}),
  });
}

/** Reads the routing file (default: `readFileSync` as UTF-8); tests hand in their own. */
export type ReadConfigFile = (path: string) => string;

/** The web inbox's default port (`PORT`). */
const DEFAULT_PORT = 7420;

/**
 * Settings of `ask-later serve`: the store, the HTTP address, the routing file (`ASK_LATER_CONFIG`), and each chat
 * surface that is configured (none: the web inbox alone).
 */
export function loadServeConfig(env: Env, readFile: ReadConfigFile = readUtf8): ServeConfig {
  const store = loadStoreConfig(env);
  const port = loadPort(env);
  const host = loadHost(env);
  const webToken = loadWebToken(env, host);
  const publicUrl = loadPublicUrl(env.ASK_LATER_PUBLIC_URL?.trim() || undefined);
  const routes = loadRoutes(env.ASK_LATER_CONFIG?.trim() || undefined, readFile);
  const metricsProjects = loadMetricsProjects(env.ASK_LATER_METRICS_PROJECTS);
  const remindAfterMs = loadRemindAfter(env.ASK_LATER_REMIND_AFTER?.trim() || undefined);
  const retentionMs = loadRetentionDays(env.ASK_LATER_RETENTION_DAYS) * DAY_MS;
  const slack = loadSlackConfig(env, routes);
  const discord = loadDiscordConfig(env, routes);
  const telegram = loadTelegramConfig(env, routes);
  return Object.freeze({
    ...store,
    port,
    host,
    ...(webToken !== undefined ? { webToken } : {}),
    ...(publicUrl !== undefined ? { publicUrl } : {}),
    routes,
    ...(metricsProjects ? { metricsProjects } : {}),
    ...(remindAfterMs !== undefined ? { remindAfterMs } : {}),
    retentionMs,
    ...(slack ? { slack } : {}),
    ...(discord ? { discord } : {}),
    ...(telegram ? { telegram } : {}),
  });
}

/**
 * Each of serve's settings' own parsers, the very ones {@link loadServeConfig} runs, so that `doctor` can run them
 * one by one and list every problem. A routing file that cannot be read counts as no routes for the surfaces.
 */
export function serveSettingParsers(env: Env, readFile: ReadConfigFile = readUtf8): (() => unknown)[] {
  let routes: readonly RoutingRoute[] = [];
  return [
    () => loadStoreConfig(env),
    () => loadPort(env),
    () => loadHost(env),
    () => loadWebToken(env, loadHostOr(env)),
    () => loadPublicUrl(env.ASK_LATER_PUBLIC_URL?.trim() || undefined),
    () => {
      routes = loadRoutes(env.ASK_LATER_CONFIG?.trim() || undefined, readFile);
    },
    () => loadMetricsProjects(env.ASK_LATER_METRICS_PROJECTS),
    () => loadRemindAfter(env.ASK_LATER_REMIND_AFTER?.trim() || undefined),
    () => loadRetentionDays(env.ASK_LATER_RETENTION_DAYS),
    () => loadSlackConfig(env, routes),
    () => loadDiscordConfig(env, routes),
    () => loadTelegramConfig(env, routes),
  ];
}

/** `PORT`: the web inbox's port (default {@link DEFAULT_PORT}). */
export function loadPort(env: Env): number {
  const rawPort = env.PORT?.trim() || String(DEFAULT_PORT);
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port > 65535) {
    throw new ConfigError(`PORT must be a port number from 0 to 65535, got ${JSON.stringify(rawPort.slice(0, 20))}`);
  }
  return port;
}

/** `ASK_LATER_HOST`: the address serve binds (default 127.0.0.1). */
export function loadHost(env: Env): string {
  const host = env.ASK_LATER_HOST?.trim() || '127.0.0.1';
  if (isIP(host) === 0 && host !== 'localhost') {
    throw new ConfigError(
      `ASK_LATER_HOST must be an IP address to bind (127.0.0.1, ::1, 0.0.0.0), got ${JSON.stringify(host.slice(0, 40))}`,
    );
  }
  return host;
}

/** The host serve would bind, or the default when `ASK_LATER_HOST` is wrong (its own line says so). */
export function loadHostOr(env: Env): string {
  try {
    return loadHost(env);
  } catch {
    return '127.0.0.1';
  }
}

/** `ASK_LATER_WEB_TOKEN`: required when `host` reaches beyond this machine; 16 characters at least. */
function loadWebToken(env: Env, host: string): string | undefined {
  const webToken = env.ASK_LATER_WEB_TOKEN?.trim() || undefined;
  if (webToken === undefined && !isLoopbackAddress(host)) {
    throw new ConfigError(
      `ASK_LATER_HOST=${host} serves the web inbox beyond this machine: set ASK_LATER_WEB_TOKEN to a secret the page will ask for`,
    );
  }
  if (webToken !== undefined && webToken.length < 16) {
    throw new ConfigError(
      `ASK_LATER_WEB_TOKEN must be at least 16 characters (a random secret), got ${webToken.length}`,
    );
  }
  return webToken;
}

/** `ASK_LATER_PUBLIC_URL`: an http(s) URL without credentials; kept as its origin. */
function loadPublicUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const expected = 'ASK_LATER_PUBLIC_URL must be the http:// or https:// address people and agents reach serve at';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${expected}, got ${describeUrl(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${expected}, got ${describeUrl(value)}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ConfigError(`${expected}, without a user name or password in it`);
  }
  return url.origin;
}

/** `ASK_LATER_REMIND_AFTER`: the default wait before each reminder of a blocking question. */
function loadRemindAfter(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = parseDuration(value);
  if ('problem' in parsed) {
    throw new ConfigError(`ASK_LATER_REMIND_AFTER: ${parsed.problem}, got ${JSON.stringify(value.slice(0, 30))}`);
  }
  return parsed.ms;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Days delivered questions are kept when `ASK_LATER_RETENTION_DAYS` is not set. */
export const RETENTION_DAYS_DEFAULT = 30;
/** A century: far beyond any use, and still a time every store and `Date` can hold. */
const RETENTION_DAYS_MAX = 36_500;

/** `ASK_LATER_RETENTION_DAYS`: a whole number of days from 1 (default {@link RETENTION_DAYS_DEFAULT}). */
export function loadRetentionDays(value: string | undefined): number {
  const raw = value?.trim() ?? '';
  if (raw === '') return RETENTION_DAYS_DEFAULT;
  const days = Number(raw);
  if (!/^\d+$/.test(raw) || days < 1 || days > RETENTION_DAYS_MAX) {
    throw new ConfigError(
      `ASK_LATER_RETENTION_DAYS must be a whole number of days from 1 to ${RETENTION_DAYS_MAX}, got ${JSON.stringify(raw.slice(0, 20))}`,
    );
  }
  return days;
}

/** `ASK_LATER_METRICS_PROJECTS`: `1` puts project names in `/metrics`; `0` or unset keeps them out. */
function loadMetricsProjects(value: string | undefined): boolean {
  const flag = value?.trim() ?? '';
  if (flag === '' || flag === '0') return false;
  if (flag === '1') return true;
  throw new ConfigError(
    `ASK_LATER_METRICS_PROJECTS must be 1 (label metrics with project names) or 0 (totals only), got ${JSON.stringify(flag.slice(0, 20))}`,
  );
}

/** Whether binding `host` keeps the server on this machine. */
function isLoopbackAddress(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

function readUtf8(path: string): string {
  return readFileSync(path, 'utf8');
}

// ---------------------------------------------------------------------------------------------------------------
// The routing file

const ROUTES_MAX = 1000;
const ALLOW_MAX = 1000;
/** Owners a reminder mentions: 50 mentions fit a Discord message's 2000 characters with room for the line. */
const OWNERS_MAX = 50;
const REMIND_TIMES_MAX = 10;
const REMIND_TIMES_EXPECTED = `expected a whole number from 0 to ${REMIND_TIMES_MAX}`;

const slackUserIds = z
  .array(z.string().regex(SLACK_USER_ID, 'expected a Slack user id such as U0123ABCD'))
  .max(ALLOW_MAX);
const snowflakeIds = (what: string) =>
  z.array(z.string().regex(SNOWFLAKE, `expected a Discord ${what} id of 17–20 digits`)).max(ALLOW_MAX);

const telegramUserIds = z
  .array(z.string().regex(TELEGRAM_USER_ID, 'expected a Telegram user id such as "123456789"'))
  .max(ALLOW_MAX);

const ownersMax = { message: `expected at most ${OWNERS_MAX} owners` };

/** A duration (`remindAfter`) in ms, or one issue saying what it should be. */
const durationSchema = z.union([z.number(), z.string()], DURATION_EXPECTED).transform((value, ctx) => {
  const parsed = parseDuration(value);
  if ('ms' in parsed) return parsed.ms;
  ctx.addIssue({ code: 'custom', message: parsed.problem, input: value });
  return z.NEVER;
});

const routeSchema = z
  .strictObject(
    {
      project: z
        .string('expected a project name or pattern such as "/srv/repos/api" or "/srv/repos/team-*/**"')
        .trim()
        .min(1, 'expected a project name or pattern such as "/srv/repos/api" or "/srv/repos/team-*/**"')
        .max(4096, 'expected a project pattern of at most 4096 characters'),
      slack: z.string('expected a channel id such as C0123ABCD').regex(SLACK_CHANNEL_ID, {
        message: 'expected a channel id such as C0123ABCD',
      }),
      discord: z
        .string('expected a channel id of 17–20 digits')
        .regex(SNOWFLAKE, { message: 'expected a channel id of 17–20 digits' }),
      telegram: z
        .string('expected a Telegram chat id such as "-1001234567890" (in quotes)')
        .regex(TELEGRAM_CHAT_ID, { message: 'expected a Telegram chat id such as "-1001234567890"' }),
      allow: z
        .strictObject(
          {
            slackUsers: slackUserIds,
            discordUsers: snowflakeIds('user'),
            discordRoles: snowflakeIds('role'),
            telegramUsers: telegramUserIds,
          },
          'expected {"slackUsers": [...], "discordUsers": [...], "discordRoles": [...], "telegramUsers": [...]}',
        )
        .partial(),
      remindAfter: durationSchema,
      remindTimes: z
        .number(REMIND_TIMES_EXPECTED)
        .int(REMIND_TIMES_EXPECTED)
        .min(0, REMIND_TIMES_EXPECTED)
        .max(REMIND_TIMES_MAX, REMIND_TIMES_EXPECTED),
      owners: z
        .strictObject(
          {
            slack: z
              .array(
                z.string().regex(SLACK_USER_ID, 'expected a Slack user id such as U0123ABCD'),
                'expected a list of Slack user ids such as ["U0123ABCD"]',
              )
              .max(OWNERS_MAX, ownersMax),
            discord: z
              .array(
                z.string().regex(SNOWFLAKE, 'expected a Discord user id of 17–20 digits'),
                'expected a list of Discord user ids such as ["123456789012345678"]',
              )
              .max(OWNERS_MAX, ownersMax),
            telegram: z
              .array(
                z.string().regex(TELEGRAM_USER_ID, 'expected a Telegram user id such as "123456789"'),
                'expected a list of Telegram user ids such as ["123456789"]',
              )
              .max(OWNERS_MAX, ownersMax),
          },
          'expected {"slack": ["U…"], "discord": ["1234…"], "telegram": ["1234…"]}',
        )
        .partial(),
    },
    'expected a route {"project": "...", "slack": "C…", "discord": "1234…", "telegram": "-100…"}',
  )
  .partial({
    slack: true,
    discord: true,
    telegram: true,
    allow: true,
    remindAfter: true,
    remindTimes: true,
    owners: true,
  })
  .refine((route) => route.slack !== undefined || route.discord !== undefined || route.telegram !== undefined, {
    message: 'expected "slack", "discord" or "telegram" (or several): a route must send its projects somewhere',
  });

const routingFileSchema = z.strictObject(
  {
    routes: z.array(routeSchema, 'expected a list of routes').max(ROUTES_MAX, `expected at most ${ROUTES_MAX} routes`),
  },
  'expected an object {"routes": [...]}',
);

/** Keys whose values are numbers: a number there needs no hint about quotes. */
const NUMERIC_KEYS: readonly PropertyKey[] = ['remindAfter', 'remindTimes'];

/** A value as a config line may quote it: short, one line, never a whole object. */
function got(value: unknown, numeric = false): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 40));
  if (typeof value === 'number') return numeric ? `${value}` : `the number ${value} (write ids and names in quotes)`;
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return 'a list';
  return 'an object';
}

function keyPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) text += typeof part === 'number' ? `[${part}]` : `${text === '' ? '' : '.'}${String(part)}`;
  return text;
}

/** The routing file named by `ASK_LATER_CONFIG` (JSON), validated; no file: no routes. */
function loadRoutes(path: string | undefined, readFile: ReadConfigFile): RoutingRoute[] {
  if (path === undefined) return [];
  let text: string;
  try {
    text = readFile(path);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'it is a directory'
            : typeof code === 'string'
              ? code
              : 'unreadable';
    throw new ConfigError(`ASK_LATER_CONFIG names ${JSON.stringify(path)}, which cannot be read (${why})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    // Node's messages quote the file's text; only the position or the offending character is kept.
    const message = error instanceof Error ? error.message : '';
    const position = /position (\d+)/.exec(message)?.[1];
    const token = /^Unexpected token '(.)'/.exec(message)?.[1];
    const where =
      position !== undefined
        ? `at ${lineColumn(text, Number(position))}`
        : token !== undefined
          ? `unexpected ${JSON.stringify(token)}`
          : /end of JSON/i.test(message)
            ? 'it ends too early'
            : 'malformed';
    const yaml = /\.ya?ml$/i.test(path) ? '; write it as JSON, YAML is not read' : '';
    throw new ConfigError(`ASK_LATER_CONFIG names ${JSON.stringify(path)}, which is not valid JSON (${where}${yaml})`);
  }
  const parsed = routingFileSchema.safeParse(data, { reportInput: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue === undefined) throw new ConfigError('ASK_LATER_CONFIG: the routing file is not valid');
    const at = keyPath(issue.path);
    const where = `ASK_LATER_CONFIG ${at === '' ? '(the file)' : at}`;
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys.map((key) => JSON.stringify(key.slice(0, 30))).join(', ');
      throw new ConfigError(`${where}: unknown key ${keys} (expected ${knownKeys(issue.path)})`);
    }
    throw new ConfigError(
      `${where}: ${issue.message}, got ${got(issue.input, NUMERIC_KEYS.includes(issue.path.at(-1) ?? ''))}`,
    );
  }
  return parsed.data.routes.map((route, index) => freezeRoute(route, index));
}

function knownKeys(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'routes';
  if (path.at(-1) === 'allow') return 'slackUsers, discordUsers, discordRoles, telegramUsers';
  if (path.at(-1) === 'owners') return 'slack, discord, telegram';
  return 'project, slack, discord, telegram, allow, remindAfter, remindTimes, owners';
}

function lineColumn(text: string, position: number): string {
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

/** A route as the rest of the program sees it; allow-lists for a platform the route does not name are refused. */
function freezeRoute(route: z.infer<typeof routeSchema>, index: number): RoutingRoute {
  const allow = route.allow;
  if (allow?.slackUsers !== undefined && route.slack === undefined) {
    throw new ConfigError(
      `ASK_LATER_CONFIG routes[${index}].allow.slackUsers: the route names no Slack channel, got a Slack allow-list`,
    );
  }
  if ((allow?.discordUsers !== undefined || allow?.discordRoles !== undefined) && route.discord === undefined) {
    const key = allow?.discordUsers !== undefined ? 'discordUsers' : 'discordRoles';
    throw new ConfigError(
      `ASK_LATER_CONFIG routes[${index}].allow.${key}: the route names no Discord channel, got a Discord allow-list`,
    );
  }
  if (allow?.telegramUsers !== undefined && route.telegram === undefined) {
    throw new ConfigError(
      `ASK_LATER_CONFIG routes[${index}].allow.telegramUsers: the route names no Telegram chat, got a Telegram allow-list`,
    );
  }
  const owners = route.owners;
  if (owners?.telegram !== undefined && route.telegram === undefined) {
    throw new ConfigError(
      `ASK_LATER_CONFIG routes[${index}].owners.telegram: the route names no Telegram chat, got Telegram owners`,
    );
  }
  if (owners?.slack !== undefined && route.slack === undefined) {
    throw new ConfigError(
      `ASK_LATER_CONFIG routes[${index}].owners.slack: the route names no Slack channel, got Slack owners`,
    );
  }
  if (owners?.discord !== undefined && route.discord === undefined) {
    throw new ConfigError(
      `ASK_LATER_CONFIG routes[${index}].owners.discord: the route names no Discord channel, got Discord owners`,
    );
  }
  return Object.freeze({
    project: route.project,
    ...(route.slack !== undefined ? { slack: route.slack } : {}),
    ...(route.discord !== undefined ? { discord: route.discord } : {}),
    ...(route.telegram !== undefined ? { telegram: route.telegram } : {}),
    ...(route.remindAfter !== undefined ? { remindAfterMs: route.remindAfter } : {}),
    ...(route.remindTimes !== undefined ? { remindTimes: route.remindTimes } : {}),
    ...(owners !== undefined
      ? {
          owners: Object.freeze({
            ...(owners.slack !== undefined ? { slack: Object.freeze([...owners.slack]) } : {}),
            ...(owners.discord !== undefined ? { discord: Object.freeze([...owners.discord]) } : {}),
            ...(owners.telegram !== undefined ? { telegram: Object.freeze([...owners.telegram]) } : {}),
          }),
        }
      : {}),
    ...(allow !== undefined
      ? {
          allow: Object.freeze({
            ...(allow.slackUsers !== undefined ? { slackUsers: Object.freeze([...allow.slackUsers]) } : {}),
            ...(allow.discordUsers !== undefined ? { discordUsers: Object.freeze([...allow.discordUsers]) } : {}),
            ...(allow.discordRoles !== undefined ? { discordRoles: Object.freeze([...allow.discordRoles]) } : {}),
            ...(allow.telegramUsers !== undefined ? { telegramUsers: Object.freeze([...allow.telegramUsers]) } : {}),
          }),
        }
      : {}),
  });
}
