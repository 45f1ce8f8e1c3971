/**
 * Reminders of blocking questions: when one falls due, and what a chat surface is told to send. Pure.
 *
 * The rule: a pending blocking question's waiting time is cut into slots of `afterMs`; slot `n` (1 ≤ n ≤ `times`)
 * begins `n × afterMs` after it was parked. A reminder is due when the question has reached a slot later than the
 * one its last reminder was sent in, and fewer than `times` were sent. So reminders come one per slot, spaced by
 * `afterMs`, at most `times`, and never for a question that stopped being pending.
 *
 * Several slots overdue at once (no replica swept for a while): one reminder is sent, the next ordinal, and it
 * counts as sent in the latest slot reached, so the slots that passed unseen are skipped rather than sent in a
 * burst. E.g. `times` 2 and a serve that comes back 70 minutes after a question was parked with `afterMs` 30
 * minutes: one reminder now, none later.
 */
import type { Question } from './question.js';

/** How a project's blocking questions are reminded (`src/config/routing.ts` resolves it per project). */
export interface ReminderSchedule {
  /** The slot length in ms; 0: no reminders. */
  readonly afterMs: number;
  /** At most this many reminders per question; 0: none. */
  readonly times: number;
}

/** One reminder as a surface sends it, in the thread of (or in reply to) one copy of the question. */
export interface Reminder {
  /** 1 for the question's first reminder. Stable across redeliveries of the same reminder. */
  readonly ordinal: number;
  /** How long the question had waited when the reminder was recorded. */
  readonly waitedMs: number;
  /** The platform's user ids the reminder mentions (the route's owners); empty: it mentions no one. */
  readonly owners: readonly string[];
}

type Reminded = Pick<Question, 'status' | 'isBlocking' | 'createdAt' | 'reminders' | 'remindedAt'>;

/** The ordinal of the reminder due for `question` at `now` (the one to record with `Store.remind`), if any. */
export function dueReminder(question: Reminded, schedule: ReminderSchedule, now: number): number | undefined {
  if (question.status !== 'pending' || !question.isBlocking) return undefined;
  const { afterMs, times } = schedule;
  if (!(afterMs > 0) || !(times > 0)) return undefined;
  const sent = question.reminders ?? 0;
  if (sent >= times) return undefined;
  const slot = (at: number) => Math.min(times, Math.floor((at - question.createdAt) / afterMs));
  // The slot the last reminder went out in; never below the count sent (one reminder per slot).
  const lastSlot =
    sent === 0 ? 0 : Math.max(sent, question.remindedAt === undefined ? sent : slot(question.remindedAt));
  return slot(now) > lastSlot ? sent + 1 : undefined;
}
