/**
 * A reminder of a blocking question as a Discord reply to its message. One line, no question text (the reply shows
 * the question it answers): the route's owners mentioned as `<@id>`, then how long it has waited. No owners: no
 * mention, just the line. The reply pings exactly the owners (`allowed_mentions.users`), never the channel, a role,
 * or the message's author; a copy someone deleted still gets the reminder, as a plain message.
 */
import { formatDuration } from '../../core/duration.js';
import type { Reminder } from '../../core/reminder.js';
import { assertDiscordReminder } from './limits.js';
import type { DiscordReminder } from './types.js';

/** A Discord user id: anything else is left out rather than written into a mention. */
const SNOWFLAKE = /^\d{17,20}$/;

/** The config allows 50 owners; 50 mentions (24 characters each at most) leave the 2000 room for the line. */
const OWNERS_SHOWN_MAX = 50;

/** The reminder replying to the question message `messageId`. */
export function renderReminder(reminder: Reminder, messageId: string): DiscordReminder {
  const owners = [...new Set(reminder.owners)].filter((id) => SNOWFLAKE.test(id)).slice(0, OWNERS_SHOWN_MAX);
  const line = `⏰ Reminder: this blocking question has waited ${formatDuration(reminder.waitedMs)}.`;
  const message: DiscordReminder = {
    content: owners.length > 0 ? `${owners.map((id) => `<@${id}>`).join(' ')} ${line}` : line,
    allowed_mentions: { parse: [], users: owners, replied_user: false },
    message_reference: { message_id: messageId, fail_if_not_exists: false },
  };
  assertDiscordReminder(message);
  return message;
}
