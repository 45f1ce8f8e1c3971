import { afterEach, describe, expect, it } from 'vitest';
import { FakeTelegram } from '../../support/fake-telegram.js';
import { spec, uniqueProject } from '../../support/store.js';
import { ANN, BOB, CHAT, postedMessageId, startTelegramHarness, type TelegramHarness } from './harness.js';

const open: TelegramHarness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.stop();
});

describe('Telegram failures', () => {
  it('GIVEN the bot removed from the chat THEN the post is refused for good: tried once, recorded as failed, /healthz degraded', async () => {
    const telegram = await new FakeTelegram().start();
    telegram.addChat(CHAT, [ANN.id, BOB.id]);
    telegram.removeBot(CHAT);
    const h = await startTelegramHarness({ existing: telegram });
    open.push(h);
    open.push({ stop: () => telegram.stop() } as TelegramHarness);
    const project = uniqueProject();
    await h.store.park(project, spec());
    await expect
      .poll(async () => (await h.store.failedEvents()).find((group) => group.group === 'bridge:telegram')?.count)
      .toBe(1);
    expect(telegram.callsOf('sendMessage')).toHaveLength(1);
    const health = await fetch(`http://127.0.0.1:${h.serve.port}/healthz`).then((response) => response.json());
    expect(health).toMatchObject({ status: 'degraded', telegram: 'degraded' });
    expect(h.logger.text()).toContain('add it to the chat again');
  });

  it('GIVEN a 429 with retry_after THEN the post waits it out and is sent once', async () => {
    const telegram = await new FakeTelegram().start();
    telegram.addChat(CHAT, [ANN.id]);
    telegram.failNext.set('sendMessage', [
      { code: 429, description: 'Too Many Requests: retry after 1', parameters: { retry_after: 1 } },
    ]);
    const h = await startTelegramHarness({ existing: telegram });
    open.push(h);
    open.push({ stop: () => telegram.stop() } as TelegramHarness);
    const project = uniqueProject();
    const question = await h.store.park(project, spec());
    const messageId = await postedMessageId(h.store, question);
    expect(telegram.callsOf('sendMessage')).toHaveLength(2);
    expect(telegram.botMessages(CHAT).map((m) => m.messageId)).toEqual([messageId]);
    expect(await h.store.failedEvents()).toEqual([]);
  });
});

describe('Telegram reminders', () => {
  it('GIVEN a route with Telegram owners THEN a reminder of a blocking question replies to its message mentioning only them', async () => {
    const project = uniqueProject();
    const h = await startTelegramHarness({
      config: { routes: [{ project, telegram: String(CHAT), owners: { telegram: [String(BOB.id)] } }] },
    });
    open.push(h);
    const question = await h.store.park(project, spec({ isBlocking: true }));
    const messageId = await postedMessageId(h.store, question);
    await h.store.remind(project, question.id, 1);
    const reminderOf = () => h.telegram.botMessages(CHAT).find((m) => m.text.includes('Reminder'));
    await expect.poll(reminderOf).toBeDefined();
    expect(reminderOf()?.replyTo).toBe(messageId);
    expect(reminderOf()?.text).toContain(`tg://user?id=${BOB.id}`);
    expect(reminderOf()?.text).not.toContain(`tg://user?id=${ANN.id}`);
  });
});
