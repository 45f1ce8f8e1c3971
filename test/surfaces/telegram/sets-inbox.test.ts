import { afterEach, describe, expect, it } from 'vitest';
import { setSpec, spec, uniqueProject } from '../../support/store.js';
import {
  ANN,
  BOB,
  buttonsOf,
  CHAT,
  data,
  postedMessageId,
  refOf,
  startTelegramHarness,
  type TelegramHarness,
  textOf,
} from './harness.js';

const open: TelegramHarness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.stop();
});

describe('Telegram sets and /questions', () => {
  it('GIVEN a set THEN member tabs pick per member, Send is refused until every member is ready, then a review, and its Send answers sends the set once', async () => {
    const h = await startTelegramHarness();
    open.push(h);
    const project = uniqueProject();
    const question = await h.store.park(project, setSpec());
    const messageId = await postedMessageId(h.store, question);
    const ref = refOf(question);
    expect(textOf(h.telegram, messageId)).toContain('#1.3 · Naming');
    // Naming (member 3) has no recommendation: Send names it.
    const early = h.telegram.tap(ANN, CHAT, messageId, data({ kind: 'send', ref }));
    await expect.poll(() => h.telegram.answersTo(early)[0]?.text).toMatch(/Naming needs a pick/);

    // The third tab, then its second option.
    const tab = h.telegram.tap(ANN, CHAT, messageId, data({ kind: 'member', ref, member: 2 }));
    await expect.poll(() => h.telegram.answersTo(tab)).toHaveLength(1);
    await expect.poll(() => buttonsOf(h.telegram, messageId)[0]).toEqual(['1. billing-v2']);
    const pick = h.telegram.tap(ANN, CHAT, messageId, data({ kind: 'pick', ref, member: 2, option: 1 }));
    await expect.poll(() => h.telegram.answersTo(pick)[0]?.text).toBe('✅ ready');
    await expect.poll(() => textOf(h.telegram, messageId)).toContain('✅ 3 of 3 ready');

    // Send: a review replying to the set, with Send answers.
    const send = h.telegram.tap(ANN, CHAT, messageId, data({ kind: 'send', ref }));
    await expect.poll(() => h.telegram.answersTo(send)).toHaveLength(1);
    const reviewOf = () => h.telegram.botMessages(CHAT).find((m) => m.text.includes('Review #'));
    await expect.poll(reviewOf).toBeDefined();
    const review = reviewOf();
    expect(review?.replyTo).toBe(messageId);
    expect((await h.store.get(project, question.id))?.status).toBe('pending');
    const confirm = review?.replyMarkup?.inline_keyboard?.[0]?.[0]?.callback_data ?? '';
    expect(confirm).toMatch(/^y:/);
    const yes = h.telegram.tap(ANN, CHAT, review?.messageId ?? 0, confirm);
    await expect.poll(async () => (await h.store.get(project, question.id))?.status).toBe('answered');
    await expect.poll(() => h.telegram.answersTo(yes)).toHaveLength(1);
    const answer = (await h.store.get(project, question.id))?.answer;
    expect(answer && 'members' in answer ? answer.members.map((m) => m.choices) : []).toEqual([
      ['Postgres'],
      ['Redis', 'In-process'],
      ['ledger'],
    ]);
    await expect.poll(() => textOf(h.telegram, review?.messageId ?? 0)).toMatch(/^Sent: /);
    await expect.poll(() => textOf(h.telegram, messageId)).toContain('Answered by Ann on Telegram');
  });

  it('GIVEN three questions routed to the chat THEN /questions lists them blocking first, and Send N sends the ready ones shown, once', async () => {
    const h = await startTelegramHarness();
    open.push(h);
    const project = uniqueProject();
    const a = await h.store.park(project, spec({ question: 'First?', isBlocking: false }));
    const b = await h.store.park(project, spec({ question: 'Second?', isBlocking: true }));
    const c = await h.store.park(project, spec({ question: 'Third?', recommended: [] }));
    for (const q of [a, b, c]) await postedMessageId(h.store, q);
    h.telegram.say(BOB, CHAT, '/questions@ask_later_bot');
    const inboxOf = () => h.telegram.botMessages(CHAT).find((m) => m.text.includes('Questions waiting here'));
    await expect.poll(inboxOf).toBeDefined();
    const inbox = inboxOf();
    const text = textOf(h.telegram, inbox?.messageId ?? 0);
    expect(text.indexOf('Second?')).toBeLessThan(text.indexOf('First?'));
    expect(buttonsOf(h.telegram, inbox?.messageId ?? 0).flat()).toContain('📤 Send 2 answers');
    const sendData =
      inbox?.replyMarkup?.inline_keyboard?.flat().find((b) => b.text.startsWith('📤'))?.callback_data ?? '';
    const tap = h.telegram.tap(BOB, CHAT, inbox?.messageId ?? 0, sendData);
    await expect.poll(() => h.telegram.answersTo(tap)[0]?.text).toBe(`Sent 2 answers: #${b.id}, #${a.id}.`);
    expect((await h.store.get(project, a.id))?.status).toBe('answered');
    expect((await h.store.get(project, b.id))?.status).toBe('answered');
    expect((await h.store.get(project, c.id))?.status).toBe('pending');
    // The inbox is redrawn in place with what still waits.
    await expect.poll(() => textOf(h.telegram, inbox?.messageId ?? 0)).toContain('Sent 2 answers');
    expect(textOf(h.telegram, inbox?.messageId ?? 0)).toContain('Third?');
    expect(textOf(h.telegram, inbox?.messageId ?? 0)).not.toContain('First?');
    // Tapping it again sends nothing twice.
    const again = h.telegram.tap(BOB, CHAT, inbox?.messageId ?? 0, sendData);
    await expect.poll(() => h.telegram.answersTo(again)[0]?.text).toBe('Nothing sent: no answer shown is ready.');
    expect((await h.store.get(project, a.id))?.answer?.by).toMatchObject({
      platform: 'telegram',
      userId: String(BOB.id),
    });
  });

  it('GIVEN ten questions THEN /questions shows eight with Next, and Next shows the other two', async () => {
    const h = await startTelegramHarness();
    open.push(h);
    const project = uniqueProject();
    for (let i = 1; i <= 10; i++) await h.store.park(project, spec({ question: `Question number ${i}?` }));
    h.telegram.say(ANN, CHAT, '/questions');
    const inboxOf = () => h.telegram.botMessages(CHAT).find((m) => m.text.includes('Questions waiting here'));
    await expect.poll(inboxOf).toBeDefined();
    const inbox = inboxOf();
    const id = inbox?.messageId ?? 0;
    expect(textOf(h.telegram, id)).toContain('Question number 8?');
    expect(textOf(h.telegram, id)).not.toContain('Question number 9?');
    expect(textOf(h.telegram, id)).toContain('2 more after these.');
    const next = inbox?.replyMarkup?.inline_keyboard?.flat().find((b) => b.text === 'Next ▶')?.callback_data ?? '';
    h.telegram.tap(ANN, CHAT, id, next);
    await expect.poll(() => textOf(h.telegram, id)).toContain('Question number 10?');
    expect(textOf(h.telegram, id)).not.toContain('Question number 8?');
    expect(buttonsOf(h.telegram, id).flat()).toContain('📤 Send 2 answers');
  });
});
