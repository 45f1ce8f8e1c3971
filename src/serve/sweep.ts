/**
 * Expiry, reminders and retention at start and on a timer, in one replica at a time. At start and every `everyMs`
 * each replica asks the store for the `sweep` lease (Redis: `SET NX PX` / renew-if-owner in one script; SQLite: a
 * row in `leases`); the one that holds it runs `expireDue`, records the reminders due (`reminders.ts`) and runs
 * `purgeExpired`; the others skip. The lease runs two periods, so the holder renews it every period and keeps it
 * while alive; when it dies, the lease lapses and another replica takes over within two periods; when it stops
 * cleanly, it gives the lease up at once. Every operation is safe to run twice (each transition is atomic; a
 * reminder is recorded once per ordinal), so a lease lapsing under a paused holder costs work, never correctness.
 * A sweep the store failed (it was away) runs again the moment the store's connection is ready
 * (`Store.whenReady`), so questions that fell due meanwhile are not left a whole period.
 */
import { errorFields, type Logger } from '../core/logger.js';
import type { ReminderSchedule } from '../core/reminder.js';
import type { Store } from '../store/port.js';
import { remindDue } from './reminders.js';

/** The lease's name in the store. */
export const SWEEP_LEASE = 'sweep';

export interface SweepOptions {
  readonly store: Store;
  /** This replica, unique among replicas (serve uses the bridge's consumer name). */
  readonly owner: string;
  readonly everyMs: number;
  readonly logger: Logger;
  /** The clock reminders fall due by (default `Date.now`; tests hand in the store's). */
  readonly now?: () => number;
  /** Each project's reminder schedule (serve: the routing table's); absent: no reminders. */
  readonly remindersFor?: (project: string) => ReminderSchedule;
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

  const { remindersFor } = options;
  // After expiry (an expired question is not reminded); a failure here must not hold retention up.
  const remind = async (): Promise<number> => {
    if (!remindersFor) return 0;
    try {
      return (await remindDue({ store, remindersFor, now: options.now ?? Date.now, logger: log })).reminded;
    } catch (error) {
      log.warn(errorFields(error), 'serve: reminders failed');
      return 0;
    }
  };

  let failingSince: number | undefined;
  const stopping = new AbortController();

  /** One sweep; false when the store failed it (one warning when that starts, one line when it works again). */
  const sweep = async (): Promise<boolean> => {
    const started = Date.now();
    try {
      held = await store.acquireLease(SWEEP_LEASE, owner, leaseMs);
      if (failingSince !== undefined) {
        log.info({ ms: started - failingSince }, 'serve: sweeping again');
        failingSince = undefined;
      }
      if (!held) return true;
      const expired = await store.expireDue();
      const reminded = await remind();
      const purged = await store.purgeExpired();
      log.info({ expired, reminded, purged, ms: Date.now() - started }, 'serve: swept');
      return true;
    } catch (error) {
      if (failingSince === undefined) {
        failingSince = started;
        log.warn(errorFields(error), 'serve: sweep failed; trying again as soon as the store is back');
      }
      return false;
    }
  };
  /** A sweep the store failed is run again the moment its connection is ready, not a period later. */
  const sweepUntilDone = async (): Promise<void> => {
    while (!(await sweep()) && !stopping.signal.aborted) {
      const readiness = await store.whenReady({ timeoutMs: everyMs, signal: stopping.signal });
      // Nothing lost (the failure had another cause): the next period tries again.
      if (readiness === 'ready' || stopping.signal.aborted) return;
    }
  };
  const tick = () => {
    if (running) return; // the last one is still going: skip a period rather than pile up
    running = sweepUntilDone().finally(() => {
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
      stopping.abort();
      await running;
      if (held) await store.releaseLease(SWEEP_LEASE, owner).catch(() => undefined);
    },
  };
}
