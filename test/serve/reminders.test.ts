import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { MessageRef, Question } from '../../src/core/question.js';
import type { Reminder, ReminderSchedule } from '../../src/core/reminder.js';
import { Bridge } from '../../src/serve/bridge/bridge.js';
import { remindDue } from '../../src/serve/reminders.js';
import { startSweep } from '../../src/serve/sweep.js';
import type { Store, StoreEvent } from '../../src/store/port.js';
import { createDiscordRest } from '../../src/surfaces/discord/rest.js';
import { DiscordSurface, reminderNonce } from '../../src/surfaces/discord/surface.js';
import { SlackSurface } from '../../src/surfaces/slack/surface.js';
import { createWebClient } from '../../src/surfaces/slack/web.js';
import { FakeDiscord } from '../fakes/discord.js';
import { FakeSlackApi } from '../fakes/slack-api.js';
import { startReplica } from '../ops/support.js';
import {
  openSqliteTestStore,
  openTestStore,
  person,
  single,
  spec,
  type TestClock,
  testClock,
  uniquePrefix,
  uniqueProject,
} from '../support/store.js';
import { RecordingSurface } from '../surfaces/recording-surface.js';
import { RecordingLogger, TEST_RETRY } from '../surfaces/slack/harness.js';

const MIN = 60_000;
const SCHEDULE: ReminderSchedule = { afterMs: 30 * MIN, times: 2 };
const ANA = '1400000000000000001';
const BO = '1400000000000000002';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** Every `reminded` event of `project` the store holds, read through a group of the test's own. */
async function remindedEvents(store: Store, project: string): Promise<StoreEvent[]> {
  const consumer = await store.consumer(`test-${randomUUID()}`, 'reader');
  const events: StoreEvent[] = [];
  for (;;) {
    const batch = await consumer.read({ count: 100, blockMs: 0 });
    if (batch.length === 0) break;
    events.push(...batch);
  }
  await consumer.close();
  return events.filter((event) => event.type === 'reminded' && event.project === project);
}

const STORES: [string, (now: () => number) => Promise<Store>][] = [
  ['Redis', (now) => openTestStore({ now })],
  ['SQLite', (now) => openSqliteTestStore({ now })],
];

