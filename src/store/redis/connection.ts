/**
 * What the Redis store needs from a connection: raw commands in, raw replies out. Two implementations:
 * `node-redis-connection.ts` for long-running processes (reconnects, TLS, the full client) and
 * `resp-connection.ts`, a minimal RESP2 client for the per-prompt hook, which must start in milliseconds.
 * Replies may come as RESP2 arrays or as node-redis maps them (objects for HGETALL and XREAD); the store reads both.
 */
export interface RedisConnection {
  sendCommand(args: readonly string[]): Promise<unknown>;
  /** A new connection to the same server, for blocking reads that would hold this one. */
  duplicate(): Promise<RedisConnection>;
  readonly isOpen: boolean;
  /** Drop the connection at once; pending commands fail. */
  close(): void;
}
