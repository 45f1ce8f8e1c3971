import type { Logger } from '../../core/logger.js';
import type { Platform } from '../../core/question.js';
import type { Store } from '../../store/port.js';
import type { Surface } from '../../surfaces/surface.js';
import type { BridgeMetrics } from './metrics.js';

/** What a bridge is built from: the store, the surfaces it keeps true, and how it retries. */
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
