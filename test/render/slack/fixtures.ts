/** Questions for the Slack renderer tests: an ordinary one and the longest ones the question limits accept. */

import type { TextObject } from '@slack/types';
import {
  CONTEXT_MAX,
  IMPACT_MAX,
  MEMBER_CONTEXT_MAX,
  MEMBER_IMPACT_MAX,
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
import type { Question, QuestionOption, SetMember, SetSpec, SingleSpec } from '../../../src/core/question.js';
import type { MessageBlock, ViewBlock } from '../../../src/render/slack/types.js';
import { setSpec } from '../../support/store.js';

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

/** A parked set. */
export type SetQuestion = Question & SetSpec;

/**
 * A pending blocking set #12 of three: Database (single-select, recommended Postgres, blocking), Caches
 * (multi-select, two recommended, its own context), Naming (no recommendation, its own impact).
 */
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

/** How an extreme set spends its 5,000 characters (`SET_TEXT_MAX`). */
export type SetShape = 'options' | 'members' | 'context';

/**
 * The largest sets `ask_later` accepts: 4 members of 6 options each, multi-select with every option recommended,
 * every text `fill` (default Markdown and `<&>`), spending `SET_TEXT_MAX` exactly:
 * - `options`: every topic, label and description at its limit, the questions at theirs, the rest in the set's
 *   context and impact (the most text escaped or shown twice: labels sit in the list and the picker);
 * - `members`: labels at their limit without descriptions, each member's own context and impact filling the rest;
 * - `context`: the set's context and impact at their single-question limits, the members short.
 */
export function extremeSet(shape: SetShape, fill?: string): SetQuestion {
  const members = Array.from({ length: SET_MEMBERS_MAX }, (_, index): SetMember => {
    const short = shape === 'context';
    const options: QuestionOption[] = Array.from({ length: OPTIONS_MAX }, (_unused, option) => ({
      label: `${index}${option}${sized(fill ?? 'Label <b> & more ', short ? 8 : OPTION_LABEL_MAX - 2)}`,
      ...(shape === 'options'
        ? { description: sized(fill ?? 'Description & <i>details</i> ', OPTION_DESCRIPTION_MAX) }
        : {}),
    }));
    return {
      topic: `${index}${sized(fill ?? 'Topic & <t> ', TOPIC_MAX - 1)}`,
      question: sized(fill ?? 'Should we <really> use A & B? ', short ? 144 : QUESTION_MAX),
      options,
      recommended: options.map((option) => option.label),
      multiSelect: true,
      isBlocking: index % 2 === 0,
    };
  });
  const base: SetQuestion = {
    ...makeSet({ id: 123_456_789, project: `/${sized(fill ?? 'deep/path/', 300)}/repo-${sized(fill ?? 'name', 120)}` }),
    ticket: sized(fill ?? 'PROJ-12<&>', TICKET_MAX),
    members,
    context: 'x',
    impact: 'x',
  };
  const room = SET_TEXT_MAX - setTextLength(base) + 2;
  if (shape === 'members') {
    const each = Math.floor(room / (2 * SET_MEMBERS_MAX)) - 1;
    const withTexts = members.map((member) => ({
      ...member,
      context: sized(fill ?? MARKDOWN, Math.min(each, MEMBER_CONTEXT_MAX)),
      impact: sized(fill ?? '**Impact** & <consequences>\n- a\n', Math.min(each, MEMBER_IMPACT_MAX)),
    }));
    const spent = setTextLength({ ...base, members: withTexts });
    const left = SET_TEXT_MAX - spent + 2;
    return { ...base, members: withTexts, context: sized(fill ?? MARKDOWN, left - 1), impact: 'x' };
  }
  const context = Math.min(CONTEXT_MAX, room - 1);
  return {
    ...base,
    context: sized(fill ?? MARKDOWN, context),
    impact: sized(fill ?? '**Impact** & <consequences>\n- a\n- b\n', Math.min(IMPACT_MAX, room - context)),
  };
}
