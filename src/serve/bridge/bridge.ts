/**
 * The bridge: follows the store's events and keeps every chat copy of every question true. A parked question is
 * posted on every surface and channel routed for its project; any later transition redraws every copy; a recorded
 * reminder is sent next to every copy (a thread reply, a Discord reply) by the surfaces that send reminders.
 *
 * Each surface (web inbox, Slack, Discord) follows the events through a consumer group of its own
 * (`<group>:<platform>`), so a platform that is slow, rate-limited or refusing delays no other. Handling is
 * idempotent (a surface renders the question as it is now, and posts only where no copy is recorded), so
 * at-least-once delivery of events is safe. An event is acknowledged only after its work is done.
 *
 * A failure is what the surface says it is (`Surface.classifyFailure`, each platform's codes in its own folder; the
 * store's own in `store-failure.ts`), as BullMQ tells an unrecoverable error from a blip:
 * - transient (a rate limit, a 5xx, a reset, a time-out): retried with exponential back-off and jitter, a bounded
 *   number of times, then recorded as failed;
 * - permanent (a channel the app is not in, a revoked token): recorded as failed at once. The first such refusal of
 *   the platform or of a channel logs one warning naming the fix and records a surface fault
 *   (`store.recordSurfaceFault`: /healthz and doctor show the surface degraded) until a post there succeeds again;
 * - the store away mid-event: no attempt is spent; the event waits for the store.
 * Recorded events (`store.recordFailedEvent`: doctor and /healthz count them) are acknowledged, so one event a
 * platform refuses never holds the others up. `ask-later retry-failed` hands them back; each surface takes its own
 * back (`takeReplayedEvents`) as it reads. A process that dies mid-event leaves it pending for a live bridge to
 * reclaim. While the store cannot be read, each surface backs off the same way, waking as soon as the store's
 * connection is ready again (`Store.whenReady`), and logs once when it starts failing and once when it reads again.
 */
import type { Platform } from '../../core/question.js';
import type { Store, StoreEvent } from '../../store/port.js';
import { bringUpToDate } from './copies.js';
import { SurfaceFollower } from './follower.js';

export { pause } from './follower.js';

import { type Logger, silentLogger } from '../../core/logger.js';
import type { Surface } from '../../surfaces/surface.js';
import type { BridgeMetrics } from './metrics.js';

export interface BridgeOptions {
  readonly store: Store;
  readonly surfaces: readonly Surface[];
  /** Unique per running bridge (e.g. host + pid): the consumer name in every surface's group. */
  readonly consumerName: string;
  /**
   * Consumer group prefix (default `bridge`): each surface reads as `<group>:<platform>`. A surface's group that
   * does not exist yet starts where the group named `<group>` got to (the one group every surface shared before).
   */
  readonly group?: string;
  readonly logger?: Logger;
  /** How long one read waits for new events (default 1000 ms); also bounds how long `stop` waits. */
  readonly blockMs?: number;
  /** Events another bridge read but did not acknowledge for this long are taken over (default 30 s). */
  readonly reclaimIdleMs?: number;
  /** Attempts per event in this process (default 5), with back-off from `retryBaseMs` (default 200 ms). */
  readonly attempts?: number;
  readonly retryBaseMs?: number;
  /** The longest back-off between two attempts, or two reads of a failing store (default 30 s). */
  readonly retryMaxMs?: number;
  /** Counts posts, redraws, retries and failures per platform (serve's `/metrics`); none when absent. */
  readonly metrics?: BridgeMetrics;
  /** The user ids a project's reminders mention on a platform (serve: the route's `owners`); absent: no one. */
  readonly reminderOwners?: ReminderOwners;
}

/** The user ids a project's reminders mention on `platform`. */
export type ReminderOwners = (platform: Platform, project: string) => readonly string[];

export class Bridge {
  readonly #o: BridgeOptions;
  readonly #log: Logger;
  readonly #stopping = new AbortController();
  readonly #followers: SurfaceFollower[] = [];

  constructor(options: BridgeOptions) {
    this.#o = options;
    this.#log = options.logger ?? silentLogger;
  }

  /** Join every surface's consumer group and start following events. */
  async start(): Promise<void> {
    const group = this.#o.group ?? 'bridge';
    try {
      for (const surface of this.#o.surfaces) {
        const name = `${group}:${surface.platform}`;
        const consumer = await this.#o.store.consumer(name, this.#o.consumerName, { inheritFrom: group });
        this.#followers.push(new SurfaceFollower(this.#o, surface, name, consumer, this.#log, this.#stopping.signal));
      }
    } catch (error) {
      await this.stop();
      throw error;
    }
    for (const follower of this.#followers) follower.start();
  }

  /** Stop taking new events, finish the ones in hand (their acknowledgements included), and leave the groups. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    await Promise.all(this.#followers.map((follower) => follower.stop()));
  }

  /**
   * Bring every copy of the event's question up to date on every surface. Safe to run twice for the same event.
   * (Each surface's follower does its own part of this; here for callers that replay one event by hand.)
   */
  async handle(event: StoreEvent, maybePostedBefore: boolean): Promise<void> {
    for (const surface of this.#o.surfaces) {
      await bringUpToDate(this.#o.store, surface, event, maybePostedBefore, this.#o.metrics, this.#o.reminderOwners);
    }
  }
}
