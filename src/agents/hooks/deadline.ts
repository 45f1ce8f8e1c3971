/**
 * The hook's hard deadline: the prompt waits for the hook, so every step races one timer. When it fires, the
 * step in progress is abandoned (its promise is left to settle unobserved) and the clean-ups registered with
 * `onExpire` run, so no socket or timer keeps the process alive.
 */
import { DeadlineError } from './deadline-error.js';

export class Deadline {
  readonly #ms: number;
  #timer: NodeJS.Timeout;
  #endsAt: number;
  readonly #cleanups: (() => void)[] = [];
  readonly #rejects = new Set<(error: DeadlineError) => void>();
  #expired = false;
  #step = 'the hook';

  constructor(ms: number) {
    this.#ms = ms;
    this.#endsAt = performance.now() + ms;
    this.#timer = setTimeout(() => this.#expire(), ms);
  }

  /** True once the timer has fired: nothing may be written to stdout any more. */
  get expired(): boolean {
    return this.#expired;
  }

  /** `work`, or a `DeadlineError` naming `step` if the deadline comes first (or has already passed). */
  race<T>(work: Promise<T>, step: string): Promise<T> {
    if (this.#expired) {
      work.catch(() => undefined);
      return Promise.reject(this.#error(step));
    }
    return new Promise<T>((resolve, reject) => {
      const onExpire = (error: DeadlineError) => reject(error);
      this.#step = step;
      this.#rejects.add(onExpire);
      work.then(
        (value) => {
          this.#rejects.delete(onExpire);
          resolve(value);
        },
        (error: unknown) => {
          this.#rejects.delete(onExpire);
          reject(error);
        },
      );
    });
  }

  /** Run `cleanup` when the deadline fires (at once if it already has). */
  onExpire(cleanup: () => void): void {
    if (this.#expired) cleanup();
    else this.#cleanups.push(cleanup);
  }

  /**
   * Make sure at least `ms` remain (never shortens it). Used once the note is written: confirming it is what keeps
   * the answers from coming again, so it gets a short grace rather than being cut off by the deadline.
   */
  extend(ms: number): void {
    if (this.#expired) return;
    const left = this.#endsAt - performance.now();
    if (left >= ms) return;
    clearTimeout(this.#timer);
    this.#endsAt = performance.now() + ms;
    this.#timer = setTimeout(() => this.#expire(), ms);
  }

  /** Stop the timer: the run is over. */
  clear(): void {
    clearTimeout(this.#timer);
  }

  #expire(): void {
    this.#expired = true;
    const error = this.#error(this.#step);
    for (const reject of this.#rejects) reject(error);
    this.#rejects.clear();
    for (const cleanup of this.#cleanups.splice(0)) {
      try {
        cleanup();
      } catch {
        // A clean-up that fails must not stop the others; the process is about to end anyway.
      }
    }
  }

  #error(step: string): DeadlineError {
    return new DeadlineError(`${step} within ${(this.#ms / 1000).toFixed(1)} s`);
  }
}
