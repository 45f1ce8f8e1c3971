/**
 * The store's connection for long-running processes (serve, the bridge, the MCP server): the minimal RESP client of
 * resp-connection.ts, connected again whenever it is lost. It fails fast while the server is away instead of queueing
 * commands: a command given while disconnected is refused at once (the caller reports the store unavailable, or
 * waits with `Store.whenReady`), and commands in flight when the connection drops fail with it (they may have run).
 *
 * - The first connection is not retried: a server that is not there when the process opens the store is reported
 *   at once. After it, reconnection goes on with back-off (50 ms doubling to {@link RECONNECT_MAX_MS}) until
 *   `close`, and each success calls the `onReady` listeners. A success is a server that answers PING: one that
 *   restarted accepts connections while it still loads its data, and refuses every command until it is done
 *   (`-LOADING`), so a connection counts as back only once it would take the loop's next command.
 * - A subscription is a connection of its own that subscribes again after each reconnect and calls `onReady` then,
 *   since what was published meanwhile is lost (pub/sub is at-most-once).
 */
import type { RedisConnection, Subscription, SubscriptionListener } from './connection.js';
import { connectResp, type RespClient, type RespOptions } from './resp-connection.js';

/**
 * How long a connection that was lost waits between attempts to reconnect, at most: the loops waiting on the store
 * wake on the reconnect itself (`Store.whenReady`), so this bounds how late they notice the server is back.
 */
export const RECONNECT_MAX_MS = 500;

/** A command given while the connection is being made again. */
class ClientOfflineError extends Error {
  override readonly name = 'ClientOfflineError';
}

/** A command given after `close`. */
class ClientClosedError extends Error {
  override readonly name = 'ClientClosedError';
}

class ReconnectingConnection implements RedisConnection {
  readonly isCluster = false;
  readonly #url: string;
  readonly #connectTimeoutMs: number;
  /** Run on every new connection before it takes commands (a subscription subscribes there). */
  readonly #prepare: (connection: RespClient) => Promise<void>;
  readonly #readyListeners = new Set<() => void>();
  #current: RedisConnection | undefined;
  #closed = false;
  #retries = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(url: string, connectTimeoutMs: number, prepare: (connection: RespClient) => Promise<void>) {
    this.#url = url;
    this.#connectTimeoutMs = connectTimeoutMs;
    this.#prepare = prepare;
  }

  /**
   * Make a connection and prepare it; a failure closes it and is thrown. `answering`: first check that the server
   * answers PING (it may still be loading its data).
   */
  async #connect(answering = false): Promise<RedisConnection> {
    let connection: RespClient | undefined;
    const options: RespOptions = {
      connectTimeoutMs: this.#connectTimeoutMs,
      onClose: () => {
        if (connection !== undefined) this.#lost(connection);
      },
    };
    connection = await connectResp(this.#url, options);
    try {
      if (answering) await connection.sendCommand(['PING']);
      await this.#prepare(connection);
    } catch (error) {
      connection.close();
      throw error;
    }
    if (!connection.isOpen) throw new ClientOfflineError('the connection closed while it was being made');
    return connection;
  }

  /** The first connection: its failure is the caller's. */
  async start(): Promise<void> {
    this.#current = await this.#connect();
  }

  #lost(connection: RedisConnection): void {
    if (connection !== this.#current) return;
    this.#current = undefined;
    this.#schedule();
  }

  #schedule(): void {
    if (this.#closed || this.#timer !== undefined) return;
    const delay = Math.min(50 * 2 ** this.#retries, RECONNECT_MAX_MS);
    this.#retries++;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#reconnect();
    }, delay);
  }

  async #reconnect(): Promise<void> {
    if (this.#closed) return;
    let connection: RedisConnection;
    try {
      connection = await this.#connect(true);
    } catch {
      this.#schedule();
      return;
    }
    if (this.#closed) {
      connection.close();
      return;
    }
    if (!connection.isOpen) {
      // Lost again before it was taken up (its close went unheard: it was not current yet).
      this.#schedule();
      return;
    }
    this.#current = connection;
    this.#retries = 0;
    for (const listener of [...this.#readyListeners]) listener();
  }

  get isOpen(): boolean {
    return !this.#closed;
  }

  get isReady(): boolean {
    return !this.#closed && this.#current?.isOpen === true;
  }

  onReady(listener: () => void): () => void {
    this.#readyListeners.add(listener);
    return () => this.#readyListeners.delete(listener);
  }

  sendCommand(args: readonly string[]): Promise<unknown> {
    if (this.#closed) return Promise.reject(new ClientClosedError('the connection was closed'));
    const current = this.#current;
    if (current === undefined || !current.isOpen) {
      return Promise.reject(new ClientOfflineError('the connection to Redis is being made again'));
    }
    return current.sendCommand(args);
  }

  /** A connection of its own, made like this one: while the server is away it fails at once. */
  duplicate(): Promise<RedisConnection> {
    return connectReconnecting(this.#url, this.#connectTimeoutMs);
  }

  async subscribe(channel: string, listener: SubscriptionListener): Promise<Subscription> {
    let subscription: ReconnectingConnection | undefined;
    const subscribed = new ReconnectingConnection(this.#url, this.#connectTimeoutMs, async (connection) => {
      await connection.subscribeOnly(channel, (message) => listener.onMessage(message));
      // Subscribed again after a reconnect: what was published meanwhile is gone, so say so each time.
      if (subscription !== undefined) queueMicrotask(() => listener.onReady?.());
    });
    await subscribed.start();
    subscription = subscribed;
    listener.onReady?.();
    return {
      get isOpen() {
        return subscribed.isOpen;
      },
      close: () => subscribed.close(),
    };
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#current?.close();
    this.#current = undefined;
    this.#readyListeners.clear();
  }
}

/**
 * Connect to `url`; rejects within `connectTimeoutMs` when the server cannot be reached (no retry before the first
 * connection), and reconnects with back-off after it.
 */
export async function connectReconnecting(url: string, connectTimeoutMs: number): Promise<RedisConnection> {
  const connection = new ReconnectingConnection(url, connectTimeoutMs, async () => undefined);
  await connection.start();
  return connection;
}
