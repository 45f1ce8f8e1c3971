/**
 * Anything `ask_later` accepts renders on Slack within its limits, in every state: random tool input (single
 * questions and sets, texts biased to their limits and to the characters escaping lengthens), kept when
 * `parseAskInput` accepts it, parked, and drawn with random drafts and answers (answers as the store takes them:
 * through `answerOf`) as the question message, the notes modal of every item, the review modal and the inbox.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAskInput } from '../../../src/core/ask-input.js';
import type { InboxItem } from '../../../src/core/inbox.js';
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
  SET_TEXT_MAX,
  setTextLength,
  TICKET_MAX,
  TOPIC_MAX,
} from '../../../src/core/limits.js';
import {
  type Answer,
  type Draft,
  itemsOf,
  type Question,
  type QuestionItem,
  type Selection,
  selectionsOf,
} from '../../../src/core/question.js';
import { answerOf } from '../../../src/core/reply.js';
import { renderInbox } from '../../../src/render/slack/inbox.js';
import { blockTextLength, SLACK_LIMITS } from '../../../src/render/slack/limits.js';
import { renderNotesModal } from '../../../src/render/slack/notes-modal.js';
import { renderQuestionMessage } from '../../../src/render/slack/question-message.js';
import { renderReviewModal } from '../../../src/render/slack/review-modal.js';
import type { MessageBlock } from '../../../src/render/slack/types.js';
import { reviewOf } from '../../../src/surfaces/interactions.js';
import { inboxPageOf } from '../../support/inbox.js';
import { CREATED_AT, textObjects } from './fixtures.js';

// ---------------------------------------------------------------------------------------------------------------
// Raw tool input

const LINE_UNITS = ['a', 'Z', '7', ' ', '-', '&', '<', '>', '*', '_', '`', '~', 'é', '★', '😀'];
const MARKDOWN_UNITS = [...LINE_UNITS, '\n', '#', '|', '&', '<'];

/** `pattern` repeated to `length` UTF-16 units, never ending inside a surrogate pair. */
function fill(pattern: string, length: number): string {
  let text = pattern.repeat(Math.ceil(length / pattern.length)).slice(0, length);
  const last = text.charCodeAt(text.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) text = `${text.slice(0, -1)}x`;
  return text;
}

/** A text of at most `max` units, often exactly `max`: a short random pattern repeated (`&&&…`, `a<😀a<😀…`). */
function text(max: number, units: readonly string[] = LINE_UNITS, min = 1): fc.Arbitrary<string> {
  const length = fc.oneof(
    { weight: 2, arbitrary: fc.constant(max) },
    { weight: 3, arbitrary: fc.integer({ min, max }) },
  );
  const pattern = fc.array(fc.constantFrom(...units), { minLength: 1, maxLength: 6 }).map((parts) => parts.join(''));
  return fc.tuple(pattern, length).map(([p, n]) => fill(p, n));
}

const markdown = (max: number) => text(max, MARKDOWN_UNITS);

interface RawOption {
  label: string;
  value?: string;
  description?: string;
}

/** 1 to 6 options, labels made unique by their index, sometimes with values and descriptions. */
const options: fc.Arbitrary<RawOption[]> = fc.integer({ min: 1, max: OPTIONS_MAX }).chain((count) =>
  fc.tuple(
    ...Array.from({ length: count }, (_, index) =>
      fc.record(
        {
          label: text(OPTION_LABEL_MAX - 1).map((label) => `${index}${label}`),
          value: text(OPTION_VALUE_MAX - 1).map((value) => `${index}${value}`),
          description: text(OPTION_DESCRIPTION_MAX),
        },
        { requiredKeys: ['label'] },
      ),
    ),
  ),
);

