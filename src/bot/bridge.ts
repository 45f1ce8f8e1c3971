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
import { setTimeout as delay } from 'node:timers/promises';
import { backoff } from '../core/backoff.js';
import type { MessageRef, Platform, Question } from '../core/question.js';
import type { Reminder } from '../core/reminder.js';
import type { EventConsumer, FailedEvent, Store, StoreEvent } from '../store/port.js';
import { waitToRetry } from '../store/wait-to-retry.js';
import type { BridgeMetrics } from './bridge-metrics.js';
import { errorFields, type Logger, silentLogger } from './logger.js';
import { classifyStoreFailure } from './store-failure.js';
import type { Surface, SurfaceFailure } from './surface.js';

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

/** One surface's reading loop over its consumer group. */
class SurfaceFollower {
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

/** Where a surface's calls for one event went: the channel of the call in hand, the channels posted to. */
interface Touched {
  channel?: string;
  readonly posted: string[];
}

/** A failure as a short code: the error's name and its code, never its message. */
function describeError(error: unknown): string {
  const fields = errorFields(error);
  return [fields.error, fields.code].filter((part) => part !== undefined).join(' ');
}

/**
 * Bring one surface's copies of the event's question up to date: post it where it is routed and has no copy on
 * this surface yet, redraw the copies it has; for a `reminded` event, send the reminder next to each copy instead
 * of redrawing (nothing on the question's message changed). Safe to run twice for the same event.
 */
async function bringUpToDate(
  store: Store,
  surface: Surface,
  event: StoreEvent,
  maybePostedBefore: boolean,
  metrics?: BridgeMetrics,
  reminderOwners?: ReminderOwners,
  touched: Touched = { posted: [] },
): Promise<void> {
  const question = await store.get(event.project, event.questionId);
  if (!question) return; // purged: nothing left to show

  const posted: MessageRef[] = [];
  for (const channel of surface.channelsFor(question.project)) {
    if (question.messages.some((m) => m.platform === surface.platform && m.channel === channel)) continue;
    touched.channel = channel;
    const ref = await surface.post(question, channel, { maybePostedBefore });
    touched.posted.push(channel);
    metrics?.posted(surface.platform);
    await store.recordMessage(question.project, question.id, ref);
    posted.push(ref);
  }
  if (posted.length > 0) {
    // It may have moved on while we posted; the event for that move may have seen no copy to redraw.
    const now = await store.get(question.project, question.id);
    if (now && changed(question, now)) for (const ref of posted) await redraw(surface, now, ref, metrics, touched);
  }
  if (event.type === 'reminded') {
    const copies = [...question.messages.filter((ref) => ref.platform === surface.platform), ...posted];
    await sendReminder(surface, question, event, copies, { maybePostedBefore, metrics, reminderOwners, touched });
    return;
  }
  if (event.type !== 'parked' || question.status !== 'pending') {
    for (const ref of question.messages) {
      if (ref.platform === surface.platform) await redraw(surface, question, ref, metrics, touched);
    }
  }
}

async function redraw(
  surface: Surface,
  question: Question,
  ref: MessageRef,
  metrics: BridgeMetrics | undefined,
  touched: Touched,
): Promise<void> {
  touched.channel = ref.channel;
  await surface.update(question, ref);
  metrics?.redrawn(surface.platform);
}

/**
 * Send the reminder a `reminded` event records next to each of the surface's copies. Nothing when the question
 * closed since (no reminder after an answer) or a later reminder was recorded (its own event sends that one: a
 * stale event redelivered late must not send the newer reminder twice).
 */
async function sendReminder(
  surface: Surface,
  question: Question,
  event: StoreEvent,
  copies: readonly MessageRef[],
  o: {
    maybePostedBefore: boolean;
    metrics?: BridgeMetrics | undefined;
    reminderOwners?: ReminderOwners | undefined;
    touched: Touched;
  },
): Promise<void> {
  if (!surface.remind || question.status !== 'pending') return;
  if (question.remindedAt !== undefined && event.at < question.remindedAt) return;
  const reminder: Reminder = {
    ordinal: question.reminders ?? 1,
    waitedMs: Math.max(0, event.at - question.createdAt),
    owners: o.reminderOwners?.(surface.platform, question.project) ?? [],
  };
  for (const ref of copies) {
    o.touched.channel = ref.channel;
    await surface.remind(question, ref, reminder, { maybePostedBefore: o.maybePostedBefore });
    o.metrics?.reminded(surface.platform);
  }
}

function changed(before: Question, after: Question): boolean {
  return before.status !== after.status || before.deliveredAt !== after.deliveredAt;
}
