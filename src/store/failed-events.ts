/**
 * Failed-event records as both adapters store them: one JSON object per event (ids, type, counts, a short error
 * code; never text), read back by hand. A record that does not read is left out of listings and replays.
 */
import { EVENT_TYPES, type EventType, type FailedEvent, type StoreEvent } from './port.js';

/** The stored form (the group and the event id are the record's keys). */
export interface FailedRecord {
  readonly type: EventType;
  readonly project: string;
  readonly questionId: number;
  readonly at: number;
  readonly attempts: number;
  readonly error: string;
  readonly failedAt: number;
}

/** Error codes are short and plain: anything else is cut to this, so no message text is ever kept. */
const ERROR_MAX = 80;

export function failedRecord(
  event: StoreEvent,
  failure: { attempts: number; error: string },
  now: number,
): FailedRecord {
  return {
    type: event.type,
    project: event.project,
    questionId: event.questionId,
    at: event.at,
    attempts: failure.attempts,
    error: failure.error.replace(/[^\w .:()-]/g, '').slice(0, ERROR_MAX) || 'error',
    failedAt: now,
  };
}

/** A stored record as the port's FailedEvent, or undefined when it does not read. */
export function readFailedRecord(group: string, eventId: string, value: unknown): FailedEvent | undefined {
  let o: Record<string, unknown>;
  try {
    const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
    o = parsed as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const { type, project, questionId, at, attempts, error, failedAt } = o;
  if (
    typeof type !== 'string' ||
    !(EVENT_TYPES as readonly string[]).includes(type) ||
    typeof project !== 'string' ||
    !Number.isSafeInteger(questionId) ||
    !Number.isSafeInteger(at) ||
    !Number.isSafeInteger(attempts) ||
    typeof error !== 'string' ||
    !Number.isSafeInteger(failedAt)
  ) {
    return undefined;
  }
  return {
    group,
    event: { eventId, type: type as EventType, project, questionId: questionId as number, at: at as number },
    attempts: attempts as number,
    error,
    failedAt: failedAt as number,
  };
}

/** Newest first, at most `count`. */
export function newestFirst(events: readonly FailedEvent[], count: number): FailedEvent[] {
  return [...events].sort((a, b) => b.failedAt - a.failedAt).slice(0, count);
}
