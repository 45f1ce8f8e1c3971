/**
 * `ask-later serve`: the long-running bridge to Slack. It follows the store's events and keeps every Slack message
 * true (Bridge + SlackSurface), answers interactions (the Bolt app), and expires due questions and purges old ones
 * on a timer. Several replicas can run against one Redis: the bridge's consumer group hands each event to one of
 * them, and a post that may have happened before is looked up by its metadata first.
 *
 * Logs are pino JSON on stdout with ids, statuses and timings only. Human lines (ready, a config problem, a failed
 * start) go to stderr, one line each. SIGTERM / SIGINT: stop taking interactions and events, finish the one in
 * hand, close the store, exit 0.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { pino } from 'pino';
import { Bridge } from '../bot/bridge.js';
import { allowListPolicy, InteractionService } from '../bot/interactions.js';
import { errorFields, type Logger } from '../bot/logger.js';
import { createSlackApp, type SlackApp } from '../bot/slack/app.js';
import { SlackSurface } from '../bot/slack/surface.js';
import { createWebClient, type RetryOptions, slackErrorCode } from '../bot/slack/web.js';
import { loadServeConfig, type ServeConfig } from '../config.js';
import { ConfigError } from '../config-error.js';
import type { Store } from '../store/port.js';
import { openRedisStore } from '../store/redis/redis-store.js';
import { ServeStartError } from './serve-start-error.js';

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
  /** How often to expire due questions and purge old ones (default 30 s; 0 turns it off). */
  readonly sweepMs?: number;
  /** Skip Bolt's own `auth.test` when both are known. */
  readonly botId?: string;
  readonly botUserId?: string;
  /** Posts an ephemeral reply to a `response_url` (default `fetch`). */
  readonly respond?: (responseUrl: string, body: Record<string, unknown>) => Promise<void>;
}

export interface ServeHandle {
  /** The bound HTTP port (Slack's requests in HTTP mode; `/healthz` in both). */
  readonly port: number | undefined;
  readonly mode: 'http' | 'socket';
  /** Stop taking interactions and events, finish what is in hand, close the store (if opened here). */
  stop(): Promise<void>;
}

/** Start serving in-process. Throws `ServeStartError` (one line) when the store or Slack cannot be reached. */
export async function startServe(config: ServeConfig, deps: ServeDeps = {}): Promise<ServeHandle> {
  const slack = config.slack;
  if (!slack) throw new ServeStartError('Nothing to serve: set SLACK_BOT_TOKEN and SLACK_CHANNEL');
  const log = deps.logger ?? pino({ base: { pid: process.pid } });

  let store: Store;
  try {
    store = deps.store ?? (await openRedisStore({ url: config.redisUrl, prefix: config.redisPrefix }));
  } catch (error) {
    throw new ServeStartError(`cannot reach Redis at REDIS_URL (${describeError(error)})`, { cause: error });
  }
  const ownStore = deps.store === undefined;
  const routing = (platform: string) => (platform === 'slack' ? [slack.channel] : []);
  const interactions = new InteractionService({
    store,
    access: allowListPolicy({ users: { slack: slack.allowedUsers } }),
    routing,
  });
  let serving = true;
  const app: SlackApp = createSlackApp({
    config: slack,
    port: config.port,
    interactions,
    store,
    logger: log,
    healthy: () => serving,
    ...(deps.retryConfig !== undefined ? { retryConfig: deps.retryConfig } : {}),
    ...(deps.botId !== undefined ? { botId: deps.botId } : {}),
    ...(deps.botUserId !== undefined ? { botUserId: deps.botUserId } : {}),
    ...(deps.respond !== undefined ? { respond: deps.respond } : {}),
  });
  const surface = new SlackSurface({
    client: createWebClient({
      token: slack.botToken,
      ...(slack.apiUrl !== undefined ? { apiUrl: slack.apiUrl } : {}),
      ...(deps.retryConfig !== undefined ? { retryConfig: deps.retryConfig } : {}),
    }),
    channel: slack.channel,
    logger: log,
  });
  const bridge = new Bridge({
    store,
    surfaces: [surface],
    consumerName: `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
    logger: log,
    ...deps.bridge,
  });

  try {
    await app.start();
  } catch (error) {
    if (ownStore) await store.close().catch(() => undefined);
    const code = slackErrorCode(error);
    const what =
      code === 'invalid_auth' || code === 'not_authed' || code === 'account_inactive' || code === 'token_revoked'
        ? `Slack refused SLACK_BOT_TOKEN (${code}): use the app's bot token (xoxb-…)`
        : `cannot start the Slack app (${code ?? describeError(error)})`;
    throw new ServeStartError(what, { cause: error });
  }
  await bridge.start();

  const sweepMs = deps.sweepMs ?? 30_000;
  const sweep =
    sweepMs > 0
      ? setInterval(() => {
          void (async () => {
            try {
              const expired = await store.expireDue();
              const purged = await store.purgeExpired();
              if (expired + purged > 0) log.info({ expired, purged }, 'serve: swept');
            } catch (error) {
              log.warn(errorFields(error), 'serve: sweep failed');
            }
          })();
        }, sweepMs)
      : undefined;
  sweep?.unref();
  log.info({ mode: app.mode, port: app.port, channel: slack.channel }, 'serve: ready');

  let stopping: Promise<void> | undefined;
  return {
    get port() {
      return app.port;
    },
    mode: app.mode,
    stop() {
      stopping ??= (async () => {
        serving = false;
        clearInterval(sweep);
        await app.stop().catch((error: unknown) => log.warn(errorFields(error), 'serve: stopping Slack failed'));
        await bridge.stop().catch((error: unknown) => log.warn(errorFields(error), 'serve: stopping bridge failed'));
        if (ownStore) await store.close().catch(() => undefined);
        log.info({}, 'serve: stopped');
      })();
      return stopping;
    },
  };
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
  io.stderr.write(
    handle.mode === 'socket'
      ? `ask-later serve: ready (Slack Socket Mode; GET /healthz on port ${handle.port})\n`
      : `ask-later serve: ready (HTTP on port ${handle.port}: POST /slack/events, GET /healthz)\n`,
  );
  const signals = io.signals ?? process;
  await new Promise<void>((resolve) => {
    signals.once('SIGTERM', resolve);
    signals.once('SIGINT', resolve);
  });
  await handle.stop();
  return 0;
}
