import { describe, expect, it } from 'vitest';
import { DiscordPayloadError } from '../../../src/render/discord/discord-payload-error.js';
import { assertDiscordReminder } from '../../../src/render/discord/limits.js';
import { renderReminder } from '../../../src/render/discord/reminder.js';
import type { DiscordReminder } from '../../../src/render/discord/types.js';

const MESSAGE = '1300000000000000001';
const ANA = '1400000000000000001';
const BO = '1400000000000000002';
const MIN = 60_000;

describe('the Discord reminder', () => {
  it('GIVEN owners THEN a reply mentioning each owner, pinging exactly them and not the replied-to author', () => {
    const reminder = renderReminder({ ordinal: 1, waitedMs: 45 * MIN, owners: [ANA, BO, ANA] }, MESSAGE);
    expect(reminder).toEqual({
      content: `<@${ANA}> <@${BO}> ⏰ Reminder: this blocking question has waited 45 min.`,
      allowed_mentions: { parse: [], users: [ANA, BO], replied_user: false },
      message_reference: { message_id: MESSAGE, fail_if_not_exists: false },
    });
  });

  it('GIVEN no owners THEN no mention and no one pinged, just the reminder', () => {
    const reminder = renderReminder({ ordinal: 2, waitedMs: 2 * 60 * MIN, owners: [] }, MESSAGE);
    expect(reminder.content).toBe('⏰ Reminder: this blocking question has waited 2 h.');
    expect(reminder.allowed_mentions).toEqual({ parse: [], users: [], replied_user: false });
  });

  it('GIVEN 50 owners of 20 digits THEN the content fits 2000 characters', () => {
    const owners = Array.from({ length: 50 }, (_, i) => `${10_000_000_000_000_000_000n + BigInt(i)}`);
    const reminder = renderReminder({ ordinal: 1, waitedMs: 30 * MIN, owners }, MESSAGE);
    expect(reminder.allowed_mentions.users).toHaveLength(50);
    expect(reminder.content.length).toBeLessThanOrEqual(2000);
  });

  it.each<[string, (r: DiscordReminder) => DiscordReminder]>([
    ['a mention of someone not listed', (r) => ({ ...r, content: `<@${BO}> ${r.content}` })],
    ['a role mention', (r) => ({ ...r, content: `<@&${BO}> ${r.content}` })],
    ['@everyone', (r) => ({ ...r, content: `@everyone ${r.content}` })],
    ['parse: users', (r) => ({ ...r, allowed_mentions: { ...r.allowed_mentions, parse: ['users'] as unknown as [] } })],
    ['replied_user: true', (r) => ({ ...r, allowed_mentions: { ...r.allowed_mentions, replied_user: true as false } })],
  ])('GIVEN %s THEN the check refuses it (ownersOnly)', (_what, change) => {
    const reminder = change(renderReminder({ ordinal: 1, waitedMs: MIN, owners: [ANA] }, MESSAGE));
    expect(() => assertDiscordReminder(reminder)).toThrow(DiscordPayloadError);
    expect(() => assertDiscordReminder(reminder)).toThrow(/ownersOnly/);
  });
});
