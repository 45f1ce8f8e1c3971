import { describe, expect, it } from 'vitest';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { assertSlackReminder } from '../../../src/render/slack/limits.js';
import { renderReminder } from '../../../src/render/slack/reminder.js';
import { SlackPayloadError } from '../../../src/render/slack/slack-payload-error.js';

const question = { project: '/home/ada/src/shop', id: 7 };
const MIN = 60_000;

describe('the Slack reminder', () => {
  it('GIVEN owners THEN one line mentioning each owner by id, then how long it waited; no question text', () => {
    const message = renderReminder(question, { ordinal: 2, waitedMs: 45 * MIN, owners: ['U0ANA', 'W0BO', 'U0ANA'] });
    expect(message.text).toBe('<@U0ANA> <@W0BO> ⏰ Reminder: this blocking question has waited 45 min.');
    expect(message.metadata).toEqual({
      event_type: 'ask_later_reminder',
      event_payload: { ref: formatQuestionRef(question.project, question.id), ordinal: 2 },
    });
  });

  it('GIVEN no owners THEN no mention, just the reminder', () => {
    const message = renderReminder(question, { ordinal: 1, waitedMs: 65 * MIN, owners: [] });
    expect(message.text).toBe('⏰ Reminder: this blocking question has waited 1 h 5 min.');
  });

  it('GIVEN an owner that is not a user id THEN it is left out rather than written into a mention', () => {
    const message = renderReminder(question, { ordinal: 1, waitedMs: 30 * MIN, owners: ['!here', 'U0ANA', 'C0CHAN'] });
    expect(message.text).toBe('<@U0ANA> ⏰ Reminder: this blocking question has waited 30 min.');
  });

  it.each([
    '<!here> hi',
    '<!channel> hi',
    '<!subteam^S0TEAM> hi',
    '@everyone hi',
  ])('GIVEN a reminder text with %j THEN the check refuses it (noBroadcast)', (text) => {
    const reminder = renderReminder(question, { ordinal: 1, waitedMs: MIN, owners: [] });
    expect(() => assertSlackReminder({ ...reminder, text })).toThrow(SlackPayloadError);
    expect(() => assertSlackReminder({ ...reminder, text })).toThrow(/noBroadcast/);
  });
});
