import { describe, expect, it } from 'vitest';
import { NOTES_MAX } from '../../../src/core/limits.js';
import type { Draft } from '../../../src/core/question.js';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { assertSlackView } from '../../../src/render/slack/limits.js';
import { renderReviewModal } from '../../../src/render/slack/review-modal.js';
import { reviewOf } from '../../../src/surfaces/interactions.js';
import { extremeSet, makeSet, mrkdwnTexts, sized, textObjects } from './fixtures.js';

const draft = (selection: Omit<Draft, 'updatedAt'>): Draft => ({ ...selection, updatedAt: 1 });

describe('renderReviewModal', () => {
  const set = makeSet();
  const drafts = [
    undefined,
    draft({
      choices: ['Redis'],
      other: false,
      notes: 'Shared is enough.',
      choiceNotes: [{ choice: 'Redis', notes: 'The <big> one & only' }],
    }),
    draft({ choices: [], other: true, notes: 'Call it invoices.' }),
  ];
  const review = reviewOf(set, drafts);
  const view = renderReviewModal(set, review.lines);

  it('GIVEN a ready set THEN the review is al_review with Send and Back, the ref in its metadata', () => {
    expect(review.ready).toBe(true);
    expect(view).toMatchObject({
      type: 'modal',
      callback_id: 'al_review',
      title: { type: 'plain_text', text: 'Review #12' },
      submit: { type: 'plain_text', text: 'Send' },
      close: { type: 'plain_text', text: 'Back' },
      private_metadata: formatQuestionRef(set.project, 12),
    });
  });

  it('GIVEN a ready set THEN it lists each topic with its answer, notes per option and notes, escaped', () => {
    expect(mrkdwnTexts(view.blocks)).toEqual([
      '🔴 *BLOCKING* · #12 · shop · SHOP-12',
      '*Send these 3 answers as one?* The agent gets them together.',
      '#12.1 · *Database*\n*Answer:* Postgres',
      '#12.2 · *Caches*\n*Answer:* Redis',
      '*Notes on Redis:*\n>>> The &lt;big&gt; one &amp; only',
      '*Notes:*\n>>> Shared is enough.',
      '#12.3 · *Naming*\n*Answer:* Other',
      '*Notes:*\n>>> Call it invoices.',
    ]);
  });

  it('GIVEN the largest set with every note at NOTES_MAX THEN the review fits a modal, every note in full', () => {
    const extreme = extremeSet('options', '&');
    const full = extreme.members.map((member) =>
      draft({
        choices: member.options.map((option) => option.label),
        other: true,
        notes: sized('&<', NOTES_MAX),
        choiceNotes: member.options.map((option) => ({ choice: option.label, notes: sized('<&', NOTES_MAX) })),
      }),
    );
    const big = renderReviewModal(extreme, reviewOf(extreme, full).lines);
    expect(() => assertSlackView(big)).not.toThrow();
    expect(big.blocks.length).toBeLessThanOrEqual(100);
    const plain = textObjects(big.blocks).filter(({ text }) => text.type === 'plain_text');
    expect(plain.filter(({ text }) => text.text.includes(sized('<&', 2000))).length).toBeGreaterThanOrEqual(24);
  });
});
