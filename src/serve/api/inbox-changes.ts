/**
 * What the person side's long polls (`inbox-changed`) wait on: one tail of the store's events per agent API (per
 * serve replica), begun when the first poll asks and followed until the API closes, rather than a tail per request.
 * A waiter hears of any event (a reminder aside) of a project it reaches. A tail that fails is begun again after a
 * back-off; meanwhile waiters time out, and the mark each poll compares first catches what they missed.
 */
import { backoff } from '../../core/backoff.js';
import type { EventTail, Store } from '../../store/port.js';
import { waitToRetry } from '../../store/wait-to-retry.js';

/** One waiter: resolves true on a change of a project it reaches, false when the time runs out or it is aborted. */
export interface InboxWaiter {
  changed(options: { readonly timeoutMs: number; readonly signal: AbortSignal }): Promise<boolean>;
  /** Stop listening (the poll answered without waiting). */
  close(): void;
}

export interface InboxChanges {
  /** Once the tail has begun, a waiter for changes of the projects `reaches` accepts, from now on. */
  waiter(reaches: (project: string) => boolean): Promise<InboxWaiter>;
  close(): void;
}

export function inboxChanges(store: Pick<Store, 'tail' | 'whenReady'>): InboxChanges {
  const stopping = new AbortController();
  const listeners = new Set<(project: string) => void>();
  let began: Promise<void> | undefined;

  const follow = async (tail: EventTail): Promise<void> => {
    let failures = 0;
    let current: EventTail | undefined = tail;
    while (!stopping.signal.aborted) {
      try {
        current ??= await store.tail();
        const events = await current.next({ timeoutMs: 5_000, signal: stopping.signal });
        failures = 0;
        for (const event of events) {
          if (event.type === 'reminded') continue;
          for (const listener of [...listeners]) listener(event.project);
        }
      } catch {
        if (stopping.signal.aborted) break;
        await current?.close().catch(() => undefined);
        current = undefined;
        await waitToRetry(store, backoff(failures++, 200, 10_000), stopping.signal);
      }
    }
    await current?.close().catch(() => undefined);
  };

  const begin = (): Promise<void> => {
    began ??= store.tail().then(
      (tail) => {
        void follow(tail);
      },
      (error: unknown) => {
        began = undefined; // the next poll tries again
        throw error;
      },
    );
    return began;
  };

  return {
    async waiter(reaches) {
      await begin();
      let heard = false;
      let wake: (() => void) | undefined;
      const listener = (project: string) => {
        if (!reaches(project)) return;
        heard = true;
        wake?.();
      };
      listeners.add(listener);
      return {
        changed: ({ timeoutMs, signal }) =>
          new Promise<boolean>((resolve) => {
            const done = () => {
              clearTimeout(timer);
              signal.removeEventListener('abort', done);
              listeners.delete(listener);
              resolve(heard);
            };
            const timer = setTimeout(done, timeoutMs);
            signal.addEventListener('abort', done, { once: true });
            wake = done;
            if (heard || signal.aborted) done();
          }),
        close: () => listeners.delete(listener),
      };
    },
    close: () => stopping.abort(),
  };
}
