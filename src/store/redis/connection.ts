/**
 * What the Redis store needs from a connection: raw commands in, raw RESP2 replies out. The implementations:
 * `node-redis-connection.ts`, node-redis (the well-kept client: reconnection, Cluster routing, TLS, ACL) for
 * long-running processes; `resp-connection.ts`, a minimal RESP2 client that loads in a millisecond, for the one-shot
 * processes (the prompt hook, the status line), with `one-hop-cluster.ts` on a Redis Cluster.
 */
export interface RedisConnection {
  sendCommand(args: readonly string[]): Promise<unknown>;
  /**
   * Whether `error` (from this connection) means the server is not reachable or not taking commands for now
   * (refused, lost, timed out, still loading): the store reports those as unavailable, anything else as it is.
   */
  unavailable(error: unknown): boolean;
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
