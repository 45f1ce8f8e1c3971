import { afterEach, describe, expect, it } from 'vitest';
import { createDiscordRest } from '../../../src/surfaces/discord/rest.js';
import { DiscordSurface, questionNonce } from '../../../src/surfaces/discord/surface.js';
import { FakeDiscord } from '../../fakes/discord.js';
import { isChat } from '../../support/messages.js';
import { openTestStore, spec, uniqueProject } from '../../support/store.js';
import { type DiscordHarness, RecordingLogger, startDiscordHarness } from './harness.js';

const open: { stop: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.stop();
});

async function fakeAndSurface() {
  const discord = await new FakeDiscord().start();
  open.push(discord);
  const store = await openTestStore();
  open.push({ stop: () => store.close() });
  const logger = new RecordingLogger();
  const surface = new DiscordSurface({
    rest: createDiscordRest({ token: discord.token, apiUrl: discord.apiUrl, retries: 0 }),
    channel: discord.channelId,
    botUserId: () => discord.botUserId,
    logger,
  });
  return { discord, store, surface, logger };
}

describe('DiscordSurface', () => {
  it('GIVEN the same question created twice (a retry after a crash) THEN both creates carry the same nonce and Discord keeps one message', async () => {
    const { discord, store, surface } = await fakeAndSurface();
    const question = await store.park(uniqueProject(), spec());
    const a = await surface.post(question, discord.channelId, { maybePostedBefore: false });
    const b = await surface.post(question, discord.channelId, { maybePostedBefore: false });
    const creates = discord.creates();
    expect(creates).toHaveLength(2);
    const nonces = creates.map((c) => (c.body as Record<string, unknown>).nonce);
    expect(nonces).toEqual([questionNonce(question), questionNonce(question)]);
    expect(creates.every((c) => (c.body as Record<string, unknown>).enforce_nonce === true)).toBe(true);
    expect(questionNonce(question).length).toBeLessThanOrEqual(25);
    expect(b).toEqual(a);
    expect(discord.messages.size).toBe(1);

    // Another question (or the same id in another project) gets another nonce.
    const other = await store.park(question.project, spec());
    expect(questionNonce(other)).not.toBe(questionNonce(question));
  });

  it('GIVEN a post that may have happened before THEN the earlier message is found in the channel history and not posted again', async () => {
    const { discord, store, surface } = await fakeAndSurface();
    const question = await store.park(uniqueProject(), spec());
    const first = await surface.post(question, discord.channelId, { maybePostedBefore: false });
    const again = await surface.post(question, discord.channelId, { maybePostedBefore: true });
    expect(again).toEqual(first);
    expect(discord.creates()).toHaveLength(1);
    expect(discord.callsOf('GET', /^\/channels\/\d+\/messages$/)).toHaveLength(1);
  });

  it('GIVEN a deleted message THEN the redraw is logged and not retried', async () => {
    const { discord, store, surface, logger } = await fakeAndSurface();
    const question = await store.park(uniqueProject(), spec());
    const ref = await surface.post(question, discord.channelId, { maybePostedBefore: false });
    discord.messages.delete(ref.messageId);
    await expect(surface.update(question, ref)).resolves.toBeUndefined();
    expect(logger.lines.some((l) => l.message.includes('gone') && l.fields.code === 10008)).toBe(true);
  });

  it('GIVEN a 500 on redraw THEN the update throws (the bridge retries)', async () => {
    const { discord, store, surface } = await fakeAndSurface();
    const question = await store.park(uniqueProject(), spec());
    const ref = await surface.post(question, discord.channelId, { maybePostedBefore: false });
    discord.fail('PATCH /channels/:id/messages/:id', { status: 500 });
    await expect(surface.update(question, ref)).rejects.toThrow();
  });
});

describe('Discord failures, classified', () => {
  it.each([
    [
      'a 401 (the token)',
      { status: 401 as const, code: 0 },
      { kind: 'permanent', code: 'HTTP 401 (0)', reach: 'platform' },
    ],
    [
      'Missing Access',
      { status: 403 as const, code: 50001 },
      { kind: 'permanent', code: 'HTTP 403 (50001)', reach: 'channel' },
    ],
    [
      'Missing Permissions',
      { status: 403 as const, code: 50013 },
      { kind: 'permanent', code: 'HTTP 403 (50013)', reach: 'channel' },
    ],
    [
      'Unknown Channel',
      { status: 404 as const, code: 10003 },
      { kind: 'permanent', code: 'HTTP 404 (10003)', reach: 'channel' },
    ],
    [
      'Invalid Form Body',
      { status: 400 as const, code: 50035 },
      { kind: 'permanent', code: 'HTTP 400 (50035)', reach: 'event' },
    ],
    ['a 500', { status: 500 as const }, { kind: 'transient', code: 'HTTP 500' }],
  ])('GIVEN %s on a post THEN it is classified as the bridge acts on it, with a fix when permanent', async (_what, failure, expected) => {
    const { discord, store, surface } = await fakeAndSurface();
    const question = await store.park(uniqueProject(), spec());
    discord.fail('POST /channels/:id/messages', failure);
    const error = await surface
      .post(question, discord.channelId, { maybePostedBefore: false })
      .catch((e: unknown) => e);
    const classified = surface.classifyFailure(error);
    expect(classified).toMatchObject(expected);
    expect(classified.kind === 'transient' || /\w/.test(classified.fix)).toBe(true);
  });
});

describe('Discord posting across a crash', () => {
  it('GIVEN the answer to a create is lost (the bridge cannot know it posted) THEN the retry finds the first message: one message, recorded', async () => {
    const harnesses: DiscordHarness[] = [];
    const discord = await new FakeDiscord().start();
    discord.fail('POST /channels/:id/messages', { status: 'lost' });
    const h = await startDiscordHarness({ fake: {}, existing: discord });
    harnesses.push(h);
    open.push(h);
    const project = uniqueProject();
    const question = await h.store.park(project, spec());
    await expect
      .poll(async () => (await h.store.get(project, question.id))?.messages.filter(isChat).length ?? 0)
      .toBe(1);
    expect(h.discord.messages.size).toBe(1);
    const [only] = [...h.discord.messages.keys()];
    expect((await h.store.get(project, question.id))?.messages.filter(isChat)[0]?.messageId).toBe(only);
    const nonces = h.discord.creates().map((c) => (c.body as Record<string, unknown>).nonce);
    expect(new Set(nonces).size).toBe(1);
  });
});
