/**
 * `GET /healthz`: the store answers a PING, and each configured surface receives (Slack: HTTP server listening or
 * Socket Mode connected; Discord: gateway session up) and posts (no permanent refusal recorded). The body names each
 * part `ok`, `degraded` or `down`, and nothing else: no ids, no data, no tokens.
 *
 *   200 {"status":"ok","store":"ok","slack":"ok","discord":"ok"}
 *   503 {"status":"down","store":"down","slack":"ok","discord":"ok"}
 *   503 {"status":"stopping",…}   after SIGTERM, while in-flight work finishes
 *
 * A platform that is not configured is left out of the body. A platform that refused a post for good (the app not
 * in a channel, a revoked token: the bridge's surface faults) is `degraded` until a post there succeeds again, and
 * so is the whole report, still 200: restarting the replica would not help, and `ask-later doctor` says what to fix.
 * When the bridge gave up on events, `failed` counts them.
 *
 *   200 {"status":"degraded","store":"ok","slack":"degraded","discord":"ok","failed":3}
 */
import type { Store } from '../store/port.js';

export type PartStatus = 'ok' | 'degraded' | 'down';

export interface HealthBody {
  readonly status: 'ok' | 'degraded' | 'down' | 'stopping';
  readonly store: 'ok' | 'down';
  readonly slack?: PartStatus;
  readonly discord?: PartStatus;
  readonly telegram?: PartStatus;
  /** Events the bridge gave up on, waiting for `ask-later retry-failed`; absent when none (or the store is down). */
  readonly failed?: number;
}

export interface HealthReport {
  readonly statusCode: 200 | 503;
  readonly body: HealthBody;
}

export interface HealthParts {
  /** False once stopping. */
  readonly serving: () => boolean;
  readonly store: Store;
  /** Whether each configured surface receives now; absent: that platform is not served. */
  readonly slack?: () => boolean;
  readonly discord?: () => boolean;
  readonly telegram?: () => boolean;
  /** How long the store may take to answer (default 1000 ms). */
  readonly storeTimeoutMs?: number;
}

export async function checkHealth(parts: HealthParts): Promise<HealthReport> {
  const timeoutMs = parts.storeTimeoutMs ?? 1000;
  const store = await storeStatus(parts.store, timeoutMs);
  const [failed, faulty] =
    store === 'ok'
      ? await Promise.all([failedCount(parts.store, timeoutMs), faultyGroups(parts.store, timeoutMs)])
      : [0, new Set<string>()];
  const part = (receives: (() => boolean) | undefined, group: string): PartStatus | undefined => {
    if (!receives) return undefined;
    if (!receives()) return 'down';
    return faulty.has(group) ? 'degraded' : 'ok';
  };
  const slack = part(parts.slack, 'bridge:slack');
  const discord = part(parts.discord, 'bridge:discord');
  const telegram = part(parts.telegram, 'bridge:telegram');
  const serving = parts.serving();
  const up = store === 'ok' && slack !== 'down' && discord !== 'down' && telegram !== 'down';
  const degraded = slack === 'degraded' || discord === 'degraded' || telegram === 'degraded';
  const status = !serving ? 'stopping' : !up ? 'down' : degraded ? 'degraded' : 'ok';
  return {
    statusCode: status === 'ok' || status === 'degraded' ? 200 : 503,
    body: {
      status,
      store,
      ...(slack !== undefined ? { slack } : {}),
      ...(discord !== undefined ? { discord } : {}),
      ...(telegram !== undefined ? { telegram } : {}),
      ...(failed > 0 ? { failed } : {}),
    },
  };
}

/** How many failed events wait, or 0 when the store does not say in time. */
async function failedCount(store: Store, timeoutMs: number): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<number>((resolve) => {
    timer = setTimeout(() => resolve(0), timeoutMs);
  });
  const counted = store
    .failedEvents({ sample: 0 })
    .then((groups) => groups.reduce((sum, group) => sum + group.count, 0))
    .catch(() => 0);
  return Promise.race([counted, late]).finally(() => clearTimeout(timer));
}

/** The groups with a surface fault recorded (a permanent refusal), or none when the store does not say in time. */
async function faultyGroups(store: Store, timeoutMs: number): Promise<Set<string>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Set<string>>((resolve) => {
    timer = setTimeout(() => resolve(new Set()), timeoutMs);
  });
  const read = store
    .surfaceFaults()
    .then((faults) => new Set(faults.map((fault) => fault.group)))
    .catch(() => new Set<string>());
  return Promise.race([read, late]).finally(() => clearTimeout(timer));
}

async function storeStatus(store: Store, timeoutMs: number): Promise<'ok' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'ok' | 'down'>((resolve) => {
    timer = setTimeout(() => resolve('down'), timeoutMs);
  });
  const ping = store.ping().then(
    () => 'ok' as const,
    () => 'down' as const,
  );
  try {
    return await Promise.race([ping, late]);
  } finally {
    clearTimeout(timer);
  }
}
