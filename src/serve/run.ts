/**
 * `ask-later serve`: the long-running bridge to Slack, Discord or both. It follows the store's events and keeps
 * every chat message true (Bridge + one Surface per platform), answers interactions (the Bolt app, the discord.js
 * gateway client), and expires due questions and purges old ones on a timer. Where a project's questions go and
 * who may answer them comes from the routing table (`src/routing.ts`: the routing file over the default channels).
 * A project routed to both platforms is posted on both; the first answer on either wins in the store, and the
 * answered event redraws every copy.
 *
 * Several replicas can run against one Redis: the bridge's consumer group hands each event to one of them (a dead
 * replica's events are reclaimed after `reclaimIdleMs`), a post that may have happened before is looked up first
 * (Slack metadata; Discord nonce and recent history), and the sweep runs in the replica holding its lease
 * (`sweep.ts`).
 *
 * Logs are pino JSON on stdout with ids, statuses and timings only. Human lines (ready, a config problem, a failed
 * start) go to stderr, one line each. `GET /healthz`: see `health.ts`. SIGTERM / SIGINT: /healthz turns 503, the
 * receivers stop (Slack's HTTP server or socket, Discord's gateway), the interactions already acknowledged finish,
 * the bridge finishes and acknowledges the event in hand, the sweep lease is given up, the store closes, exit 0.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { pino } from 'pino';
import { Bridge } from '../bot/bridge.js';
import { createDiscordApp, type DiscordApp, isTokenRefused } from '../bot/discord/app.js';
import { createDiscordRest, discordStatus } from '../bot/discord/rest.js';
import { DiscordSurface } from '../bot/discord/surface.js';
import { InteractionService, type Routing } from '../bot/interactions.js';
import { errorFields, type Logger } from '../bot/logger.js';
import { createSlackApp, type SlackApp } from '../bot/slack/app.js';
import { SlackSurface } from '../bot/slack/surface.js';
import { createWebClient, type RetryOptions, slackErrorCode } from '../bot/slack/web.js';
import type { Surface } from '../bot/surface.js';
import { loadServeConfig, NOTHING_TO_SERVE, type ServeConfig } from '../config.js';
import { ConfigError } from '../config-error.js';
import { routingTable } from '../routing.js';
import type { Store } from '../store/port.js';
import { openRedisStore } from '../store/redis/redis-store.js';
import { routedAccessPolicy } from './access.js';
import { checkHealth, type HealthReport } from './health.js';
import { routedSurface } from './routed-surface.js';
import { ServeStartError } from './serve-start-error.js';
import { type Sweeper, startSweep } from './sweep.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface ServeDeps {
  /** Structured logger (default: pino JSON on stdout). */
  readonly logger?: Logger;
  /** A store to use instead of opening one from the config (it is then left open on stop). */
  readonly store?: Store;
  /** Web API retries (default `SERVE_RETRY_CONFIG`). */
  readonly retryConfig?: RetryOptions;
  /** Bridge tuning (tests use short ones). */
  readonly bridge?: { readonly blockMs?: number; readonly reclaimIdleMs?: number; readonly retryBaseMs?: number };
  /**
   * How often to expire due questions and purge old ones, in the replica holding the sweep lease (default 30 s;
   * 0 turns it off).
   */
  readonly sweepMs?: number;
  /** This replica's name: bridge consumer and lease owner (default host, pid and a random part). */
  readonly replica?: string;
  /** Skip Bolt's own `auth.test` when both are known. */
  readonly botId?: string;
  readonly botUserId?: string;
  /** Posts an ephemeral reply to a `response_url` (default `fetch`). */
  readonly respond?: (responseUrl: string, body: Record<string, unknown>) => Promise<void>;
  /** Discord tuning (tests): deferral threshold, gateway start time-out, REST retries. */
  readonly discord?: {
    readonly deferAfterMs?: number;
    readonly startTimeoutMs?: number;
    readonly restRetries?: number;
  };
}

export interface ServeHandle {
  /** The bound HTTP port (Slack's requests in HTTP mode; `/healthz` always). */
  readonly port: number | undefined;
  /** How Slack is served; `none` when only Discord is configured. */
  readonly mode: 'http' | 'socket' | 'none';
  /** Whether the Discord gateway client runs. */
  readonly discord: boolean;
  /** Stop taking interactions and events, finish what is in hand, close the store (if opened here). */
  stop(): Promise<void>;
}