describe.each(STORES)('deciding reminders against %s', (_name, open) => {
  async function setup(schedule: ReminderSchedule = SCHEDULE) {
    const clock = testClock();
    const store = await open(clock.now);
    cleanup.push(() => store.close());
    const project = uniqueProject('remind');
    const run = () => remindDue({ store, remindersFor: () => schedule, now: clock.now });
    return { clock, store, project, run };
  }

  it('GIVEN a blocking question THEN its first reminder comes at remindAfter, the second at twice it, never a third', async () => {
    const { clock, store, project, run } = await setup();
    const question = await store.park(project, spec({ isBlocking: true }));

    clock.advance(30 * MIN - 1);
    expect(await run()).toEqual({ reminded: 0, skipped: 0 });
    clock.advance(1);
    expect(await run()).toEqual({ reminded: 1, skipped: 0 });
    expect(await store.get(project, question.id)).toMatchObject({ reminders: 1, remindedAt: clock.now() });
    expect(await run()).toEqual({ reminded: 0, skipped: 0 });

    clock.advance(30 * MIN - 1);
    expect(await run()).toEqual({ reminded: 0, skipped: 0 });
    clock.advance(1);
    expect(await run()).toEqual({ reminded: 1, skipped: 0 });

    clock.advance(10 * 30 * MIN);
    expect(await run()).toEqual({ reminded: 0, skipped: 0 });
    expect((await store.get(project, question.id))?.reminders).toBe(2);
    const events = await remindedEvents(store, project);
    expect(events.map((event) => [event.questionId, event.at - question.createdAt])).toEqual([
      [question.id, 30 * MIN],
      [question.id, 60 * MIN],
    ]);
  });

  it('GIVEN a question answered before its reminder THEN none, ever', async () => {
    const { clock, store, project, run } = await setup();
    const question = await store.park(project, spec({ isBlocking: true }));
    clock.advance(29 * MIN);
    await store.answer(project, question.id, { choices: ['SQLite'], other: false }, person());
    clock.advance(5 * 30 * MIN);
    expect(await run()).toEqual({ reminded: 0, skipped: 0 });
    expect((await store.get(project, question.id))?.reminders).toBeUndefined();
    expect(await remindedEvents(store, project)).toEqual([]);
  });

  it('GIVEN a can-wait question THEN never a reminder', async () => {
    const { clock, store, project, run } = await setup();
    const question = await store.park(project, spec({ isBlocking: false }));
    clock.advance(5 * 30 * MIN);
    expect(await run()).toEqual({ reminded: 0, skipped: 0 });
    expect((await store.get(project, question.id))?.reminders).toBeUndefined();
  });

  it('GIVEN a route with reminders off THEN never a reminder', async () => {
    const { clock, store, project, run } = await setup({ afterMs: 0, times: 2 });
    await store.park(project, spec({ isBlocking: true }));
    clock.advance(5 * 30 * MIN);
    expect(await run()).toEqual({ reminded: 0, skipped: 0 });
    expect(await remindedEvents(store, project)).toEqual([]);
  });

  it('GIVEN no sweep while both reminders fell due (serve was down) THEN one reminder now and none later', async () => {
    const { clock, store, project, run } = await setup();
    const question = await store.park(project, spec({ isBlocking: true }));
    clock.advance(70 * MIN);
    expect(await run()).toEqual({ reminded: 1, skipped: 0 });
    clock.advance(10 * 30 * MIN);
    expect(await run()).toEqual({ reminded: 0, skipped: 0 });
    expect((await store.get(project, question.id))?.reminders).toBe(1);
    expect(await remindedEvents(store, project)).toHaveLength(1);
  });

  it('GIVEN two replicas deciding at the same moment THEN each reminder is recorded once', async () => {
    const { clock, store, project, run } = await setup();
    await store.park(project, spec({ isBlocking: true }));
    await store.park(project, spec({ isBlocking: true }));
    clock.advance(30 * MIN);
    const first = await Promise.all([run(), run()]);
    expect(first.reduce((sum, summary) => sum + summary.reminded, 0)).toBe(2);
    clock.advance(30 * MIN);
    const second = await Promise.all([run(), run()]);
    expect(second.reduce((sum, summary) => sum + summary.reminded, 0)).toBe(2);
    const events = await remindedEvents(store, project);
    expect(events.map((event) => event.questionId).sort()).toEqual([1, 1, 2, 2]);
  });
});

describe('reminders in the sweep', () => {
  it('GIVEN two replicas sweeping one store THEN each reminder is sent once, and none after the answer', async () => {
    const clock = testClock(Date.now());
    const store = await openTestStore({ now: clock.now });
    cleanup.push(() => store.close());
    const logger = new RecordingLogger();
    const project = uniqueProject('sweep-remind');
    const replicas = ['replica-a', 'replica-b'].map((owner) =>
      startSweep({ store, owner, everyMs: 40, logger, now: clock.now, remindersFor: () => SCHEDULE }),
    );
    cleanup.push(async () => {
      for (const sweeper of replicas) await sweeper.stop();
    });
    const sweeps = () => logger.lines.filter((line) => line.message === 'serve: swept').length;
    /** Proof that nothing more happens: two more sweeps ran. */
    const twoMoreSweeps = async () => {
      const seen = sweeps();
      await expect.poll(sweeps).toBeGreaterThanOrEqual(seen + 2);
    };

    const blocking = await store.park(project, spec({ isBlocking: true }));
    const answered = await store.park(project, spec({ isBlocking: true }));
    await store.park(project, spec({ isBlocking: false }));

    clock.advance(30 * MIN);
    await expect.poll(async () => (await store.get(project, blocking.id))?.reminders).toBe(1);
    await expect.poll(async () => (await store.get(project, answered.id))?.reminders).toBe(1);
    await store.answer(project, answered.id, { choices: ['SQLite'], other: false }, person());
    await twoMoreSweeps();

    clock.advance(30 * MIN);
    await expect.poll(async () => (await store.get(project, blocking.id))?.reminders).toBe(2);
    clock.advance(5 * 30 * MIN);
    await twoMoreSweeps();

    const events = await remindedEvents(store, project);
    expect(events.map((event) => event.questionId)).toEqual([blocking.id, answered.id, blocking.id]);
    expect((await store.get(project, answered.id))?.reminders).toBe(1);
    expect(logger.lines.filter((line) => line.message === 'serve: reminder recorded')).toHaveLength(3);
  });
});

