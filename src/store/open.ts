/**
 * Open the store a config names: Redis, the embedded SQLite file, or (the agent side only) serve's agent API over
 * HTTP. Each adapter is imported only when it is the one opened, so Redis users never load better-sqlite3 and the
 * embedded store never loads a Redis client.
 */
import type { AgentStore, Store } from './port.js';
import type { RedisClientKind } from './redis/redis-store.js';

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

/** Serve's agent API (`ASK_LATER_URL` + `ASK_LATER_TOKEN`): for agents that hold a token, not the store's password. */
export interface HttpStoreLocation {
  readonly kind: 'http';
  /** `http://` or `https://` URL of serve. */
  readonly url: string;
  /** An agent token (`ask-later token create`). */
  readonly token: string;
}

/** Where the agent side finds the inbox: the store itself, or serve's agent API. */
export type AgentStoreLocation = StoreLocation | HttpStoreLocation;

export interface OpenStoreOptions {
  /** Redis: which client (default the reconnecting one; the hook uses the minimal one). */
  readonly connection?: RedisClientKind;
  /** Redis: how long connecting may take. HTTP: how long each call may take. */
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

export async function openStore(location: StoreLocation, options?: OpenStoreOptions): Promise<Store>;
export async function openStore(location: AgentStoreLocation, options?: OpenStoreOptions): Promise<AgentStore>;
export async function openStore(location: AgentStoreLocation, options: OpenStoreOptions = {}): Promise<AgentStore> {
  if (location.kind === 'http') {
    const { openHttpStore } = await import('./http/http-store.js');
    return openHttpStore({
      url: location.url,
      token: location.token,
      ...(options.connectTimeoutMs !== undefined ? { timeoutMs: options.connectTimeoutMs } : {}),
    });
  }
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