/** Start serving in-process. Throws `ServeStartError` (one line) when the store, Slack or Discord cannot be reached. */
export async function startServe(config: ServeConfig, deps: ServeDeps = {}): Promise<ServeHandle> {
  const { slack, discord } = config;
  if (!slack && !discord) throw new ServeStartError(NOTHING_TO_SERVE);
  const log = deps.logger ?? pino({ base: { pid: process.pid } });

  let store: Store;
  try {
    store = deps.store ?? (await openRedisStore({ url: config.redisUrl, prefix: config.redisPrefix }));
  } catch (error) {
    throw new ServeStartError(`cannot reach Redis at REDIS_URL (${describeError(error)})`, { cause: error });
  }
  const ownStore = deps.store === undefined;
  // Routes naming a platform that is not served are refused by the config; here a platform not served gets none.
  const table = routingTable({
    routes: config.routes ?? [],
    ...(slack?.channel !== undefined ? { slackChannel: slack.channel } : {}),
    ...(discord?.channel !== undefined ? { discordChannel: discord.channel } : {}),
  });
  const routing: Routing = (platform, project) => {
    if ((platform === 'slack' && !slack) || (platform === 'discord' && !discord)) return [];
    return table.channelsFor(platform, project);
  };
  const interactions = new InteractionService({
    store,
    access: routedAccessPolicy(
      {
        users: { slack: slack?.allowedUsers ?? [], discord: discord?.allowedUsers ?? [] },
        discordRoles: discord?.allowedRoles ?? [],
      },
      table,
    ),
    routing,
  });
  let serving = true;
  const surfaces: Surface[] = [];
  const replica = deps.replica ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  let app: SlackApp | undefined;
  let gateway: DiscordApp | undefined;
  const health = (): Promise<HealthReport> =>
    checkHealth({
      serving: () => serving,
      store,
      ...(app ? { slack: () => app?.connected() ?? false } : {}),
      ...(gateway ? { discord: () => gateway?.connected() ?? false } : {}),
    });

  if (slack) {
    app = createSlackApp({
      config: slack,
      port: config.port,
      interactions,
      store,
      logger: log,
      health,
      ...(deps.retryConfig !== undefined ? { retryConfig: deps.retryConfig } : {}),
      ...(deps.botId !== undefined ? { botId: deps.botId } : {}),
      ...(deps.botUserId !== undefined ? { botUserId: deps.botUserId } : {}),
      ...(deps.respond !== undefined ? { respond: deps.respond } : {}),
    });
    surfaces.push(
      routedSurface(
        new SlackSurface({
          client: createWebClient({
            token: slack.botToken,
            ...(slack.apiUrl !== undefined ? { apiUrl: slack.apiUrl } : {}),
            ...(deps.retryConfig !== undefined ? { retryConfig: deps.retryConfig } : {}),
          }),
          // Unused: the routed surface asks the table for each project's channel.
          channel: slack.channel ?? '',
          logger: log,
        }),
        table,
      ),
    );
  }

  if (discord) {
    gateway = createDiscordApp({
      config: discord,
      interactions,
      store,
      logger: log,
      ...(deps.discord?.deferAfterMs !== undefined ? { deferAfterMs: deps.discord.deferAfterMs } : {}),
      ...(deps.discord?.startTimeoutMs !== undefined ? { startTimeoutMs: deps.discord.startTimeoutMs } : {}),
      ...(deps.discord?.restRetries !== undefined ? { restRetries: deps.discord.restRetries } : {}),
    });
    const started = gateway;
    surfaces.push(
      routedSurface(
        new DiscordSurface({
          rest: createDiscordRest({
            token: discord.token,
            ...(discord.apiUrl !== undefined ? { apiUrl: discord.apiUrl } : {}),
            ...(deps.discord?.restRetries !== undefined ? { retries: deps.discord.restRetries } : {}),
          }),
          // Unused: the routed surface asks the table for each project's channel.
          channel: discord.channel ?? '',
          botUserId: () => started.botUserId(),
          logger: log,
        }),
        table,
      ),
    );
  }

  const bridge = new Bridge({
    store,
    surfaces,
    consumerName: replica,
    logger: log,
    ...deps.bridge,
  });

  // Without Slack's HTTP server, /healthz gets a server of its own.
  let healthz: Server | undefined;
  const stopStarted = async () => {
    await app?.stop().catch(() => undefined);
    await gateway?.stop().catch(() => undefined);
    await closeServer(healthz);
    if (ownStore) await store.close().catch(() => undefined);
  };
  try {
    if (app) await app.start();
  } catch (error) {
    await stopStarted();
    const code = slackErrorCode(error);
    const what =
      code === 'invalid_auth' || code === 'not_authed' || code === 'account_inactive' || code === 'token_revoked'
        ? `Slack refused SLACK_BOT_TOKEN (${code}): use the app's bot token (xoxb-…)`
        : `cannot start the Slack app (${code ?? describeError(error)})`;
    throw new ServeStartError(what, { cause: error });
  }
  try {
    if (gateway) await gateway.start();
  } catch (error) {
    await stopStarted();
    const what = isTokenRefused(error)
      ? "Discord refused DISCORD_TOKEN (401): use the bot token from the Developer Portal's Bot page"
      : `cannot start the Discord client (${discordStatus(error) ?? describeError(error)})`;
    throw new ServeStartError(what, { cause: error });
  }
  try {
    if (!app) healthz = await healthServer(config.port, health);
  } catch (error) {
    await stopStarted();
    throw new ServeStartError(`cannot listen on PORT ${config.port} (${describeError(error)})`, { cause: error });
  }
  await bridge.start();

  const sweepMs = deps.sweepMs ?? 30_000;
  const sweeper: Sweeper | undefined =
    sweepMs > 0 ? startSweep({ store, owner: replica, everyMs: sweepMs, logger: log }) : undefined;
  const port = () => app?.port ?? (healthz?.address() as AddressInfo | null)?.port;
  log.info(
    {
      mode: app?.mode ?? 'none',
      port: port(),
      discord: gateway !== undefined,
      routes: config.routes?.length ?? 0,
      slackChannel: slack?.channel,
      discordChannel: discord?.channel,
    },
    'serve: ready',
  );

  let stopping: Promise<void> | undefined;
  return {
    get port() {
      return port();
    },
    mode: app?.mode ?? 'none',
    discord: gateway !== undefined,
    stop() {
      stopping ??= (async () => {
        const started = Date.now();
        serving = false;
        // Receivers first (each waits for the interactions it acknowledged), then the bridge's event in hand.
        await Promise.all([
          app?.stop().catch((error: unknown) => log.warn(errorFields(error), 'serve: stopping Slack failed')),
          gateway?.stop().catch((error: unknown) => log.warn(errorFields(error), 'serve: stopping Discord failed')),
        ]);
        await bridge.stop().catch((error: unknown) => log.warn(errorFields(error), 'serve: stopping bridge failed'));
        await sweeper?.stop();
        await closeServer(healthz);
        if (ownStore) await store.close().catch(() => undefined);
        log.info({ ms: Date.now() - started }, 'serve: stopped');
      })();
      return stopping;
    },
  };
}

