/**
 * `ask-later serve`: the person's side. It always serves the local web inbox, and bridges to Slack, Discord or both
 * when they are configured. It follows the store's events and keeps every copy of a question true (Bridge + one
 * Surface per platform, the web inbox's included), answers interactions (the web inbox's actions, the Bolt app, the
 * discord.js gateway client), and expires due questions, reminds of waiting blocking ones and purges old ones on a
 * timer. Where a project's questions go, who may answer them and who is reminded comes from the routing table
 * (`src/config/routing.ts`: the routing file over the default channels).
 * A project routed to both platforms is posted on both; the first answer on either wins in the store, and the
 * answered event redraws every copy.
 *
 * Several replicas can run against one Redis: the bridge's consumer group hands each event to one of them (a dead
 * replica's events are reclaimed after `reclaimIdleMs`), a post that may have happened before is looked up first
 * (Slack metadata; Discord nonce and recent history), and the sweep runs in the replica holding its lease
 * (`sweep.ts`).
 *
 * One HTTP server on `ASK_LATER_HOST:PORT` (default 127.0.0.1:7420) answers every route: `GET /healthz`,
 * `GET /metrics` (`metrics.ts`), Slack's `POST /slack/events` in HTTP mode, agents holding a token (`POST
 * /agent/v1/*`, `serve/api/server.ts`; the MCP server over Streamable HTTP at `/mcp`, `serve/api/mcp.ts`), and
 * the web inbox (everything else; see `surfaces/web/server.ts`). Every one but `/healthz` (load balancers call it by any
 * name) and Slack's signed requests refuses a rebinding `Host` or a foreign `Origin` with 403, by one rule
 * (`surfaces/origin-rule.ts`: loopback names, IP addresses, `ASK_LATER_PUBLIC_URL`).
 *
 * Logs are pino on stdout (JSON, or short text lines on a terminal: `LOG_FORMAT`, `log-lines.ts`) with ids, statuses
 * and timings only. Human lines (ready, a config problem, a failed start) go to stderr. Only the chat platforms
 * configured are loaded (`platform-modules.ts`), and the MCP endpoint once the address is out. `GET /healthz`: see `health.ts`. SIGTERM / SIGINT: /healthz turns 503, the receivers stop
 * (Slack's requests or socket, Discord's gateway), the interactions already acknowledged finish, the web inbox's
 * event streams end, the bridge finishes and acknowledges the event in hand, the sweep lease is given up, the
 * server and the store close, exit 0; within `STOP_TIMEOUT_MS` whatever the store and the platforms do (what is
 * left then stays unacknowledged for the next start).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../config/config-error.js';
import { routingTable } from '../config/routing.js';
import { loadServeConfig, type ServeConfig } from '../config/serve.js';
import { errorFields, type Logger } from '../core/logger.js';
import { type OpenStoreOptions, openStore } from '../store/open.js';
import type { Store } from '../store/port.js';
import { SqliteEngineMissingError } from '../store/sqlite/engine-missing-error.js';
import type { DiscordApp } from '../surfaces/discord/app.js';
import { InteractionService, type Routing } from '../surfaces/interactions.js';
import { originRule } from '../surfaces/origin-rule.js';
import type { SlackApp } from '../surfaces/slack/app.js';
import type { RetryOptions } from '../surfaces/slack/web.js';
import { followStoreChanges } from '../surfaces/store-changes.js';
import type { Surface } from '../surfaces/surface.js';
import type { TelegramApp } from '../surfaces/telegram/app.js';
import { createWebInbox, type WebInbox } from '../surfaces/web/server.js';
import { WEB_CHANNEL, WebSurface } from '../surfaces/web/surface.js';
import { routedAccessPolicy } from './access.js';
import { createAuthenticator } from './api/auth.js';
import type { McpEndpoint } from './api/mcp.js';
import { MCP_PATH } from './api/mcp-path.js';
import { createAgentApi } from './api/server.js';
import { Bridge } from './bridge/bridge.js';
import { checkHealth, type HealthReport } from './health.js';
import { serveLogger } from './log-lines.js';
import { createServeMetrics, METRICS_PATH } from './metrics.js';
import { loadDiscord, loadSlack, loadTelegram } from './platform-modules.js';
import { routedSurface } from './routed-surface.js';
import { ServeStartError } from './serve-start-error.js';
import { type Sweeper, startSweep } from './sweep.js';
import { webPeople } from './web-people.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface ServeDeps {
  /** Structured logger (default: pino on stdout, JSON or short text lines: `log-lines.ts`). */
  readonly logger?: Logger;
  /** A store to use instead of opening one from the config (it is then left open on stop). */
  readonly store?: Store;
  /** Web API retries (default `SERVE_RETRY_CONFIG`). */
  readonly retryConfig?: RetryOptions;
  /** Bridge tuning (tests use short ones). */
  readonly bridge?: { readonly blockMs?: number; readonly reclaimIdleMs?: number; readonly retryBaseMs?: number };
  /**
   * How often to expire due questions, record due reminders and purge old ones, in the replica holding the sweep
   * lease (default 30 s; 0 turns it off).
   */
  readonly sweepMs?: number;
  /** The clock reminders fall due by (default `Date.now`; tests hand in the store's). */
  readonly now?: () => number;
  /** This replica's name: bridge consumer and lease owner (default host, pid and a random part). */
  readonly replica?: string;
  /** Skip Bolt's own `auth.test` when both are known. */
  readonly botId?: string;
  readonly botUserId?: string;
  /** Posts an ephemeral reply to a `response_url` (default `fetch`). */
  readonly respond?: (responseUrl: string, body: Record<string, unknown>) => Promise<void>;
  /** Web inbox tuning (tests): the name answers are sent under, the time zone shown, the SSE heartbeat. */
  readonly web?: { readonly displayName?: string; readonly timeZone?: string; readonly heartbeatMs?: number };
  /** Agents over HTTP (tests): how often a waiting ask_later on /mcp reports progress. */
  readonly agent?: { readonly progressIntervalMs?: number };
  /** How long `stop` finishes what is in hand before it leaves the rest (default `STOP_TIMEOUT_MS`). */
  readonly stopTimeoutMs?: number;
  /** Telegram tuning (tests): the poller lease and the long poll's timeout in seconds. */
  readonly telegram?: { readonly leaseMs?: number; readonly pollSeconds?: number };
  /** Discord tuning (tests): deferral threshold, gateway start time-out, REST retries. */
  readonly discord?: {
    readonly deferAfterMs?: number;
    readonly startTimeoutMs?: number;
    readonly restRetries?: number;
  };
}