/** What one question picks from: options, recommendation(s), multi-select, blocking. */
const item = fc
  .record({ options, multiSelect: fc.boolean(), isBlocking: fc.boolean(), question: text(QUESTION_MAX) })
  .chain((base) =>
    fc
      .subarray(base.options.map((option) => option.label))
      .map((labels) => (base.multiSelect ? labels : labels.slice(0, 1)))
      .map((labels) =>
        labels.length === 0
          ? base
          : { ...base, recommended: labels.length === 1 && !base.multiSelect ? (labels[0] as string) : labels },
      ),
  );

const singleInput = fc.record(
  {
    context: markdown(CONTEXT_MAX),
    impact: markdown(IMPACT_MAX),
    ticket: text(TICKET_MAX),
    expiresInSeconds: fc.integer({ min: 60, max: 30 * 24 * 3600 }),
    item,
  },
  { requiredKeys: ['context', 'impact', 'item'] },
);

const member = fc.record(
  { topic: text(TOPIC_MAX - 1), item, context: markdown(MEMBER_CONTEXT_MAX), impact: markdown(MEMBER_IMPACT_MAX) },
  { requiredKeys: ['topic', 'item'] },
);

const setInput = fc.record(
  {
    context: markdown(CONTEXT_MAX),
    impact: markdown(IMPACT_MAX),
    ticket: text(TICKET_MAX),
    members: fc.array(member, { minLength: SET_MEMBERS_MIN, maxLength: SET_MEMBERS_MAX }),
  },
  { requiredKeys: ['context', 'impact', 'members'] },
);

type RawMember = { topic: string; context?: string; impact?: string } & Record<string, unknown>;

/**
 * The set's texts cut until they fit `SET_TEXT_MAX` (longest first): the generator aims at the limit, and
 * `parseAskInput` still decides what is accepted.
 */
function fitSet(raw: { context: string; impact: string; ticket?: string; questions: RawMember[] }): typeof raw {
  const measure = () =>
    setTextLength({
      ...raw,
      members: raw.questions.map((m) => ({
        topic: m.topic,
        question: String(m.question),
        options: m.options as RawOption[],
        ...(m.context === undefined ? {} : { context: m.context }),
        ...(m.impact === undefined ? {} : { impact: m.impact }),
      })),
    });
  for (let round = 0; round < 200 && measure() > SET_TEXT_MAX; round++) {
    const over = measure() - SET_TEXT_MAX;
    // Every cuttable text with a setter, the longest first.
    const texts: { length: number; cut: (to: number) => void }[] = [
      {
        length: raw.context.length,
        cut: (to) => {
          raw.context = fill(raw.context, to);
        },
      },
      {
        length: raw.impact.length,
        cut: (to) => {
          raw.impact = fill(raw.impact, to);
        },
      },
    ];
    for (const m of raw.questions) {
      if (m.context !== undefined)
        texts.push({
          length: m.context.length,
          cut: (to) => {
            m.context = fill(m.context ?? '', to);
          },
        });
      if (m.impact !== undefined)
        texts.push({
          length: m.impact.length,
          cut: (to) => {
            m.impact = fill(m.impact ?? '', to);
          },
        });
      texts.push({
        length: String(m.question).length,
        cut: (to) => {
          m.question = fill(String(m.question), to);
        },
      });
      for (const option of m.options as RawOption[]) {
        if (option.description !== undefined) {
          texts.push({
            length: option.description.length,
            cut: (to) => {
              option.description = fill(option.description ?? '', to);
            },
          });
        }
      }
    }
    const longest = texts.sort((a, b) => b.length - a.length)[0];
    if (longest === undefined || longest.length <= 1) break;
    longest.cut(Math.max(1, longest.length - over));
  }
  return raw;
}

type Raw = fc.Arbitrary<Record<string, unknown>>;

const rawInput: Raw = fc.oneof(
  singleInput.map(({ item: one, ...rest }) => ({ ...rest, ...one })),
  setInput.map(({ members, ...rest }) =>
    fitSet({
      ...rest,
      questions: members.map(({ item: one, topic, ...own }, index) => ({ ...own, topic: `${index}${topic}`, ...one })),
    }),
  ),
);

