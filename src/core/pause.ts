import { setTimeout as delay } from 'node:timers/promises';

/** Wait `ms`, or less when `signal` aborts. Never rejects, and leaves no listener on `signal`. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(Math.max(0, ms), undefined, signal ? { signal } : {}).then(
    () => undefined,
    () => undefined,
  );
}