export interface ServeHandle {
  /** The bound HTTP port: the web inbox, `/healthz`, Slack's requests in HTTP mode. */
  readonly port: number;
  /** The web inbox's address, `http://127.0.0.1:7420/`. */
  readonly url: string;
  /** How Slack is served; `none` when Slack is not configured. */
  readonly mode: 'http' | 'socket' | 'none';
  /** Whether the Discord gateway client runs. */
  readonly discord: boolean;
  /** How Telegram's updates arrive; `none` when Telegram is not configured. */
  readonly telegram: 'polling' | 'webhook' | 'none';
  /**
   * Stop taking interactions and events, finish what is in hand, close the store (if opened here). Bounded: what
   * has not finished after `stopTimeoutMs` is left (its connections cut; an event in hand stays unacknowledged for
   * another replica or the next start), and one log line names it.
   */
  stop(): Promise<void>;
}

/** How serve opens its store: with the retention its sweep purges by (`ASK_LATER_RETENTION_DAYS`). */
export function serveStoreOptions(config: Pick<ServeConfig, 'retentionMs'>): OpenStoreOptions {
  return config.retentionMs === undefined ? {} : { retentionMs: config.retentionMs };
}

/**
 * Start serving in-process. Throws `ServeStartError` (one line) when the store, Slack or Discord cannot be reached,
 * or the port cannot be bound.
 */
