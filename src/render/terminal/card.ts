/**
 * One question of the terminal inbox as lines of at most `width` columns (`ask-later inbox`): its header (BLOCKING
 * or can wait, `#id`, the project, the ticket), the question, Context and Impact from Markdown, the options numbered
 * for the keys (1–7) with their descriptions, the recommended one starred, what is picked, Other, the notes, and a
 * ready mark; a set shows a tab per topic and the open one's options. Nothing is cut: long text wraps. Pure.
 */
import type { Readiness } from '../../core/answer.js';
import { askedBeforeLine } from '../../core/asked-before.js';
import { type InboxItem, shownMarks, shownSelections } from '../../core/inbox.js';
import { RECOMMENDED_MARK } from '../../core/limits.js';
import { escapeControls } from '../../core/project.js';
import { itemsOf, OTHER_LABEL, type QuestionItem, type Selection } from '../../core/question.js';
import { markdownLines } from './markdown.js';
import { bold, cyan, dim, green, inverse, red, yellow } from './style.js';
import { wrap, wrapLines } from './wrap.js';

/** How the card is being looked at: which member of a set is open, which option has the keyboard's focus. */
export interface CardView {
  /** The open member of a set (0 for a single question). */
  readonly member?: number;
  /** The focused option (its index; the options' count is Other), when the card has the focus. */
  readonly option?: number;
  /** The project as the person knows it (the inbox shortens long paths). */
  readonly projectName?: string;
}

/** The words a ready mark reads as, the same as on the other surfaces. */
export const READY_WORDS: Readonly<Record<Readiness, string>> = {
  ready: 'ready',
  'pick-one': 'pick one',
  'needs-note': 'needs a note',
};

function mark(readiness: Readiness): string {
  const words = READY_WORDS[readiness];
  return readiness === 'ready' ? green(`✓ ${words}`) : yellow(`… ${words}`);
}

function section(title: string, markdown: string, width: number): string[] {
  return ['', bold(title), ...markdownLines(markdown, width)];
}

/** The options of one question, numbered for the keys, with what is picked and the focus. */
function optionLines(item: QuestionItem, selection: Selection, width: number, focus: number | undefined): string[] {
  const lines: string[] = [];
  const box = (on: boolean) => (item.multiSelect ? (on ? '[x]' : '[ ]') : on ? '(•)' : '( )');
  const entries = [
    ...item.options.map((option) => ({
      label: option.label,
      description: option.description,
      on: selection.choices.includes(option.label),
      recommended: item.recommended?.includes(option.label) === true,
    })),
    { label: OTHER_LABEL, description: 'write your own answer in the notes', on: selection.other, recommended: false },
  ];
  entries.forEach((entry, index) => {
    const star = entry.recommended ? RECOMMENDED_MARK : '';
    const key = index < 9 ? `${index + 1}` : ' ';
    const first = `${key} ${box(entry.on)} `;
    const text = wrap(`${star}${entry.label}`, width, first, ' '.repeat(first.length));
    const styled = text.map((line) => (index === focus ? inverse(line) : entry.on ? bold(line) : line));
    lines.push(...styled);
    if (entry.description) {
      lines.push(...wrap(entry.description, width, ' '.repeat(first.length), ' '.repeat(first.length)).map(dim));
    }
    const optionNotes = selection.choiceNotes?.find((note) => note.choice === entry.label)?.notes;
    if (optionNotes) lines.push(...wrapLines(optionNotes, width, `${' '.repeat(first.length)}✎ `).map(cyan));
  });
  if (selection.notes) lines.push('', ...wrapLines(selection.notes, width, '✎ ').map(cyan));
  return lines;
}

/** The card's lines. */
export function cardLines(entry: InboxItem, width: number, view: CardView = {}): string[] {
  const question = entry.question;
  const items = itemsOf(question);
  const member = Math.min(Math.max(view.member ?? 0, 0), items.length - 1);
  const selections = shownSelections(entry);
  const marks = shownMarks(entry);
  const badge = question.isBlocking ? red(bold(' BLOCKING ')) : green(' can wait ');
  const about = [`#${question.id}`, view.projectName ?? escapeControls(question.project), question.ticket]
    .filter(Boolean)
    .join(' · ');
  const lines = [...wrap(about, width, `${badge} `, ' '.repeat(11))];
  for (const earlier of question.askedBefore ?? [])
    lines.push(...wrap(askedBeforeLine(earlier), width, '↩ ', '  ').map(dim));

  if (question.members === undefined) {
    lines.push('', ...wrap(question.question, width).map(bold));
    lines.push(...section('Context', question.context, width), ...section('Impact', question.impact, width));
  } else {
    lines.push(...section('Context', question.context, width), ...section('Impact', question.impact, width));
    const tabs = question.members.map((m, index) => {
      const label = ` ${index + 1}. ${m.topic} ${marks[index] === 'ready' ? '✓' : '…'} `;
      return index === member ? inverse(label) : label;
    });
    lines.push('', ...wrap(tabs.join(' '), width));
    const open = question.members[member];
    if (open) {
      lines.push('', ...wrap(open.question, width).map(bold));
      if (open.context) lines.push(...section('Context', open.context, width));
      if (open.impact) lines.push(...section('Impact', open.impact, width));
    }
  }
  const item = items[member];
  const selection = selections[member];
  if (item && selection) {
    lines.push(
      '',
      dim(item.multiSelect ? 'Pick any:' : 'Pick one:'),
      ...optionLines(item, selection, width, view.option),
    );
  }
  const own = mark(marks[member] ?? 'pick-one');
  const ready = marks.filter((each) => each === 'ready').length;
  lines.push('', question.members === undefined ? own : `${own} · ${ready} of ${marks.length} ready`);
  return lines;
}
