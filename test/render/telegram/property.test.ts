/**
 * Property: whatever `ask_later` accepts renders on Telegram within Telegram's limits, in every state, with any
 * answer the store accepts and any drafts a person can hold, and renders whole: what does not fit the message is in
 * the replies posted under it. Raw tool input is generated as for Discord's property (single questions and sets,
 * texts from short to their limits, Markdown, HTML-like text, entities, emoji); `parseAskInput` keeps what it
 * accepts, and every payload the Telegram renderers make for it is re-checked against the limits: the question
 * message in each state (as posted, and as redrawn for a person's drafts on each member), its continuation
 * replies, the notes prompt of every item and picked option, a review, Remove's confirmation, the inbox, a reminder.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerReadiness } from '../../../src/core/answer.js';
import { parseAskInput } from '../../../src/core/ask-input.js';
import {
  type Answer,
  type Draft,
  itemsOf,
  type Question,
  type QuestionStatus,
  type Selection,
} from '../../../src/core/question.js';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { markdownHtml } from '../../../src/render/telegram/format.js';
import { renderInbox } from '../../../src/render/telegram/inbox.js';
import { TELEGRAM_LIMITS, telegramMessageIssues, visibleLength } from '../../../src/render/telegram/limits.js';
import { renderQuestion } from '../../../src/render/telegram/question-message.js';
import {
  parseNotesTarget,
  renderNotesPrompt,
  renderReminder,
  renderRemoveConfirmation,
  renderReview,
} from '../../../src/render/telegram/replies.js';
import type { TelegramMessage } from '../../../src/render/telegram/types.js';
import { acceptedAnswer, askInputArbitraries, random, selectionOf } from '../../support/ask-input-arbitraries.js';
import { plainText } from '../../support/fake-telegram.js';
import { inboxPageOf } from '../../support/inbox.js';
import { CREATED_AT, sized } from '../discord/fixtures.js';

const { singleInput, setInput } = askInputArbitraries(['<b>', '&amp;']);

const by = { platform: 'telegram', userId: '42', displayName: 'Ada <b>&amp;</b>' } as const;

// ---------------------------------------------------------------------------------------------------------------
// Checks

let checkedMessages = 0;

function expectFits(message: TelegramMessage): void {
  checkedMessages++;
  expect(telegramMessageIssues(message)).toEqual([]);
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

/** Text as Telegram shows it, without whitespace (a continuation splits between lines). */
function squeezed(text: string): string {
  return text.replace(/\s+/g, '');
}

/** Every text the agent wrote shows, in the message or in the replies under it. */
function expectWhole(question: Question): void {
  const { message, details } = renderQuestion(question);
  const shown = squeezed(plainText([message.text, ...details].join('\n')));
  // Markdown (context, impact) shows as Telegram shows its HTML; the other texts as written.
  const markdown = (text: string | undefined) => plainText(markdownHtml(text ?? ''));
  const texts = [markdown(question.context), markdown(question.impact), question.ticket ?? ''];
  for (const item of itemsOf(question)) {
    texts.push(item.question, ...item.options.flatMap((option) => [option.label, option.description ?? '']));
  }
  for (const member of question.members ?? []) {
    texts.push(member.topic, markdown(member.context), markdown(member.impact));
  }
  for (const text of texts) expect(shown).toContain(squeezed(text));
}

/** Every Telegram payload for `question` with the person's `drafts`, each checked. */
function renderEverything(question: Question, drafts: readonly Draft[], answer: Answer): void {
  for (const status of STATES) {
    const { message, details } = renderQuestion(inState(question, status, answer));
    expectFits(message);
    for (const detail of details) expect(visibleLength(detail)).toBeLessThanOrEqual(TELEGRAM_LIMITS.text);
  }
  expectWhole(question);
  const items = itemsOf(question);
  const ref = formatQuestionRef(question.project, question.id);
  items.forEach((target, index) => {
    const member = question.members === undefined ? undefined : index;
    expectFits(renderQuestion(question, { drafts, ...(member === undefined ? {} : { member }) }).message);
    const selection: Selection = drafts[index] ?? { choices: [], other: false };
    const options = [
      undefined,
      ...target.options.flatMap((option, o) => (selection.choices.includes(option.label) ? [o] : [])),
    ];
    for (const option of options) {
      const notesTarget = {
        ref,
        ...(member === undefined ? {} : { member }),
        ...(option === undefined ? {} : { option }),
        messageId: 2_147_483_647,
      };
      const prompt = renderNotesPrompt(question, notesTarget, selection);
      expectFits(prompt);
      expect(parseNotesTarget(plainText(prompt.text))).toEqual(notesTarget);
    }
  });
  const entries = items.map((target, index) => {
    const selection: Selection = drafts[index] ?? { choices: [], other: false };
    return { selection, readiness: answerReadiness(target, selection) };
  });
  expectFits(renderReview(question, entries, 'AbCdEfGh'));
  expectFits(renderReview(question, entries, 'AbCdEfGh', 'Your answers changed since that review.'));
  expectFits(renderRemoveConfirmation(question));
  const entry = question.members === undefined ? { question, draft: drafts[0] } : { question, memberDrafts: drafts };
  const eight = Array.from({ length: 8 }, (_, i) => ({ ...entry, question: { ...question, id: question.id + i } }));
  const page = inboxPageOf(eight as never[], 'all');
  const after = 'AAAAAAAAAAAAAAAA.999999999';
  expectFits(
    renderInbox({ ...page, remaining: 999, next: after }, { filter: 'non-blocking', after }, 'x'.repeat(2000)),
  );
  const owners = Array.from({ length: 50 }, (_, i) => String(1_000_000_000 + i));
  expectFits(renderReminder({ ordinal: 1, waitedMs: 3_600_000, owners }));
}

/** The longest earlier decision a card can quote (a question asked again with `askAgain`). */
const WORST_EARLIER = {
  id: 999_999_999,
  member: 3,
  question: 'Q'.repeat(250),
  answer: 'A&<*_'.repeat(60),
  by: { platform: 'telegram' as const, userId: '9'.repeat(15), displayName: 'N'.repeat(80) },
  at: CREATED_AT,
};

describe('everything ask_later accepts renders on Telegram', () => {
  const cases = fc.tuple(
    fc.oneof({ weight: 1, arbitrary: singleInput }, { weight: 2, arbitrary: setInput }),
    fc.integer(),
    fc.integer({ min: 1, max: 999_999_990 }),
  );

  it('GIVEN random single questions and sets, answers and drafts THEN every payload of every state is within Telegram limits and the question shows whole', () => {
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
          project: `/home/ada/src/${sized('proj<b>/', 1 + (seed & 0x1ff))}`,
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
      { numRuns: 300 },
    );
    expect(accepted).toBeGreaterThan(60);
    expect(sets).toBeGreaterThan(20);
    expect(checkedMessages).toBeGreaterThan(accepted * 10);
  });
});
