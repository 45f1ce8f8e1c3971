/**
 * Long polling, one poller per bot token across replicas: Telegram hands `getUpdates` to one consumer at a time
 * (a second gets 409 Conflict), so the replicas share a lease in the store and only its holder polls. The holder
 * renews it while it polls and stops polling the moment a renewal fails (its store is gone, or another replica
 * took the lease after it paused); the others try for the lease every so often and take over once a dead
 * holder's lease runs out. Updates the old holder received but never confirmed come again to the new one: the
 * responder claims each `update_id` once, so none is handled twice.
 */
import type { Update } from 'grammy/types';
import { errorFields, type Logger } from '../../core/logger.js';
import { pause } from '../../core/pause.js';
import { telegramErrorCode, telegramErrorFields } from './api.js';
import { grammySignal, type TelegramSender } from './send.js';

/** The store lease that names the one poller of a bot token (serve: `Store.acquireLease` / `releaseLease`). */
export interface PollerLease {
  /** Take or renew the lease for `ms`: true while this replica holds it. */
  acquire(ms: number): Promise<boolean>;
  release(): Promise<void>;
}

export interface PollerOptions {
  readonly api: Pick<TelegramSender, 'getUpdates' | 'deleteWebhook'>;
  readonly lease: PollerLease;
  readonly handle: (update: Update) => Promise<void>;
  readonly logger: Logger;
  /** How long the lease runs without a renewal (default 30 s): a dead poller's chat is silent this long at most. */
  readonly leaseMs?: number;
  /** `getUpdates`' long-poll timeout in seconds (default 20; below the lease). */
  readonly pollSeconds?: number;
}

export const ALLOWED_UPDATES = ['message', 'callback_query'] as const;

export class TelegramPoller {
  readonly #o: PollerOptions;
  readonly #log: Logger;
  readonly #stopping = new AbortController();
  readonly #inFlight = new Set<Promise<void>>();
  #loop: Promise<void> | undefined;
  #polling = false;

  constructor(options: PollerOptions) {
    this.#o = options;
    this.#log = options.logger;
  }

  /** Whether this replica polls right now. */
  polling(): boolean {
    return this.#polling;
  }

  start(): void {
    this.#loop ??= this.#run();
  }

  /** Stop polling, finish the updates in hand, give the lease up so another replica takes over at once. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    await this.#loop;
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
    await this.#o.lease.release().catch(() => undefined);
  }

  get #leaseMs(): number {
    return this.#o.leaseMs ?? 30_000;
  }

  async #run(): Promise<void> {
    const signal = this.#stopping.signal;
    while (!signal.aborted) {
      let held = false;
      try {
        held = await this.#o.lease.acquire(this.#leaseMs);
      } catch (error) {
        this.#log.warn(errorFields(error), 'telegram: poller lease not read (store); trying again');
      }
      if (held) await this.#pollWhileHeld();
      if (!signal.aborted) await pause(Math.max(50, Math.floor(this.#leaseMs / 3)), signal);
    }
  }

  /** Poll until the lease is lost or serve stops. */
  async #pollWhileHeld(): Promise<void> {
    const lost = new AbortController();
    const stop = () => lost.abort();
    this.#stopping.signal.addEventListener('abort', stop, { once: true });
    const renew = setInterval(
      () => {
        this.#o.lease.acquire(this.#leaseMs).then(
          (held) => {
            if (!held) lost.abort();
          },
          () => lost.abort(),
        );
      },
      Math.max(20, Math.floor(this.#leaseMs / 3)),
    );
    this.#polling = true;
    this.#log.info({}, 'telegram: polling for updates (this replica holds the poller lease)');
    let offset: number | undefined;
    let failures = 0;
    try {
      await this.#o.api.deleteWebhook({ drop_pending_updates: false }, grammySignal(lost.signal));
      while (!lost.signal.aborted) {
        let updates: Update[];
        try {
          updates = await this.#o.api.getUpdates(
            {
              timeout: this.#o.pollSeconds ?? 20,
              allowed_updates: [...ALLOWED_UPDATES],
              ...(offset === undefined ? {} : { offset }),
            },
            grammySignal(lost.signal),
          );
          failures = 0;
        } catch (error) {
          if (lost.signal.aborted) break;
          failures += 1;
          const conflict = telegramErrorCode(error) === 409;
          this.#log.warn(
            telegramErrorFields(error),
            conflict
              ? 'telegram: another consumer polls this bot token (409); backing off'
              : 'telegram: getUpdates failed',
          );
          await pause(Math.min(30_000, 250 * 2 ** Math.min(failures, 7)), lost.signal);
          continue;
        }
        for (const update of updates) {
          offset = Math.max(offset ?? 0, update.update_id + 1);
          const running: Promise<void> = this.#o
            .handle(update)
            .catch((error: unknown) =>
              this.#log.error({ update: update.update_id, ...errorFields(error) }, 'telegram: update failed'),
            )
            .finally(() => this.#inFlight.delete(running));
          this.#inFlight.add(running);
        }
      }
    } catch (error) {
      if (!lost.signal.aborted) this.#log.warn(telegramErrorFields(error), 'telegram: polling stopped');
    } finally {
      clearInterval(renew);
      this.#stopping.signal.removeEventListener('abort', stop);
      this.#polling = false;
      if (!this.#stopping.signal.aborted) this.#log.warn({}, 'telegram: poller lease lost; polling stopped');
    }
  }
}
