import { describe, expect, it } from 'vitest';
import type { Draft, Selection } from '../../../src/core/question.js';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { REVIEW_CHECK_LENGTH } from '../../../src/core/review-check.js';
import { parseCustomId } from '../../../src/render/discord/ids.js';
import { DISCORD_LIMITS, embedTextLength } from '../../../src/render/discord/limits.js';
import { entriesOf, renderSendReview, renderSetReceipt, reviewCheck } from '../../../src/render/discord/review.js';
import { CREATED_AT, extremeSet, extremeSetAnswer, makeSet } from './fixtures.js';

const ref = formatQuestionRef('/home/ada/src/shop', 12);
const draft = (overrides: Partial<Draft>): Draft => ({
  choices: [],
  other: false,
  updatedAt: CREATED_AT,
  ...overrides,
});

const READY: Draft[] = [
  draft({ choices: ['Postgres'] }),
  draft({ choices: ['Redis', 'None'], notes: 'Keep it small.', choiceNotes: [{ choice: 'Redis', notes: 'shared' }] }),
  draft({ other: true, notes: 'Call it invoicing.' }),
];

describe('the review before a set is sent', () => {
  it('GIVEN every member ready THEN the review shows each topic with its answer, notes and notes per option, and Send answers carries the check', () => {
    const set = makeSet();
    const message = renderSendReview(set, entriesOf(set, READY));
    expect(message.content).toBe('Send these answers to **#12**? Check each one, then press **Send answers**.');
    expect(message.embeds.map((embed) => [embed.title, embed.description])).toEqual([
      ['🔴 #12.1 · Database', '**Answer:** Postgres\n✅ ready'],
      ['🟢 #12.2 · Caches', '**Answer:** Redis, None\nNotes: Keep it small.\nNotes on Redis: shared\n✅ ready'],
      ['🟢 #12.3 · Naming', '**Answer:** Other\nNotes: Call it invoicing.\n✅ ready'],
    ]);
    const confirm = message.components[0]?.components[0];
    if (confirm?.type !== 2 || !('custom_id' in confirm)) throw new Error('no button');
    expect(confirm.label).toBe('Send answers');
    expect(parseCustomId(confirm.custom_id)).toEqual({
      kind: 'send-yes',
      ref,
      check: reviewCheck(READY),
    });
  });

  it('GIVEN the same answers THEN the same check; a changed pick, note or note per option THEN another', () => {
    const check = reviewCheck(READY);
    expect(check).toHaveLength(REVIEW_CHECK_LENGTH);
    expect(reviewCheck(READY.map((d) => ({ ...d })))).toBe(check);
    const changed = (index: number, change: Partial<Selection>) =>
      reviewCheck(READY.map((d, i) => (i === index ? { ...d, ...change } : d)));
    expect(changed(0, { choices: ['SQLite'] })).not.toBe(check);
    expect(changed(2, { notes: 'Call it ledger.' })).not.toBe(check);
    expect(changed(1, { choiceNotes: [{ choice: 'Redis', notes: 'a new one' }] })).not.toBe(check);
  });

  it('GIVEN notes saved for a set THEN the receipt counts the ready members and shows each', () => {
    const set = makeSet();
    const message = renderSetReceipt(set, [undefined, READY[1], draft({ other: true })]);
    expect(message.content).toBe('Saved. **#12**: 👉 2 of 3 ready');
    expect(message.embeds[2]?.description).toBe('**Answer:** Other\n✍️ needs a note');
    expect(message.components).toEqual([]);
    expect(renderSetReceipt(set, READY).content).toBe('Saved. **#12**: ✅ 3 of 3 ready — press Send');
  });

  it('GIVEN the largest set with notes of 3000 characters everywhere THEN the review shortens the previews until it fits', () => {
    const set = extremeSet('options');
    const drafts = extremeSetAnswer(set).members.map((selection) => ({ ...selection, updatedAt: CREATED_AT }));
    const message = renderSendReview(set, entriesOf(set, drafts));
    expect(embedTextLength(message.embeds)).toBeLessThanOrEqual(DISCORD_LIMITS.embedTotal);
    expect(message.embeds).toHaveLength(4);
  });
});