// ---------------------------------------------------------------------------------------------------------------
// Drafts and answers for a parked question

function draftOf(target: QuestionItem): fc.Arbitrary<Draft | undefined> {
  const labels = target.options.map((option) => option.label);
  return fc
    .option(
      fc.record({
        choices: fc.subarray(labels),
        other: fc.boolean(),
        notes: fc.option(text(NOTES_MAX, MARKDOWN_UNITS), { nil: undefined }),
        choiceNotes: target.multiSelect
          ? fc
              .subarray(labels)
              .chain((picked) =>
                fc.tuple(
                  ...picked.map((choice) => text(NOTES_MAX, MARKDOWN_UNITS).map((notes) => ({ choice, notes }))),
                ),
              )
          : fc.constant([]),
        updatedAt: fc.integer({ min: 0, max: 2 ** 45 }),
      }),
      { nil: undefined },
    )
    .map((draft) => {
      if (draft === undefined) return undefined;
      const { notes, choiceNotes, ...rest } = draft;
      return {
        ...rest,
        ...(notes === undefined ? {} : { notes }),
        ...(choiceNotes.length === 0 ? {} : { choiceNotes }),
      };
    });
}

/** A ready selection for `target`, with notes (and notes per picked option) of `length` characters at most. */
function readySelection(target: QuestionItem): fc.Arbitrary<(length: number) => Selection> {
  const labels = target.options.map((option) => option.label);
  const picks = target.multiSelect
    ? fc.record({ choices: fc.subarray(labels), other: fc.boolean() }).filter((p) => p.choices.length > 0 || p.other)
    : fc.oneof(
        fc.constantFrom(...labels).map((label) => ({ choices: [label], other: false })),
        fc.constant({ choices: [] as string[], other: true }),
      );
  return fc
    .tuple(picks, fc.constantFrom(...MARKDOWN_UNITS.filter((unit) => unit.trim() !== '')), fc.boolean())
    .map(([pick, unit, withNotes]) => (length: number) => {
      const notes = fill(`${unit}x`, Math.max(1, length));
      return {
        ...pick,
        ...(withNotes || pick.other ? { notes } : {}),
        ...(target.multiSelect && pick.choices.length > 0
          ? { choiceNotes: pick.choices.map((choice) => ({ choice, notes })) }
          : {}),
      };
    });
}

/** The store's answer: the longest notes (from NOTES_MAX down) that one delivery note still holds. */
function storedAnswer(question: Question, makers: readonly ((length: number) => Selection)[], name: string): Answer {
  for (let length = NOTES_MAX; length >= 1; length = Math.floor(length * 0.8)) {
    const selections = makers.map((make) => make(length));
    const reply = question.members === undefined ? (selections[0] as Selection) : { members: selections };
    try {
      return answerOf(question, reply, {
        by: { platform: 'slack', userId: 'U1', displayName: name },
        at: CREATED_AT + 1,
      });
    } catch {
      // too long for one delivery note: shorter notes
    }
  }
  throw new Error('no answer fits');
}

// ---------------------------------------------------------------------------------------------------------------
// Checks

function allText(blocks: readonly MessageBlock[]): string {
  return [
    ...textObjects(blocks).map(({ text: t }) => t.text),
    ...blocks.flatMap((block) => (block.type === 'markdown' ? [block.text] : [])),
  ].join('\n');
}

