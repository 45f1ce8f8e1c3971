import { afterEach, describe, expect, it } from 'vitest';
import { spec, uniqueProject } from '../../support/store.js';
import {
  ANN,
  buttonsOf,
  CHAT,
  data,
  postedMessageId,
  refOf,
  STRANGER,
  startTelegramHarness,
  type TelegramHarness,
  textOf,
} from './harness.js';

const open: TelegramHarness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.stop();
});

describe('Telegram end to end (long polling)', () => {
  it('GIVEN a parked question THEN one message with a keyboard; picks redraw it, notes come by reply, Send answers once and the message shows who answered', async () => {
    const h = await startTelegramHarness();
    open.push(h);
    expect(h.serve.telegram).toBe('polling');
    const project = uniqueProject();
    const question = await h.store.park(
      project,
      spec({
        isBlocking: true,
        multiSelect: true,
        options: [{ label: 'Postgres' }, { label: 'SQLite' }, { label: 'Redis' }],
      }),
    );
    const messageId = await postedMessageId(h.store, question);
    expect(h.telegram.callsOf('sendMessage')).toHaveLength(1);
    expect(textOf(h.telegram, messageId)).toContain('BLOCKING');
    expect(textOf(h.telegram, messageId)).toContain('Which database should billing use?');
    // The recommended option is starred and preselected.
    expect(buttonsOf(h.telegram, messageId)[0]).toEqual(['✅ ★ 1. Postgres']);
    const ref = refOf(question);

    // Pick SQLite too (a multi-select toggles): the message is redrawn with both picked and the ready mark.
    const tap = h.telegram.tap(ANN, CHAT, messageId, data({ kind: 'pick', ref, option: 1 }));
    await expect.poll(() => h.telegram.answersTo(tap)).toHaveLength(1);
    expect(h.telegram.answersTo(tap)[0]?.text).toBe('✅ ready');
    // The toast comes first, the redraw right after it.
    await expect.poll(() => buttonsOf(h.telegram, messageId)[1]).toEqual(['✅ 2. SQLite']);
    expect(textOf(h.telegram, messageId)).toContain('Picked: Postgres, SQLite');

    // Notes: the Notes button sends a force-reply prompt; a reply to it saves the notes.
    const notesTap = h.telegram.tap(ANN, CHAT, messageId, data({ kind: 'notes', ref }));
    await expect.poll(() => h.telegram.answersTo(notesTap)).toHaveLength(1);
    const promptOf = () => h.telegram.botMessages(CHAT).find((m) => m.replyMarkup?.force_reply === true);
    await expect.poll(promptOf).toBeDefined();
    const prompt = promptOf();
    expect(prompt?.replyTo).toBe(messageId);
    h.telegram.say(ANN, CHAT, 'Both, <b>carefully</b> & slowly', prompt?.messageId);
    await expect
      .poll(
        async () =>
          (await h.store.getDraft(project, question.id, { platform: 'telegram', userId: String(ANN.id) }))?.notes,
      )
      .toBe('Both, <b>carefully</b> & slowly');
    await expect.poll(() => textOf(h.telegram, messageId)).toContain('📝 a note');

    // Send: answered once, by Ann on Telegram; the bridge redraws the message without its keyboard.
    const send = h.telegram.tap(ANN, CHAT, messageId, data({ kind: 'send', ref }));
    await expect.poll(async () => (await h.store.get(project, question.id))?.status).toBe('answered');
    const answered = await h.store.get(project, question.id);
    expect(answered?.answer).toMatchObject({
      choices: ['Postgres', 'SQLite'],
      other: false,
      notes: 'Both, <b>carefully</b> & slowly',
      by: { platform: 'telegram', userId: String(ANN.id), displayName: 'Ann' },
    });
    await expect.poll(() => h.telegram.answersTo(send)[0]?.text).toMatch(/^Sent: /);
    await expect.poll(() => textOf(h.telegram, messageId)).toContain('Answered by Ann on Telegram');
    expect(textOf(h.telegram, messageId)).toContain('Both, <b>carefully</b> & slowly');
    expect(buttonsOf(h.telegram, messageId)).toEqual([]);

    // A second Send is told who answered; nothing changes.
    const again = h.telegram.tap(ANN, CHAT, messageId, data({ kind: 'send', ref }));
    await expect.poll(() => h.telegram.answersTo(again)[0]?.text).toMatch(/already answered by Ann on Telegram/);

    // Delivered to the agent: the message says so.
    expect(await h.store.markDelivered(project, question.id, 'prompt')).toBe('delivered');
    await expect.poll(() => textOf(h.telegram, messageId)).toContain('Delivered to the agent');
    expect(
      h.telegram.callsOf('sendMessage').filter((call) => String(call.body.text).includes('Which database')),
    ).toHaveLength(1);
    // No text in the logs.
    expect(h.logger.text()).not.toContain('carefully');
    expect(h.logger.text()).not.toContain('billing');
  });

  it('GIVEN a stranger (not in the chat) THEN their tap is refused in place and nothing is stored', async () => {
    const h = await startTelegramHarness();
    open.push(h);
    const project = uniqueProject();
    const question = await h.store.park(project, spec());
    const messageId = await postedMessageId(h.store, question);
    const tap = h.telegram.tap(STRANGER, CHAT, messageId, data({ kind: 'send', ref: refOf(question) }));
    await expect.poll(() => h.telegram.answersTo(tap)).toHaveLength(1);
    expect(h.telegram.answersTo(tap)[0]).toMatchObject({
      show_alert: true,
      text: expect.stringMatching(/channel you are not in/),
    });
    expect((await h.store.get(project, question.id))?.status).toBe('pending');
  });

  it('GIVEN an allow-list THEN a chat member not on it is refused in place', async () => {
    const h = await startTelegramHarness({ telegramConfig: { allowedUsers: ['2222'] } });
    open.push(h);
    const project = uniqueProject();
    const question = await h.store.park(project, spec());
    const messageId = await postedMessageId(h.store, question);
    const tap = h.telegram.tap(ANN, CHAT, messageId, data({ kind: 'send', ref: refOf(question) }));
    await expect.poll(() => h.telegram.answersTo(tap)).toHaveLength(1);
    expect(h.telegram.answersTo(tap)[0]).toMatchObject({
      show_alert: true,
      text: 'You are not allowed to answer questions here.',
    });
    expect((await h.store.get(project, question.id))?.status).toBe('pending');
  });
});
