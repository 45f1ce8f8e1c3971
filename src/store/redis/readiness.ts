/**
 * Whether a Redis store's connections take commands, for `Store.whenReady`: the main connection and every duplicate
 * it made for a blocking read (a consumer, a tail, a watch, a wait). A loop that failed on any of them waits until
 * all the open ones are ready again: it wakes on their `ready` (reconnected), not on a timer. Closed
 * connections are left out (their owner is done with them), and so are ones that never reconnect (the minimal
 * client's: closed once lost).
 *
 * When none looks lost, a PING decides: the failure may have come from a connection that could not be opened (a
 * consumer's, while the server was dying) before the others noticed the server was gone.
 */
import type { Readiness, WaitOptions } from '../port.js';
import type { RedisConnection } from './connection.js';

/** How often the wait looks again without a `ready` (a lost connection closed by its owner sends none). */
const RECHECK_MS = 250;
/** The longest the PING that decides "nothing is lost" may take. */
const PING_MS = 1000;

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

  /** Whether the main connection answers a PING within `ms`. */
  async #answers(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    const ping = this.#main.sendCommand(['PING']).then(
      () => true,
      () => false,
    );
    try {
      return await Promise.race([ping, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** See `Store.whenReady`. */
  async whenReady(options: WaitOptions): Promise<Readiness> {
    if (options.signal?.aborted) return 'lost';
    if (!this.#lost() && (await this.#answers(Math.max(1, Math.min(options.timeoutMs, PING_MS))))) return 'ready';
    return new Promise((resolve) => {
      // Back only after being seen lost: a connection that failed without noticing it (a hung socket) is waited out.
      let seenLost = this.#lost();
      const stops = this.#open().map((connection) => connection.onReady(() => check()));
      const finish = (readiness: Readiness) => {
        clearTimeout(timer);
        clearInterval(recheck);
        options.signal?.removeEventListener('abort', aborted);
        for (const stop of stops) stop();
        resolve(readiness);
      };
      const check = () => {
        if (this.#lost()) seenLost = true;
        else if (seenLost) finish('reconnected');
      };
      let pinging = false;
      // Nothing seen lost, yet the PING failed: the server may answer errors on a connection that stays up (still
      // loading its data after a restart). It is back once a PING answers.
      const again = () => {
        check();
        if (seenLost || pinging || this.#lost()) return;
        pinging = true;
        void this.#answers(PING_MS).then((answers) => {
          pinging = false;
          if (answers && !this.#lost()) finish('reconnected');
        });
      };
      const aborted = () => finish('lost');
      const timer = setTimeout(aborted, Math.max(0, options.timeoutMs));
      const recheck = setInterval(again, RECHECK_MS);
      options.signal?.addEventListener('abort', aborted, { once: true });
      if (options.signal?.aborted) aborted();
    });
  }
}