describe('reminders through serve', () => {
  const SLACK_CHANNEL = 'C0REMIND';

  async function serveWithReminders() {
    const clock: TestClock = testClock(Date.now());
    const slack = await new FakeSlackApi().start();
    cleanup.push(() => slack.stop());
    const discord = await new FakeDiscord().start();
    cleanup.push(() => discord.stop());
    const prefix = uniquePrefix();
    const store = await openTestStore({ prefix, now: clock.now });
    cleanup.push(() => store.close());
    const owned = uniqueProject('owned');
    const replica = await startReplica({
      prefix,
      slack,
      discord,
      routes: [
        {
          project: owned,
          slack: SLACK_CHANNEL,
          discord: discord.channelId,
          remindAfterMs: 30 * MIN,
          remindTimes: 2,
          owners: { slack: ['U0ANA', 'U0BO'], discord: [ANA, BO] },
        },
      ],
      deps: { store, sweepMs: 40, now: clock.now },
    });
    cleanup.push(() => replica.serve.stop());
    /** The question's copy on `platform`, once the bridge recorded it. */
    const copyOf = async (project: string, id: number, platform: 'slack' | 'discord') => {
      await expect
        .poll(async () => (await store.get(project, id))?.messages.some((m) => m.platform === platform))
        .toBe(true);
      const ref = (await store.get(project, id))?.messages.find((m) => m.platform === platform);
      if (!ref) throw new Error(`no ${platform} copy`);
      return ref;
    };
    /** Both surfaces handled the `reminded` event of question `id` this many times. */
    const handled = (id: number) =>
      replica.logger.lines.filter(
        (line) =>
          line.message === 'bridge: event handled' &&
          line.fields.event === 'reminded' &&
          line.fields.questionId === id &&
          line.fields.platform !== 'web',
      ).length;
    const sweeps = () => replica.logger.lines.filter((line) => line.message === 'serve: swept').length;
    return { clock, slack, discord, store, owned, copyOf, handled, sweeps };
  }

  it('GIVEN a route with owners THEN the reminder is a Slack thread reply and a Discord reply pinging only them, and the question is not redrawn', async () => {
    const { clock, slack, discord, store, owned, copyOf, handled } = await serveWithReminders();
    const question = await store.park(owned, spec({ isBlocking: true }));
    const slackCopy = await copyOf(owned, question.id, 'slack');
    const discordCopy = await copyOf(owned, question.id, 'discord');
    const slackRedraws = () => slack.callsOf('chat.update').filter((call) => call.body.ts === slackCopy.messageId);
    const redrawsBefore = slackRedraws().length;
    const editsBefore = discord.edits(discordCopy.messageId).length;

    clock.advance(30 * MIN);
    await expect.poll(() => handled(question.id)).toBe(2);

    const replies = slack.callsOf('chat.postMessage').filter((call) => call.body.thread_ts === slackCopy.messageId);
    expect(replies).toHaveLength(1);
    expect(replies[0]?.body).toMatchObject({
      channel: SLACK_CHANNEL,
      thread_ts: slackCopy.messageId,
      text: '<@U0ANA> <@U0BO> ⏰ Reminder: this blocking question has waited 30 min.',
      metadata: { event_type: 'ask_later_reminder', event_payload: { ordinal: 1 } },
    });
    expect(String(replies[0]?.body.text)).not.toContain('<!');
    expect(String(replies[0]?.body.text)).not.toContain(single(question).question);

    const discordReplies = discord
      .creates()
      .filter((call) => (call.body as Record<string, unknown>).message_reference !== undefined);
    expect(discordReplies).toHaveLength(1);
    const body = discordReplies[0]?.body as Record<string, unknown>;
    expect(discordReplies[0]?.path).toBe(`/channels/${discordCopy.channel}/messages`);
    expect(body.message_reference).toEqual({ message_id: discordCopy.messageId, fail_if_not_exists: false });
    expect(body.allowed_mentions).toEqual({ parse: [], users: [ANA, BO], replied_user: false });
    expect(body.content).toBe(`<@${ANA}> <@${BO}> ⏰ Reminder: this blocking question has waited 30 min.`);
    expect(body.nonce).toBe(reminderNonce(question, discordCopy, 1));
    expect(body.enforce_nonce).toBe(true);

    // The reminder changed nothing on the question's message: no redraw on either platform.
    expect(slackRedraws()).toHaveLength(redrawsBefore);
    expect(discord.edits(discordCopy.messageId)).toHaveLength(editsBefore);
  });

  it('GIVEN a project on the default channels THEN the reminder mentions no one; after an answer no further reminder', async () => {
    const { clock, slack, discord, store, copyOf, handled, sweeps } = await serveWithReminders();
    const project = uniqueProject('unrouted');
    const question = await store.park(project, spec({ isBlocking: true }));
    const slackCopy = await copyOf(project, question.id, 'slack');
    const discordCopy = await copyOf(project, question.id, 'discord');

    clock.advance(30 * MIN);
    await expect.poll(() => handled(question.id)).toBe(2);
    const replies = slack.callsOf('chat.postMessage').filter((call) => call.body.thread_ts === slackCopy.messageId);
    expect(replies.map((call) => call.body.text)).toEqual(['⏰ Reminder: this blocking question has waited 30 min.']);
    const discordReply = discord
      .creates()
      .find(
        (call) =>
          ((call.body as Record<string, unknown>).message_reference as { message_id?: string } | undefined)
            ?.message_id === discordCopy.messageId,
      );
    expect((discordReply?.body as Record<string, unknown>).allowed_mentions).toEqual({
      parse: [],
      users: [],
      replied_user: false,
    });

    await store.answer(project, question.id, { choices: ['SQLite'], other: false }, person());
    clock.advance(5 * 30 * MIN);
    const seen = sweeps();
    await expect.poll(sweeps).toBeGreaterThanOrEqual(seen + 2);
    expect(handled(question.id)).toBe(2);
    expect(
      slack.callsOf('chat.postMessage').filter((call) => call.body.thread_ts === slackCopy.messageId),
    ).toHaveLength(1);
  });
});

