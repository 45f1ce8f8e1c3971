/**
 * Expiry and retention at start and on a timer, in one replica at a time. At start and every `everyMs` each replica
 * asks the store for the
 * `sweep` lease (Redis: `SET NX PX` / renew-if-owner in one script; SQLite: a row in `leases`); the one that holds
 * it runs `expireDue` and `purgeExpired`, the others skip. The lease runs two periods, so the holder renews it
 * every period and keeps it while alive; when it dies, the lease lapses and another replica takes over within two
 * periods; when it stops cleanly, it gives the lease up at once. Both operations are safe to run twice (each
 * transition is atomic), so a lease lapsing under a paused holder costs work, never correctness.
 */
import { errorFields, type Logger } from '../bot/logger.js';
import type { Store } from '../store/port.js';

/** The lease's name in the store. */
export const SWEEP_LEASE = 'sweep';

export interface SweepOptions {
  readonly store: Store;
  /** This replica, unique among replicas (serve uses the bridge's consumer name). */
  readonly owner: string;
  readonly everyMs: number;
  readonly logger: Logger;
}

export interface Sweeper {
  /** Stop the timer, wait for a sweep in progress, and give the lease up. */
  stop(): Promise<void>;
}

export function startSweep(options: SweepOptions): Sweeper {
  const { store, owner, everyMs, logger: log } = options;
  const leaseMs = everyMs * 2;
  let running: Promise<void> | undefined;
  let held = false;

  const sweep = async () => {
    const started = Date.now();
    try {
      held = await store.acquireLease(SWEEP_LEASE, owner, leaseMs);
      if (!held) return;
      const expired = await store.expireDue();
      const purged = await store.purgeExpired();
      log.info({ expired, purged, ms: Date.now() - started }, 'serve: swept');
    } catch (error) {
      log.warn(errorFields(error), 'serve: sweep failed');
    }
  };
  const tick = () => {
    if (running) return; // the last one is still going: skip a period rather than pile up
    running = sweep().finally(() => {
      running = undefined;
    });
  };
  // Once at start (questions that expired while no replica ran are expired now), then every period.
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();

  return {
    async stop() {
      clearInterval(timer);
      await running;
      if (held) await store.releaseLease(SWEEP_LEASE, owner).catch(() => undefined);
    },
  };
}
