import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SlackMembership } from '../../../src/surfaces/slack/membership.js';
import { createWebClient } from '../../../src/surfaces/slack/web.js';
import { FakeSlackApi } from '../../fakes/slack-api.js';
import { RecordingLogger } from './harness.js';

const ANA = { platform: 'slack' as const, userId: 'UANA', displayName: 'ana' };

let slack: FakeSlackApi;
let now: number;
let logger: RecordingLogger;

function membership(options: { ttlMs?: number; refreshMs?: number } = {}) {
  const client = createWebClient({ token: 'xoxb-test', apiUrl: slack.url, retryConfig: { retries: 0 } });
  return new SlackMembership({ client, logger, now: () => now, ...options });
}

const asks = () => slack.callsOf('users.conversations').length;

beforeEach(async () => {
  slack = await new FakeSlackApi().start();
  slack.channelMembers.set('CONE', ['UANA']);
  slack.channelMembers.set('CTWO', ['UBOB']);
  now = 1_000_000;
  logger = new RecordingLogger();
});
afterEach(async () => {
  await slack.stop();
});

describe('SlackMembership', () => {
  it('GIVEN a person THEN their public and private channels are asked for with their id, once per time-to-live', async () => {
    const m = membership({ ttlMs: 60_000 });
    expect([...(await m.channelsOf(ANA))]).toEqual(['CONE']);
    const call = slack.callsOf('users.conversations')[0];
    expect(call?.body).toMatchObject({
      user: 'UANA',
      types: 'public_channel,private_channel',
      exclude_archived: 'true',
    });

    now += 59_000;
    await m.channelsOf(ANA);
    expect(asks()).toBe(1);
    now += 1_000;
    await m.channelsOf(ANA);
    expect(asks()).toBe(2);
  });

  it('GIVEN a cached "not a member" WHEN asked fresh THEN Slack is asked again, at most once per refresh interval', async () => {
    const m = membership({ refreshMs: 10_000 });
    expect((await m.channelsOf(ANA)).has('CTWO')).toBe(false);
    slack.channelMembers.set('CTWO', ['UBOB', 'UANA']); // Ana joins
    expect((await m.channelsOf(ANA, { fresh: true })).has('CTWO')).toBe(false); // too soon: the cache answers
    expect(asks()).toBe(1);
    now += 10_000;
    expect((await m.channelsOf(ANA, { fresh: true })).has('CTWO')).toBe(true);
    expect(asks()).toBe(2);
  });

  it('GIVEN ten concurrent asks for one person THEN one request is made', async () => {
    const m = membership();
    const answers = await Promise.all(Array.from({ length: 10 }, () => m.channelsOf(ANA)));
    expect(answers.every((a) => a.has('CONE'))).toBe(true);
    expect(asks()).toBe(1);
  });

  it('GIVEN a Slack that refuses (missing_scope) THEN no channels, one warning with the code, and no text', async () => {
    slack.fail('users.conversations', { status: 200, error: 'missing_scope' });
    const m = membership();
    expect((await m.channelsOf(ANA)).size).toBe(0);
    expect(logger.lines.filter((l) => l.level === 'warn')).toEqual([
      expect.objectContaining({ fields: expect.objectContaining({ user: 'UANA', slackError: 'missing_scope' }) }),
    ]);
  });

  it('GIVEN more channels than one page THEN every page is read', async () => {
    for (let i = 0; i < 3; i++) slack.channelMembers.set(`CPAGE${i}`, ['UANA']);
    slack.pageSize = 2;
    const m = membership();
    expect([...(await m.channelsOf(ANA))].sort()).toEqual(['CONE', 'CPAGE0', 'CPAGE1', 'CPAGE2']);
    expect(asks()).toBe(2);
  });

  it('GIVEN a person of another platform THEN no channels and no request', async () => {
    const m = membership();
    expect((await m.channelsOf({ ...ANA, platform: 'discord' })).size).toBe(0);
    expect(asks()).toBe(0);
  });
});