/** `GET /healthz` alone (Discord-only serving). */
async function healthServer(port: number, health: () => Promise<HealthReport>): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/healthz') {
      res.writeHead(404).end();
      return;
    }
    void health()
      .catch((): HealthReport => ({ statusCode: 503, body: { status: 'down', store: 'down' } }))
      .then(({ statusCode, body }) => {
        res.writeHead(statusCode, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify(body));
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve());
  });
  return server;
}

async function closeServer(server: Server | undefined): Promise<void> {
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** What failed, without a URL, token or payload: the error's name and code. */
function describeError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const fields = errorFields(cause);
  return [fields.error, fields.code].filter((part) => part !== undefined).join(' ');
}

export interface ServeIo {
  readonly stderr: { write(text: string): unknown };
  /** Where SIGTERM / SIGINT arrive (default `process`). */
  readonly signals?: { once(signal: 'SIGTERM' | 'SIGINT', listener: () => void): unknown };
}

/** The human "ready" line: what is served where. */
function readyLine(handle: ServeHandle): string {
  const discord = handle.discord ? '; Discord gateway connected' : '';
  switch (handle.mode) {
    case 'socket':
      return `ready (Slack Socket Mode; GET /healthz on port ${handle.port}${discord})`;
    case 'http':
      return `ready (HTTP on port ${handle.port}: POST /slack/events, GET /healthz${discord})`;
    case 'none':
      return `ready (Discord gateway connected; GET /healthz on port ${handle.port})`;
  }
}

/**
 * The command: config from `env`, start, serve until SIGTERM / SIGINT. Resolves with the exit code: 0 after a
 * clean stop, 1 when the config is wrong or a service cannot be reached (one line on stderr).
 */
export async function runServe(env: Env, io: ServeIo = { stderr: process.stderr }, deps: ServeDeps = {}) {
  let config: ServeConfig;
  try {
    config = loadServeConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr.write(`ask-later serve: ${error.message}\n`);
    return 1;
  }
  let handle: ServeHandle;
  try {
    handle = await startServe(config, deps);
  } catch (error) {
    if (!(error instanceof ServeStartError)) throw error;
    io.stderr.write(`ask-later serve: ${error.message}\n`);
    return 1;
  }
  io.stderr.write(`ask-later serve: ${readyLine(handle)}\n`);
  const signals = io.signals ?? process;
  await new Promise<void>((resolve) => {
    signals.once('SIGTERM', resolve);
    signals.once('SIGINT', resolve);
  });
  await handle.stop();
  return 0;
}
