/**
 * How this process handles Slack's Web API failing, with nock standing in for slack.com (lighter than a local fake
 * server for scripted failures): 429 with Retry-After, 5xx, a reset connection and a time-out, for the surface the
 * bridge posts through; a 429 storm on Slack while the bridge keeps Discord on time; and doctor's checks.
 */
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkSlack } from '../../../src/commands/doctor/slack.js';
import type { Question } from '../../../src/core/question.js';
import { Bridge } from '../../../src/serve/bridge/bridge.js';
import type { RedisStore } from '../../../src/store/redis/redis-store.js';
import { SlackSurface } from '../../../src/surfaces/slack/surface.js';
import { createWebClient } from '../../../src/surfaces/slack/web.js';
import { openTestStore, spec, uniqueProject } from '../../support/store.js';
import { RecordingSurface } from '../recording-surface.js';
import { RecordingLogger } from './harness.js';

const SLACK = 'https://slack.com';
const CHANNEL = 'CFAIL';

let store: RedisStore;
beforeAll(async () => {
  store = await openTestStore();
  // Only slack.com is intercepted; the tests' Redis (loopback) goes through.
  nock.disableNetConnect();
  nock.enableNetConnect(/127\.0\.0\.1|localhost/);
});
afterAll(async () => {
  nock.enableNetConnect();
  await store.close();
});
afterEach(() => {
  nock.cleanAll();
});

