/**
 * The pause of every loop that backs off after a failed store call (the bridge's followers, the web inbox's tail,
 * the metrics follower, the waiter): the back-off step, or less when the store's connection comes back first, so
 * a loop whose step has grown to 30 s still reads again the moment the store is ready.
 */
import { pause } from '../core/pause.js';
import type { Store } from './port.js';

/**
 * Wait out `stepMs` unless `signal` aborts, or only until the store's lost connection is ready again
 * ({@link Store.whenReady}). When nothing is lost (the failure had another cause) the whole step is waited. Never
 * throws; leaves no listener on `signal`.
 */
export async function waitToRetry(
  store: Pick<Store, 'whenReady'>,
  stepMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const readiness = await store
    .whenReady({ timeoutMs: stepMs, ...(signal ? { signal } : {}) })
    .catch(() => 'ready' as const);
  if (readiness !== 'ready' || signal?.aborted) return;
  await pause(stepMs, signal);
}
