/**
 * What the keyboard inbox's keys change, as pure rules: a row picked or toggled (the options, then Other), and a
 * notes field typed into (Enter or Escape ends it, to be saved as the draft's notes or an option's notes).
 */

import { INBOX_FILTERS, type InboxFilter, type InboxItem, shownSelections } from '../../core/inbox.js';
import { itemsOf } from '../../core/question.js';
import { REFUSALS } from '../../render/vocabulary.js';
import type { ActionResult, PickReader } from '../actions/action.js';
import type { DraftChange } from '../interactions.js';
import type { InkKey } from './keys.js';
import type { NotesField } from './screen.js';

/**
 * The pick of `row` (an option's index, or the options' count for Other): on a single-select it replaces what is
 * picked; on a multi-select it toggles that row, the rest kept as shown.
 */
export function rowPick(row: number): PickReader {
  return (item, shown) => {
    const label = item.options[row]?.label;
    if (!item.multiSelect)
      return label === undefined ? { choices: [], other: true } : { choices: [label], other: false };
    if (label === undefined) return { choices: shown.choices, other: !shown.other };
    const on = shown.choices.includes(label);
    const choices = item.options
      .map((option) => option.label)
      .filter((each) => (each === label ? !on : shown.choices.includes(each)));
    return { choices, other: shown.other };
  };
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** `field` with `parts` as its text and the cursor before part `cursor` (omitted at the end, where typing adds). */
function edited(field: NotesField, parts: readonly string[], cursor: number): NotesField {
  const { cursor: _old, ...rest } = field;
  const at = Math.max(0, Math.min(cursor, parts.length));
  return { ...rest, text: parts.join(''), ...(at < parts.length ? { cursor: at } : {}) };
}

/**
 * The field after a key: its new text and cursor, or `done` (Enter or Escape: save it and leave). Left / Right move
 * the cursor by a character (an emoji whole), Home / End to the start and the end; Backspace takes the character
 * before it; typing goes in at it.
 */
export function typeInto(field: NotesField, input: string, key: InkKey): NotesField | 'done' {
  if (key.return || key.escape) return 'done';
  const parts = [...graphemes.segment(field.text)].map((each) => each.segment);
  const at = Math.min(field.cursor ?? parts.length, parts.length);
  if (key.leftArrow) return edited(field, parts, at - 1);
  if (key.rightArrow) return edited(field, parts, at + 1);
  if (key.home) return edited(field, parts, 0);
  if (key.end) return edited(field, parts, parts.length);
  if (key.backspace || key.delete) {
    if (at === 0) return field;
    return edited(field, [...parts.slice(0, at - 1), ...parts.slice(at)], at - 1);
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are keys, not text
  if (key.ctrl || key.meta || input === '' || /[\u0000-\u001f\u007f]/.test(input)) return field;
  const typed = [...graphemes.segment(input)].map((each) => each.segment);
  return edited(field, [...parts.slice(0, at), ...typed, ...parts.slice(at)], at + typed.length);
}

/** The draft change that saves a field. */
export function notesChange(field: NotesField): DraftChange {
  return {
    ...(field.member === undefined ? {} : { member: field.member }),
    ...(field.choice === undefined
      ? { notes: field.text }
      : { choiceNotes: [{ choice: field.choice, notes: field.text }] }),
  };
}

/** The open item's first picked row, else 0: where the keyboard starts on a card (or a set's tab). */
export function firstPickedRow(entry: InboxItem | undefined, member: number): number {
  if (entry === undefined) return 0;
  const item = itemsOf(entry.question)[member];
  const shown = shownSelections(entry)[member];
  if (item === undefined || shown === undefined) return 0;
  const at = item.options.findIndex((option) => shown.choices.includes(option.label));
  return at >= 0 ? at : shown.other ? item.options.length : 0;
}

/**
 * The notes field `n` opens on the focused row: on a multi-select's option, that option's notes (`pickFirst` when it
 * is not picked yet: notes per option are for picked options); else the answer's notes. Prefilled with the draft.
 */
export function notesFieldFor(
  entry: InboxItem,
  ref: string,
  member: number,
  row: number,
): { readonly field: NotesField; readonly pickFirst: boolean } | undefined {
  const item = itemsOf(entry.question)[member];
  const shown = shownSelections(entry)[member];
  if (item === undefined || shown === undefined) return undefined;
  const label = item.multiSelect ? item.options[row]?.label : undefined;
  const text =
    label === undefined ? (shown.notes ?? '') : (shown.choiceNotes?.find((note) => note.choice === label)?.notes ?? '');
  const inSet = entry.question.members === undefined ? {} : { member };
  return {
    field: { ref, ...inSet, ...(label === undefined ? {} : { choice: label }), text },
    pickFirst: label !== undefined && !shown.choices.includes(label),
  };
}

/** What the screen says about an action's outcome (a refusal in yellow, the rest in green); none for a draft. */
export function resultMessage(result: ActionResult): { readonly text: string; readonly ok: boolean } | undefined {
  switch (result.kind) {
    case 'refused':
      return { text: result.text, ok: false };
    case 'review':
      return { text: result.changed ? REFUSALS.reviewChanged : `Review: ${result.review.summary}.`, ok: true };
    case 'sent':
    case 'removed':
    case 'kept':
      return { text: result.text, ok: true };
    case 'batch':
      return { text: result.text, ok: result.sent.length > 0 };
    default:
      return undefined;
  }
}

/** The filter after (or before) `filter`: All, Blocking, Non-blocking, round again. */
export function nextFilter(filter: InboxFilter, by: 1 | -1): InboxFilter {
  const at = INBOX_FILTERS.indexOf(filter);
  return INBOX_FILTERS[(at + by + INBOX_FILTERS.length) % INBOX_FILTERS.length] ?? 'all';
}

/** A set's tab after a move from `open` among `count` tabs (round again, as the web page's tab list). */
export function tabAfter(open: number, count: number, to: 'next' | 'previous' | 'first' | 'last'): number {
  if (to === 'first') return 0;
  if (to === 'last') return count - 1;
  return (open + (to === 'next' ? 1 : -1) + count) % count;
}
