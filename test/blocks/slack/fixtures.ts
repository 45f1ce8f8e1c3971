/** Questions for the Slack renderer tests: an ordinary one and the longest ones the question limits accept. */

import type { TextObject } from '@slack/types';
import type { MessageBlock, ViewBlock } from '../../../src/blocks/slack/types.js';
import {
  CONTEXT_MAX,
  IMPACT_MAX,
  OPTION_DESCRIPTION_MAX,
  OPTION_LABEL_MAX,
  OPTIONS_MAX,
  QUESTION_MAX,
  TICKET_MAX,
} from '../../../src/core/limits.js';
import type { Question, QuestionOption, SingleSpec } from '../../../src/core/question.js';

/** A parked single question (the fixtures' questions are never sets). */
export type SingleQuestion = Question & SingleSpec;

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
  'Sessions are **in memory** & _lost_ on deploy. See `src/session.ts`:',
  '',
  '- one',
  '- two <script>alert(1)</script>',
  '1. numbered & more',
  '',
  '```ts',
  'const store = new Map<string, Session>(); // a < b && b > c',
  '```',
  '',
  '> quoted <!channel> text',
  '',
].join('\n');

/**
 * The extreme question: 6 options at the longest label and description, the longest context (Markdown with bold,
 * lists, code, `<script>` and `&`), impact, question and ticket, multi-select, a long project path.
 * `fill` fills the free-text fields instead (e.g. `&`, which escapes to 5 characters: the worst case for mrkdwn).
 */
export function extremeQuestion(fill?: string, overrides: Partial<SingleQuestion> = {}): SingleQuestion {
  const options: QuestionOption[] = Array.from({ length: OPTIONS_MAX }, (_, index) => ({
    label: `${index}${sized(fill ?? 'Label <b> & more ', OPTION_LABEL_MAX - 1)}`,
    description: sized(fill ?? 'Description & <i>details</i> ', OPTION_DESCRIPTION_MAX),
  }));
  return makeQuestion({
    project: `/${sized(fill ?? 'deep/path/', 300)}/repo-${sized(fill ?? 'name', 120)}`,
    id: 123_456_789,
    context: sized(fill ?? MARKDOWN, CONTEXT_MAX),
    impact: sized(fill ?? '**Impact** & <consequences>\n- a\n- b\n', IMPACT_MAX),
    question: sized(fill ?? 'Should we <really> use A & B? ', QUESTION_MAX),
    ticket: sized(fill ?? 'PROJ-12<&>', TICKET_MAX),
    options,
    recommended: [options[2]?.label ?? ''],
    multiSelect: true,
    ...overrides,
  });
}

type Block = MessageBlock | ViewBlock;

/** Every text object in `blocks`, with the type of block it sits in. */
export function textObjects(blocks: readonly Block[]): { block: Block['type']; text: TextObject }[] {
  const found: { block: Block['type']; text: TextObject }[] = [];
  const visit = (block: Block, node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(block, item);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const candidate = node as { type?: unknown; text?: unknown };
    if ((candidate.type === 'mrkdwn' || candidate.type === 'plain_text') && typeof candidate.text === 'string') {
      found.push({ block: block.type, text: candidate as TextObject });
      return;
    }
    for (const value of Object.values(node)) visit(block, value);
  };
  for (const block of blocks) visit(block, block);
  return found;
}

/** The mrkdwn texts of `blocks` (sections and context lines). */
export function mrkdwnTexts(blocks: readonly Block[]): string[] {
  return textObjects(blocks)
    .filter(({ text }) => text.type === 'mrkdwn')
    .map(({ text }) => text.text);
}
