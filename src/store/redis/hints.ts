/**
 * Which project streams to read next in a Redis Cluster, where one command cannot read streams of several slots:
 * the store publishes each transition's project tag on one channel (a hint, never text); a reader (a consumer group's
 * consumer, a tail) subscribes and reads only the hinted streams, one command each. Pub/sub is at-most-once, so every
 * stream is due when the subscription starts or comes back, and at least every `fullPassMs` whatever the hints say.
 */
import type { Subscription, SubscriptionListener } from './connection.js';

/** In a cluster, every stream is read at least this often, whatever the hints said (they may be lost). */
export const FULL_PASS_MS = 5000;

/** A stream a reader knows: its project's tag (what hints name) and its key. */
export interface HintedStream {
  readonly tag: string;
  readonly key: string;
}

export class StreamHints {
  readonly #subscribe: (listener: SubscriptionListener) => Promise<Subscription>;
  readonly #fullPassMs: number;
  /** Project tags hinted since their stream was last read. */
  readonly #hinted = new Set<string>();
  #fullPassDue = true;
  #lastFullPass = 0;
  #subscription: Subscription | undefined;
  #subscribing: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #closed = false;

  constructor(subscribe: (listener: SubscriptionListener) => Promise<Subscription>, fullPassMs = FULL_PASS_MS) {
    this.#subscribe = subscribe;
    this.#fullPassMs = fullPassMs;
  }

  /** Subscribe if not subscribed (again after a lost subscription); a failure leaves the periodic full pass. */
  async subscribe(): Promise<void> {
    if (this.#subscription?.isOpen || this.#closed) return;
    this.#subscribing ??= (async () => {
      try {
        this.#subscription = await this.#subscribe({
          onMessage: (tag) => {
            this.#hinted.add(tag);
            this.#wake?.();
          },
          onReady: () => {
            this.#fullPassDue = true;
            this.#wake?.();
          },
        });
        if (this.#closed) this.#subscription.close();
      } catch {
        // No hints for now: the periodic full pass still finds every event; the next read subscribes again.
      } finally {
        this.#subscribing = undefined;
      }
    })();
    await this.#subscribing;
  }

  /** The streams to read now: every one on a full pass, else those hinted since the last call. */
  due(streams: readonly HintedStream[]): HintedStream[] {
    const now = Date.now();
    if (this.#fullPassDue || now - this.#lastFullPass >= this.#fullPassMs) {
      this.#fullPassDue = false;
      this.#lastFullPass = now;
      this.#hinted.clear();
      return [...streams];
    }
    const due = streams.filter((stream) => this.#hinted.has(stream.tag));
    this.#hinted.clear();
    return due;
  }

  /** Read this stream again next time (a full batch may have left more behind). */
  again(tag: string): void {
    this.#hinted.add(tag);
  }

  /** Until a hint (or a new subscription) arrives, the next full pass is due, `ms` passed, or `close`. */
  async wait(ms: number): Promise<void> {
    if (this.#hinted.size > 0 || this.#fullPassDue || this.#closed) return;
    const untilFullPass = Math.max(0, this.#lastFullPass + this.#fullPassMs - Date.now());
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, Math.min(ms, untilFullPass));
      this.#wake = done;
    });
  }

  close(): void {
    this.#closed = true;
    this.#subscription?.close();
    this.#wake?.();
  }
}