/** A surface that also records the reminders the bridge asks of it. */
class RemindingSurface extends RecordingSurface {
  readonly reminders: { question: Question; ref: MessageRef; reminder: Reminder }[] = [];
  async remind(question: Question, ref: MessageRef, reminder: Reminder): Promise<void> {
    this.reminders.push({ question, ref, reminder });
  }
}

describe('the bridge and reminded events', () => {
  async function bridgeOver(store: Store, surface: RemindingSurface) {
    const logger = new RecordingLogger();
    const bridge = new Bridge({
      store,
      surfaces: [surface],
      consumerName: 'b1',
      blockMs: 50,
      retryBaseMs: 5,
      logger,
      reminderOwners: (platform) => (platform === 'slack' ? ['U0ANA'] : []),
    });
    await bridge.start();
    cleanup.push(() => bridge.stop());
    return logger;
  }
  const handledEvents = (logger: RecordingLogger) =>
    logger.lines.filter((line) => line.message === 'bridge: event handled').map((line) => line.fields.event);

  it('GIVEN a reminder recorded and the question answered before the bridge got to it THEN no reminder is sent', async () => {
    const clock = testClock();
    const store = await openTestStore({ now: clock.now });
    cleanup.push(() => store.close());
    const project = uniqueProject();
    const question = await store.park(project, spec({ isBlocking: true }));
    await store.recordMessage(project, question.id, { platform: 'slack', channel: 'C-team', messageId: 'm0' });
    clock.advance(30 * MIN);
    expect((await store.remind(project, question.id, 1)).kind).toBe('reminded');
    await store.answer(project, question.id, { choices: ['SQLite'], other: false }, person());

    const surface = new RemindingSurface('slack', () => ['C-team']);
    const logger = await bridgeOver(store, surface);
    await expect.poll(() => handledEvents(logger)).toEqual(['parked', 'reminded', 'answered']);
    expect(surface.reminders).toEqual([]);
    // The answer redrew the copy; the reminder redrew nothing.
    expect(surface.updates.map((update) => update.question.status)).toEqual(['answered', 'answered']);
  });

  it('GIVEN an old reminded event handled after a later reminder THEN only the later one is sent, once', async () => {
    const clock = testClock();
    const store = await openTestStore({ now: clock.now });
    cleanup.push(() => store.close());
    const project = uniqueProject();
    const question = await store.park(project, spec({ isBlocking: true }));
    await store.recordMessage(project, question.id, { platform: 'slack', channel: 'C-team', messageId: 'm0' });
    clock.advance(30 * MIN);
    await store.remind(project, question.id, 1);
    clock.advance(30 * MIN);
    await store.remind(project, question.id, 2);

    const surface = new RemindingSurface('slack', () => ['C-team']);
    const logger = await bridgeOver(store, surface);
    await expect.poll(() => handledEvents(logger)).toEqual(['parked', 'reminded', 'reminded']);
    expect(surface.reminders).toHaveLength(1);
    expect(surface.reminders[0]?.reminder).toEqual({ ordinal: 2, waitedMs: 60 * MIN, owners: ['U0ANA'] });
    expect(surface.reminders[0]?.ref).toEqual({ platform: 'slack', channel: 'C-team', messageId: 'm0' });
    expect(surface.updates).toEqual([]);
  });
});

