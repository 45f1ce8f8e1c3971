/**
 * The watcher that keeps a directory's due markers current (`due-marker.ts`): run by the long-running MCP server
 * of a session. It follows the store's changes for its project and sets the markers after each (a change may be an
 * outcome to deliver; one that is not costs the next hook one ordinary run). It counts as a watcher only while its
 * watch runs: when the store fails it marks "due" and withdraws, so the hooks run Node until it watches again.
 */
import type { AgentStore } from '../../store/port.js';
import { markDue, registerWatcher } from './due-marker.js';

export interface DueWatcherOptions {
  /** The session's store (opened on first use). */
  readonly store: () => Promise<AgentStore>;
  readonly project: string;
  /** The markers' directory (`dueDir`). */
  readonly dir: string;
  /** Back-off after a failure (default 1 s, doubling to 30 s). */
  readonly retryMs?: number;
}

/** The longest "nothing due" lasts without a change: the marker is set again after each such wait. */
const WAIT_MS = 60_000;
const RETRY_MAX_MS = 30_000;

/** Start watching; `stop` ends the watch and withdraws this process as a watcher. */
export function startDueWatcher(options: DueWatcherOptions): { stop(): Promise<void> } {
  const stopping = new AbortController();
  const { signal } = stopping;
  let unregister: (() => void) | undefined;
  const withdraw = () => {
    unregister?.();
    unregister = undefined;
  };
  const loop = (async () => {
    let backoff = options.retryMs ?? 1000;
    while (!signal.aborted) {
      try {
        const store = await options.store();
        const watch = await store.watch(options.project);
        try {
          // Watching from here on: anything that landed before is covered by marking "due" now, then registering.
          markDue(options.dir);
          unregister ??= registerWatcher(options.dir);
          backoff = options.retryMs ?? 1000;
          while (!signal.aborted) {
            // A change, or a minute without one: an outcome whose claim lapsed (its claimant killed) comes back
            // without an event, so "due" is set again at least every WAIT_MS (a hook then looks, once).
            await watch.changed({ timeoutMs: WAIT_MS, signal });
            if (!signal.aborted) markDue(options.dir);
          }
        } finally {
          await watch.close().catch(() => undefined);
        }
      } catch {
        // The store failed (or cannot be opened): hooks must look for themselves until the watch runs again.
        withdraw();
        markDue(options.dir);
        await pause(backoff, signal);
        backoff = Math.min(backoff * 2, RETRY_MAX_MS);
      }
    }
  })();
  return {
    async stop() {
      stopping.abort();
      withdraw();
      await loop;
    },
  };
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
