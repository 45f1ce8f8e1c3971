/**
 * The store's connection for long-running processes (serve, the MCP server, the waiter): node-redis (`redis`), the
 * well-kept client, behind the RedisConnection port. node-redis does RESP, reconnection, Redis Cluster routing
 * (MOVED/ASK, topology refresh, a subscription moved off a node that left), TLS and ACL; the store keeps its scripts,
 * keys and slot tags.
 *
 * - The first connection is not retried: a server that is not there when the process opens the store is reported at
 *   once. After it, node-redis reconnects with back-off (50 ms doubling to {@link RECONNECT_MAX_MS}).
 * - A command given while the connection is away waits in node-redis's offline queue and runs once it is back (again
 *   while the server answers LOADING); every command, queued or sent, fails after {@link COMMAND_TIMEOUT_MS} (a
 *   blocking read after its block time plus that), so a short outage is ridden out and a long one is reported as the
 *   store unavailable.
 * - A PING every {@link PING_INTERVAL_MS} and TCP keep-alive keep an idle connection checked.
 * - Blocking reads and subscriptions take connections of their own (`duplicate`, `subscribe`): they never hold the
 *   connection other commands use.
 * - Detection of a Redis Cluster: `INFO cluster` on the first connection (`cluster_enabled:1`); then the same URL is
 *   the seed of a node-redis cluster client, its credentials and TLS applied to every node.
 */
import {
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  createClient,
  createCluster,
  DisconnectsClientError,
  ErrorReply,
  ReconnectStrategyError,
  type RedisClientType,
  type RedisClusterType,
  RootNodesUnavailableError,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
  TimeoutError,
} from '@redis/client';
import { retryWhileSlotMoves } from './cluster-retry.js';
import { commandKeys } from './command-keys.js';
import type { RedisConnection, Subscription, SubscriptionListener } from './connection.js';

/** The longest a command may take, queued while the connection is away or sent and unanswered. */
export const COMMAND_TIMEOUT_MS = 5000;
/** How often an idle connection is checked with a PING. */
export const PING_INTERVAL_MS = 5000;
/** The longest wait between two attempts to reconnect. */
export const RECONNECT_MAX_MS = 500;
/** How soon after a node's first failed reconnect a cluster client reads the topology again (node-redis: 5 s). */
const TOPOLOGY_REFRESH_MS = 1000;

export interface NodeRedisOptions {
  /** How long the first connection may take. */
  readonly connectTimeoutMs: number;
  /** See {@link COMMAND_TIMEOUT_MS}. */
  readonly commandTimeoutMs?: number;
}

/** Errors that mean the server is not reachable or not taking commands yet (node-redis's classes and replies). */
export function nodeRedisUnavailable(error: unknown): boolean {
  if (
    error instanceof ClientClosedError ||
    error instanceof ClientOfflineError ||
    error instanceof SocketClosedUnexpectedlyError ||
    error instanceof ConnectionTimeoutError ||
    error instanceof SocketTimeoutError ||
    error instanceof TimeoutError ||
    error instanceof ReconnectStrategyError ||
    error instanceof RootNodesUnavailableError ||
    error instanceof DisconnectsClientError
  ) {
    return true;
  }
  // Still loading its data after a restart, a replica cut off from its primary, a cluster without a quorum.
  if (error instanceof ErrorReply) return /^(LOADING|MASTERDOWN|CLUSTERDOWN|TRYAGAIN) /.test(error.message);
  const code = (error as { code?: unknown } | undefined)?.code;
  return (
    typeof code === 'string' &&
    ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH'].includes(code)
  );
}

/**
 * `send()`, again while the server answers LOADING (it restarted and is still reading its data: the command did not
 * run), until `timeoutMs` from now: a command given during a short outage completes once the server is back.
 */
