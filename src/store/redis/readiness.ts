/**
 * Whether a Redis store's connections take commands, for `Store.whenReady`: the main connection and every duplicate
 * it made for a blocking read (a consumer, a tail, a watch, a wait). A loop that failed on any of them waits until
 * all the open ones are ready again: it wakes on their `ready` (node-redis reconnected), not on a timer. Closed
 * connections are left out (their owner is done with them), and so are ones that never reconnect (the minimal
 * client's: closed once lost).
 */
import type { Readiness, WaitOptions } from '../port.js';
import type { RedisConnection } from './connection.js';

/** How often the wait looks again without a `ready` (a lost connection closed by its owner sends none). */
const RECHECK_MS = 250;

export class StoreConnections {
  readonly #main: RedisConnection;
  readonly #duplicates = new Set<RedisConnection>();

  constructor(main: RedisConnection) {
    this.#main = main;
  }

  /** Follow a duplicate from now on (dropped once closed). */
  add(connection: RedisConnection): RedisConnection {
    for (const known of this.#duplicates) if (!known.isOpen) this.#duplicates.delete(known);
    this.#duplicates.add(connection);
    return connection;
  }

  #open(): RedisConnection[] {
    return [this.#main, ...this.#duplicates].filter((connection) => connection.isOpen);
  }

  #lost(): boolean {
    return this.#open().some((connection) => !connection.isReady);
  }

  /** See `Store.whenReady`. */
  whenReady(options: WaitOptions): Promise<Readiness> {
    if (!this.#lost()) return Promise.resolve('ready');
    return new Promise((resolve) => {
      const stops = this.#open().map((connection) => connection.onReady(() => check()));
      const finish = (readiness: Readiness) => {
        clearTimeout(timer);
        clearInterval(recheck);
        options.signal?.removeEventListener('abort', aborted);
        for (const stop of stops) stop();
        resolve(readiness);
      };
      const check = () => {
        if (!this.#lost()) finish('reconnected');
      };
      const aborted = () => finish('lost');
      const timer = setTimeout(aborted, Math.max(0, options.timeoutMs));
      const recheck = setInterval(check, RECHECK_MS);
      options.signal?.addEventListener('abort', aborted, { once: true });
      if (options.signal?.aborted) aborted();
    });
  }
}
