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
import { renderInbox } from '../../../src/blocks/discord/inbox.js';
import {
  DISCORD_LIMITS,
  discordMessageSchema,
  discordModalSchema,
  embedTextLength,
} from '../../../src/blocks/discord/limits.js';
import { pickedOptions, renderNotes, renderTargetModal } from '../../../src/blocks/discord/notes-modal.js';
import {
  renderDraftReceipt,
  renderQuestionMessage,
  renderRemoveConfirmation,
} from '../../../src/blocks/discord/question-message.js';
import { entriesOf, renderSendReview, renderSetReceipt } from '../../../src/blocks/discord/review.js';
import type { DiscordMessage, DiscordModal } from '../../../src/blocks/discord/types.js';
import { parseAskInput } from '../../../src/core/ask-input.js';
import {
  CONTEXT_MAX,
  IMPACT_MAX,
  MEMBER_CONTEXT_MAX,
  MEMBER_IMPACT_MAX,
  NOTES_MAX,
  OPTION_DESCRIPTION_MAX,
  OPTION_LABEL_MAX,
  OPTION_VALUE_MAX,
  OPTIONS_MAX,
  QUESTION_MAX,
  SET_MEMBERS_MAX,
  SET_MEMBERS_MIN,
  TICKET_MAX,
  TOPIC_MAX,
} from '../../../src/core/limits.js';
import {
  type Answer,
  type Draft,
  itemsOf,
  type Question,
  type QuestionItem,
  type QuestionStatus,
  type Reply,
  type Selection,
} from '../../../src/core/question.js';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { answerOf } from '../../../src/core/reply.js';
import { inboxPageOf } from '../../support/inbox.js';
import { CREATED_AT, sized } from './fixtures.js';

// ---------------------------------------------------------------------------------------------------------------
// Raw input

/** Pieces texts are made of: Markdown, mentions, entities, emoji (surrogate pairs), accents. */
const piece = fc.constantFrom(
  'a',
  'Z',
  ' ',
  '@here',
  '@everyone',
  '**',
  '_',
  '`',
  '<@1234>',
  '&',
  '<',
  '😀',
  'é',
  '#',
  '-',
  '1',
);
const lineBreak = fc.constant('\n');

/**
 * A length: short, near the limit, or anywhere. `short` weighs the short ones (sets: their texts together must fit
 * 5000, so a set of texts all near their limits is refused; mostly short texts with some long ones get accepted).
 */
function lengthUpTo(max: number, short = 3) {
  return fc.oneof(
    { weight: short, arbitrary: fc.integer({ min: 1, max: Math.min(max, 24) }) },
    { weight: 2, arbitrary: fc.integer({ min: Math.max(1, max - 3), max }) },
    { weight: 2, arbitrary: fc.integer({ min: 1, max }) },
  );
}

/** A text of up to `max` characters (a pattern repeated), one line unless `multiline`. */
function text(max: number, multiline = false, short = 3) {
  const unit = multiline ? fc.oneof({ weight: 6, arbitrary: piece }, { weight: 1, arbitrary: lineBreak }) : piece;
  return fc
    .tuple(fc.string({ unit, minLength: 1, maxLength: 10 }), lengthUpTo(max, short))
    .map(([pattern, length]) => sized(pattern, length));
}

/** A set's text: mostly short. */
const setText = (max: number, multiline = false) => text(max, multiline, 12);

const optionOf = (t: typeof text) =>
  fc.record(
    { label: t(OPTION_LABEL_MAX), description: t(OPTION_DESCRIPTION_MAX), value: t(OPTION_VALUE_MAX) },
    { requiredKeys: ['label'] },
  );

/** One question's own fields: options, which are recommended, multi-select, blocking. */
const itemOf = (t: typeof text) =>
  fc
    .tuple(fc.array(optionOf(t), { minLength: 1, maxLength: OPTIONS_MAX }), fc.boolean(), fc.boolean(), fc.nat())
    .map(([options, multiSelect, isBlocking, seed]) => {
      const labels = options.map((o) => o.label);
      const recommended = multiSelect
        ? labels.filter((_, index) => (seed >> index) % 2 === 1)
        : seed % 3 === 0
          ? []
          : [labels[seed % labels.length] ?? ''];
      return {
        options,
        multiSelect,
        isBlocking,
        ...(recommended.length === 0 ? {} : { recommended: multiSelect ? recommended : recommended[0] }),
      };
    });

