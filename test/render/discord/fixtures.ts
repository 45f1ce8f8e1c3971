/**
 * Questions for the Discord renderer tests: an ordinary one and the longest ones the question limits accept; sets of
 * questions likewise.
 */

import type { APIEmbed } from 'discord-api-types/v10';
import {
  CONTEXT_MAX,
  DISPLAY_NAME_MAX,
  IMPACT_MAX,
  MEMBER_CONTEXT_MAX,
  MEMBER_IMPACT_MAX,
  NOTES_MAX,
  OPTION_DESCRIPTION_MAX,
  OPTION_LABEL_MAX,
  OPTIONS_MAX,
  QUESTION_MAX,
  SET_MEMBERS_MAX,
  SET_TEXT_MAX,
  setTextLength,
  TICKET_MAX,
  TOPIC_MAX,
} from '../../../src/core/limits.js';
import type {
  AnswerMeta,
  Question,
  QuestionOption,
  Selection,
  SetMember,
  SetSelection,
  SetSpec,
  SingleSpec,
} from '../../../src/core/question.js';
import { setSpec } from '../../support/store.js';

/** A single question in any state. */
export type SingleQuestion = Question & SingleSpec;
/** A set in any state. */
export type SetQuestion = Question & SetSpec;

export const CREATED_AT = Date.UTC(2026, 9, 1, 9, 30);

/** A pending blocking question, 2 options, the first recommended. */
export function makeQuestion(overrides: Partial<SingleQuestion> = {}): SingleQuestion {
  return {
    project: '/home/ada/src/shop',
    id: 7,
    status: 'pending',
    createdAt: CREATED_AT,
    context: 'Sessions live in memory, so a deploy logs everyone out.',
    question: 'Which store should sessions use?',
    impact: 'Decides what the deploy needs.',
    isBlocking: true,
    options: [
      { label: 'Use Postgres', description: 'already running' },
      { label: 'Use Redis', description: 'faster, one more service' },
    ],
    recommended: ['Use Postgres'],
    multiSelect: false,
    ticket: 'SHOP-12',
    messages: [],
    ...overrides,
  };
}

/** `text` repeated or cut to exactly `length` characters. */
export function sized(text: string, length: number): string {
  return text.repeat(Math.ceil(length / text.length)).slice(0, length);
}

const MARKDOWN = [
  '## What we found',
  '',
  'Sessions are **in memory** & _lost_ on deploy. See `src/session.ts`, ping @everyone and @here:',
  '',
  '- one',
  '- two <script>alert(1)</script> <@123456789012345678>',
  '1. numbered & more',
  '',
  '```ts',
  'const store = new Map<string, Session>(); // a < b && b > c',
  '```',
  '',
  '> quoted text',
  '',
].join('\n');

/**
 * The extreme question: 6 options at the longest label and description, the longest context (Markdown with
 * headings, lists, code, mentions), impact, question and ticket, multi-select, a long project path.
 */
export function extremeQuestion(overrides: Partial<SingleQuestion> = {}): SingleQuestion {
  const options: QuestionOption[] = Array.from({ length: OPTIONS_MAX }, (_, index) => ({
    label: `${index}${sized('Label **bold** @here ', OPTION_LABEL_MAX - 1)}`,
    description: sized('Description _with_ @everyone details ', OPTION_DESCRIPTION_MAX),
  }));
  return makeQuestion({
    project: `/${sized('deep/path/', 300)}/repo-${sized('name', 120)}`,
    id: 123_456_789,
    context: sized(MARKDOWN, CONTEXT_MAX),
    impact: sized('**Impact** @everyone <consequences>\n- a\n- b\n', IMPACT_MAX),
    question: sized('Should we @here really use A & B? ', QUESTION_MAX),
    ticket: sized('PROJ-12<&>', TICKET_MAX),
    options,
    recommended: [options[2]?.label ?? ''],
    multiSelect: true,
    expiresAt: CREATED_AT + 86_400_000,
    ...overrides,
  });
}

/** The longest answer to `question`: every option and Other, 3000 characters of notes, the longest name. */
export function extremeAnswer(question: SingleQuestion): Selection & AnswerMeta {
  return {
    choices: question.options.map((option) => option.label),
    other: true,
    notes: sized('Notes with @everyone and `code` and **bold**.\n', NOTES_MAX),
    by: { platform: 'discord', userId: '42', displayName: sized('Ada @here Lovelace ', DISPLAY_NAME_MAX) },
    at: CREATED_AT + 60_000,
  };
}

/** Every shown text of `embeds` (author, title, description, field names and values, footer). */
export function embedTexts(embeds: readonly APIEmbed[]): string[] {
  return embeds.flatMap((embed) => [
    ...(embed.author === undefined ? [] : [embed.author.name]),
    ...(embed.title === undefined ? [] : [embed.title]),
    ...(embed.description === undefined ? [] : [embed.description]),
    ...(embed.fields ?? []).flatMap((field) => [field.name, field.value]),
    ...(embed.footer === undefined ? [] : [embed.footer.text]),
  ]);
}

