/** The store's connection for long-running processes: node-redis, reconnecting with back-off. */
import { createClient, type RedisClientType } from 'redis';
import type { RedisConnection, Subscription, SubscriptionListener } from './connection.js';

class NodeRedisConnection implements RedisConnection {
  readonly isCluster = false;

  constructor(readonly client: RedisClientType) {}

  get isOpen(): boolean {
    return this.client.isOpen;
  }

  sendCommand(args: readonly string[]): Promise<unknown> {
    return this.client.sendCommand([...args]);
  }

  async duplicate(): Promise<RedisConnection> {
    const copy = this.client.duplicate() as RedisClientType;
    copy.on('error', () => undefined);
    await copy.connect();
    return new NodeRedisConnection(copy);
  }

  async subscribe(channel: string, listener: SubscriptionListener): Promise<Subscription> {
    const copy = this.client.duplicate() as RedisClientType;
    copy.on('error', () => undefined);
    // node-redis subscribes again after a reconnect; what was published meanwhile is gone, so say so.
    copy.on('ready', () => listener.onReady?.());
    await copy.connect();
    await copy.subscribe(channel, (message) => listener.onMessage(String(message)));
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
 * Connect a node-redis client that fails fast while the server is away instead of queueing commands forever.
 * Before the first connection it gives up at once (the caller reports the store unreachable); after it, it keeps
 * reconnecting with back-off, so a long-running process recovers when Redis is back.
 */
export async function connectNodeRedis(url: string, connectTimeoutMs: number): Promise<RedisConnection> {
  let connected = false;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    // node-redis's default command time-out only guards commands waiting to be written, and creates an AbortSignal
    // per command (a third of the store's throughput); with no offline queue nothing waits while disconnected.
    commandOptions: { timeout: 0 },
    socket: {
      connectTimeout: connectTimeoutMs,
      reconnectStrategy: (retries: number, cause: Error) => (connected ? Math.min(50 * 2 ** retries, 2000) : cause),
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
  return new NodeRedisConnection(client);
}
