/**
 * `GET /healthz`: the store answers a PING, and each configured surface receives (Slack: HTTP server listening or
 * Socket Mode connected; Discord: gateway session up). The body names each part `ok` or `down`, and nothing else:
 * no ids, no data, no tokens.
 *
 *   200 {"status":"ok","store":"ok","slack":"ok","discord":"ok"}
 *   503 {"status":"down","store":"down","slack":"ok","discord":"ok"}
 *   503 {"status":"stopping",…}   after SIGTERM, while in-flight work finishes
 *
 * A platform that is not configured is left out of the body. When the bridge gave up on events (a platform kept
 * refusing them), `failed` counts them: the replica stays healthy (restarting it would not help), and
 * `ask-later doctor` says which and what to do.
 *
 *   200 {"status":"ok","store":"ok","slack":"ok","failed":3}
 */
import type { Store } from '../store/port.js';

export type PartStatus = 'ok' | 'down';

export interface HealthBody {
  readonly status: 'ok' | 'down' | 'stopping';
  readonly store: PartStatus;
  readonly slack?: PartStatus;
  readonly discord?: PartStatus;
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
  /** How long the store may take to answer (default 1000 ms). */
  readonly storeTimeoutMs?: number;
}

export async function checkHealth(parts: HealthParts): Promise<HealthReport> {
  const store = await storeStatus(parts.store, parts.storeTimeoutMs ?? 1000);
  const failed = store === 'ok' ? await failedCount(parts.store, parts.storeTimeoutMs ?? 1000) : 0;
  const slack = parts.slack ? (parts.slack() ? 'ok' : 'down') : undefined;
  const discord = parts.discord ? (parts.discord() ? 'ok' : 'down') : undefined;
  const serving = parts.serving();
  const up = store === 'ok' && slack !== 'down' && discord !== 'down';
  const status = !serving ? 'stopping' : up ? 'ok' : 'down';
  return {
    statusCode: status === 'ok' ? 200 : 503,
    body: {
      status,
      store,
      ...(slack !== undefined ? { slack } : {}),
      ...(discord !== undefined ? { discord } : {}),
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

async function storeStatus(store: Store, timeoutMs: number): Promise<PartStatus> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<PartStatus>((resolve) => {
    timer = setTimeout(() => resolve('down'), timeoutMs);
  });
  const ping = store.ping().then(
    (): PartStatus => 'ok',
    (): PartStatus => 'down',
  );
  try {
    return await Promise.race([ping, late]);
  } finally {
    clearTimeout(timer);
  }
}
