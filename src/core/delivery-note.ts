/**
 * The delivery note: the text that brings the agent the outcomes of the questions it parked (answers, dismissals,
 * expiries), once: added to the person's prompt or to a tool's result by a hook, or returned by `collect_answers`.
 * Pure.
 *
 * The note is written for a model. It says where it comes from and whose words are whose: the question texts are
 * the agent's own, the answers and notes are the person's. Text a person typed (notes, display names) cannot fake
 * the note's structure: single-line fields lose their line breaks, and every notes line is quoted with "> ", so no
 * note can start a new `### #8` entry, a footer, or anything else at the start of a line.
 */
import { describeSelection } from './answer.js';
import {
  memberRef,
  optionValue,
  placeAndUserOf,
  type Question,
  type QuestionItem,
  type Responder,
  type Selection,
  selectionsOf,
} from './question.js';

export const DELIVERY_NOTE_BUDGET = 9000; // Claude Code moves hook output over 10,000 chars to a file; stay well under

const HEADER = [
  '## ask-later: outcomes of the questions you parked',
  '',
  'This note comes from ask-later, not from the person typing the prompt. The question texts are your own: you ' +
    'parked them with the ask_later tool (or asked them with a tool of your own, which ask-later parked). The answers and the notes (each notes line quoted with "> ") are the ' +
    "person's words. Each outcome is reported once.",
].join('\n');

/** Between the header, the entries and the footer. Counted with each entry by {@link deliveryEntryLength}. */
const SEPARATOR = '\n\n';

/** The advice that closes a dismissed or expired entry: nobody is going to answer it. */
const UNANSWERED_ADVICE =
  'Nobody answered it: decide it yourself, or park it again with ask_later if a person must decide.';

/** Characters available for entries inside a note of `budget` characters: the header and the longest possible "N more wait" line are reserved. */
export function deliveryEntriesBudget(budget: number = DELIVERY_NOTE_BUDGET): number {
  const longestFooter =
    SEPARATOR.length + Math.max(...NEXT_DELIVERY.map((next) => footer(Number.MAX_SAFE_INTEGER, next).length));
  return Math.max(0, budget - HEADER.length - longestFooter);
}

/**
 * The text of one question's entry (status answered/delivered with answer, dismissed, or expired). A set is one
 * entry: its header, then each member under its own `#### #12.1 Topic` heading with its question and answer.
 */
export function renderDeliveryEntry(q: Question): string {
  const answer = q.answer;
  if ((q.status === 'answered' || q.status === 'delivered') && answer !== undefined) {
    const selections = selectionsOf(answer);
    const by = `By ${who(answer.by)} at ${isoTime(answer.at)}`;
    if (q.members === undefined) {
      return [
        `### #${q.id} answered`,
        ...originLines(q),
        ...questionLines(q),
        ...answerLines(q, selections[0]),
        by,
      ].join('\n');
    }
    return [
      `### #${q.id} answered: a set of ${q.members.length} questions, answered together`,
      ...originLines(q),
      ...ticketLines(q),
      ...q.members.flatMap((member, index) => [
        memberHeading(q.id, index, member),
        `Question: ${oneLine(member.question)}`,
        ...answerLines(member, selections[index]),
      ]),
      by,
    ].join('\n');
  }
  if (q.status === 'dismissed') {
    const by = q.closure?.by === undefined ? '' : ` by ${who(q.closure.by)}`;
    return [
      `### #${q.id} dismissed unanswered${by}${closedAt(q)}`,
      ...originLines(q),
      ...questionLines(q),
      UNANSWERED_ADVICE,
    ].join('\n');
  }
  if (q.status === 'expired') {
    return [
      `### #${q.id} expired unanswered${closedAt(q)}`,
      ...originLines(q),
      ...questionLines(q),
      UNANSWERED_ADVICE,
    ].join('\n');
  }
  // Not an outcome the store hands out for delivery (pending, cancelled, or answered without an answer record);
  // say what is known rather than fail the prompt.
  return [`### #${q.id} ${q.status}`, ...questionLines(q)].join('\n');
}

/** `Answer: …`, the values when options have their own, notes per option nested under it, then the notes. */
function answerLines(item: QuestionItem, selection: Selection | undefined): string[] {
  if (selection === undefined) return ['Answer: nothing was recorded'];
  const values = selection.choices.flatMap((choice) => {
    const option = item.options.find((candidate) => candidate.label === choice);
    return option?.value === undefined ? [] : [`${oneLine(choice)} = ${oneLine(optionValue(option))}`];
  });
  const notes = selection.notes?.trim() ?? '';
  return [
    `Answer: ${oneLine(describeSelection(item, selection))}`,
    ...(values.length === 0 ? [] : [`Values: ${values.join('; ')}`]),
    ...(selection.choiceNotes ?? []).flatMap(({ choice, notes: optionNotes }) => [
      `- Notes on ${oneLine(choice)}:`,
      ...quoteLines(optionNotes).map((line) => `  ${line}`),
    ]),
    ...(notes === '' ? [] : ['Notes:', ...quoteLines(notes)]),
  ];
}

function memberHeading(id: number, index: number, member: { topic: string; isBlocking: boolean }): string {
  return `#### ${memberRef(id, index)} ${oneLine(member.topic)}${member.isBlocking ? ' (blocking)' : ''}`;
}

