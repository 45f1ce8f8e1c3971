/**
 * One question (or a set) as one Telegram message, in every state: HTML text and, while pending, an inline keyboard
 * of a button per option (the recommended one starred and preselected), Other, Notes, Send and Remove. Pure: the
 * bridge posts the result with `sendMessage` and redraws it with `editMessageText`; a pick redraws it with the
 * picker's drafts (`view`), since Telegram has no per-person view of a shared message.
 *
 * Layout: the header (`🔴 BLOCKING · #7 · shop · SHOP-12`), the question in bold, Context and Impact (Markdown as
 * HTML), the options (labels and descriptions; the buttons carry short labels), an earlier decision, the expiry,
 * and what is picked with its ready mark. A set: the shared context and impact, then each member (topic, question,
 * options, its own context and impact, its ready mark); its keyboard shows one member's options at a time, with a
 * row of member tabs. Closed: the outcome (who answered, where, when; delivered to the agent; withdrawn, dismissed,
 * expired), the answer and the notes, no keyboard.
 *
 * Fitting 4,096 characters (`fit.ts`): what does not fit leaves for a reply posted under the message
 * ({@link RenderedQuestion.details}), so everything `ask_later` accepts is shown whole.
 */

import { answerReadiness, describeSelection, type Readiness } from '../../core/answer.js';
import { askedBeforeLine } from '../../core/asked-before.js';
import { shownSelection } from '../../core/inbox.js';
import { RECOMMENDED_MARK } from '../../core/limits.js';
import {
  type Draft,
  itemsOf,
  memberRef,
  OTHER_LABEL,
  placeOf,
  type Question,
  type QuestionItem,
  type Selection,
} from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import { readyMark, setReadyMark } from '../vocabulary.js';
import { detailTexts, joinSections, NOTES_SHORTENED, type Section, sectionsToMove, shareRoom } from './fit.js';
import { escapeHtml, headerLine, markdownHtml, oneLine, truncate, utcTime } from './format.js';
import { formatCallbackData } from './ids.js';
import { assertTelegramMessage, TELEGRAM_LIMITS, visibleLength } from './limits.js';
import type { TelegramButton, TelegramKeyboard, TelegramMessage } from './types.js';

/** What a redraw shows of one person: their drafts (one per item) and, for a set, the member whose buttons show. */
export interface QuestionView {
  readonly drafts?: readonly (Draft | undefined)[];
  readonly member?: number;
}

export interface RenderedQuestion {
  /** The message with the keyboard. */
  readonly message: TelegramMessage;
  /** Replies posted once under the message, with what did not fit in it (HTML, each within the limit). */
  readonly details: readonly string[];
}

/** The longest label a button shows (the text lists it whole). */
const BUTTON_LABEL_MAX = 28;

export function renderQuestion(question: Question, view: QuestionView = {}): RenderedQuestion {
  const ref = formatQuestionRef(question.project, question.id);
  const sections = pendingSections(question);
  const moved = sectionsToMove(sections);
  const details = detailTexts(sections, moved, `📎 <b>#${question.id}</b>, continued`);
  const drafts = view.drafts ?? [];
  if (question.status === 'pending') {
    const text = [joinSections(sections, moved), draftLines(question, drafts)].join('\n\n');
    const member = question.members === undefined ? undefined : clampMember(question, view.member);
    const message = assertTelegramMessage({ text, keyboard: keyboard(question, ref, drafts, member) });
    return { message, details };
  }
  // Closed: the options and the expiry go; what moved to the reply still says where it is.
  const shown = sections.flatMap((section, index) => {
    if (section.moveOrder === OPTIONS_ORDER || section.pendingOnly === true) return [];
    return [moved.has(index) ? (section.movedNote ?? '') : section.html];
  });
  const [first = '', ...others] = shown;
  const head = first.replace(/^[^\n]*/, `${headerLine(question)}\n${outcomeLines(question)}`);
  const body = [head, ...others].join('\n\n');
  const text = `${body}${answerText(question, TELEGRAM_LIMITS.text - visibleLength(body) - 2)}`;
  return { message: assertTelegramMessage({ text }), details };
}

/** The first member (0) unless the view names another of the set. */
function clampMember(question: Question, member: number | undefined): number {
  const count = question.members?.length ?? 1;
  return member !== undefined && member >= 0 && member < count ? member : 0;
}

const CONTEXT_ORDER = 1;
const ASKED_ORDER = 2;
const IMPACT_ORDER = 3;
const OPTIONS_ORDER = 4;

function movedNote(what: string): string {
  return `📎 <i>${what}: in the reply below.</i>`;
}

