/**
 * Open the store a config names: Redis, or the embedded SQLite file. Each adapter is imported only when it is the
 * one opened, so Redis users never load better-sqlite3 and the embedded store never loads a Redis client.
 */
import type { Store } from './port.js';

/** Where the inbox is kept: Redis (a team's, `REDIS_URL`), or the embedded SQLite file of one machine. */
export type StoreLocation =
  | {
      readonly kind: 'redis';
      /** `redis://` or `rediss://` URL of the store. */
      readonly url: string;
      /** Namespace of every key (`ASK_LATER_REDIS_PREFIX`, default `al`): several inboxes can share one Redis. */
      readonly prefix: string;
    }
  | {
      readonly kind: 'sqlite';
      /** Absolute path of the database file (`ASK_LATER_DB`, else the XDG state directory), created on first use. */
      readonly path: string;
    };

export interface OpenStoreOptions {
  /** Redis: which client (default node-redis, reconnecting; the hook uses the minimal one). */
  readonly connection?: 'node-redis' | 'minimal';
  /** Redis: how long connecting may take. */
  readonly connectTimeoutMs?: number;
  /** SQLite: how long a call waits for another process's write before it fails as unavailable. */
  readonly busyTimeoutMs?: number;
  /** SQLite: how often a wait looks for other processes' commits (default 25 ms). */
  readonly pollIntervalMs?: number;
  /** Both: the clock (tests). */
  readonly now?: () => number;
  /** Both: how long delivered and cancelled questions are kept before `purgeExpired` drops them (default 30 days). */
  readonly retentionMs?: number;
}

export async function openStore(location: StoreLocation, options: OpenStoreOptions = {}): Promise<Store> {
  // What both adapters take alike.
  const shared = {
    ...(options.now !== undefined ? { now: options.now } : {}),
    ...(options.retentionMs !== undefined ? { retentionMs: options.retentionMs } : {}),
  };
  if (location.kind === 'redis') {
    const { openRedisStore } = await import('./redis/redis-store.js');
    return openRedisStore({
      url: location.url,
      prefix: location.prefix,
      ...shared,
      ...(options.connection !== undefined ? { connection: options.connection } : {}),
      ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
    });
  }
  const { openSqliteStore } = await import('./sqlite/sqlite-store.js');
  return openSqliteStore({
    path: location.path,
    ...shared,
    ...(options.busyTimeoutMs !== undefined ? { busyTimeoutMs: options.busyTimeoutMs } : {}),
    ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
  });
}
