/**
 * The bridge: follows the store's events through a consumer group and keeps every chat copy of every question
 * true. A parked question is posted on every surface and channel routed for its project; any later transition
 * redraws every copy. Handling is idempotent (it always renders the question as it is now, and posts only where
 * no copy is recorded), so at-least-once delivery of events is safe. An event is acknowledged only after its work
 * is done; failures are retried with back-off, then left pending for a live bridge to reclaim.
 */
import type { MessageRef, Question } from '../core/question.js';
import type { EventConsumer, Store, StoreEvent } from '../store/port.js';
import { errorFields, type Logger, silentLogger } from './logger.js';
import type { Surface } from './surface.js';

export interface BridgeOptions {
  readonly store: Store;
  readonly surfaces: readonly Surface[];
  /** Unique per running bridge (e.g. host + pid): the consumer-group member name. */
  readonly consumerName: string;
  /** Consumer group (default `bridge`). */
  readonly group?: string;
  readonly logger?: Logger;
  /** How long one read waits for new events (default 1000 ms); also bounds how long `stop` waits. */
  readonly blockMs?: number;
  /** Events another bridge read but did not acknowledge for this long are taken over (default 30 s). */
  readonly reclaimIdleMs?: number;
  /** Attempts per event in this process, with back-off from `retryBaseMs` (default 5 attempts, 200 ms). */
  readonly attempts?: number;
  readonly retryBaseMs?: number;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

export class Bridge {
  readonly #o: BridgeOptions;
  readonly #log: Logger;
  readonly #stopping = new AbortController();
  #consumer: EventConsumer | undefined;
  #loop: Promise<void> | undefined;
  #lastReclaim = 0;

  constructor(options: BridgeOptions) {
    this.#o = options;
    this.#log = options.logger ?? silentLogger;
  }

  /** Join the consumer group and start following events. */
  async start(): Promise<void> {
    this.#consumer = await this.#o.store.consumer(this.#o.group ?? 'bridge', this.#o.consumerName);
    this.#loop = this.#run(this.#consumer);
  }

  /** Stop taking new events, finish the one in hand (its acknowledgement included), and leave the group. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    await this.#loop;
    await this.#consumer?.close();
  }

  async #run(consumer: EventConsumer): Promise<void> {
    const reclaimIdleMs = this.#o.reclaimIdleMs ?? 30_000;
    while (!this.#stopping.signal.aborted) {
      try {
        if (Date.now() - this.#lastReclaim >= reclaimIdleMs / 2) {
          this.#lastReclaim = Date.now();
          for (const event of await consumer.reclaim(reclaimIdleMs)) await this.#process(consumer, event, true);
        }
        const events = await consumer.read({ count: 20, blockMs: this.#o.blockMs ?? 1000 });
        for (const event of events) await this.#process(consumer, event, false);
      } catch (error) {
        if (this.#stopping.signal.aborted) break;
        this.#log.warn(errorFields(error), 'bridge: reading events failed; retrying');
        await sleep(this.#o.retryBaseMs ?? 200, this.#stopping.signal);
      }
    }
  }

  async #process(consumer: EventConsumer, event: StoreEvent, redelivered: boolean): Promise<void> {
    const attempts = this.#o.attempts ?? 5;
    const base = this.#o.retryBaseMs ?? 200;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const started = Date.now();
      try {
        await this.handle(event, redelivered || attempt > 0);
        await consumer.ack([event]);
        this.#log.info(
          { event: event.type, questionId: event.questionId, ms: Date.now() - started, attempt },
          'bridge: event handled',
        );
        return;
      } catch (error) {
        this.#log.warn(
          { event: event.type, questionId: event.questionId, attempt, ...errorFields(error) },
          'bridge: event failed',
        );
        if (this.#stopping.signal.aborted) return;
        await sleep(Math.min(base * 2 ** attempt, 10_000), this.#stopping.signal);
      }
    }
    // Left pending: this bridge or another takes it over after reclaimIdleMs.
  }

  /**
   * Bring every copy of the event's question up to date: post it where it is routed and has no copy yet, redraw
   * the copies it has. Safe to run twice for the same event.
   */
  async handle(event: StoreEvent, maybePostedBefore: boolean): Promise<void> {
    const store = this.#o.store;
    const question = await store.get(event.project, event.questionId);
    if (!question) return; // purged: nothing left to show

    const posted: MessageRef[] = [];
    for (const surface of this.#o.surfaces) {
      for (const channel of surface.channelsFor(question.project)) {
        if (question.messages.some((m) => m.platform === surface.platform && m.channel === channel)) continue;
        const ref = await surface.post(question, channel, { maybePostedBefore });
        await store.recordMessage(question.project, question.id, ref);
        posted.push(ref);
      }
    }
    if (posted.length > 0) {
      // It may have moved on while we posted; the event for that move may have seen no copy to redraw.
      const now = await store.get(question.project, question.id);
      if (now && changed(question, now)) for (const ref of posted) await this.#update(now, ref);
    }
    if (event.type !== 'parked' || question.status !== 'pending') {
      for (const ref of question.messages) await this.#update(question, ref);
    }
  }

  async #update(question: Question, ref: MessageRef): Promise<void> {
    const surface = this.#o.surfaces.find((s) => s.platform === ref.platform);
    if (surface) await surface.update(question, ref);
  }
}

function changed(before: Question, after: Question): boolean {
  return before.status !== after.status || before.deliveredAt !== after.deliveredAt;
}