const squash = (value: string) => value.replace(/\s+/g, '');
const escaped = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function expectMessageFits(blocks: readonly MessageBlock[]): void {
  expect(blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.messageBlocks);
  expect(blockTextLength(blocks)).toBeLessThanOrEqual(SLACK_LIMITS.messageBlockText);
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

describe('property: every accepted question renders on Slack within its limits', () => {
  it('GIVEN random ask_later input that parseAskInput accepts THEN its message in every state, its notes modals, its review and its inbox entry fit Slack', () => {
    let accepted = 0;
    let sets = 0;
    fc.assert(
      fc.property(rawInput, fc.gen(), fc.integer({ min: 1, max: 999_999_999 }), (raw, g, id) => {
        const parsed = parseAskInput(raw);
        if (!parsed.ok) return;
        accepted += 1;
        const { waitSeconds: _wait, ...spec } = parsed.value;
        const question = {
          ...spec,
          project: `/home/${g(() => text(200))}/repo`,
          id,
          status: 'pending',
          ...(id % 2 === 0 ? { askedBefore: [WORST_EARLIER, WORST_EARLIER, WORST_EARLIER] } : {}),
          createdAt: CREATED_AT,
          ...(spec.expiresInSeconds === undefined ? {} : { expiresAt: CREATED_AT + spec.expiresInSeconds * 1000 }),
          messages: [],
        } as Question;
        const items = itemsOf(question);
        if (question.members !== undefined) sets += 1;
        const drafts = items.map((target) => g(() => draftOf(target)));
        const name = g(() => text(80));

        // Pending: every Context and Impact kept, within the budgets.
        const pending = renderQuestionMessage(question, { drafts, draftBy: name, revision: 2 ** 45 });
        expectMessageFits(pending.blocks);
        const contexts = 2 + (question.members ?? []).reduce((n, m) => n + (m.context ? 1 : 0) + (m.impact ? 1 : 0), 0);
        expect(pending.blocks.filter((block) => block.type === 'markdown')).toHaveLength(contexts);

        // Answered and delivered, as the store would hold the answer: every note shown in full.
        const answer = storedAnswer(
          question,
          items.map((target) => g(() => readySelection(target))),
          name,
        );
        for (const status of ['answered', 'delivered'] as const) {
          const message = renderQuestionMessage(
            { ...question, status, answer, deliveredAt: CREATED_AT + 2 },
            { revision: 1 },
          );
          expectMessageFits(message.blocks);
          const shown = squash(allText(message.blocks));
          for (const selection of selectionsOf(answer)) {
            for (const notes of [selection.notes ?? '', ...(selection.choiceNotes ?? []).map((entry) => entry.notes)]) {
              expect(shown.includes(squash(notes)) || shown.includes(squash(escaped(notes)))).toBe(true);
            }
          }
        }
        for (const status of ['cancelled', 'dismissed', 'expired'] as const) {
          const closure = { at: CREATED_AT + 3, by: { platform: 'discord' as const, userId: 'D1', displayName: name } };
          expectMessageFits(renderQuestionMessage({ ...question, status, closure }, { revision: 1 }).blocks);
        }

        // The notes modal of every item, the review, one page of the inbox full of entries like this one.
        for (const [index] of items.entries()) {
          const member = question.members === undefined ? undefined : index;
          expect(renderNotesModal(question, drafts[index], member).blocks.length).toBeLessThanOrEqual(100);
        }
        expect(renderReviewModal(question, reviewOf(question, drafts).lines).blocks.length).toBeLessThanOrEqual(100);
        const entries: InboxItem[] = Array.from({ length: 40 }, (_, n) => ({
          question: { ...question, id: n + 1, createdAt: CREATED_AT + n },
          ...(question.members === undefined
            ? drafts[0] === undefined
              ? {}
              : { draft: drafts[0] }
            : { memberDrafts: drafts }),
        }));
        const inbox = renderInbox(inboxPageOf(entries, 'all', 0, 31), { filter: 'all' }, 'home');
        expect(inbox.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.viewBlocks);
      }),
      { numRuns: 150 },
    );
    // The generator reaches what matters: most inputs are accepted, sets among them.
    expect(accepted).toBeGreaterThan(75);
    expect(sets).toBeGreaterThan(20);
  });
});
