/**
 * The store's own failures as the bridge acts on them, beside each platform's (`slack/failures.ts`,
 * `discord/failures.ts`): the store being away is nobody's fault but the store's, so it spends none of an event's
 * attempts (the bridge waits for the store and goes on); a record that cannot be read never will be, so its event
 * fails at once.
 */
import { CorruptRecordError } from '../store/corrupt-record-error.js';
import { StoreUnavailableError } from '../store/store-unavailable-error.js';
import type { SurfaceFailure } from './surface.js';

/** `away`: the store cannot be reached now; a failure for the event; undefined: not the store's. */
export function classifyStoreFailure(error: unknown): 'away' | SurfaceFailure | undefined {
  if (error instanceof StoreUnavailableError) return 'away';
  if (error instanceof CorruptRecordError) {
    return {
      kind: 'permanent',
      code: 'CorruptRecordError',
      reach: 'event',
      fix: "the question's stored record cannot be read: see the log line naming its record and field",
    };
  }
  return undefined;
}

/** Whether a failure means the store cannot be reached right now (a surface answers "try again in a moment"). */
export function isStoreUnavailable(error: unknown): boolean {
  return error instanceof StoreUnavailableError;
}
