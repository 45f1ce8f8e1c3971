import type { StoreEvent } from '../../store/port.js';
import { bringUpToDate } from './copies.js';
import { SurfaceFollower } from './follower.js';

export { pause } from './follower.js';

import { type Logger, silentLogger } from '../../core/logger.js';
import type { BridgeOptions } from './options.js';

export type { BridgeOptions, ReminderOwners } from './options.js';

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
