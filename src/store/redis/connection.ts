/**
 * What the Redis store needs from a connection: raw commands in, raw RESP2 replies out. The implementations:
 * `resp-connection.ts`, a minimal RESP2 client that loads in a millisecond (the per-prompt hook uses it alone);
 * `reconnecting-connection.ts`, that client connected again whenever it is lost, for long-running processes;
 * `pooled-connection.ts`, a few of those used as one; and `cluster-connection.ts`, which routes each command to the
 * Redis Cluster node serving its keys over per-node connections of either kind.
 */
export interface RedisConnection {
  sendCommand(args: readonly string[]): Promise<unknown>;
  /**
   * `args` right after `ASKING`, on one socket (a Redis Cluster's redirection to the node importing a slot holds for
   * the next command on that connection only); resolves with the reply to `args`. Only a connection of several
   * sockets needs its own ({@link askThen} otherwise).
   */
  sendAsking?(args: readonly string[]): Promise<unknown>;
  /** A new connection to the same server (or cluster), for blocking reads that would hold this one. */
  duplicate(): Promise<RedisConnection>;
  /**
   * Listen to a pub/sub channel on a connection of its own. `onMessage` gets each payload; `onReady` is called
   * each time the subscription is (re)established, since messages published meanwhile are lost (at-most-once).
   */
  subscribe(channel: string, listener: SubscriptionListener): Promise<Subscription>;
  /** True when the server is a Redis Cluster (commands are routed by slot; XREADGROUP reads one slot at a time). */
  readonly isCluster: boolean;
  readonly isOpen: boolean;
  /** True while the connection takes commands: open and not reconnecting. */
  readonly isReady: boolean;
  /**
   * Call `listener` each time the connection is ready again after it was lost (a reconnect); returns the way to stop.
   * A connection that never reconnects (the minimal client) never calls it.
   */
  onReady(listener: () => void): () => void;
  /** Drop the connection at once; pending commands fail. */
  close(): void;
}

export interface SubscriptionListener {
  onMessage(message: string): void;
  onReady?(): void;
}

export interface Subscription {
  /** False once the subscription's connection is gone for good (the minimal client does not reconnect). */
  readonly isOpen: boolean;
  close(): void;
}

/** `ASKING` and `args` written back to back on `connection` (one socket); the reply to `args`. */
export function askThen(connection: RedisConnection, args: readonly string[]): Promise<unknown> {
  const asked = connection.sendCommand(['ASKING']);
  asked.catch(() => undefined);
  return connection.sendCommand(args);
}
