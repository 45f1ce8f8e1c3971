/**
 * A reminder of a blocking question as a Slack thread reply under its message. One line, no question text (the
 * question is the thread's parent): the route's owners mentioned by user id (`<@U…>`), then how long it has waited.
 * No owners: no mention, just the line. Never `<!here>` / `<!channel>`: a reminder notifies its owners, or no one
 * beyond the thread's followers.
 */
import { formatDuration } from '../../core/duration.js';
import type { Question } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import type { Reminder } from '../../core/reminder.js';
import { assertSlackReminder } from './limits.js';
import type { SlackReminderMessage } from './types.js';

/** The metadata event type of a reminder reply. */
export const REMINDER_EVENT_TYPE = 'ask_later_reminder';

/** A Slack user id (`U…`, Enterprise Grid `W…`): anything else is left out rather than written into a mention. */
const SLACK_USER_ID = /^[UW][A-Z0-9]{2,}$/;

export function renderReminder(question: Pick<Question, 'project' | 'id'>, reminder: Reminder): SlackReminderMessage {
  const mentions = [...new Set(reminder.owners)].filter((id) => SLACK_USER_ID.test(id)).map((id) => `<@${id}>`);
  const line = `⏰ Reminder: this blocking question has waited ${formatDuration(reminder.waitedMs)}.`;
  const message: SlackReminderMessage = {
    text: mentions.length > 0 ? `${mentions.join(' ')} ${line}` : line,
    metadata: {
      event_type: REMINDER_EVENT_TYPE,
      event_payload: { ref: formatQuestionRef(question.project, question.id), ordinal: reminder.ordinal },
    },
  };
  assertSlackReminder(message);
  return message;
}