/** Characters the entry takes in a note, its separator included: the store claims entries by this measure. */
export function deliveryEntryLength(q: Question): number {
  return SEPARATOR.length + renderDeliveryEntry(q).length;
}

/** The note. Entries are taken in order while they fit in the budget; entries that don't fit are left out (counted with `remaining` in the "N more wait" line). The first entry is always included. */
export function renderDeliveryNote(
  questions: readonly Question[],
  remaining: number,
  budget: number = DELIVERY_NOTE_BUDGET,
  next: NextDelivery = 'prompt',
): { text: string; includedIds: number[]; omittedIds: number[] } {
  // Nothing to deliver: the hook adds no note. (Outcomes leased to another claim are that claim's to report.)
  if (questions.length === 0) {
    return { text: '', includedIds: [], omittedIds: [] };
  }
  const entriesBudget = deliveryEntriesBudget(budget);
  const parts = [HEADER];
  const includedIds: number[] = [];
  const omittedIds: number[] = [];
  let used = 0;
  for (const q of questions) {
    // In order: once one entry does not fit, the later ones wait too, so outcomes arrive oldest first.
    const entry = renderDeliveryEntry(q);
    const length = SEPARATOR.length + entry.length;
    if (includedIds.length === 0 || (omittedIds.length === 0 && used + length <= entriesBudget)) {
      parts.push(entry);
      includedIds.push(q.id);
      used += length;
    } else {
      omittedIds.push(q.id);
    }
  }
  const waiting = omittedIds.length + Math.max(0, remaining);
  if (waiting > 0) {
    parts.push(footer(waiting, next));
  }
  return { text: parts.join(SEPARATOR), includedIds, omittedIds };
}

/** How the outcomes a note could not carry reach the agent: the next prompt, or another `collect_answers` call. */
export const NEXT_DELIVERY = ['prompt', 'call'] as const;
export type NextDelivery = (typeof NEXT_DELIVERY)[number];

/** The "N more wait" line. */
function footer(waiting: number, next: NextDelivery): string {
  const how = next === 'prompt' ? 'with the next prompt' : 'when you call collect_answers again';
  return waiting === 1 ? `1 more answer waits; it comes ${how}.` : `${waiting} more answers wait; they come ${how}.`;
}

/** What a hook prints (or an `mcp_tool` hook's tool returns) to add `additionalContext` for Claude Code's `event`. */
export function hookOutput(event: 'UserPromptSubmit' | 'PostToolUse', additionalContext: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext } });
}

/**
 * For a question the agent asked with a tool of its own (which ask-later parked instead): which tool, and how the
 * answer matches what it asked.
 */
function originLines(q: Question): string[] {
  switch (q.origin?.tool) {
    case undefined:
      return [];
    case 'AskUserQuestion':
      return q.members === undefined
        ? [
            `You asked this with AskUserQuestion${q.origin.header === undefined ? '' : ` (header "${oneLine(q.origin.header)}")`}; ask-later parked it for the person.`,
          ]
        : ['You asked these with AskUserQuestion (each topic is your header); ask-later parked them for the person.'];
    case 'ExitPlanMode':
      return [
        'Your plan, which you asked to approve with ExitPlanMode; ask-later parked it for the person. If the answer is Approve, call ExitPlanMode again and it goes through.',
      ];
  }
}

function ticketLines(q: Question): string[] {
  return q.ticket === undefined ? [] : [`Ticket: ${oneLine(q.ticket)}`];
}

/** The ticket and the question, or each question of a set with its reference and topic. */
function questionLines(q: Question): string[] {
  if (q.members === undefined) return [...ticketLines(q), `Question: ${oneLine(q.question)}`];
  return [
    ...ticketLines(q),
    ...q.members.map(
      (member, index) => `Question ${memberRef(q.id, index)} (${oneLine(member.topic)}): ${oneLine(member.question)}`,
    ),
  ];
}

/** "NAME on Slack (user U123)": the display name is the person's own text, so it is kept to one line. */
function who(by: Responder): string {
  const name = oneLine(by.displayName);
  const where = placeAndUserOf(by);
  return name === '' ? where : `${name} ${where}`;
}

function closedAt(q: Question): string {
  return q.closure === undefined ? '' : ` at ${isoTime(q.closure.at)}`;
}

function isoTime(at: number): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? 'an unknown time' : date.toISOString();
}

/** Line breaks of every kind, so no text can start a line of its own. */
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/u;
/** Control characters (C0, DEL, C1), line breaks among them, and the Unicode line and paragraph separators. */
const LINE_BREAKS_AND_CONTROLS = /[\p{Cc}\u2028\u2029]+/gu;
const CONTROL = /\p{Cc}/gu;

/** A field shown inside one line: line breaks and control characters become one space. */
function oneLine(text: string): string {
  return text.replace(LINE_BREAKS_AND_CONTROLS, ' ').trim();
}

/** Notes as a Markdown quote: every line starts with "> " (a blank line with ">"), whatever the person typed. */
function quoteLines(notes: string): string[] {
  return notes.split(LINE_BREAK).map((line) => {
    const clean = line.replace(CONTROL, (c) => (c === '\t' ? c : ' ')).trimEnd();
    return clean === '' ? '>' : `> ${clean}`;
  });
}
