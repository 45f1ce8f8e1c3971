/** The store's connection for long-running processes: node-redis, reconnecting with back-off. */
import { createClient, type RedisClientType } from 'redis';
import type { RedisConnection, Subscription, SubscriptionListener } from './connection.js';

class NodeRedisConnection implements RedisConnection {
  readonly isCluster = false;

  constructor(
    readonly client: RedisClientType,
    readonly open: () => Promise<RedisClientType>,
  ) {}

  get isOpen(): boolean {
    return this.client.isOpen;
  }

  get isReady(): boolean {
    return this.client.isReady;
  }

  onReady(listener: () => void): () => void {
    this.client.on('ready', listener);
    return () => this.client.off('ready', listener);
  }

  sendCommand(args: readonly string[]): Promise<unknown> {
    return this.client.sendCommand([...args]);
  }

  /**
   * A connection of its own, made like the first one (not node-redis's `duplicate`, which would carry this client's
   * reconnect rule): while the server is away it fails at once instead of waiting for the server to come back,
   * so a caller backing off (or stopping) is never stuck inside a connect.
   */
  async duplicate(): Promise<RedisConnection> {
    return new NodeRedisConnection(await this.open(), this.open);
  }

  async subscribe(channel: string, listener: SubscriptionListener): Promise<Subscription> {
    const copy = await this.open();
    try {
      await copy.subscribe(channel, (message) => listener.onMessage(String(message)));
    } catch (error) {
      copy.destroy();
      throw error;
    }
    // Subscribed: and node-redis subscribes again after each reconnect; what was published meanwhile is gone, so say
    // so each time.
    listener.onReady?.();
    copy.on('ready', () => listener.onReady?.());
    return {
      get isOpen() {
        return copy.isOpen;
      },
      close: () => {
        if (copy.isOpen) copy.destroy();
      },
    };
  }

  close(): void {
    if (this.client.isOpen) this.client.destroy();
  }
}

/**
 * How long a connection that was lost waits between attempts to reconnect, at most: the loops waiting on the store
 * wake on the reconnect itself (`Store.whenReady`), so this bounds how late they notice the server is back.
 */
export const RECONNECT_MAX_MS = 500;

/**
 * Connect one node-redis client that fails fast while the server is away instead of queueing commands forever.
 * Before its first connection it gives up at once (the caller reports the store unreachable, or backs off); after
 * it, it keeps reconnecting with back-off (50 ms doubling to {@link RECONNECT_MAX_MS}), so a long-running process
 * recovers within half a second of Redis coming back.
 */
async function openClient(url: string, connectTimeoutMs: number): Promise<RedisClientType> {
  let connected = false;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    // node-redis's default command time-out only guards commands waiting to be written, and creates an AbortSignal
    // per command (a third of the store's throughput); with no offline queue nothing waits while disconnected.
    commandOptions: { timeout: 0 },
    socket: {
      connectTimeout: connectTimeoutMs,
      reconnectStrategy: (retries: number, cause: Error) =>
        connected ? Math.min(50 * 2 ** retries, RECONNECT_MAX_MS) : cause,
    },
  }) as RedisClientType;
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    client.destroy();
    throw error;
  }
  connected = true;
  return client;
}

/** The store's node-redis connection to `url`; its duplicates connect the same way. */
export async function connectNodeRedis(url: string, connectTimeoutMs: number): Promise<RedisConnection> {
  const open = () => openClient(url, connectTimeoutMs);
  return new NodeRedisConnection(await open(), open);
}