describe('the surfaces sending a reminder again (a redelivered event)', () => {
  it('GIVEN Discord and the same reminder twice THEN the nonce makes it one message', async () => {
    const discord = await new FakeDiscord().start();
    cleanup.push(() => discord.stop());
    const store = await openTestStore();
    cleanup.push(() => store.close());
    const surface = new DiscordSurface({
      rest: createDiscordRest({ token: discord.token, apiUrl: discord.apiUrl, retries: 0 }),
      channel: discord.channelId,
    });
    const question = await store.park(uniqueProject(), spec({ isBlocking: true }));
    const ref = await surface.post(question, discord.channelId, { maybePostedBefore: false });
    const reminder = { ordinal: 1, waitedMs: 30 * MIN, owners: [ANA] };
    await surface.remind(question, ref, reminder, { maybePostedBefore: false });
    await surface.remind(question, ref, reminder, { maybePostedBefore: true });
    expect(discord.creates()).toHaveLength(3);
    expect(discord.messages.size).toBe(2);
    // The next reminder is a message of its own.
    await surface.remind(question, ref, { ...reminder, ordinal: 2 }, { maybePostedBefore: false });
    expect(discord.messages.size).toBe(3);
  });

  it('GIVEN Slack and a reminder handled again THEN the thread is looked through and no second reply is sent', async () => {
    const slack = await new FakeSlackApi().start();
    cleanup.push(() => slack.stop());
    const store = await openTestStore();
    cleanup.push(() => store.close());
    const surface = new SlackSurface({
      client: createWebClient({ token: 'xoxb-test', apiUrl: slack.url, retryConfig: TEST_RETRY }),
      channel: 'C0TEAM',
    });
    const question = await store.park(uniqueProject(), spec({ isBlocking: true }));
    const ref = await surface.post(question, 'C0TEAM', { maybePostedBefore: false });
    const reminder = { ordinal: 1, waitedMs: 30 * MIN, owners: ['U0ANA'] };
    await surface.remind(question, ref, reminder, { maybePostedBefore: false });
    await surface.remind(question, ref, reminder, { maybePostedBefore: true });
    const replies = () => slack.messages.filter((message) => message.thread_ts === ref.messageId);
    expect(replies()).toHaveLength(1);
    expect(slack.callsOf('conversations.replies')).toHaveLength(1);
    await surface.remind(question, ref, { ...reminder, ordinal: 2 }, { maybePostedBefore: true });
    expect(replies()).toHaveLength(2);
  });
});
