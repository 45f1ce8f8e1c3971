/**
 * Text shared by the Discord renderers: mention neutralising, the header line, Discord timestamps, the ready mark
 * and previews. Pure.
 *
 * Discord renders standard Markdown in message content, embed descriptions and field values, which is what agents
 * write, so agent and person text is shown as written: nothing valid is escaped. The one change is to mass mentions
 * (see {@link neutraliseMentions}); pings are prevented by `allowed_mentions: { parse: [] }` on every message.
 */
import type { Question, QuestionStatus } from '../../core/question.js';
import { oneLine, truncate } from '../../core/text.js';
import { projectName, readyMark, setReadyMark } from '../vocabulary.js';

/** Fullwidth commercial at (U+FF20): looks like `@`, is one UTF-16 unit like it, and Discord never reads a mention in it. */
const SAFE_AT = '\uFF20';

/**
 * `text` with `@everyone` and `@here` made inert (`＠everyone`): even though `allowed_mentions` stops the ping, Discord
 * would still highlight them as if everyone had been called. The replacement keeps the length, so a text that fits
 * a limit still fits after it. User and role mentions (`<@id>`) are left as written: they never ping here.
 */
export { oneLine, truncate } from '../../core/text.js';

export function neutraliseMentions(text: string): string {
  return text.replace(/@(?=everyone|here)/g, SAFE_AT);
}

export { projectName, readyMark } from '../vocabulary.js';

/** How much of a project's last segment the header shows. */
export const PROJECT_NAME_SHOWN_MAX = 60;

/** How much of a project's full path the footer shows: names are unbounded, and the embed total is not. */
export const PROJECT_PATH_SHOWN_MAX = 200;

/** How many characters of a person's display name the renderers show (one line). */
export const DISPLAY_NAME_SHOWN_MAX = 80;

/** How many characters of notes a preview shows, on one line; the stored notes are never cut. */
export const NOTES_PREVIEW_MAX = 200;

/** A Discord timestamp token (`<t:1759311000:f>`): rendered in the viewer's time zone and locale. */
export function discordTime(ms: number, style: 'f' | 'R' = 'f'): string {
  return `<t:${Math.floor(ms / 1000)}:${style}>`;
}

export { placeOf, platformName } from '../../core/question.js';

/** The colour bar of a pending blocking question (red). */
export const BLOCKING_COLOR = 0xd93f0b;
/** The colour bar of a pending question that can wait (green). */
export const CAN_WAIT_COLOR = 0x2ea043;
/** The colour bar of a question that no longer waits for anyone (grey). */
export const CLOSED_COLOR = 0x99aab5;

/** The colour bar for a question in its current state. */
export function questionColor(question: Pick<Question, 'status' | 'isBlocking'>): number {
  if (question.status !== 'pending') return CLOSED_COLOR;
  return question.isBlocking ? BLOCKING_COLOR : CAN_WAIT_COLOR;
}

/** 🔴 BLOCKING / 🟢 can wait. */
export function blockingMark(isBlocking: boolean): string {
  return isBlocking ? '🔴 BLOCKING' : '🟢 can wait';
}

const STATUS_MARKS: Readonly<Record<Exclude<QuestionStatus, 'pending'>, string>> = {
  answered: '✅ Answered',
  delivered: '📬 Delivered',
  cancelled: '↩️ Withdrawn',
  dismissed: '🗑️ Dismissed',
  expired: '⌛ Expired',
};

/**
 * The plain-text header (an embed's author line): `🔴 BLOCKING · #7 · shop · SHOP-12` while pending, the outcome
 * (`✅ Answered · #7 · shop · SHOP-12`) after. At most ~170 characters (project name ≤ 60, ticket ≤ 64), within
 * Discord's 256 for an author name.
 */
export function headerLine(question: Pick<Question, 'status' | 'isBlocking' | 'id' | 'project' | 'ticket'>): string {
  const mark = question.status === 'pending' ? blockingMark(question.isBlocking) : STATUS_MARKS[question.status];
  const project = truncate(oneLine(projectName(question.project)), PROJECT_NAME_SHOWN_MAX);
  const ticket = question.ticket === undefined ? '' : ` · ${question.ticket}`;
  return `${mark} · #${question.id} · ${project}${ticket}`;
}

/** A display name for Markdown: one line, neutralised, within {@link DISPLAY_NAME_SHOWN_MAX}. */
export function displayName(name: string): string {
  return neutraliseMentions(truncate(oneLine(name), DISPLAY_NAME_SHOWN_MAX));
}

/** Notes on one line, neutralised, cut to `max` ({@link NOTES_PREVIEW_MAX}, or less where room is counted). */
export function notesPreview(notes: string, max = NOTES_PREVIEW_MAX): string {
  return neutraliseMentions(truncate(oneLine(notes), max));
}

/** The ready mark of one member of a set (the vocabulary's). */
export const itemMark = readyMark;

/** How many members of a set are ready: `✅ 3 of 3 ready` when all are, else `👉 2 of 3 ready`. */
export const setReadyLine = setReadyMark;

/** 🔴 / 🟢: a member's (or an inbox entry's) blocking mark in one character. */
export function blockingDot(isBlocking: boolean): string {
  return isBlocking ? '🔴' : '🟢';
}

/** `text` as a Markdown block quote, line by line (`> `), so quotes can follow one another. */
export function quoted(text: string): string {
  return `> ${text.replace(/\n/g, '\n> ')}`;
}