const commonOf = (t: typeof text) => ({
  context: t(CONTEXT_MAX, true),
  impact: t(IMPACT_MAX, true),
  ticket: t(TICKET_MAX),
  expiresInSeconds: fc.integer({ min: 60, max: 86_400 }),
});

const singleInput = fc
  .tuple(fc.record(commonOf(text), { requiredKeys: ['context', 'impact'] }), itemOf(text), text(QUESTION_MAX))
  .map(([shared, own, question]) => ({ ...shared, ...own, question }));

const memberInput = fc
  .tuple(
    itemOf(setText),
    fc.record(
      {
        topic: text(TOPIC_MAX),
        question: setText(QUESTION_MAX),
        context: setText(MEMBER_CONTEXT_MAX, true),
        impact: setText(MEMBER_IMPACT_MAX, true),
      },
      { requiredKeys: ['topic', 'question'] },
    ),
  )
  .map(([own, texts]) => ({ ...own, ...texts }));

const setInput = fc
  .tuple(
    fc.record(commonOf(setText), { requiredKeys: ['context', 'impact'] }),
    fc.array(memberInput, { minLength: SET_MEMBERS_MIN, maxLength: SET_MEMBERS_MAX }),
  )
  .map(([shared, questions]) => ({ ...shared, questions }));

// ---------------------------------------------------------------------------------------------------------------
// Answers and drafts, derived from the parked question with a seeded generator

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function notesOf(next: () => number): string | undefined {
  const roll = next();
  if (roll < 0.35) return undefined;
  const length =
    roll < 0.7 ? 1 + Math.floor(next() * 40) : roll < 0.85 ? NOTES_MAX : 1 + Math.floor(next() * NOTES_MAX);
  return sized('Notes @here **bold** `code`\n😀 and more ', length);
}

/** A selection of `target` a person could hold (not necessarily ready). */
function selectionOf(target: QuestionItem, next: () => number): Selection {
  const labels = target.options.map((o) => o.label);
  const choices = target.multiSelect
    ? labels.filter(() => next() < 0.5)
    : next() < 0.8
      ? [labels[Math.floor(next() * labels.length)] ?? '']
      : [];
  const other = (target.multiSelect || choices.length === 0) && next() < 0.3;
  const notes = notesOf(next);
  const choiceNotes = target.multiSelect
    ? choices.flatMap((choice) => {
        const text = notesOf(next);
        return text === undefined ? [] : [{ choice, notes: text }];
      })
    : [];
  return {
    choices,
    other,
    ...(notes === undefined ? {} : { notes }),
    ...(choiceNotes.length === 0 ? {} : { choiceNotes }),
  };
}

/** A ready form of `selection`: a pick, and notes with Other. */
function readied(target: QuestionItem, selection: Selection): Selection {
  const picked = selection.choices.length > 0 || selection.other;
  const base = picked ? selection : { ...selection, choices: [target.options[0]?.label ?? ''] };
  return base.other && !base.notes?.trim() ? { ...base, notes: 'Said in the notes.' } : base;
}

const by = { platform: 'discord', userId: '42', displayName: 'Ada @everyone' } as const;

/** An answer the store accepts: the generated one, else with fewer notes, else the first option of each item. */
function acceptedAnswer(question: Question, next: () => number): Answer {
  const items = itemsOf(question);
  const selections = items.map((target) => readied(target, selectionOf(target, next)));
  const reply = (list: Selection[]): Reply =>
    question.members === undefined ? (list[0] as Selection) : { members: list };
  const tries: Selection[][] = [
    selections,
    selections.map(({ choiceNotes: _c, ...rest }) => rest),
    selections.map(({ choiceNotes: _c, notes, ...rest }) => (rest.other ? { ...rest, notes: 'x' } : rest)),
    items.map((target) => ({ choices: [target.options[0]?.label ?? ''], other: false })),
  ];
  for (const attempt of tries) {
    try {
      return answerOf(question, reply(attempt), { by, at: CREATED_AT + 60_000 });
    } catch {
      // The store would refuse it: try a smaller one.
    }
  }
  throw new Error('no accepted answer');
}

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
        renderEverything(question, drafts, acceptedAnswer(question, next));
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