/** The pending message's sections, the header first; the order in which they may leave is `moveOrder`. */
function pendingSections(question: Question): (Section & { readonly pendingOnly?: boolean })[] {
  const sections: (Section & { readonly pendingOnly?: boolean })[] = [];
  // The layout is decided on the pending message, whatever the state now (see fit.ts).
  const header = headerLine({ ...question, status: 'pending' });
  if (question.members === undefined) {
    sections.push({ html: `${header}\n<b>${escapeHtml(question.question)}</b>` });
  } else {
    sections.push({ html: `${header}\n<b>${question.members.length} questions, answered together</b>` });
  }
  sections.push({
    html: `<b>Context</b>\n${markdownHtml(question.context)}`,
    moveOrder: CONTEXT_ORDER,
    movedNote: movedNote('Context'),
  });
  sections.push({
    html: `<b>Impact</b>\n${markdownHtml(question.impact)}`,
    moveOrder: IMPACT_ORDER,
    movedNote: movedNote('Impact'),
  });
  if (question.members === undefined) {
    sections.push({
      html: optionsHtml(question),
      moveOrder: OPTIONS_ORDER,
      movedNote: movedNote('The options'),
    });
  } else {
    question.members.forEach((member, index) => {
      const dot = member.isBlocking ? '🔴' : '🟢';
      sections.push({
        html: `${dot} <b>${memberRef(question.id, index)} · ${escapeHtml(member.topic)}</b>\n${escapeHtml(member.question)}`,
      });
      const extra = [
        member.context === undefined ? '' : `<i>Context</i>\n${markdownHtml(member.context)}`,
        member.impact === undefined ? '' : `<i>Impact</i>\n${markdownHtml(member.impact)}`,
      ].filter(Boolean);
      if (extra.length > 0) {
        sections.push({
          html: `<b>${memberRef(question.id, index)}</b> ${extra.join('\n')}`,
          moveOrder: CONTEXT_ORDER,
          movedNote: movedNote(`${memberRef(question.id, index)} context and impact`),
        });
      }
      sections.push({
        html: optionsHtml(member),
        moveOrder: OPTIONS_ORDER,
        movedNote: movedNote(`${memberRef(question.id, index)} options`),
      });
    });
  }
  const [closest] = question.askedBefore ?? [];
  if (closest !== undefined) {
    sections.push({
      html: `↩ ${escapeHtml(askedBeforeLine(closest))}`,
      moveOrder: ASKED_ORDER,
      movedNote: movedNote('An earlier decision'),
    });
  }
  if (question.expiresAt !== undefined) {
    sections.push({ html: `⏳ Expires ${utcTime(question.expiresAt)}`, pendingOnly: true });
  }
  return sections;
}

function isRecommended(item: QuestionItem, label: string): boolean {
  return item.recommended?.includes(label) ?? false;
}

/** `★ 1. <b>Postgres</b> — fast enough`, a line per option. */
function optionsHtml(item: QuestionItem): string {
  const lines = item.options.map((option, index) => {
    const mark = isRecommended(item, option.label) ? RECOMMENDED_MARK : '';
    const description = option.description ? ` — ${escapeHtml(option.description)}` : '';
    return `${mark}${index + 1}. <b>${escapeHtml(option.label)}</b>${description}`;
  });
  return [`<i>${item.multiSelect ? 'Pick any' : 'Pick one'}</i>`, ...lines].join('\n');
}

/** What each item shows picked now (the drafts, else the recommendation), with its ready mark. */
function draftLines(question: Question, drafts: readonly (Draft | undefined)[]): string {
  const items = itemsOf(question);
  const lines = items.map((item, index) => {
    const selection = shownSelection(item, drafts[index]);
    const prefix = question.members === undefined ? 'Picked' : `${memberRef(question.id, index)}`;
    const notes = noteMarks(selection);
    return `${prefix}: <b>${escapeHtml(describeSelection(item, selection))}</b>${notes} · ${readyMark(answerReadiness(item, selection))}`;
  });
  if (question.members !== undefined) {
    lines.push(setReadyMark(items.map((item, index) => answerReadiness(item, shownSelection(item, drafts[index])))));
  }
  return lines.join('\n');
}

/** ` · 📝 notes` when the selection has notes (the text itself shows once sent). */
function noteMarks(selection: Selection): string {
  const count =
    (selection.notes?.trim() ? 1 : 0) +
    (selection.choiceNotes ?? []).filter(
      (entry) => entry.notes.trim() !== '' && selection.choices.includes(entry.choice),
    ).length;
  return count === 0 ? '' : ` · 📝 ${count === 1 ? 'a note' : `${count} notes`}`;
}

function button(text: string, data: Parameters<typeof formatCallbackData>[0]): TelegramButton {
  return { text: truncate(text, TELEGRAM_LIMITS.buttonText), callback_data: formatCallbackData(data) };
}

