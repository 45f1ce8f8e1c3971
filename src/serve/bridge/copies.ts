/**
 * One surface's copies of one event's question brought up to date (the bridge's unit of work): posted where routed
 * and not posted yet, redrawn where posted, a reminder sent next to each copy. Safe to run twice for an event.
 */
import type { MessageRef, Question } from '../../core/question.js';
import type { Reminder } from '../../core/reminder.js';
import type { Store, StoreEvent } from '../../store/port.js';
import type { Surface } from '../../surfaces/surface.js';
import type { BridgeMetrics } from './metrics.js';
import type { ReminderOwners } from './options.js';

/** Where a surface's calls for one event went: the channel of the call in hand, the channels posted to. */
export interface Touched {
  channel?: string;
  readonly posted: string[];
}

/**
 * Bring one surface's copies of the event's question up to date: post it where it is routed and has no copy on
 * this surface yet, redraw the copies it has; for a `reminded` event, send the reminder next to each copy instead
 * of redrawing (nothing on the question's message changed). Safe to run twice for the same event.
 */
export async function bringUpToDate(
  store: Store,
  surface: Surface,
  event: StoreEvent,
  maybePostedBefore: boolean,
  metrics?: BridgeMetrics,
  reminderOwners?: ReminderOwners,
  touched: Touched = { posted: [] },
): Promise<void> {
  const question = await store.get(event.project, event.questionId);
  if (!question) return; // purged: nothing left to show

  const posted: MessageRef[] = [];
  for (const channel of surface.channelsFor(question.project)) {
    if (question.messages.some((m) => m.platform === surface.platform && m.channel === channel)) continue;
    touched.channel = channel;
    const ref = await surface.post(question, channel, { maybePostedBefore });
    touched.posted.push(channel);
    metrics?.posted(surface.platform);
    await store.recordMessage(question.project, question.id, ref);
    posted.push(ref);
  }
  if (posted.length > 0) {
    // It may have moved on while we posted; the event for that move may have seen no copy to redraw.
    const now = await store.get(question.project, question.id);
    if (now && changed(question, now)) for (const ref of posted) await redraw(surface, now, ref, metrics, touched);
  }
  if (event.type === 'reminded') {
    const copies = [...question.messages.filter((ref) => ref.platform === surface.platform), ...posted];
    await sendReminder(surface, question, event, copies, { maybePostedBefore, metrics, reminderOwners, touched });
    return;
  }
  if (event.type !== 'parked' || question.status !== 'pending') {
    for (const ref of question.messages) {
      if (ref.platform === surface.platform) await redraw(surface, question, ref, metrics, touched);
    }
  }
}

async function redraw(
  surface: Surface,
  question: Question,
  ref: MessageRef,
  metrics: BridgeMetrics | undefined,
  touched: Touched,
): Promise<void> {
  touched.channel = ref.channel;
  await surface.update(question, ref);
  metrics?.redrawn(surface.platform);
}

/**
 * Send the reminder a `reminded` event records next to each of the surface's copies. Nothing when the question
 * closed since (no reminder after an answer) or a later reminder was recorded (its own event sends that one: a
 * stale event redelivered late must not send the newer reminder twice).
 */
async function sendReminder(
  surface: Surface,
  question: Question,
  event: StoreEvent,
  copies: readonly MessageRef[],
  o: {
    maybePostedBefore: boolean;
    metrics?: BridgeMetrics | undefined;
    reminderOwners?: ReminderOwners | undefined;
    touched: Touched;
  },
): Promise<void> {
  if (!surface.remind || question.status !== 'pending') return;
  if (question.remindedAt !== undefined && event.at < question.remindedAt) return;
  const reminder: Reminder = {
    ordinal: question.reminders ?? 1,
    waitedMs: Math.max(0, event.at - question.createdAt),
    owners: o.reminderOwners?.(surface.platform, question.project) ?? [],
  };
  for (const ref of copies) {
    o.touched.channel = ref.channel;
    await surface.remind(question, ref, reminder, { maybePostedBefore: o.maybePostedBefore });
    o.metrics?.reminded(surface.platform);
  }
}

function changed(before: Question, after: Question): boolean {
  return before.status !== after.status || before.deliveredAt !== after.deliveredAt;
}
