import { afterEach, describe, expect, it } from 'vitest';
import { webhookSecret } from '../../../src/surfaces/telegram/webhook.js';
import { FakeTelegram } from '../../support/fake-telegram.js';
import { freePort } from '../../support/redis-server.js';
import { openTestStore, spec, uniquePrefix, uniqueProject } from '../../support/store.js';
import { ANN, CHAT, data, postedMessageId, refOf, startTelegramHarness, type TelegramHarness } from './harness.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('Telegram webhook mode', () => {
  it('GIVEN a public URL THEN the webhook is set with a secret token, updates come through it, and a request without the secret is refused with nothing changed', async () => {
    const port = await freePort();
    const h = await startTelegramHarness({ config: { port, publicUrl: `http://127.0.0.1:${port}` } });
    cleanup.push(() => h.stop());
    expect(h.serve.telegram).toBe('webhook');
    expect(h.telegram.webhook).toEqual({
      url: `http://127.0.0.1:${port}/telegram/webhook`,
      secret: webhookSecret(h.telegram.token),
    });
    expect(h.telegram.callsOf('getUpdates')).toHaveLength(0);
    const project = uniqueProject();
    const question = await h.store.park(project, spec());
    const messageId = await postedMessageId(h.store, question);
    const send = data({ kind: 'send', ref: refOf(question) });

    // Forged: no secret, then a wrong one. Refused with 401 before the body is read; the question stays pending.
    const update = {
      update_id: 1,
      callback_query: {
        id: 'forged',
        from: { id: ANN.id, is_bot: false, first_name: 'Ann' },
        chat_instance: '1',
        data: send,
        message: { message_id: messageId, date: 0, chat: { id: CHAT, type: 'supergroup' } },
      },
    };
    for (const headers of [{}, { 'x-telegram-bot-api-secret-token': 'not-the-secret' }]) {
      const response = await fetch(`http://127.0.0.1:${port}/telegram/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(update),
      });
      expect(response.status).toBe(401);
      await response.body?.cancel();
    }
    expect(h.telegram.answersTo('forged')).toEqual([]);
    expect((await h.store.get(project, question.id))?.status).toBe('pending');

    // Through Telegram (the fake POSTs with the secret): answered, once even when delivered twice.
    const tap = h.telegram.tap(ANN, CHAT, messageId, send);
    await expect.poll(async () => (await h.store.get(project, question.id))?.status).toBe('answered');
    await expect.poll(() => h.telegram.answersTo(tap)).toHaveLength(1);
    const last = h.telegram.calls.length;
    const redelivered = {
      update_id: 1000,
      callback_query: {
        id: tap,
        from: { ...ANN, is_bot: false },
        chat_instance: '1',
        data: send,
        message: { message_id: messageId, date: 0, chat: { id: CHAT, type: 'supergroup' } },
      },
    };
    h.telegram.redeliver(redelivered);
    await expect
      .poll(() => h.logger.lines.some((line) => line.message === 'telegram: update already handled; skipped'))
      .toBe(true);
    expect(h.telegram.calls.slice(last).filter((call) => call.method === 'answerCallbackQuery')).toEqual([]);
  });
});

describe('Telegram long polling across replicas', () => {
  it('GIVEN two replicas THEN one polls; after it is killed the other takes over, and nothing is posted or answered twice', async () => {
    const telegram = await new FakeTelegram().start();
    cleanup.push(() => telegram.stop());
    const prefix = uniquePrefix();
    const storeA = await openTestStore({ prefix });
    const storeB = await openTestStore({ prefix });
    const a = await startTelegramHarness({
      existing: telegram,
      prefix,
      deps: { store: storeA, replica: 'replica-a', telegram: { leaseMs: 3000 } },
    });
    let aStopped = false;
    cleanup.push(async () => {
      if (!aStopped) await a.stop();
    });
    const b = await startTelegramHarness({
      existing: telegram,
      prefix,
      deps: { store: storeB, replica: 'replica-b', telegram: { leaseMs: 3000 } },
    });
    cleanup.push(async () => {
      await b.stop();
      await storeB.close();
    });
    const polls = (h: TelegramHarness) =>
      h.logger.lines.filter((line) => line.message.startsWith('telegram: polling for updates')).length;
    await expect.poll(() => polls(a) + polls(b)).toBe(1);
    const [first, second] = polls(a) === 1 ? [a, b] : [b, a];
    const firstStore = first === a ? storeA : storeB;

    const project = uniqueProject();
    const one = await a.store.park(project, spec({ question: 'One?' }));
    const oneMessage = await postedMessageId(a.store, one);
    const tapOne = telegram.tap(ANN, CHAT, oneMessage, data({ kind: 'pick', ref: refOf(one), option: 1 }));
    await expect.poll(() => telegram.answersTo(tapOne)).toHaveLength(1);

    // Kill the poller: its store connection goes, with no clean stop (the lease is not given back).
    await firstStore.close();
    await expect.poll(() => polls(second), { timeout: 15_000 }).toBe(1);
    const two = await second.store.park(project, spec({ question: 'Two?' }));
    const twoMessage = await postedMessageId(second.store, two);
    const tapTwo = telegram.tap(ANN, CHAT, twoMessage, data({ kind: 'send', ref: refOf(two) }));
    await expect.poll(async () => (await second.store.get(project, two.id))?.status).toBe('answered');
    await expect.poll(() => telegram.answersTo(tapTwo)).toHaveLength(1);
    expect(telegram.answersTo(tapOne)).toHaveLength(1);
    expect(telegram.conflicts).toBe(0);
    const posts = telegram.callsOf('sendMessage').map((call) => String(call.body.text));
    expect(posts.filter((text) => text.includes('One?'))).toHaveLength(1);
    expect(posts.filter((text) => text.includes('Two?'))).toHaveLength(1);
    if (first === a) {
      aStopped = true;
      await a.serve.stop();
      await a.store.close();
    }
  });
});
