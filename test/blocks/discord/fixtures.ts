/** Questions for the Discord renderer tests: an ordinary one and the longest ones the question limits accept. */

import type { APIEmbed } from 'discord-api-types/v10';
import {
  CONTEXT_MAX,
  DISPLAY_NAME_MAX,
  IMPACT_MAX,
  NOTES_MAX,
  OPTION_DESCRIPTION_MAX,
  OPTION_LABEL_MAX,
  OPTIONS_MAX,
  QUESTION_MAX,
  TICKET_MAX,
} from '../../../src/core/limits.js';
import type { Answer, Question, QuestionOption } from '../../../src/core/question.js';

export const CREATED_AT = Date.UTC(2026, 9, 1, 9, 30);

/** A pending blocking question, 2 options, the first recommended. */
export function makeQuestion(overrides: Partial<Question> = {}): Question {
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
    recommended: 'Use Postgres',
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
export function extremeQuestion(overrides: Partial<Question> = {}): Question {
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
    recommended: options[2]?.label ?? '',
    multiSelect: true,
    expiresAt: CREATED_AT + 86_400_000,
    ...overrides,
  });
}

/** The longest answer to `question`: every option and Other, 3000 characters of notes, the longest name. */
export function extremeAnswer(question: Question): Answer {
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