function keyboard(
  question: Question,
  ref: string,
  drafts: readonly (Draft | undefined)[],
  member: number | undefined,
): TelegramKeyboard {
  const index = member ?? 0;
  const item = itemsOf(question)[index] ?? itemsOf(question)[0];
  if (item === undefined) return [];
  const selection = shownSelection(item, drafts[index]);
  const m = member === undefined ? {} : { member };
  const rows: TelegramButton[][] = item.options.map((option, option_) => [
    button(
      `${selection.choices.includes(option.label) ? '✅ ' : ''}${isRecommended(item, option.label) ? '★ ' : ''}${option_ + 1}. ${truncate(oneLine(option.label), BUTTON_LABEL_MAX)}`,
      { kind: 'pick', ref, ...m, option: option_ },
    ),
  ]);
  rows.push([
    button(`${selection.other ? '✅ ' : ''}${OTHER_LABEL}`, { kind: 'other', ref, ...m }),
    button('📝 Notes', { kind: 'notes', ref, ...m }),
  ]);
  if (item.multiSelect) {
    const picked = item.options.flatMap((option, option_) =>
      selection.choices.includes(option.label) ? [option_] : [],
    );
    for (let start = 0; start < picked.length; start += 3) {
      rows.push(
        picked
          .slice(start, start + 3)
          .map((option_) => button(`📝 on ${option_ + 1}`, { kind: 'notes', ref, ...m, option: option_ })),
      );
    }
  }
  if (question.members !== undefined) {
    rows.push(
      question.members.map((entry, tab) => {
        const mark: Readiness = answerReadiness(entry, shownSelection(entry, drafts[tab]));
        return button(
          `${tab === index ? '▸ ' : ''}${tab + 1} ${mark === 'ready' ? '✅' : mark === 'needs-note' ? '✍️' : '👉'}`,
          {
            kind: 'member',
            ref,
            member: tab,
          },
        );
      }),
    );
  }
  rows.push([button('📤 Send', { kind: 'send', ref }), button('🗑 Remove', { kind: 'remove', ref })]);
  return rows;
}

/** The outcome: who answered, where and when, and whether the agent has it; or withdrawn, dismissed, expired. */
function outcomeLines(question: Question): string {
  switch (question.status) {
    case 'answered':
    case 'delivered': {
      const answer = question.answer;
      const lines = [
        answer === undefined
          ? '✅ Answered'
          : `✅ Answered by ${escapeHtml(truncate(oneLine(answer.by.displayName), 80))} ${placeOf(answer.by)} at ${utcTime(answer.at)}`,
      ];
      if (question.status === 'delivered') {
        lines.push(
          `📬 Delivered to the agent${question.deliveredAt === undefined ? '' : ` at ${utcTime(question.deliveredAt)}`}`,
        );
      }
      return lines.join('\n');
    }
    case 'cancelled':
      return `↩️ Withdrawn by the agent${at(question.closure?.at)}`;
    case 'dismissed': {
      const by = question.closure?.by;
      return `🗑️ Dismissed${by === undefined ? '' : ` by ${escapeHtml(truncate(oneLine(by.displayName), 80))}`}${at(question.closure?.at)}`;
    }
    case 'expired':
      return `⌛ Expired unanswered${at(question.closure?.at)}`;
    case 'pending':
      return '';
  }
}

function at(ms: number | undefined): string {
  return ms === undefined ? '' : ` at ${utcTime(ms)}`;
}

/** The answer and its notes (cut to `room` when they must be), each item's for a set. */
function answerText(question: Question, room: number): string {
  const answer = question.answer;
  if (answer === undefined) return '';
  const items = itemsOf(question);
  const selections: readonly Selection[] = 'members' in answer ? answer.members : [answer];
  const notes: { label: string; text: string }[] = [];
  const lines: string[] = [];
  items.forEach((item, index) => {
    const selection = selections[index] ?? { choices: [], other: false };
    const prefix = question.members === undefined ? 'Answer' : memberRef(question.id, index);
    lines.push(`<b>${prefix}:</b> ${escapeHtml(describeSelection(item, selection))}`);
    const ref = question.members === undefined ? '' : ` (${memberRef(question.id, index)})`;
    if (selection.notes?.trim()) notes.push({ label: `Notes${ref}`, text: selection.notes });
    for (const entry of selection.choiceNotes ?? []) {
      if (entry.notes.trim() === '' || !selection.choices.includes(entry.choice)) continue;
      notes.push({ label: `Notes on ${escapeHtml(truncate(oneLine(entry.choice), 40))}${ref}`, text: entry.notes });
    }
  });
  const fixed = `\n\n${lines.join('\n')}`;
  const labels = notes.reduce((sum, entry) => sum + entry.label.length + 4, 0);
  const shared = shareRoom(
    notes.map((entry) => entry.text),
    room - visibleLength(fixed) - labels - 20,
  );
  const noteBlocks = notes.map((entry, index) => {
    const part = shared[index] ?? { text: '', cut: false };
    return `\n\n<b>${entry.label}</b>\n<blockquote>${escapeHtml(part.text)}${part.cut ? NOTES_SHORTENED : ''}</blockquote>`;
  });
  return `${fixed}${noteBlocks.join('')}`;
}
