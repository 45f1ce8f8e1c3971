/**
 * The Redis check: reachable with the credentials in `REDIS_URL`, new enough for the store (XAUTOCLAIM: 6.2), and
 * keeping what it is given (AOF on; no eviction under a memory limit); and whether it is a Redis Cluster (how many
 * masters, every slot served or not, database 0). Uses the minimal RESP client, which loads nothing else and gives
 * up connecting after the time-out. In a cluster, the server lines are about the node REDIS_URL names.
 */
import type { StoreLocation } from '../../store/open.js';
import type { RedisConnection } from '../../store/redis/connection.js';
import { connectResp, RedisErrorReply } from '../../store/redis/resp-connection.js';
import { type CheckLine, fail, ok, warn } from './check.js';
import { describeNetworkError, withDeadline } from './deadline.js';

/** The oldest Redis the store runs on: its event consumers use XAUTOCLAIM (6.2). */
export const MIN_REDIS_VERSION = '6.2.0';

/** `a.b.c` compared numerically: negative when `a` is older. */
function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** `INFO` text → fields. */
function infoFields(reply: unknown): Map<string, string> {
  const fields = new Map<string, string>();
  if (typeof reply !== 'string') return fields;
  for (const line of reply.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) fields.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return fields;
}

/** Redis's own error word (`WRONGPASS`, `NOAUTH`, `ERR`), never the rest of its message. */
function redisErrorWord(error: unknown): string | undefined {
  if (!(error instanceof RedisErrorReply)) return undefined;
  return /^[A-Z]+/.exec(error.message)?.[0];
}

function authProblem(error: unknown): CheckLine | undefined {
  const word = redisErrorWord(error);
  if (word === 'NOAUTH') {
    return fail('Redis needs a password (NOAUTH) — put it in REDIS_URL: redis://:<password>@host:6379');
  }
  if (word === 'WRONGPASS' || (word === 'ERR' && /password|AUTH/i.test((error as Error).message))) {
    return fail(`Redis refused the user or password in REDIS_URL (${word}) — fix them in the URL`);
  }
  return undefined;
}

/** The SLOT_COUNT of a Redis Cluster (slot.ts), repeated here so doctor loads nothing of the store. */
const SLOTS = 16384;

/** The database a Redis URL names (`/2`), '' when none. */
function databaseOf(url: string): string {
  return new URL(url).pathname.replace(/^\//, '');
}

const CLUSTER_DB_ONLY = 'but a Redis Cluster has only database 0 — drop it from the URL';

/** What `CLUSTER SLOTS` says about REDIS_URL: nothing for one server, else its masters and slot coverage. */
async function clusterLines(connection: RedisConnection, url: string, timeoutMs: number): Promise<CheckLine[]> {
  let reply: unknown;
  try {
    reply = await withDeadline(connection.sendCommand(['CLUSTER', 'SLOTS']), timeoutMs);
  } catch (error) {
    if (redisErrorWord(error) === 'NOPERM') {
      return [
        warn(
          'Redis: this user may not run CLUSTER SLOTS, so ask-later uses REDIS_URL as one server — on a Redis Cluster, grant it +cluster|slots',
        ),
      ];
    }
    return []; // cluster support disabled: one server
  }
  const ranges = Array.isArray(reply) ? (reply as [number, number, [string, number]][]) : [];
  const masters = new Set(ranges.map(([, , [host, port]]) => `${host}:${port}`)).size;
  const served = ranges.reduce((sum, [start, end]) => sum + (Number(end) - Number(start) + 1), 0);
  const db = new URL(url).pathname.replace(/^\//, '');
  const lines: CheckLine[] = [];
  if (db !== '' && db !== '0') {
    lines.push(
      fail(`REDIS_URL names database ${db}, but a Redis Cluster has only database 0 — drop /${db} from the URL`),
    );
  }
  const of = `${masters} master${masters === 1 ? '' : 's'}`;
  lines.push(
    served === SLOTS
      ? ok(`Redis Cluster at REDIS_URL: ${of}, all ${SLOTS} slots served`)
      : warn(
          `Redis Cluster at REDIS_URL: ${of}, ${served} of ${SLOTS} slots served — projects in the others fail (CLUSTERDOWN) until every slot has a master`,
        ),
  );
  return lines;
}

export async function checkRedis(
  location: Extract<StoreLocation, { kind: 'redis' }>,
  timeoutMs: number,
): Promise<CheckLine[]> {
  let connection: RedisConnection;
  try {
    connection = await connectResp(location.url, { connectTimeoutMs: timeoutMs });
  } catch (error) {
    const auth = authProblem(error);
    if (auth) return [auth];
    if (error instanceof Error && /SELECT is not allowed in cluster mode/i.test(error.message)) {
      return [fail(`REDIS_URL names database ${databaseOf(location.url)}, ${CLUSTER_DB_ONLY}`)];
    }
    const why = describeNetworkError(error, timeoutMs);
    const tls = location.url.startsWith('rediss:') ? '' : ' (rediss:// if it needs TLS)';
    return [fail(`Redis: cannot reach REDIS_URL (${why}) — start Redis, or point REDIS_URL at a running one${tls}`)];
  }
  try {
    const info = async (section: string) =>
      infoFields(await withDeadline(connection.sendCommand(['INFO', section]), timeoutMs));
    const server = await info('server');
    const persistence = await info('persistence');
    const memory = await info('memory');
    const version = server.get('redis_version') ?? 'unknown version';
    const lines: CheckLine[] = [];
    if (/^\d+\.\d+/.test(version) && compareVersions(version, MIN_REDIS_VERSION) < 0) {
      lines.push(fail(`Redis ${version} at REDIS_URL is too old — ask-later needs Redis 6.2 or later`));
    } else if (persistence.get('aof_enabled') === '1') {
      lines.push(ok(`Redis ${version} at REDIS_URL, AOF on`));
    } else {
      lines.push(
        warn(
          `Redis ${version} at REDIS_URL, AOF off: answers could be lost on restart — set appendonly yes (redis.conf, or CONFIG SET appendonly yes)`,
        ),
      );
    }
    const policy = memory.get('maxmemory_policy');
    if (Number(memory.get('maxmemory') ?? '0') > 0 && policy !== undefined && policy !== 'noeviction') {
      lines.push(
        warn(
          `Redis: maxmemory-policy is ${policy}: Redis may drop questions when memory runs out — set maxmemory-policy noeviction`,
        ),
      );
    }
    lines.push(...(await clusterLines(connection, location.url, timeoutMs)));
    return lines;
  } catch (error) {
    const auth = authProblem(error);
    if (auth) return [auth];
    const word = redisErrorWord(error);
    const why = word ?? describeNetworkError(error, timeoutMs);
    return [
      fail(`Redis: REDIS_URL answers but INFO failed (${why}) — is it a Redis server, and may this user run INFO?`),
    ];
  } finally {
    connection.close();
  }
}
