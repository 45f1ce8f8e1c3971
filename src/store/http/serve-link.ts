/**
 * The calls both HTTP stores make to serve (the agent side's `HttpStore`, the person side's `HttpInboxStore`): one
 * call with the store's time-out, long polls asked again until the caller's deadline (with back-off while serve does
 * not answer: restarting, a replica gone), and whether serve was last found away (`whenReady`).
 */

import { pause } from '../../core/pause.js';
import type { Readiness, WaitOptions } from '../port.js';
import { StoreUnavailableError } from '../store-unavailable-error.js';
import { AgentClient } from './client.js';
import { type AgentOperationName, type AgentOperations, LONG_POLL_MAX_MS } from './protocol.js';

export interface ServeLinkOptions {
  /** Serve's URL (`ASK_LATER_URL`). */
  readonly url: string;
  /** `ASK_LATER_TOKEN`. */
  readonly token: string;
  /** How long one ordinary call may take (default 10 s; the hook and the status line give their own budget). */
  readonly timeoutMs?: number;
  /** The longest serve is asked to hold one long poll (default {@link LONG_POLL_MAX_MS}). */
  readonly longPollMs?: number;
}

/** Back-off between attempts of a wait while serve does not answer. */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 2000;
/** A long poll's own time-out: what serve holds it, plus this. */
const LONG_POLL_MARGIN_MS = 5000;
/** While serve does not answer, `whenReady` asks it this often (a `ping`, each given this long). */
const PROBE_EVERY_MS = 250;
const PROBE_TIMEOUT_MS = 1000;

export class ServeLink {
  readonly #client: AgentClient;
  readonly #timeoutMs: number;
  readonly #longPollMs: number;
  /** The last call found serve (or its store) away; the next one that answers clears it. */
  #lost = false;

  constructor(options: ServeLinkOptions) {
    this.#client = new AgentClient({ url: options.url, token: options.token });
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#longPollMs = Math.min(options.longPollMs ?? LONG_POLL_MAX_MS, LONG_POLL_MAX_MS);
  }

  /** One call, given the store's time-out. */
  call<Op extends AgentOperationName>(
    operation: Op,
    body: AgentOperations[Op]['request'],
  ): Promise<AgentOperations[Op]['response']> {
    return this.#track(this.#client.call(operation, body, { timeoutMs: this.#timeoutMs }));
  }

  /**
   * One long poll that reached serve, asking it to hold (`body(ms)`) at most until `deadline`; undefined when the
   * deadline came or `signal` aborted first. While serve does not answer, it tries again with back-off.
   */
  async longPoll<Op extends AgentOperationName>(
    operation: Op,
    body: (holdMs: number) => AgentOperations[Op]['request'],
    deadline: number,
    signal: AbortSignal | undefined,
  ): Promise<AgentOperations[Op]['response'] | undefined> {
    let backoff = RETRY_FIRST_MS;
    for (;;) {
      const left = deadline - Date.now();
      if (signal?.aborted) return undefined;
      try {
        const ms = Math.max(0, Math.min(left, this.#longPollMs));
        return await this.#track(
          this.#client.call(operation, body(ms), { timeoutMs: ms + LONG_POLL_MARGIN_MS, signal }),
        );
      } catch (error) {
        if (signal?.aborted) return undefined;
        if (!(error instanceof StoreUnavailableError)) throw error;
        if (deadline - Date.now() <= 0) return undefined;
        // Back off, or less: until serve answers a probe again.
        const step = Math.min(backoff, deadline - Date.now());
        if ((await this.whenReady({ timeoutMs: step, ...(signal ? { signal } : {}) })) === 'ready') {
          await pause(step, signal);
        }
        backoff = Math.min(backoff * 2, RETRY_MAX_MS);
      }
    }
  }

  /** Lost after a call found serve (or its store) away: then a `ping` every 250 ms until one answers. */
  async whenReady(options: WaitOptions): Promise<Readiness> {
    if (!this.#lost) return 'ready';
    const deadline = Date.now() + options.timeoutMs;
    for (;;) {
      if (options.signal?.aborted) return 'lost';
      const left = deadline - Date.now();
      if (left <= 0) return 'lost';
      try {
        await this.#track(
          this.#client.call(
            'ping',
            {},
            { timeoutMs: Math.min(PROBE_TIMEOUT_MS, left), ...(options.signal ? { signal: options.signal } : {}) },
          ),
        );
        return 'reconnected';
      } catch {
        await pause(Math.min(PROBE_EVERY_MS, Math.max(0, deadline - Date.now())), options.signal);
      }
    }
  }

  close(): void {
    this.#client.close();
  }

  /** A call's outcome, remembering whether serve answered (for `whenReady`). */
  async #track<T>(call: Promise<T>): Promise<T> {
    try {
      const answer = await call;
      this.#lost = false;
      return answer;
    } catch (error) {
      if (error instanceof StoreUnavailableError) this.#lost = true;
      throw error;
    }
  }
}
