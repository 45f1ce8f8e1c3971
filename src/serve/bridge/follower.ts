/** One surface's reading loop over its consumer group (see `bridge.ts` for the failure rules it keeps). */
import { setTimeout as delay } from 'node:timers/promises';
import { backoff } from '../../core/backoff.js';
import { errorFields, type Logger } from '../../core/logger.js';
import type { EventConsumer, FailedEvent, StoreEvent } from '../../store/port.js';
import { waitToRetry } from '../../store/wait-to-retry.js';
import { classifyStoreFailure } from '../../surfaces/store-failure.js';
import type { Surface, SurfaceFailure } from '../../surfaces/surface.js';
import { bringUpToDate, type Touched } from './copies.js';
import type { BridgeOptions } from './options.js';

/**
 * Wait `ms` unless `signal` aborts first: true when the wait ran its course. Leaves no listener on the signal
 * (a stop signal lives as long as the process; a retry loop must not add one per retry).
 */
export async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await delay(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** One surface's reading loop over its consumer group. */
export class SurfaceFollower {
  readonly #o: BridgeOptions;
  readonly #surface: Surface;
  readonly #group: string;
  readonly #consumer: EventConsumer;
  readonly #log: Logger;
  readonly #signal: AbortSignal;
  #loop: Promise<void> | undefined;
  #lastReclaim = 0;
  /**
   * This surface's faults in the store as far as this follower knows (`''`: the whole platform, else a channel id):
   * its own, and the others' as read every reclaim period. A post that succeeds clears the ones it disproves.
   */
  #faults = new Set<string>();

  constructor(
    o: BridgeOptions,
    surface: Surface,
    group: string,
    consumer: EventConsumer,
    log: Logger,
    signal: AbortSignal,
  ) {
    this.#o = o;
    this.#surface = surface;
    this.#group = group;
    this.#consumer = consumer;
    this.#log = log;
    this.#signal = signal;
  }

  start(): void {
    this.#loop = this.#run();
  }

  async stop(): Promise<void> {
    await this.#loop;
    await this.#consumer.close();
  }

  #sleep(ms: number): Promise<boolean> {
    return pause(ms, this.#signal);
  }

  #backoff(failures: number): number {
    return backoff(failures, this.#o.retryBaseMs ?? 200, this.#o.retryMaxMs ?? 30_000);
  }

  async #run(): Promise<void> {
    const reclaimIdleMs = this.#o.reclaimIdleMs ?? 30_000;
    const platform = this.#surface.platform;
    let failures = 0;
    let failingSince = 0;
    while (!this.#signal.aborted) {
      try {
        if (Date.now() - this.#lastReclaim >= reclaimIdleMs / 2) {
          this.#lastReclaim = Date.now();
          await this.#readFaults();
          for (const event of await this.#consumer.reclaim(reclaimIdleMs)) await this.#process(event, true);
        }
        for (const replayed of await this.#o.store.takeReplayedEvents(this.#group, 20)) {
          await this.#process(replayed.event, true, replayed);
        }
        const events = await this.#consumer.read({ count: 20, blockMs: this.#o.blockMs ?? 1000 });
        if (failures > 0) {
          this.#log.info({ platform, failures, ms: Date.now() - failingSince }, 'bridge: reading events again');
          failures = 0;
        }
        for (const event of events) await this.#process(event, false);
      } catch (error) {
        if (this.#signal.aborted) break;
        if (failures === 0) {
          failingSince = Date.now();
          this.#log.warn({ platform, ...errorFields(error) }, 'bridge: cannot read events; retrying with back-off');
        }
        // The back-off step, or less: the moment the store's connection is ready again.
        await waitToRetry(this.#o.store, this.#backoff(failures), this.#signal);
        failures++;
      }
    }
  }

  /**
   * Handle one event with bounded attempts. An event read from the group is acknowledged once handled, or once
   * recorded as failed; a replayed one (`replayed`: it was taken off the replay queue) is recorded as failed again
   * when it still fails. A permanent failure (the surface's `classifyFailure`) is recorded at once; a transient one
   * is tried again with back-off, `attempts` times in all; the store being away spends no attempt (the event waits
   * for it). Stopping mid-way leaves a read event pending (reclaimed later) and a replayed one recorded.
   */
  async #process(event: StoreEvent, redelivered: boolean, replayed?: FailedEvent): Promise<void> {
    const attempts = this.#o.attempts ?? 5;
    const platform = this.#surface.platform;
    const ids = { platform, event: event.type, questionId: event.questionId };
    let tried = 0;
    let storeFailures = 0;
    let failure: SurfaceFailure = { kind: 'transient', code: 'error' };
    for (;;) {
      const started = Date.now();
      const touched: Touched = { posted: [] };
      try {
        await bringUpToDate(
          this.#o.store,
          this.#surface,
          event,
          redelivered || tried > 0 || storeFailures > 0,
          this.#o.metrics,
          this.#o.reminderOwners,
          touched,
        );
        if (!replayed) await this.#consumer.ack([event]);
        this.#log.info(
          { ...ids, ms: Date.now() - started, attempt: tried },
          replayed ? 'bridge: replayed event handled' : 'bridge: event handled',
        );
        if (touched.posted.length > 0) await this.#postedOn(touched.posted);
        return;
      } catch (error) {
        const ofStore = classifyStoreFailure(error);
        if (ofStore === 'away') {
          if (this.#signal.aborted) {
            if (replayed) await this.#recordFailed(event, replayed.attempts + tried, 'StoreUnavailableError', true);
            return;
          }
          if (storeFailures === 0) this.#log.warn(ids, 'bridge: the store is away mid-event; waiting for it');
          await waitToRetry(this.#o.store, this.#backoff(storeFailures++), this.#signal);
          continue;
        }
        failure = ofStore ??
          this.#surface.classifyFailure?.(error) ?? { kind: 'transient', code: describeError(error) };
        tried++;
        if (failure.kind === 'permanent') {
          await this.#refused(event, failure, touched.channel, (replayed?.attempts ?? 0) + tried);
          return;
        }
        this.#log.warn({ ...ids, attempt: tried - 1, failure: failure.code }, 'bridge: event failed');
        if (tried >= attempts) break;
        if (!(await this.#sleep(this.#backoff(tried - 1)))) {
          if (replayed) await this.#recordFailed(event, replayed.attempts + tried, failure.code, true);
          return;
        }
        this.#o.metrics?.retried(platform);
      }
    }
    await this.#recordFailed(event, (replayed?.attempts ?? 0) + attempts, failure.code, true);
  }

  /**
   * A permanent refusal: the event is recorded as failed at once. The first refusal of the platform (its token) or
   * of a channel says what to fix in one warning and records the fault (the surface shows degraded); later events it
   * refuses the same way are recorded quietly.
   */
  async #refused(
    event: StoreEvent,
    failure: Extract<SurfaceFailure, { kind: 'permanent' }>,
    channel: string | undefined,
    attempts: number,
  ): Promise<void> {
    const platform = this.#surface.platform;
    const key = failure.reach === 'platform' ? '' : failure.reach === 'channel' ? (channel ?? '') : undefined;
    if (key === undefined) {
      this.#log.warn(
        { platform, event: event.type, questionId: event.questionId, failure: failure.code, fix: failure.fix },
        'bridge: the platform refused this event for good; recorded for ask-later retry-failed',
      );
    } else if (!this.#faults.has(key)) {
      this.#faults.add(key);
      this.#log.warn(
        { platform, ...(key !== '' ? { channel: key } : {}), failure: failure.code, fix: failure.fix },
        `bridge: ${platform} refuses for good: ${failure.fix}; its events fail at once (for ask-later retry-failed) until a post succeeds again`,
      );
      try {
        await this.#o.store.recordSurfaceFault({
          group: this.#group,
          ...(key !== '' ? { channel: key } : {}),
          error: failure.code,
          fix: failure.fix,
        });
      } catch (recording) {
        this.#log.warn({ platform, ...errorFields(recording) }, 'bridge: cannot record the refusal');
      }
    }
    await this.#recordFailed(event, attempts, failure.code, key === undefined);
  }

  /** A post succeeded on `channels`: the faults it disproves (the platform's, those channels') are cleared. */
  async #postedOn(channels: readonly string[]): Promise<void> {
    const cleared = ['', ...channels].filter((key) => this.#faults.has(key));
    if (cleared.length === 0) return;
    try {
      await this.#o.store.clearSurfaceFaults(this.#group, channels);
      for (const key of cleared) this.#faults.delete(key);
      this.#log.info(
        { platform: this.#surface.platform, channels: cleared.filter((key) => key !== '') },
        'bridge: posting works again; the surface is no longer degraded',
      );
    } catch (clearing) {
      this.#log.warn({ platform: this.#surface.platform, ...errorFields(clearing) }, 'bridge: cannot clear a refusal');
    }
  }

  /** The faults recorded for this surface (by any replica), so a post here can clear them too. */
  async #readFaults(): Promise<void> {
    const faults = await this.#o.store.surfaceFaults();
    this.#faults = new Set(faults.filter((f) => f.group === this.#group).map((f) => f.channel ?? ''));
  }

  /**
   * Keep the event as failed for `ask-later retry-failed`, then let the group go on without it. `loud`: logged as an
   * error (a failure nothing else reported); else an info line (the refusal's one warning said it).
   */
  async #recordFailed(event: StoreEvent, attempts: number, error: string, loud: boolean): Promise<void> {
    try {
      await this.#o.store.recordFailedEvent(this.#group, event, { attempts, error });
      this.#o.metrics?.failed(this.#surface.platform);
      await this.#consumer.ack([event]);
      const fields = {
        platform: this.#surface.platform,
        event: event.type,
        questionId: event.questionId,
        attempts,
        failure: error,
      };
      if (loud) this.#log.error(fields, 'bridge: event failed for good; recorded for ask-later retry-failed');
      else this.#log.info(fields, 'bridge: event refused; recorded for ask-later retry-failed');
    } catch (recording) {
      // The store is failing too: the event stays pending and is reclaimed (and tried again) later.
      this.#log.warn(
        { platform: this.#surface.platform, ...errorFields(recording) },
        'bridge: cannot record a failed event',
      );
    }
  }
}

/** A failure as a short code: the error's name and its code, never its message. */
function describeError(error: unknown): string {
  const fields = errorFields(error);
  return [fields.error, fields.code].filter((part) => part !== undefined).join(' ');
}
