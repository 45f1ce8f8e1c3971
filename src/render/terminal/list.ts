/**
 * `ask-later inbox --list` and `--json`: what waits, for a script or a pipe. The text form is plain (no escape
 * sequences), one block per question: its header line (`#12 · BLOCKING · shop · PROJ-12 · ready`), the question,
 * and each option with its number, label and description, so `ask-later answer 12 --pick <label>` can be typed from
 * it. The JSON form is one object with stable field names. Pure.
 */
import type { Readiness } from '../../core/answer.js';
import { entryReadiness, type InboxItem, type InboxPage, shownMarks, shownSelections } from '../../core/inbox.js';
import { RECOMMENDED_MARK } from '../../core/limits.js';
import { itemsOf, memberRef, OTHER_LABEL, type QuestionItem, type Selection } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import { APPROVAL_WORD, FILTER_LABELS, isApproval, projectName, readyWords } from '../vocabulary.js';

function when(at: number): string {
  return `${new Date(at).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}

function optionLines(item: QuestionItem, selection: Selection, indent: string): string[] {
  const lines = item.options.map((option, index) => {
    const star = item.recommended?.includes(option.label) ? RECOMMENDED_MARK : '';
    const picked = selection.choices.includes(option.label) ? ' (picked)' : '';
    const about = option.description ? ` — ${option.description}` : '';
    return `${indent}${index + 1}. ${star}${option.label}${picked}${about}`;
  });
  lines.push(`${indent}${item.options.length + 1}. ${OTHER_LABEL}${selection.other ? ' (picked)' : ''}`);
  return lines;
}

/** One question as plain lines. */
function entryLines(entry: InboxItem): string[] {
  const { question } = entry;
  const marks = shownMarks(entry);
  const selections = shownSelections(entry);
  const head = [
    `#${question.id}`,
    isApproval(question) ? APPROVAL_WORD : question.isBlocking ? 'BLOCKING' : 'can wait',
    projectName(question.project),
    question.ticket,
    `parked ${when(question.createdAt)}`,
    readyWords(entryReadiness(entry)),
  ].filter((part) => part !== undefined && part !== '');
  const lines = [head.join(' · ')];
  if (question.members === undefined) {
    lines.push(`  ${question.question}`, ...optionLines(question, selections[0] ?? emptySelection, '    '));
  } else {
    question.members.forEach((member, index) => {
      lines.push(
        `  ${memberRef(question.id, index)} ${member.topic}: ${member.question} (${readyWords(marks[index] ?? 'pick-one')})`,
        ...optionLines(member, selections[index] ?? emptySelection, '    '),
      );
    });
  }
  return lines;
}

const emptySelection: Selection = { choices: [], other: false };

/** The counts line: `3 waiting: 1 blocking, 2 can wait.` */
function countsLine(page: InboxPage): string {
  return `${page.counts.all} waiting: ${page.counts.blocking} blocking, ${page.counts['non-blocking']} can wait.`;
}

/** The page as plain text (ends with a line break). */
export function inboxListText(page: InboxPage): string {
  const lines = [countsLine(page)];
  if (page.filter !== 'all') lines.push(`Showing: ${FILTER_LABELS[page.filter]}.`);
  for (const entry of page.items) lines.push('', ...entryLines(entry));
  if (page.remaining > 0) lines.push('', `… and ${page.remaining} more (ask-later inbox --list --limit N).`);
  if (page.items.length > 0) {
    lines.push('', 'Answer one: ask-later answer <id> --pick <label>… [--other TEXT] [--notes TEXT]');
  }
  return `${lines.join('\n')}\n`;
}

/** One question of `--json`. */
export interface ListedQuestion {
  readonly ref: string;
  readonly id: number;
  readonly project: string;
  readonly ticket?: string;
  readonly isBlocking: boolean;
  readonly createdAt: string;
  readonly context: string;
  readonly impact: string;
  readonly readiness: Readiness;
  readonly items: readonly ListedItem[];
}

/** One question to answer (the question itself, or a member of a set). */
export interface ListedItem {
  readonly ref: string;
  readonly topic?: string;
  readonly question: string;
  readonly multiSelect: boolean;
  readonly options: readonly { readonly label: string; readonly description?: string; readonly recommended: boolean }[];
  /** What is picked now: the person's draft, else the recommendation. */
  readonly picked: { readonly choices: readonly string[]; readonly other: boolean; readonly notes?: string };
  readonly readiness: Readiness;
}

/** The page as one JSON document (ends with a line break). */
export function inboxListJson(page: InboxPage): string {
  const questions = page.items.map((entry): ListedQuestion => {
    const { question } = entry;
    const marks = shownMarks(entry);
    const selections = shownSelections(entry);
    const items = itemsOf(question).map((item, index): ListedItem => {
      const selection = selections[index] ?? emptySelection;
      const topic = question.members?.[index]?.topic;
      return {
        ref: question.members === undefined ? `#${question.id}` : memberRef(question.id, index),
        ...(topic === undefined ? {} : { topic }),
        question: item.question,
        multiSelect: item.multiSelect,
        options: item.options.map((option) => ({
          label: option.label,
          ...(option.description ? { description: option.description } : {}),
          recommended: item.recommended?.includes(option.label) === true,
        })),
        picked: {
          choices: selection.choices,
          other: selection.other,
          ...(selection.notes ? { notes: selection.notes } : {}),
        },
        readiness: marks[index] ?? 'pick-one',
      };
    });
    return {
      ref: formatQuestionRef(question.project, question.id),
      id: question.id,
      project: question.project,
      ...(question.ticket ? { ticket: question.ticket } : {}),
      isBlocking: question.isBlocking,
      createdAt: new Date(question.createdAt).toISOString(),
      context: question.context,
      impact: question.impact,
      readiness: entryReadiness(entry),
      items,
    };
  });
  const document = {
    filter: page.filter,
    counts: { all: page.counts.all, blocking: page.counts.blocking, nonBlocking: page.counts['non-blocking'] },
    remaining: page.remaining,
    questions,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