function surface(options: { retries?: number; timeoutMs?: number } = {}) {
  const client = createWebClient({
    token: 'xoxb-test',
    retryConfig: { retries: options.retries ?? 3, factor: 1, minTimeout: 5, maxTimeout: 10 },
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  return new SlackSurface({ client, channel: CHANNEL });
}

async function question(): Promise<Question> {
  return store.park(uniqueProject('slack-failures'), spec());
}

const posted = { ok: true, channel: CHANNEL, ts: '1700000000.000100' };

describe('the Slack surface when the Web API fails', () => {
  it('GIVEN a 429 with Retry-After THEN the post waits and is retried, and lands once', async () => {
    const api = nock(SLACK)
      .post('/api/chat.postMessage')
      .reply(429, { ok: false, error: 'ratelimited' }, { 'Retry-After': '1' })
      .post('/api/chat.postMessage')
      .reply(200, posted);
    const ref = await surface().post(await question(), CHANNEL, { maybePostedBefore: false });
    expect(ref).toEqual({ platform: 'slack', channel: CHANNEL, messageId: posted.ts });
    expect(api.isDone()).toBe(true);
  });

  it.each([
    ['a 503', (scope: nock.Scope) => scope.post('/api/chat.postMessage').reply(503, 'unavailable')],
    [
      'a reset connection',
      (scope: nock.Scope) =>
        scope
          .post('/api/chat.postMessage')
          .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })),
    ],
  ])('GIVEN %s THEN the post is retried and lands once', async (_what, fail) => {
    const api = fail(nock(SLACK)).post('/api/chat.postMessage').reply(200, posted);
    const ref = await surface().post(await question(), CHANNEL, { maybePostedBefore: false });
    expect(ref.messageId).toBe(posted.ts);
    expect(api.isDone()).toBe(true);
  });

  it.each([
    [
      'a channel refusal',
      () => nock(SLACK).post('/api/chat.postMessage').reply(200, { ok: false, error: 'channel_not_found' }),
      { kind: 'permanent', code: 'channel_not_found', reach: 'channel' },
    ],
    [
      'the app not in the channel',
      () => nock(SLACK).post('/api/chat.postMessage').reply(200, { ok: false, error: 'not_in_channel' }),
      { kind: 'permanent', code: 'not_in_channel', reach: 'channel', fix: expect.stringMatching(/^invite the app/) },
    ],
    [
      'a revoked token',
      () => nock(SLACK).post('/api/chat.postMessage').reply(200, { ok: false, error: 'token_revoked' }),
      { kind: 'permanent', code: 'token_revoked', reach: 'platform', fix: expect.stringMatching(/revoked/) },
    ],
    [
      'a missing scope',
      () => nock(SLACK).post('/api/chat.postMessage').reply(200, { ok: false, error: 'missing_scope' }),
      { kind: 'permanent', code: 'missing_scope', reach: 'platform' },
    ],
    [
      'an archived channel',
      () => nock(SLACK).post('/api/chat.postMessage').reply(200, { ok: false, error: 'is_archived' }),
      { kind: 'permanent', code: 'is_archived', reach: 'channel' },
    ],
    [
      "Slack's own trouble",
      () => nock(SLACK).post('/api/chat.postMessage').reply(200, { ok: false, error: 'internal_error' }),
      { kind: 'transient', code: 'internal_error' },
    ],
    [
      'a 500 every time',
      () => nock(SLACK).post('/api/chat.postMessage').times(2).reply(500, 'boom'),
      { kind: 'transient', code: 'HTTP 500' },
    ],
  ])('GIVEN %s THEN the post fails, classified as the bridge acts on it', async (_what, arrange, expected) => {
    arrange();
    const target = surface({ retries: 1 });
    const error = await target.post(await question(), CHANNEL, { maybePostedBefore: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(target.classifyFailure(error)).toMatchObject(expected);
  });

  it('GIVEN Slack never answering THEN the post gives up at its time-out', async () => {
    nock(SLACK).post('/api/chat.postMessage').delay(2000).reply(200, posted);
    const target = surface({ retries: 0, timeoutMs: 200 });
    const error = await target.post(await question(), CHANNEL, { maybePostedBefore: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(target.classifyFailure(error)).toMatchObject({ kind: 'transient', code: expect.stringMatching(/\w/) });
  });
});

describe('a 429 storm on Slack', () => {
  it('GIVEN Slack answering every post with 429 THEN Discord gets every question while Slack is still waiting', async () => {
    let slackCalls = 0;
    nock(SLACK)
      .persist()
      .post('/api/chat.postMessage')
      .reply(() => {
        slackCalls++;
        return [429, { ok: false, error: 'ratelimited' }, { 'Retry-After': '1' }];
      });
    const discord = new RecordingSurface('discord', () => ['D-team']);
    const slack = surface({ retries: 5 });
    const routed = {
      platform: slack.platform,
      channelsFor: () => [CHANNEL],
      post: slack.post.bind(slack),
      update: slack.update.bind(slack),
    };
    const bridge = new Bridge({
      store,
      surfaces: [routed, discord],
      consumerName: `storm-${Date.now()}`,
      group: `storm-${Date.now()}`,
      blockMs: 50,
      retryBaseMs: 5,
      logger: new RecordingLogger(),
    });
    await bridge.start();
    try {
      const project = uniqueProject('storm');
      for (let i = 0; i < 5; i++) await store.park(project, spec());
      await vi.waitFor(() => expect(discord.posts.filter((p) => p.question.project === project)).toHaveLength(5));
      // Slack has been asked, and has not let a single post through.
      expect(slackCalls).toBeGreaterThanOrEqual(1);
      expect((await store.list(project)).every((q) => !q.messages.some((m) => m.platform === 'slack'))).toBe(true);
    } finally {
      nock.abortPendingRequests();
      nock.cleanAll();
      await bridge.stop();
    }
  });
});

describe('doctor’s Slack checks', () => {
  const config = { botToken: 'xoxb-test', channel: CHANNEL, allowedUsers: [] };

  it('GIVEN auth.test rate-limited THEN one ✗ naming the code, no token in it', async () => {
    nock(SLACK).post('/api/auth.test').reply(429, { ok: false, error: 'ratelimited' }, { 'Retry-After': '30' });
    const lines = await checkSlack(config, [CHANNEL], 1000);
    expect(lines).toEqual([
      { status: 'fail', text: 'Slack: auth.test failed (ratelimited) — check SLACK_BOT_TOKEN and slack.com' },
    ]);
  });

  it('GIVEN a reset connection THEN ✗ says the Web API did not answer', async () => {
    nock(SLACK)
      .post('/api/auth.test')
      .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    const [line] = await checkSlack(config, [CHANNEL], 1000);
    expect(line?.status).toBe('fail');
    expect(line?.text).toMatch(
      /^Slack: no answer from the Web API at slack\.com \(.+\) — check the network, proxy or SLACK_API_URL$/,
    );
  });

  it('GIVEN a Slack that never answers THEN doctor gives up within its time-out', async () => {
    nock(SLACK).post('/api/auth.test').delay(5000).reply(200, { ok: true });
    const [line] = await checkSlack(config, [CHANNEL], 200);
    expect(line?.status).toBe('fail');
    expect(line?.text).toMatch(/^Slack: no answer from the Web API at slack\.com/);
  });
});
