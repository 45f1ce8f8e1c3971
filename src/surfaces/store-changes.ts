/**
 * Every replica's web inbox hears every change: a tail of the store's events (`store.tail()`, outside any consumer
 * group) tells the open pages which question changed, whichever replica's bridge handled the event. A store that
 * fails is retried with back-off, or as soon as its connection is ready again (`Store.whenReady`): one warning when
 * reading fails, one line when it reads again; a new tail then starts from that moment (pages refresh on their next
 * notice; what they show is read afresh each time).
 */
import { backoff } from '../core/backoff.js';
import { errorFields, type Logger, silentLogger } from '../core/logger.js';
import { formatQuestionRef } from '../core/question-ref.js';
import type { EventTail, Store, StoreEvent } from '../store/port.js';
import { waitToRetry } from '../store/wait-to-retry.js';

/** What is known of a change beyond the question's ref. */
export interface ChangeDetails {
  /** The question's project, when the notice knows it (a page signed in for some projects hears only theirs). */
  readonly project?: string;
  /** The question was just parked, and it is blocking (the pages may raise a desktop notification). */
  readonly blockingParked?: boolean;
}

/** Who hears of each change: the web inbox's surface, or the terminal inbox's listeners. */
export interface ChangeNotified {
  notify(ref: string, details: ChangeDetails): void;
}

export interface StoreChangesOptions {
  readonly store: Pick<Store, 'tail' | 'get' | 'whenReady'>;
  /** Told of each change (the web inbox's surface; the terminal inbox passes its own listeners). */
  readonly surface: ChangeNotified;
  readonly logger?: Logger;
  /** How long one read waits for events (default 5 s); shorter only makes stopping quicker. */
  readonly waitMs?: number;
  /** First back-off step after a failure (default 200 ms), doubling up to `retryMaxMs` (default 30 s). */
  readonly retryBaseMs?: number;
  readonly retryMaxMs?: number;
}

export interface StoreChanges {
  /** Resolves once the tail has begun (changes from then on reach the pages), or its first attempt failed. */
  readonly started: Promise<void>;
  stop(): Promise<void>;
}

/** Follow the store's events and notify the pages; runs until `stop`. */
export function followStoreChanges(options: StoreChangesOptions): StoreChanges {
  const log = options.logger ?? silentLogger;
  const stopping = new AbortController();
  const signal = stopping.signal;
  let began: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    began = resolve;
  });
  let tail: EventTail | undefined;

  const run = async (): Promise<void> => {
    let failures = 0;
    let failingSince = 0;
    while (!signal.aborted) {
      try {
        tail ??= await options.store.tail();
        began();
        const events = await tail.next({ timeoutMs: options.waitMs ?? 5_000, signal });
        if (failures > 0) {
          log.info({ failures, ms: Date.now() - failingSince }, 'web inbox: following the store again');
          failures = 0;
        }
        // A reminder changes nothing a page shows.
        for (const event of events) {
          if (event.type === 'reminded') continue;
          const blockingParked = event.type === 'parked' && (await isBlocking(options.store, event));
          options.surface.notify(formatQuestionRef(event.project, event.questionId), {
            project: event.project,
            ...(blockingParked ? { blockingParked } : {}),
          });
        }
      } catch (error) {
        began(); // a store failing at the start must not hold the caller up: it is retried below
        if (signal.aborted) break;
        if (failures === 0) {
          failingSince = Date.now();
          log.warn(errorFields(error), 'web inbox: cannot follow the store; retrying with back-off');
        }
        await tail?.close().catch(() => undefined);
        tail = undefined;
        // The back-off step, or less: the moment the store's connection is ready again.
        await waitToRetry(
          options.store,
          backoff(failures, options.retryBaseMs ?? 200, options.retryMaxMs ?? 30_000),
          signal,
        );
        failures++;
      }
    }
    began();
  };
  const loop = run();

  return {
    started,
    async stop() {
      stopping.abort();
      await loop;
      await tail?.close().catch(() => undefined);
    },
  };
}

/**
 * Whether a just-parked question is blocking and still waits (the pages' desktop notification); false when the
 * store cannot say: a notification missed is better than the tail starting over.
 */
async function isBlocking(store: Pick<Store, 'get'>, event: StoreEvent): Promise<boolean> {
  try {
    const question = await store.get(event.project, event.questionId);
    return question?.status === 'pending' && question.isBlocking;
  } catch {
    return false;
  }
}
