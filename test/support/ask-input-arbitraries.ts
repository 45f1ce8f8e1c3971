/**
 * Generators for the platform property tests (test/render/<platform>/property.test.ts): raw `ask_later` input, single
 * questions and sets, texts from short to their limits made of Markdown, mentions, entities, emoji and each
 * platform's own tricky pieces; and answers and drafts derived from a parked question with a seeded generator.
 */
import fc from 'fast-check';
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
} from '../../src/core/limits.js';
import {
  type Answer,
  itemsOf,
  type Question,
  type QuestionItem,
  type Reply,
  type Responder,
  type Selection,
} from '../../src/core/question.js';
import { answerOf } from '../../src/core/reply.js';
import { CREATED_AT, sized } from '../render/discord/fixtures.js';

/** Pieces every platform's texts are made of: Markdown, mentions, entities, emoji (surrogate pairs), accents. */
const PIECES = ['a', 'Z', ' ', '@here', '@everyone', '**', '_', '`', '&', '<', '😀', 'é', '#', '-', '1'];

/** Raw tool input, a single question and a set, with `platformPieces` (`<@1234>`, `&amp;`) among the pieces. */
export function askInputArbitraries(platformPieces: readonly string[]) {
  const piece = fc.constantFrom(...PIECES, ...platformPieces);
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
  return { singleInput, setInput };
}

// ---------------------------------------------------------------------------------------------------------------
// Answers and drafts, derived from the parked question with a seeded generator

export function random(seed: number): () => number {
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
export function selectionOf(target: QuestionItem, next: () => number): Selection {
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

/** An answer the store accepts: the generated one, else with fewer notes, else the first option of each item. */
export function acceptedAnswer(question: Question, next: () => number, by: Responder): Answer {
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