/** A pending set of three, like `test/support/store.ts`'s `setSpec`: Database (single, recommended), Caches (multi,
 * two recommended, its own context), Naming (no recommendation, its own impact). */
export function makeSet(overrides: Partial<SetQuestion> = {}): SetQuestion {
  return {
    ...setSpec({ ticket: 'SHOP-12' }),
    project: '/home/ada/src/shop',
    id: 12,
    status: 'pending',
    createdAt: CREATED_AT,
    messages: [],
    ...overrides,
  };
}

/** The shapes of the largest sets the limits accept: each has `setTextLength` exactly {@link SET_TEXT_MAX}. */
export type ExtremeSetShape = 'options' | 'shared text' | 'member text';

/** How long each member's question is, so the shape's other texts fit the set's total. */
const QUESTION_LENGTH: Readonly<Record<ExtremeSetShape, number>> = {
  options: 150,
  'shared text': 50,
  'member text': 100,
};

function extremeMember(index: number, shape: ExtremeSetShape): SetMember {
  const optionCount = shape === 'options' ? OPTIONS_MAX : 1;
  const options: QuestionOption[] = Array.from({ length: optionCount }, (_, option) => ({
    label: `${index}${option}${sized('Label **bold** @here ', OPTION_LABEL_MAX - 2)}`,
    description: sized('Description _with_ @everyone details ', OPTION_DESCRIPTION_MAX),
    value: `v${option}`,
  }));
  const multiSelect = index % 2 === 1;
  return {
    topic: `${index}${sized('Topic @everyone ', TOPIC_MAX - 1)}`,
    question: sized('Should we @here really use A & B? ', QUESTION_LENGTH[shape]),
    options,
    recommended: multiSelect ? options.slice(0, 2).map((o) => o.label) : [options[0]?.label ?? ''],
    multiSelect,
    isBlocking: index % 2 === 0,
    ...(shape === 'member text'
      ? {
          context: sized('Member **context** @here\n', index < 2 ? MEMBER_CONTEXT_MAX : 100),
          impact: sized('Member impact @everyone ', index < 1 ? MEMBER_IMPACT_MAX : 100),
        }
      : {}),
  };
}

/**
 * The largest set of `shape`: 4 members (`options`: 6 options each at the longest label and description;
 * `shared text`: context and impact at their limits; `member text`: two members adding context and impact at their
 * limits), the longest ticket and id and a long project path, a shared context filling {@link SET_TEXT_MAX} exactly.
 */
export function extremeSet(shape: ExtremeSetShape, overrides: Partial<SetQuestion> = {}): SetQuestion {
  const members = Array.from({ length: SET_MEMBERS_MAX }, (_, index) => extremeMember(index, shape));
  const impact = sized('**Impact** @everyone <consequences>\n- a\n- b\n', shape === 'shared text' ? IMPACT_MAX : 100);
  const ticket = sized('PROJ-12<&>', TICKET_MAX);
  const base = { context: '', impact, ticket, members };
  const room = SET_TEXT_MAX - setTextLength(base);
  if (room < 1) throw new Error(`extremeSet(${shape}) is over the set limit by ${1 - room}`);
  const set = makeSet({
    project: `/${sized('deep/path/', 300)}/repo-${sized('name', 120)}`,
    id: 123_456_789,
    context: sized(MARKDOWN, Math.min(room, CONTEXT_MAX)),
    impact,
    ticket,
    members,
    expiresAt: CREATED_AT + 86_400_000,
    ...overrides,
  });
  return set;
}

/**
 * The longest answer to a set: every option and Other on multi-selects (the first option and notes on the others),
 * notes of {@link NOTES_MAX} everywhere, notes on every picked option. More than the store accepts (one delivery note
 * holds ~9,000 characters), so it is the renderers' worst case.
 */
export function extremeSetAnswer(set: SetQuestion): SetSelection & AnswerMeta {
  return {
    members: set.members.map((member) => {
      const choices = member.multiSelect ? member.options.map((o) => o.label) : [member.options[0]?.label ?? ''];
      return {
        choices,
        other: member.multiSelect,
        notes: sized('Notes with @everyone and `code` and **bold**.\n', NOTES_MAX),
        ...(member.multiSelect
          ? {
              choiceNotes: choices.map((choice) => ({ choice, notes: sized(`On ${choice}: more @here\n`, NOTES_MAX) })),
            }
          : {}),
      };
    }),
    by: { platform: 'discord', userId: '42', displayName: sized('Ada @here Lovelace ', DISPLAY_NAME_MAX) },
    at: CREATED_AT + 60_000,
  };
}