export async function startServe(config: ServeConfig, deps: ServeDeps = {}): Promise<ServeHandle> {
  const { slack, discord, telegram } = config;
  const log = deps.logger ?? serveLogger(config.logFormat);

  let store: Store;
  try {
    store = deps.store ?? (await openStore(config.store, serveStoreOptions(config)));
  } catch (error) {
    if (error instanceof SqliteEngineMissingError) throw new ServeStartError(error.message, { cause: error });
    const what =
      config.store.kind === 'redis'
        ? 'cannot reach Redis at REDIS_URL'
        : `cannot open the embedded store at ${config.store.path}`;
    throw new ServeStartError(`${what} (${describeError(error)})`, { cause: error });
  }
  const ownStore = deps.store === undefined;
  // Routes naming a platform that is not served are refused by the config; here a platform not served gets none.
  const table = routingTable({
    routes: config.routes ?? [],
    ...(slack?.channel !== undefined ? { slackChannel: slack.channel } : {}),
    ...(discord?.channel !== undefined ? { discordChannel: discord.channel } : {}),
    ...(telegram?.chat !== undefined ? { telegramChat: telegram.chat } : {}),
    ...(config.remindAfterMs !== undefined ? { remindAfterMs: config.remindAfterMs } : {}),
  });
  const routing: Routing = (platform, project) => {
    // The web inbox shows every project of the store: it is the person's own machine (or behind the web token); a
    // person signed in with a token of their own reaches only its projects (InteractionService checks the actor).
    if (platform === 'web') return [WEB_CHANNEL];
    if (
      (platform === 'slack' && !slack) ||
      (platform === 'discord' && !discord) ||
      (platform === 'telegram' && !telegram)
    ) {
      return [];
    }
    return table.channelsFor(platform, project);
  };
  // Only the platforms configured are loaded (their SDKs cost seconds); in parallel with each other.
  const [slackModules, discordModules, telegramModules] = await Promise.all([
    slack ? loadSlack() : undefined,
    discord ? loadDiscord() : undefined,
    telegram ? loadTelegram() : undefined,
  ]);
  // One Web API client for what serve itself sends (posts, redraws, membership); Bolt's handlers use the app's own.
  const slackClient =
    slack && slackModules
      ? slackModules.createWebClient({
          token: slack.botToken,
          ...(slack.apiUrl !== undefined ? { apiUrl: slack.apiUrl } : {}),
          ...(deps.retryConfig !== undefined ? { retryConfig: deps.retryConfig } : {}),
        })
      : undefined;
  const interactions = new InteractionService({
    store,
    ...(slackClient && slackModules
      ? { membership: { slack: new slackModules.SlackMembership({ client: slackClient, logger: log }) } }
      : {}),
    access: routedAccessPolicy(
      {
        users: {
          slack: slack?.allowedUsers ?? [],
          discord: discord?.allowedUsers ?? [],
          telegram: telegram?.allowedUsers ?? [],
        },
        discordRoles: discord?.allowedRoles ?? [],
      },
      table,
    ),
    routing,
  });
  let serving = true;
  const webSurface = new WebSurface();
  const surfaces: Surface[] = [webSurface];
  // One Host / Origin rule for every entry point but /healthz and Slack's signed requests.
  const origins = originRule(config.publicUrl !== undefined ? { publicUrl: config.publicUrl } : {});
  const web: WebInbox = createWebInbox({
    interactions,
    surface: webSurface,
    origins,
    logger: log,
    ...(config.webToken !== undefined ? { token: config.webToken } : {}),
    // People's own tokens (`token create --web`) sign in beside the shared one: each sees only their projects.
    people: webPeople(store.tokens()),
    ...(deps.web?.displayName !== undefined ? { displayName: deps.web.displayName } : {}),
    ...(deps.web?.timeZone !== undefined ? { timeZone: deps.web.timeZone } : {}),
    ...(deps.web?.heartbeatMs !== undefined ? { heartbeatMs: deps.web.heartbeatMs } : {}),
  });
  const replica = deps.replica ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  let app: SlackApp | undefined;
  let gateway: DiscordApp | undefined;
  let telegramApp: TelegramApp | undefined;
  const health = (): Promise<HealthReport> =>
    checkHealth({
      serving: () => serving,
      store,
      ...(app ? { slack: () => app?.connected() ?? false } : {}),
      ...(gateway ? { discord: () => gateway?.connected() ?? false } : {}),
      ...(telegramApp ? { telegram: () => telegramApp?.connected() ?? false } : {}),
    });

  if (slack && slackClient && slackModules) {
    app = slackModules.createSlackApp({
      config: slack,
      interactions,
      logger: log,
      ...(deps.retryConfig !== undefined ? { retryConfig: deps.retryConfig } : {}),
      ...(deps.botId !== undefined ? { botId: deps.botId } : {}),
      ...(deps.botUserId !== undefined ? { botUserId: deps.botUserId } : {}),
      ...(deps.respond !== undefined ? { respond: deps.respond } : {}),
    });
    surfaces.push(
      routedSurface(
        new slackModules.SlackSurface({
          client: slackClient,
          // Unused: the routed surface asks the table for each project's channel.
          channel: slack.channel ?? '',
          logger: log,
        }),
        table,
      ),
    );
  }

  if (discord && discordModules) {
    gateway = discordModules.createDiscordApp({
      config: discord,
      interactions,
      logger: log,
      ...(deps.discord?.deferAfterMs !== undefined ? { deferAfterMs: deps.discord.deferAfterMs } : {}),
      ...(deps.discord?.startTimeoutMs !== undefined ? { startTimeoutMs: deps.discord.startTimeoutMs } : {}),
      ...(deps.discord?.restRetries !== undefined ? { restRetries: deps.discord.restRetries } : {}),
    });
    const started = gateway;
    surfaces.push(
      routedSurface(
        new discordModules.DiscordSurface({
          rest: discordModules.createDiscordRest({
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

  if (telegram && telegramModules) {
    const api = telegramModules.createTelegramApi({
      token: telegram.token,
      ...(telegram.apiUrl !== undefined ? { apiUrl: telegram.apiUrl } : {}),
    });
    // The token's first part is the bot's id (not a secret): the leases are per bot.
    const bot = telegram.token.split(':')[0] ?? 'bot';
    telegramApp = telegramModules.createTelegramApp({
      api,
      token: telegram.token,
      interactions,
      logger: log,
      claimUpdate: (updateId) =>
        store.acquireLease(`telegram-update:${bot}:${updateId}`, randomUUID(), UPDATE_CLAIM_MS),
      lease: {
        acquire: (ms) => store.acquireLease(`telegram-poller:${bot}`, replica, ms),
        release: () => store.releaseLease(`telegram-poller:${bot}`, replica),
      },
      ...(config.publicUrl !== undefined ? { publicUrl: config.publicUrl } : {}),
      ...(deps.telegram?.leaseMs !== undefined ? { leaseMs: deps.telegram.leaseMs } : {}),
      ...(deps.telegram?.pollSeconds !== undefined ? { pollSeconds: deps.telegram.pollSeconds } : {}),
    });
    surfaces.push(routedSurface(new telegramModules.TelegramSurface({ api, logger: log }), table));
  }

  const metrics = createServeMetrics({
    store,
    replica,
    platforms: surfaces.map((surface) => surface.platform),
    projectLabels: config.metricsProjects === true,
    ...(config.webToken !== undefined ? { token: config.webToken } : {}),
    origins,
    logger: log,
    ...(deps.bridge?.blockMs !== undefined ? { blockMs: deps.bridge.blockMs } : {}),
    ...(deps.bridge?.reclaimIdleMs !== undefined ? { reclaimIdleMs: deps.bridge.reclaimIdleMs } : {}),
    ...(deps.bridge?.retryBaseMs !== undefined ? { retryBaseMs: deps.bridge.retryBaseMs } : {}),
  });
  const bridge = new Bridge({
    store,
    surfaces,
    consumerName: replica,
    logger: log,
    metrics: metrics.bridge,
    reminderOwners: (platform, project) =>
      platform === 'web' ? [] : (table.remindersFor(project).owners[platform] ?? []),
    ...deps.bridge,
  });

  // Agents holding a token instead of the store's password: the agent API and the MCP server over HTTP.
  const agentAuth = createAuthenticator(store.tokens());
  const agentApi = createAgentApi({
    store,
    auth: agentAuth,
    origins,
    logger: log,
    onCall: (operation, status) => metrics.agent.called(operation, status),
  });
  // The MCP SDK is most of what is left of start-up: it loads after the address is printed, or on the first /mcp.
  let mcpEndpoint: Promise<McpEndpoint> | undefined;
  const mcp = (): Promise<McpEndpoint> => {
    mcpEndpoint ??= import('./api/mcp.js').then(({ createMcpEndpoint }) =>
      createMcpEndpoint({
        store,
        auth: agentAuth,
        origins,
        logger: log,
        ...(deps.agent?.progressIntervalMs !== undefined ? { progressIntervalMs: deps.agent.progressIntervalMs } : {}),
      }),
    );
    return mcpEndpoint;
  };

  const slackHandler = app?.handle;
  const telegramWebhook = telegramApp?.webhook;
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/healthz') return answerHealth(request, response, health);
    if (path === METRICS_PATH) return metrics.handle(request, response);
    if (slackHandler && path === slackModules?.SLACK_EVENTS_PATH) return slackHandler(request, response);
    // Telegram's updates carry its secret token header, checked on each (like Slack's signature).
    if (telegramWebhook && path === telegramModules?.TELEGRAM_WEBHOOK_PATH) return telegramWebhook(request, response);
    if (agentApi.handle(request, response)) return;
    if (path === MCP_PATH) {
      void mcp().then(
        (endpoint) => endpoint.handle(request, response),
        (error: unknown) => {
          log.error(errorFields(error), 'serve: the MCP endpoint did not load');
          response
            .writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
            .end('The MCP endpoint did not load.');
        },
      );
      return;
    }
    if (web.handle(request, response)) return;
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found.');
  });
  const stopStarted = async () => {
    await app?.stop().catch(() => undefined);
    await gateway?.stop().catch(() => undefined);
    await telegramApp?.stop().catch(() => undefined);
    web.close();
    agentApi.close();
    await closeServer(server);
    if (ownStore) await store.close().catch(() => undefined);
  };
  try {
    if (app) await app.start();
  } catch (error) {
    await stopStarted();
    const code = slackModules?.slackErrorCode(error);
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
    const what = discordModules?.isTokenRefused(error)
      ? "Discord refused DISCORD_TOKEN (401): use the bot token from the Developer Portal's Bot page"
      : `cannot start the Discord client (${discordModules?.discordStatus(error) ?? describeError(error)})`;
    throw new ServeStartError(what, { cause: error });
  }
  try {
    if (telegramApp) await telegramApp.start();
  } catch (error) {
    await stopStarted();
    const what = telegramModules?.isTelegramTokenRefused(error)
      ? 'Telegram refused TELEGRAM_BOT_TOKEN: use the token @BotFather gave'
      : `cannot start the Telegram bot (${describeError(error)})`;
    throw new ServeStartError(what, { cause: error });
  }
  try {
    await listen(server, config.host, config.port);
  } catch (error) {
    await stopStarted();
    const code = (error as { code?: unknown }).code;
    const why =
      code === 'EADDRINUSE'
        ? 'it is in use: is another ask-later serve running? Set PORT to use another'
        : code === 'EADDRNOTAVAIL'
          ? 'ASK_LATER_HOST is not an address of this machine'
          : describeError(error);
    throw new ServeStartError(`cannot listen on ${config.host} port ${config.port} (${why})`, { cause: error });
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${displayHost(config.host)}:${port}/`;
  try {
    await bridge.start();
  } catch (error) {
    // Nothing may stay behind a start that failed: the port, the chat connections, the store.
    await stopStarted();
    throw new ServeStartError(`cannot follow the store's events (${describeError(error)})`, { cause: error });
  }
  // The time histograms follow the events in the background; a store failing there backs off, never stops serve.
  metrics.start();
  // Every replica's open pages hear every change, from the store's events (not from this replica's bridge alone).
  const webChanges = followStoreChanges({ store, surface: webSurface, logger: log });
  await webChanges.started;

  const sweepMs = deps.sweepMs ?? 30_000;
  const sweeper: Sweeper | undefined =
    sweepMs > 0
      ? startSweep({
          store,
          owner: replica,
          everyMs: sweepMs,
          logger: log,
          // Reminders are chat messages: a project on no chat platform (the web inbox alone) is not reminded.
          remindersFor: (project) =>
            routing('slack', project).length +
              routing('discord', project).length +
              routing('telegram', project).length >
            0
              ? table.remindersFor(project)
              : { afterMs: 0, times: 0 },
          ...(deps.now !== undefined ? { now: deps.now } : {}),
        })
      : undefined;
  log.info(
    {
      mode: app?.mode ?? 'none',
      port,
      store: config.store.kind,
      discord: gateway !== undefined,
      routes: config.routes?.length ?? 0,
      slackChannel: slack?.channel,
      discordChannel: discord?.channel,
      telegram: telegramApp?.mode ?? 'none',
      telegramChat: telegram?.chat,
    },
    'serve: ready',
  );
  // Once the address is out, the MCP endpoint loads in the background so that the first /mcp call does not wait.
  setImmediate(() => void mcp().catch(() => undefined));

  let stopping: Promise<void> | undefined;
  return {
    port,
    url,
    mode: app?.mode ?? 'none',
    discord: gateway !== undefined,
    telegram: telegramApp?.mode ?? 'none',
    stop() {
      stopping ??= (async () => {
        const started = Date.now();
        serving = false;
        // Each step of the clean stop, in order; what is still running at the deadline is left as it is.
        const unfinished = new Set<string>();
        const step = async (name: string, work: () => Promise<unknown>): Promise<void> => {
          unfinished.add(name);
          await work();
          unfinished.delete(name);
        };
        const clean = (async () => {
          // Receivers first (each waits for the interactions it acknowledged), then the bridge's event in hand.
          await Promise.all([
            step('slack', async () =>
              app?.stop().catch((error: unknown) => log.warn(errorFields(error), 'serve: stopping Slack failed')),
            ),
            step('discord', async () =>
              gateway?.stop().catch((error: unknown) => log.warn(errorFields(error), 'serve: stopping Discord failed')),
            ),
            step('telegram', async () =>
              telegramApp
                ?.stop()
                .catch((error: unknown) => log.warn(errorFields(error), 'serve: stopping Telegram failed')),
            ),
          ]);
          // Open pages' event streams and agents' long polls end (the server would wait for them), then the
          // bridge's event in hand.
          web.close();
          agentApi.close();
          await Promise.all([
            step('bridge', () =>
              bridge.stop().catch((error: unknown) => log.warn(errorFields(error), 'serve: stopping bridge failed')),
            ),
            step('metrics', () => metrics.stop()),
            step('web inbox', () => webChanges.stop()),
          ]);
          await step('sweep', async () => sweeper?.stop());
          await step('server', () => closeServer(server));
          if (ownStore) await step('store', () => store.close().catch(() => undefined));
        })();
        const finished = await settlesWithin(clean, deps.stopTimeoutMs ?? STOP_TIMEOUT_MS);
        if (finished) {
          log.info({ ms: Date.now() - started }, 'serve: stopped');
          return;
        }
        // Out of time: what is still in hand is left (a bridge's event stays unacknowledged in its group, for
        // another replica or the next start), the connections are cut, and the caller exits.
        const left = [...unfinished];
        server.closeAllConnections();
        server.close();
        if (ownStore) await store.close().catch(() => undefined);
        log.warn(
          { ms: Date.now() - started, unfinished: left },
          'serve: stopped without finishing (the store or a platform did not answer in time); an event in hand stays unacknowledged for the next start',
        );
      })();
      return stopping;
    },
  };
}

/** How long an update's claim is kept: Telegram redelivers an unconfirmed update within hours, not days. */
const UPDATE_CLAIM_MS = 24 * 60 * 60 * 1000;

/** How long a stop finishes what it has in hand before it leaves the rest (SIGTERM to exit within 5 s). */
export const STOP_TIMEOUT_MS = 4_000;

/** Whether `work` settles within `ms`, leaving no timer behind. */
async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true as const), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** `GET /healthz` (any host name: container health checks and load balancers call it by address). */
function answerHealth(request: IncomingMessage, response: ServerResponse, health: () => Promise<HealthReport>) {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  void health()
    .catch((): HealthReport => ({ statusCode: 503, body: { status: 'down', store: 'down' } }))
    .then(({ statusCode, body }) => {
      response.writeHead(statusCode, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      response.end(JSON.stringify(body));
    });
}

async function listen(server: Server, host: string, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

async function closeServer(server: Server): Promise<void> {
  if (!server.listening) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** The host as a URL names it: a wildcard address is reached through loopback; IPv6 in brackets. */
function displayHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
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

/** The human lines once ready: where the inbox is, what else is served, how Claude Code gets the tools. */
function readyLines(handle: ServeHandle): string[] {
  const chat = [
    handle.mode === 'socket' ? 'Slack (Socket Mode)' : handle.mode === 'http' ? 'Slack (POST /slack/events)' : '',
    handle.discord ? 'Discord' : '',
    handle.telegram === 'none' ? '' : `Telegram (${handle.telegram === 'webhook' ? 'webhook' : 'long polling'})`,
  ].filter(Boolean);
  const lines = [
    chat.length === 0
      ? `web inbox at ${handle.url} (no Slack or Discord configured: questions are answered there)`
      : `web inbox at ${handle.url}; answering from ${chat.join(' and ')} too`,
  ];
  const marketplace = marketplaceOfThisInstall();
  if (marketplace !== undefined) {
    lines.push(
      `Claude Code: claude plugin marketplace add ${shellWord(marketplace.root)} && claude plugin install ask-later@${marketplace.name}`,
    );
  }
  return lines;
}

/** This install's directory and marketplace name when it is a Claude Code plugin marketplace (a clone). */
function marketplaceOfThisInstall(): { root: string; name: string } | undefined {
  const root = fileURLToPath(new URL('../../', import.meta.url)).replace(/[\\/]$/, '');
  try {
    const { name } = JSON.parse(readFileSync(`${root}/.claude-plugin/marketplace.json`, 'utf8')) as { name?: unknown };
    return typeof name === 'string' ? { root, name } : undefined;
  } catch {
    return undefined;
  }
}

/** A path as one shell word. */
function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}

/**
 * The command: config from `env`, start, serve until SIGTERM / SIGINT. Resolves with the exit code: 0 after a
 * clean stop, 1 when the config is wrong or a service cannot be reached (one line on stderr).
 */
export async function runServe(env: Env, io: ServeIo = { stderr: process.stderr }, deps: ServeDeps = {}) {
  // Listen for the signals before anything can announce readiness: a signal that arrives while no handler is
  // installed kills the process outright (the kernel's default), skipping the clean stop.
  const signals = io.signals ?? process;
  const stopRequested = new Promise<void>((resolve) => {
    signals.once('SIGTERM', resolve);
    signals.once('SIGINT', resolve);
  });
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
  for (const line of readyLines(handle)) io.stderr.write(`ask-later serve: ${line}\n`);
  await stopRequested;
  await handle.stop();
  return 0;
}
