/**
 * Property: whatever `ask_later` accepts renders on Discord within Discord's limits, in every state, with any answer
 * the store accepts and any drafts a person can hold. Raw tool input is generated (single questions and sets, texts
 * from short to their limits, Markdown, mentions, emoji), `parseAskInput` keeps what it accepts, and every payload
 * the Discord renderers make for it is checked: the question message in each state, the receipts, "Add notes" (the
 * modal, or the menu and every modal it opens), the review and the set receipt, the inbox with it shown and
 * selected. The renderers check their own output (`assert…`) and throw on any limit; this test also re-reads each
 * payload through the limits' schemas, so the property holds even if a renderer forgot its check.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAskInput } from '../../../src/core/ask-input.js';
import { type Answer, type Draft, itemsOf, type Question, type QuestionStatus } from '../../../src/core/question.js';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { renderInbox } from '../../../src/render/discord/inbox.js';
import {
  DISCORD_LIMITS,
  discordMessageSchema,
  discordModalSchema,
  embedTextLength,
} from '../../../src/render/discord/limits.js';
import { pickedOptions, renderNotes, renderTargetModal } from '../../../src/render/discord/notes-modal.js';
import {
  renderDraftReceipt,
  renderQuestionMessage,
  renderRemoveConfirmation,
} from '../../../src/render/discord/question-message.js';
import { entriesOf, renderSendReview, renderSetReceipt } from '../../../src/render/discord/review.js';
import type { DiscordMessage, DiscordModal } from '../../../src/render/discord/types.js';
import { acceptedAnswer, askInputArbitraries, random, selectionOf } from '../../support/ask-input-arbitraries.js';
import { inboxPageOf } from '../../support/inbox.js';
import { CREATED_AT, sized } from './fixtures.js';

const { singleInput, setInput } = askInputArbitraries(['<@1234>']);

const by = { platform: 'discord', userId: '42', displayName: 'Ada @everyone' } as const;

// ---------------------------------------------------------------------------------------------------------------
// Checks

let checkedMessages = 0;

function expectMessageFits(message: DiscordMessage): void {
  checkedMessages++;
  const parsed = discordMessageSchema.safeParse(message);
  expect(parsed.success ? [] : parsed.error.issues.map((issue) => issue.message)).toEqual([]);
  expect(embedTextLength(message.embeds)).toBeLessThanOrEqual(DISCORD_LIMITS.embedTotal);
  expect(message.components.length).toBeLessThanOrEqual(DISCORD_LIMITS.actionRows);
}

function expectModalFits(modal: DiscordModal): void {
  const parsed = discordModalSchema.safeParse(modal);
  expect(parsed.success ? [] : parsed.error.issues.map((issue) => issue.message)).toEqual([]);
  expect(modal.components.length).toBeLessThanOrEqual(DISCORD_LIMITS.modalComponents);
}

const STATES: QuestionStatus[] = ['pending', 'answered', 'delivered', 'cancelled', 'dismissed', 'expired'];

function inState(question: Question, status: QuestionStatus, answer: Answer): Question {
  switch (status) {
    case 'pending':
      return question;
    case 'answered':
      return { ...question, status, answer };
    case 'delivered':
      return { ...question, status, answer, deliveredAt: CREATED_AT + 120_000 };
    case 'cancelled':
    case 'expired':
      return { ...question, status, closure: { at: CREATED_AT + 60_000 } };
    case 'dismissed':
      return { ...question, status, closure: { at: CREATED_AT + 60_000, by } };
  }
}

/** Every Discord payload for `question` with the person's `drafts`, each checked. */
function renderEverything(question: Question, drafts: readonly Draft[], answer: Answer): void {
  for (const status of STATES) expectMessageFits(renderQuestionMessage(inState(question, status, answer)));
  expectMessageFits(renderRemoveConfirmation(question));

  const items = itemsOf(question);
  items.forEach((_, index) => {
    const draft = drafts[index] ?? { choices: [], other: false, updatedAt: CREATED_AT };
    expectMessageFits(
      renderDraftReceipt(question, draft, question.members === undefined ? undefined : { member: index, drafts }),
    );
  });

  const view = renderNotes(question, drafts, { inbox: { filter: 'all', after: 'AAAAAAAAAAAAAAAA.123456789' } });
  if (view.kind === 'modal') expectModalFits(view.modal);
  else {
    expectMessageFits(view.message);
    items.forEach((target, index) => {
      const member = question.members === undefined ? undefined : index;
      for (const choice of ['answer' as const, ...pickedOptions(target, drafts[index])]) {
        expectModalFits(renderTargetModal(question, member, choice, drafts[index]));
      }
    });
  }

  if (question.members !== undefined) {
    expectMessageFits(renderSendReview(question, entriesOf(question, drafts)));
    expectMessageFits(renderSetReceipt(question, drafts));
  }

  const entry = question.members === undefined ? { question, draft: drafts[0] } : { question, memberDrafts: drafts };
  const page = inboxPageOf([entry as never], 'all');
  expectMessageFits(renderInbox(page, { filter: 'all' }));
  const ref = formatQuestionRef(question.project, question.id);
  expectMessageFits(renderInbox(page, { filter: 'all', selected: ref }));
}

/** The longest earlier decision a card can quote (a question asked again with `askAgain`). */
const WORST_EARLIER = {
  id: 999_999_999,
  member: 3,
  question: 'Q'.repeat(250),
  answer: 'A&<*_'.repeat(60),
  by: { platform: 'discord' as const, userId: '9'.repeat(20), displayName: 'N'.repeat(80) },
  at: CREATED_AT,
};

describe('everything ask_later accepts renders on Discord', () => {
  const cases = fc.tuple(
    fc.oneof({ weight: 1, arbitrary: singleInput }, { weight: 2, arbitrary: setInput }),
    fc.integer(),
    fc.integer({ min: 1, max: 999_999_999 }),
  );

  it('GIVEN random single questions and sets, answers and drafts THEN every payload of every state is within Discord limits', () => {
    let accepted = 0;
    let sets = 0;
    fc.assert(
      fc.property(cases, ([raw, seed, id]) => {
        const parsed = parseAskInput(raw);
        if (!parsed.ok) return;
        accepted++;
        const { waitSeconds: _w, expiresInSeconds, ...spec } = parsed.value;
        const question = {
          ...spec,
          ...(expiresInSeconds === undefined
            ? {}
            : { expiresInSeconds, expiresAt: CREATED_AT + expiresInSeconds * 1000 }),
          project: `/home/ada/src/${sized('proj@here/', 1 + (seed & 0x1ff))}`,
          id,
          status: 'pending',
          ...(id % 2 === 0 ? { askedBefore: [WORST_EARLIER, WORST_EARLIER, WORST_EARLIER] } : {}),
          createdAt: CREATED_AT,
          messages: [],
        } as Question;
        if (question.members !== undefined) sets++;
        const next = random(seed);
        const drafts = itemsOf(question).map(
          (target): Draft => ({ ...selectionOf(target, next), updatedAt: CREATED_AT }),
        );
        renderEverything(question, drafts, acceptedAnswer(question, next, by));
      }),
      { numRuns: 400 },
    );
    console.log('ACCEPTED', accepted, sets, checkedMessages);
    // The generator must reach both kinds, accepted, or the property says little.
    expect(accepted).toBeGreaterThan(80);
    expect(sets).toBeGreaterThan(30);
    expect(checkedMessages).toBeGreaterThan(accepted * 8);
  });
});
