/**
 * Reminders of blocking questions, decided by the sweep (`sweep.ts`, one replica at a time under its lease) and sent
 * by the bridge: for every known project whose route reminds, each pending blocking question with a reminder due
 * (`core/reminder.ts`) gets it recorded with `store.remind`, which appends a `reminded` event; the bridge turns that
 * event into a message in each copy's thread. The store records each ordinal once and only while the question is
 * pending, so two replicas deciding at once (a lease that lapsed under a paused holder) still send each reminder
 * once, and a question answered meanwhile gets none.
 */
import type { Logger } from '../core/logger.js';
import { dueReminder, type ReminderSchedule } from '../core/reminder.js';
import type { Store } from '../store/port.js';

export interface RemindOptions {
  readonly store: Store;
  /** Each project's schedule (serve: the routing table's `remindersFor`). */
  readonly remindersFor: (project: string) => ReminderSchedule;
  /** The clock reminders are due by (the store's own clock in tests). */
  readonly now: () => number;
  readonly logger?: Logger;
}

export interface RemindSummary {
  /** Reminders recorded by this run. */
  readonly reminded: number;
  /** Reminders another run recorded first, or refused because the question closed meanwhile. */
  readonly skipped: number;
}

/** Record every reminder due now, at most one per question. Safe to run twice, and in two replicas at once. */
export async function remindDue(options: RemindOptions): Promise<RemindSummary> {
  const { store, remindersFor, now } = options;
  let reminded = 0;
  let skipped = 0;
  for (const project of await store.knownProjects()) {
    const schedule = remindersFor(project);
    if (!(schedule.afterMs > 0) || !(schedule.times > 0)) continue; // this project's route never reminds
    for (const question of await store.list(project, { status: ['pending'], blocking: true })) {
      const ordinal = dueReminder(question, schedule, now());
      if (ordinal === undefined) continue;
      const result = await store.remind(project, question.id, ordinal);
      if (result.kind === 'reminded') {
        reminded++;
        options.logger?.info(
          { questionId: question.id, ordinal, waitedMs: now() - question.createdAt },
          'serve: reminder recorded',
        );
      } else {
        skipped++;
      }
    }
  }
  return { reminded, skipped };
}