async function whileLoading<T>(timeoutMs: number | undefined, send: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + (timeoutMs ?? COMMAND_TIMEOUT_MS);
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      const loading = error instanceof ErrorReply && error.message.startsWith('LOADING');
      const wait = Math.min(50 * 2 ** attempt, RECONNECT_MAX_MS);
      if (!loading || Date.now() + wait >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** A blocking read's own time-out: its block time plus the usual one (`BLOCK 0` waits for ever: no time-out). */
function timeoutOf(args: readonly string[], commandTimeoutMs: number): number | undefined {
  const block = args.findIndex((arg, i) => i > 0 && arg.toUpperCase() === 'BLOCK');
  if (block < 0) return commandTimeoutMs;
  const ms = Number(args[block + 1]);
  return ms > 0 ? ms + commandTimeoutMs : undefined;
}

/**
 * Socket and client options every connection (and every cluster node) gets, and the way to say the first connection
 * was made: before it a failed connection is final (the caller reports the store unavailable); after it,
 * reconnection goes on with back-off.
 */
function clientOptions(options: NodeRedisOptions) {
  let connected = false;
  const config = {
    RESP: 2 as const,
    pingInterval: PING_INTERVAL_MS,
    commandOptions: { timeout: options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS },
    socket: {
      connectTimeout: options.connectTimeoutMs,
      keepAlive: true,
      keepAliveInitialDelay: 10_000,
      noDelay: true,
      reconnectStrategy: (retries: number, cause: Error) =>
        connected ? Math.min(50 * 2 ** retries, RECONNECT_MAX_MS) : cause,
    },
  };
  return {
    config,
    connected: () => {
      connected = true;
    },
  };
}

/** A node-redis client error with nobody listening would crash the process: they are read through `unavailable`. */
function quiet(emitter: { on(event: 'error', listener: (error: unknown) => void): unknown }): void {
  emitter.on('error', () => undefined);
}

type Client = RedisClientType<Record<string, never>, Record<string, never>, Record<string, never>, 2>;
type Cluster = RedisClusterType<Record<string, never>, Record<string, never>, Record<string, never>, 2>;

/** Open a standalone client on `url` with `options`; its first failure is thrown. */
async function openClient(url: string, options: NodeRedisOptions): Promise<Client> {
  const { config, connected } = clientOptions(options);
  const client = createClient({ ...config, url } as never) as unknown as Client;
  quiet(client);
  try {
    await client.connect();
  } catch (error) {
    client.destroy();
    throw error;
  }
  connected();
  return client;
}

/**
 * One server. Back after a reconnect only once the server answers a PING: one that restarted accepts connections
 * while it still loads its data and refuses every command meanwhile (`-LOADING`), so `isReady` and `onReady` wait for
 * the first PING it answers (the loops that wait on `Store.whenReady` then find it taking commands).
 */
class StandaloneConnection implements RedisConnection {
  readonly isCluster = false;
  readonly #client: Client;
  readonly #url: string;
  readonly #options: NodeRedisOptions;
  readonly #timeoutMs: number;
  readonly #readyListeners = new Set<() => void>();
  /** False from a reconnect until the server answers a PING. */
  #answering = true;

  constructor(client: Client, url: string, options: NodeRedisOptions) {
    this.#client = client;
    this.#url = url;
    this.#options = options;
    this.#timeoutMs = options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
    client.on('ready', () => {
      this.#answering = false;
      void this.#untilAnswering();
    });
  }

  /** PING until the server answers (back-off 50 ms doubling to {@link RECONNECT_MAX_MS}), then say it is back. */
  async #untilAnswering(): Promise<void> {
    for (let attempt = 0; this.#client.isReady; attempt++) {
      try {
        await this.#client.sendCommand(['PING']);
        this.#answering = true;
        for (const listener of [...this.#readyListeners]) listener();
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** attempt, RECONNECT_MAX_MS)));
      }
    }
  }

  get isOpen(): boolean {
    return this.#client.isOpen;
  }

  get isReady(): boolean {
    return this.#client.isReady && this.#answering;
  }

  onReady(listener: () => void): () => void {
    this.#readyListeners.add(listener);
    return () => this.#readyListeners.delete(listener);
  }

  sendCommand(args: readonly string[]): Promise<unknown> {
    const timeout = timeoutOf(args, this.#timeoutMs);
    const options = timeout === this.#timeoutMs ? undefined : { timeout: timeout ?? 0 };
    return whileLoading(timeout, () => this.#client.sendCommand([...args], options));
  }

  unavailable(error: unknown): boolean {
    return nodeRedisUnavailable(error);
  }

  async duplicate(): Promise<RedisConnection> {
    return new StandaloneConnection(await openClient(this.#url, this.#options), this.#url, this.#options);
  }

  async subscribe(channel: string, listener: SubscriptionListener): Promise<Subscription> {
    const client = await openClient(this.#url, this.#options);
    try {
      await client.subscribe(channel, (message) => listener.onMessage(message));
    } catch (error) {
      client.destroy();
      throw error;
    }
    // node-redis subscribes again after each reconnect; what was published meanwhile is gone, so say so each time.
    client.on('ready', () => listener.onReady?.());
    listener.onReady?.();
    return {
      get isOpen() {
        return client.isOpen;
      },
      close: () => client.destroy(),
    };
  }

  close(): void {
    if (this.#client.isOpen) this.#client.destroy();
  }
}

/** The node-redis cluster client's options for REDIS_URL: the URL seeds it, its credentials and TLS reach every node. */
function clusterOptions(url: string, options: NodeRedisOptions, minimizeConnections: boolean) {
  const parsed = new URL(url);
  const { config, connected } = clientOptions(options);
  const defaults = {
    ...config,
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    socket: { ...config.socket, ...(parsed.protocol === 'rediss:' ? { tls: true } : {}) },
  };
  return {
    connected,
    options: {
      rootNodes: [{ url }],
      defaults,
      RESP: 2 as const,
      minimizeConnections,
      useReplicas: false,
      commandOptions: { timeout: options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS },
      topologyRefreshOnReconnectionAttemptStrategy: TOPOLOGY_REFRESH_MS,
    },
  };
}

async function openCluster(url: string, options: NodeRedisOptions, minimizeConnections: boolean): Promise<Cluster> {
  const { connected, options: clusterConfig } = clusterOptions(url, options, minimizeConnections);
  const cluster = createCluster(clusterConfig as never) as unknown as Cluster;
  quiet(cluster);
  try {
    await cluster.connect();
  } catch (error) {
    cluster.destroy();
    throw error;
  }
  connected();
  return cluster;
}

class ClusterConnection implements RedisConnection {
  readonly isCluster = true;
  readonly #cluster: Cluster;
  readonly #url: string;
  readonly #options: NodeRedisOptions;
  readonly #timeoutMs: number;
  /** Nodes whose connection was lost and is being made again (`host:port`). */
  readonly #lost = new Set<string>();
  #open = true;

  constructor(cluster: Cluster, url: string, options: NodeRedisOptions) {
    this.#cluster = cluster;
    this.#url = url;
    this.#options = options;
    this.#timeoutMs = options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
    const node = (info: { host?: string; port?: number }) => `${info.host}:${info.port}`;
    cluster.on('node-reconnecting', (info: { host?: string; port?: number }) => this.#lost.add(node(info)));
    cluster.on('node-ready', (info: { host?: string; port?: number }) => this.#lost.delete(node(info)));
    // A node dropped for good (it left the cluster, or the client was closed): nothing to wait for.
    cluster.on('node-disconnect', (info: { host?: string; port?: number }) => this.#lost.delete(node(info)));
  }

  get isOpen(): boolean {
    return this.#open && this.#cluster.isOpen;
  }

  get isReady(): boolean {
    return this.isOpen && this.#lost.size === 0;
  }

  onReady(listener: () => void): () => void {
    this.#cluster.on('node-ready', listener);
    return () => this.#cluster.off('node-ready', listener);
  }

  sendCommand(args: readonly string[]): Promise<unknown> {
    const key = commandKeys(args)[0];
    const timeout = timeoutOf(args, this.#timeoutMs);
    const options = timeout === this.#timeoutMs ? undefined : { timeout: timeout ?? 0 };
    return retryWhileSlotMoves(key ?? String(args[0]), () =>
      whileLoading(timeout, () => this.#cluster.sendCommand(key, false, [...args], options)),
    );
  }

  unavailable(error: unknown): boolean {
    return nodeRedisUnavailable(error);
  }

  /** A cluster client of its own that connects to a node only when a command goes there. */
  async duplicate(): Promise<RedisConnection> {
    return new ClusterConnection(await openCluster(this.#url, this.#options, true), this.#url, this.#options);
  }

  /**
   * On a cluster client of its own, whose only connection is the subscription's: node-redis moves it to another
   * node when its node leaves the cluster, and subscribes again after each reconnect (then `onReady`).
   */
  async subscribe(channel: string, listener: SubscriptionListener): Promise<Subscription> {
    const cluster = await openCluster(this.#url, this.#options, true);
    try {
      await cluster.subscribe(channel, (message) => listener.onMessage(message));
    } catch (error) {
      cluster.destroy();
      throw error;
    }
    cluster.on('node-ready', () => listener.onReady?.());
    listener.onReady?.();
    let open = true;
    return {
      get isOpen() {
        return open && cluster.isOpen;
      },
      close: () => {
        open = false;
        cluster.destroy();
      },
    };
  }

  close(): void {
    this.#open = false;
    if (this.#cluster.isOpen) this.#cluster.destroy();
  }
}

/** Whether the server behind `client` is a Redis Cluster node; a refusal of INFO means a plain server. */
async function isClusterNode(client: Client): Promise<boolean> {
  try {
    return /^cluster_enabled:1\s*$/m.test(String(await client.sendCommand(['INFO', 'cluster'])));
  } catch (error) {
    if (error instanceof ErrorReply) return false;
    throw error;
  }
}

/**
 * Connect to REDIS_URL with node-redis: a standalone server, or a Redis Cluster (detected on the first connection).
 * Rejects when the server cannot be reached within `connectTimeoutMs`.
 */
export async function connectNodeRedis(url: string, options: NodeRedisOptions): Promise<RedisConnection> {
  const client = await openClient(url, options);
  let cluster: boolean;
  try {
    cluster = await isClusterNode(client);
  } catch (error) {
    client.destroy();
    throw error;
  }
  if (!cluster) return new StandaloneConnection(client, url, options);
  client.destroy();
  const db = new URL(url).pathname.replace(/^\//, '');
  if (db !== '' && db !== '0') {
    throw new Error(`Expected REDIS_URL to name database 0 (a Redis Cluster has no other), got /${db}`);
  }
  return new ClusterConnection(await openCluster(url, options, false), url, options);
}
