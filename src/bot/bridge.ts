/**
 * The bridge: follows the store's events and keeps every chat copy of every question true. A parked question is
 * posted on every surface and channel routed for its project; any later transition redraws every copy; a recorded
 * reminder is sent next to every copy (a thread reply, a Discord reply) by the surfaces that send reminders.
 *
 * Each surface (web inbox, Slack, Discord) follows the events through a consumer group of its own
 * (`<group>:<platform>`), so a platform that is slow, rate-limited or refusing delays no other. Handling is
 * idempotent (a surface renders the question as it is now, and posts only where no copy is recorded), so
 * at-least-once delivery of events is safe. An event is acknowledged only after its work is done. A failing one
 * is retried with exponential back-off and jitter, a bounded number of times; then it is recorded as failed
 * (`store.recordFailedEvent`: doctor and /healthz report it) and acknowledged, so one event a platform keeps
 * refusing never holds the others up. `ask-later retry-failed` hands failed events back; each surface takes its
 * own back (`takeReplayedEvents`) as it reads. A process that dies mid-event leaves it pending for a live bridge
 * to reclaim. While the store cannot be read, each surface backs off the same way and logs once when it starts
 * failing and once when it reads again.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { backoff } from '../core/backoff.js';
import type { MessageRef, Platform, Question } from '../core/question.js';
import type { Reminder } from '../core/reminder.js';
import type { EventConsumer, FailedEvent, Store, StoreEvent } from '../store/port.js';
import type { BridgeMetrics } from './bridge-metrics.js';
import { errorFields, type Logger, silentLogger } from './logger.js';
import type { Surface } from './surface.js';

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

  async #run(): Promise<void> {
    const reclaimIdleMs = this.#o.reclaimIdleMs ?? 30_000;
    const platform = this.#surface.platform;
    let failures = 0;
    let failingSince = 0;
    while (!this.#signal.aborted) {
      try {
        if (Date.now() - this.#lastReclaim >= reclaimIdleMs / 2) {
          this.#lastReclaim = Date.now();
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
        await this.#sleep(backoff(failures, this.#o.retryBaseMs ?? 200, this.#o.retryMaxMs ?? 30_000));
        failures++;
      }
    }
  }

  /**
   * Handle one event with bounded attempts. An event read from the group is acknowledged once handled, or once
   * recorded as failed; a replayed one (`replayed`: it was taken off the replay queue) is recorded as failed again
   * when it still fails. Stopping mid-way leaves a read event pending (reclaimed later) and a replayed one recorded.
   */
  async #process(event: StoreEvent, redelivered: boolean, replayed?: FailedEvent): Promise<void> {
    const attempts = this.#o.attempts ?? 5;
    const platform = this.#surface.platform;
    let failure = '';
    for (let attempt = 0; attempt < attempts; attempt++) {
      const started = Date.now();
      if (attempt > 0) this.#o.metrics?.retried(platform);
      try {
        await bringUpToDate(
          this.#o.store,
          this.#surface,
          event,
          redelivered || attempt > 0,
          this.#o.metrics,
          this.#o.reminderOwners,
        );
        if (!replayed) await this.#consumer.ack([event]);
        this.#log.info(
          { platform, event: event.type, questionId: event.questionId, ms: Date.now() - started, attempt },
          replayed ? 'bridge: replayed event handled' : 'bridge: event handled',
        );
        return;
      } catch (error) {
        failure = this.#surface.describeFailure?.(error) ?? describeError(error);
        this.#log.warn(
          { platform, event: event.type, questionId: event.questionId, attempt, failure },
          'bridge: event failed',
        );
        const last = attempt + 1 === attempts;
        if (!last && !(await this.#sleep(backoff(attempt, this.#o.retryBaseMs ?? 200, this.#o.retryMaxMs ?? 30_000)))) {
          if (replayed) await this.#recordFailed(event, replayed.attempts + attempt + 1, failure);
          return;
        }
      }
    }
    await this.#recordFailed(event, (replayed?.attempts ?? 0) + attempts, failure);
  }

  /** Keep the event as failed for `ask-later retry-failed`, then let the group go on without it. */
  async #recordFailed(event: StoreEvent, attempts: number, error: string): Promise<void> {
    try {
      await this.#o.store.recordFailedEvent(this.#group, event, { attempts, error });
      this.#o.metrics?.failed(this.#surface.platform);
      await this.#consumer.ack([event]);
      this.#log.error(
        { platform: this.#surface.platform, event: event.type, questionId: event.questionId, attempts, failure: error },
        'bridge: event failed for good; recorded for ask-later retry-failed',
      );
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
): Promise<void> {
  const question = await store.get(event.project, event.questionId);
  if (!question) return; // purged: nothing left to show

  const posted: MessageRef[] = [];
  for (const channel of surface.channelsFor(question.project)) {
    if (question.messages.some((m) => m.platform === surface.platform && m.channel === channel)) continue;
    const ref = await surface.post(question, channel, { maybePostedBefore });
    metrics?.posted(surface.platform);
    await store.recordMessage(question.project, question.id, ref);
    posted.push(ref);
  }
  if (posted.length > 0) {
    // It may have moved on while we posted; the event for that move may have seen no copy to redraw.
    const now = await store.get(question.project, question.id);
    if (now && changed(question, now)) for (const ref of posted) await redraw(surface, now, ref, metrics);
  }
  if (event.type === 'reminded') {
    const copies = [...question.messages.filter((ref) => ref.platform === surface.platform), ...posted];
    await sendReminder(surface, question, event, copies, { maybePostedBefore, metrics, reminderOwners });
    return;
  }
  if (event.type !== 'parked' || question.status !== 'pending') {
    for (const ref of question.messages) {
      if (ref.platform === surface.platform) await redraw(surface, question, ref, metrics);
    }
  }
}

async function redraw(surface: Surface, question: Question, ref: MessageRef, metrics?: BridgeMetrics): Promise<void> {
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
  o: { maybePostedBefore: boolean; metrics?: BridgeMetrics | undefined; reminderOwners?: ReminderOwners | undefined },
): Promise<void> {
  if (!surface.remind || question.status !== 'pending') return;
  if (question.remindedAt !== undefined && event.at < question.remindedAt) return;
  const reminder: Reminder = {
    ordinal: question.reminders ?? 1,
    waitedMs: Math.max(0, event.at - question.createdAt),
    owners: o.reminderOwners?.(surface.platform, question.project) ?? [],
  };
  for (const ref of copies) {
    await surface.remind(question, ref, reminder, { maybePostedBefore: o.maybePostedBefore });
    o.metrics?.reminded(surface.platform);
  }
}

function changed(before: Question, after: Question): boolean {
  return before.status !== after.status || before.deliveredAt !== after.deliveredAt;
}
