/**
 * What both clients do when a Redis Cluster answers "not now" for a slot: TRYAGAIN (some keys of a multi-key command
 * moved, some not), CLUSTERDOWN (the cluster is settling after a failover) or a script stopped at a key that already
 * left (the store's scripts read everything before their first write, so such a stop wrote nothing). The command is
 * sent again after a back-off, a bounded number of times, then `SlotMovingError`. MOVED and ASK are the client's.
 */
import { SlotMovingError } from './slot-moving-error.js';

/** How many "try again" answers one command may meet before giving up (about 2.8 s of back-off). */
const MAX_RETRIES = 16;

/** Whether a cluster's error reply says the same command may succeed once the slot settles. */
export function isTryAgain(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const message = error.message;
  return (
    message.startsWith('TRYAGAIN') ||
    message.startsWith('CLUSTERDOWN') ||
    message.includes('Script attempted to access a non local key')
  );
}

/**
 * `send()`, again after a back-off (10 ms doubling to 250 ms) while the cluster says "try again" (or the client
 * found the slot moving: `SlotMovingError`).
 */
export async function retryWhileSlotMoves<T>(what: string, send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (!isTryAgain(error) && !(error instanceof SlotMovingError)) throw error;
      if (attempt >= MAX_RETRIES) throw new SlotMovingError(what, attempt, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, Math.min(10 * 2 ** (attempt - 1), 250)));
    }
  }
}
