/**
 * The small messages around a question message: the notes prompt (a force-reply, Telegram's stand-in for a modal),
 * a set's review before it is sent, Remove's confirmation, a reminder, and plain notices (a refusal, a receipt).
 * Pure; each is checked against Telegram's limits.
 *
 * The notes prompt carries its target on its last line (`al n:<ref>:<member>[:<option>] @<message id>`): a reply
 * to it comes back with the prompt as `reply_to_message`, and {@link parseNotesTarget} reads it, so no state is
 * kept between the prompt and the reply (a restart or another replica reads it the same way).
 */
import { describeSelection, type Readiness } from '../../core/answer.js';
import { formatDuration } from '../../core/duration.js';
import { itemsOf, memberRef, type Question, type Selection } from '../../core/question.js';
import { formatQuestionRef, parseQuestionRef } from '../../core/question-ref.js';
import type { Reminder } from '../../core/reminder.js';
import { readyMark } from '../vocabulary.js';
import { escapeHtml, mention, oneLine, truncate } from './format.js';
import { formatCallbackData } from './ids.js';
import { assertTelegramMessage, TELEGRAM_LIMITS } from './limits.js';
import type { TelegramMessage } from './types.js';

/** A plain notice (a refusal, a receipt), escaped and within the limit. */
export function renderNotice(text: string): TelegramMessage {
  return assertTelegramMessage({ text: escapeHtml(truncate(text, TELEGRAM_LIMITS.text)) });
}

/** A text for `answerCallbackQuery` (the toast): one line within its 200 characters. */
export function callbackAnswerText(text: string): string {
  return truncate(oneLine(text), TELEGRAM_LIMITS.callbackAnswer);
}

/** What a notes reply is for: a question (a set's member) and, on a multi-select, one picked option. */
export interface NotesTarget {
  readonly ref: string;
  readonly member?: number;
  readonly option?: number;
  /** The question message to redraw once the notes are saved. */
  readonly messageId?: number;
}

const TARGET_LINE = /\nal n:([A-Za-z0-9_-]{16}\.[1-9]\d{0,8}):(-|\d)(?::(\d))?(?: @(\d{1,15}))?$/;

/** The prompt asking for notes, to be answered by replying to it. */
export function renderNotesPrompt(question: Question, target: NotesTarget, selection: Selection): TelegramMessage {
  const items = itemsOf(question);
  const item = items[target.member ?? 0];
  const ref = target.member === undefined ? `#${question.id}` : memberRef(question.id, target.member);
  const option = target.option === undefined ? undefined : item?.options[target.option]?.label;
  const current =
    option === undefined ? selection.notes : selection.choiceNotes?.find((entry) => entry.choice === option)?.notes;
  const lines = [
    `✍️ <b>Notes for ${ref}</b>${option === undefined ? '' : ` on <b>${escapeHtml(truncate(oneLine(option), 60))}</b>`}`,
    item === undefined ? '' : `Picked: ${escapeHtml(describeSelection(item, selection))}`,
    current?.trim()
      ? `Now: <i>${escapeHtml(truncate(oneLine(current), 300))}</i> (a reply replaces them; "-" clears them)`
      : '',
    'Reply to this message with your notes.',
    `<code>al n:${target.ref}:${target.member ?? '-'}${target.option === undefined ? '' : `:${target.option}`}${target.messageId === undefined ? '' : ` @${target.messageId}`}</code>`,
  ].filter(Boolean);
  return assertTelegramMessage({ text: lines.join('\n'), forceReply: { placeholder: `Notes for ${ref}` } });
}

/** The target of a notes reply, from the prompt's text as Telegram hands it back (entities parsed); else undefined. */
export function parseNotesTarget(promptText: unknown): NotesTarget | undefined {
  if (typeof promptText !== 'string' || promptText.length > TELEGRAM_LIMITS.text) return undefined;
  const match = TARGET_LINE.exec(promptText);
  if (!match?.[1] || parseQuestionRef(match[1]) === undefined) return undefined;
  return {
    ref: match[1],
    ...(match[2] === '-' || match[2] === undefined ? {} : { member: Number(match[2]) }),
    ...(match[3] === undefined ? {} : { option: Number(match[3]) }),
    ...(match[4] === undefined ? {} : { messageId: Number(match[4]) }),
  };
}

/** One member's line of a review: what it would send and its ready mark. */
export interface ReviewEntry {
  readonly selection: Selection;
  readonly readiness: Readiness;
}

/** A set's review before Send: each member's answer and notes, with "Send answers" (carrying the review's check). */
export function renderReview(
  question: Question,
  entries: readonly ReviewEntry[],
  check: string,
  changed?: string,
): TelegramMessage {
  const lines: string[] = [];
  if (changed !== undefined) lines.push(`<i>${escapeHtml(changed)}</i>`);
  lines.push(`📋 <b>Review #${question.id} before sending</b>`);
  const preview = Math.floor(2400 / Math.max(1, itemsOf(question).length * 3));
  itemsOf(question).forEach((item, index) => {
    const entry = entries[index];
    if (entry === undefined) return;
    const topic = question.members?.[index]?.topic;
    const name =
      question.members === undefined
        ? `#${question.id}`
        : `${memberRef(question.id, index)} ${escapeHtml(topic ?? '')}`;
    lines.push(
      `<b>${name}:</b> ${escapeHtml(describeSelection(item, entry.selection))} · ${readyMark(entry.readiness)}`,
    );
    if (entry.selection.notes?.trim())
      lines.push(`  Notes: <i>${escapeHtml(truncate(oneLine(entry.selection.notes), preview))}</i>`);
    for (const note of entry.selection.choiceNotes ?? []) {
      if (!note.notes.trim() || !entry.selection.choices.includes(note.choice)) continue;
      lines.push(
        `  Notes on ${escapeHtml(truncate(oneLine(note.choice), 40))}: <i>${escapeHtml(truncate(oneLine(note.notes), preview))}</i>`,
      );
    }
  });
  const message = {
    text: lines.join('\n'),
    keyboard: [
      [
        {
          text: '📤 Send answers',
          callback_data: formatCallbackData({ kind: 'send-yes', ref: parseRefOf(question), check }),
        },
      ],
    ],
  };
  return assertTelegramMessage(message);
}

function parseRefOf(question: Question): string {
  return formatQuestionRef(question.project, question.id);
}

/** Remove's confirmation: `Remove #7 without answering?` with Remove and Keep. */
export function renderRemoveConfirmation(question: Question): TelegramMessage {
  const ref = parseRefOf(question);
  return assertTelegramMessage({
    text: `Remove #${question.id} without answering? The agent will be told it was dismissed.`,
    keyboard: [
      [
        { text: '🗑 Remove', callback_data: formatCallbackData({ kind: 'remove-yes', ref }) },
        { text: 'Keep', callback_data: formatCallbackData({ kind: 'remove-no', ref }) },
      ],
    ],
  });
}

/** A Telegram user id: anything else is left out rather than written into a mention. */
const USER_ID = /^[1-9]\d{0,15}$/;

/** A reminder, sent as a reply to the question message, mentioning only the route's owners. */
export function renderReminder(reminder: Reminder): TelegramMessage {
  const owners = [...new Set(reminder.owners)].filter((id) => USER_ID.test(id)).slice(0, 50);
  const line = `⏰ Reminder: this blocking question has waited ${escapeHtml(formatDuration(reminder.waitedMs))}.`;
  const mentions = owners.map((id) => mention(id, 'owner')).join(' ');
  return assertTelegramMessage({ text: owners.length > 0 ? `${mentions} ${line}` : line });
}
