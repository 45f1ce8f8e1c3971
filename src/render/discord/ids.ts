/**
 * The contract between the Discord renderers and the discord.js handlers: every `custom_id` the renderers put in a
 * payload, the values of their selects, and the helpers that read those back.
 *
 * Every custom id is `al:<verb>` followed by `:`-separated arguments, ≤ 100 characters (Discord's limit; the
 * longest here is 82). A question is referenced by its ref, `formatQuestionRef(project, id)`
 * (`<16-char tag>.<id>`, see `core/question-ref.ts`), never by project name or text. Discord requires custom ids
 * to be unique within one message, and these are: each names its question (and member, and for paging, its target
 * page). The inbox pages by cursor, not by number: `<after>` is the ref of the question before the page, `-` for the first
 * page (a ref, not the store's longer cursor, so the longest id stays under 100 characters: about 85).
 *
 * | custom id                                   | component                                             |
 * | ------------------------------------------- | ----------------------------------------------------- |
 * | `al:pick:<ref>`                             | single question message: the string select            |
 * | `al:pick:<ref>:<member>`                    | set message: one member's string select               |
 * | `al:notes:<ref>`                            | question message: "Add notes" (a modal, or the menu)  |
 * | `al:notes-for:<ref>[:<member>]`             | notes menu: which notes of an item to write (a modal) |
 * | `al:send:<ref>`                             | "Send" (a set: the review first)                      |
 * | `al:send-yes:<ref>:<check>`                 | the set's review: "Send answers"                      |
 * | `al:remove:<ref>`                           | question message: "Remove" button (asks to confirm)   |
 * | `al:remove-yes:<ref>`                       | ephemeral confirmation: "Remove" (dismisses)          |
 * | `al:remove-no:<ref>`                        | ephemeral confirmation: "Cancel"                      |
 * | `al:notes-modal:<ref>`                      | the notes modal, opened from a question message       |
 * | `al:notes-modal:<ref>:menu`                 | the notes modal, opened from the notes menu           |
 * | `al:notes-modal:<ref>:<filter>:<after>`     | the notes modal, opened from the inbox (redraw it)    |
 * | `al:inbox-filter`                           | inbox: filter select; values {@link INBOX_FILTERS}    |
 * | `al:inbox-question:<filter>:<after>`        | inbox: which question to answer; values are refs      |
 * | `al:inbox-pick:<ref>[:<member>]:<filter>:<after>` | inbox: the selected question's (member's) select |
 * | `al:inbox-notes:<ref>:<filter>:<after>`     | inbox: "Add notes" for the selected question          |
 * | `al:inbox-send:<filter>:<after>`            | inbox: "Send N answers" (the ready ones shown)        |
 * | `al:inbox-page:<filter>:<after>`            | inbox: "First" / "Next" / "Back"; `after` starts the page |
 *
 * `<member>` is the 0-based member of a set (`#12.1` is 0); ids of single questions carry none, so messages posted
 * before sets existed still answer. `<check>` is {@link REVIEW_CHECK_LENGTH} url-safe characters naming the
 * answers a review showed (`review.ts`). The longest id, `al:inbox-pick` with a member, the longest ref and
 * cursor, is 82 characters.
 *
 * `<filter>` is `all`, `blocking` or `non-blocking`; `<after>` a ref or `-`. The inbox is an ephemeral
 * reply that each interaction redraws in place (`interaction.update`), so every inbox id carries the inbox state it
 * was drawn in: a handler redraws without remembering anything. The filter select carries none: a new filter
 * starts at its first page with nothing selected.
 *
 * Inside the notes modal the components' custom ids are {@link NOTES_MODAL_FIELDS} (`choice`, `notes`) and
 * {@link formatNotesField}'s (`notes:<member>`, `option:<index>[:<member>]`): Discord requires them unique within
 * the modal only, and the modal's own id carries the ref.
 *
 * Select values: the option's index in `question.options` (`"0"` … `"5"`) or `"other"` for `Other`, never the label
 * (labels change meaning if reordered and may outgrow a value). {@link selectionFromValues} reads a select's
 * `values` back.
 *
 * Every `parse…` helper takes an unknown fragment of an interaction payload and returns undefined for anything it
 * does not recognise: payloads are input from the edge, refused by the handler, never thrown at.
 */

import { INBOX_FILTERS, type InboxFilter } from '../../core/inbox.js';
import { OTHER_LABEL, type QuestionItem, type Selection } from '../../core/question.js';
import { parseQuestionRef } from '../../core/question-ref.js';
import { REVIEW_CHECK_LENGTH } from '../../core/review-check.js';
import { labelForSelectValue } from '../select-values.js';

/** Discord's limit on a `custom_id`. */
export const CUSTOM_ID_MAX = 100;

/** The prefix of every custom id ask-later makes, so a handler can tell ours from another app's. */
export const CUSTOM_ID_PREFIX = 'al';

// ---------------------------------------------------------------------------------------------------------------
// Inbox state

export { INBOX_FILTERS, type InboxFilter };

/** Where the inbox was: the filter and where its page starts (after the question `after`; absent: the first page). */
export interface InboxState {
  readonly filter: InboxFilter;
  readonly after?: string;
}

/** A filter name, or undefined. */
export function parseInboxFilter(value: unknown): InboxFilter | undefined {
  return INBOX_FILTERS.find((filter) => filter === value);
}

/** Where a page starts as ids carry it: a ref, or `-` for the first page (then `after` is absent). */
function parseAfter(value: string | undefined): { after?: string } | undefined {
  if (value === '-') return {};
  return parseQuestionRef(value) === undefined ? undefined : { after: value as string };
}

// ---------------------------------------------------------------------------------------------------------------
// Custom ids

/** Verbs whose id is `al:<verb>:<ref>` and nothing else. */
export const QUESTION_VERBS = ['notes', 'send', 'remove', 'remove-yes', 'remove-no'] as const;
export type QuestionVerb = (typeof QUESTION_VERBS)[number];

/**
 * What a custom id says, by `kind` (the verb). `ref` is a question ref (checked with `parseQuestionRef`); `member`
 * the 0-based member of a set (`#12.1` is member 0); `inbox` is the inbox state the component was drawn in (for
 * `inbox-page`, the page to show); `check` the review's check ({@link REVIEW_CHECK_LENGTH} url-safe characters).
 */
export type DiscordCustomId =
  | { readonly kind: QuestionVerb; readonly ref: string }
  /** The answer select of a single question (no member), or of one member of a set. */
  | { readonly kind: 'pick'; readonly ref: string; readonly member?: number }
  /** The notes menu's select of one item (a set's member, or the single question without one). */
  | { readonly kind: 'notes-for'; readonly ref: string; readonly member?: number }
  /** The review's "Send answers": sends when the answers are still those reviewed (`check`). */
  | { readonly kind: 'send-yes'; readonly ref: string; readonly check: string }
  /**
   * The notes modal, opened from the question message; or from the inbox (`inbox`) or the notes menu (`menu`),
   * which its submit then redraws. Never both.
   */
  | { readonly kind: 'notes-modal'; readonly ref: string; readonly inbox?: InboxState; readonly menu?: true }
  | { readonly kind: 'inbox-filter' }
  | { readonly kind: 'inbox-question'; readonly inbox: InboxState }
  | { readonly kind: 'inbox-pick'; readonly ref: string; readonly member?: number; readonly inbox: InboxState }
  | { readonly kind: 'inbox-notes'; readonly ref: string; readonly inbox: InboxState }
  | { readonly kind: 'inbox-send'; readonly inbox: InboxState }
  | { readonly kind: 'inbox-page'; readonly inbox: InboxState };

export type DiscordCustomIdKind = DiscordCustomId['kind'];

/** The argument that marks a notes modal opened from the notes menu. */
const MENU_ARG = 'menu';

function stateArgs(state: InboxState): string {
  return `${state.filter}:${state.after ?? '-'}`;
}

function memberArg(member: number | undefined): string {
  return member === undefined ? '' : `:${member}`;
}

/**
 * The custom id for `id` (see the table above). Refs are taken as given (they come from `formatQuestionRef`), so
 * the result is at most ~85 characters.
 */
export function formatCustomId(id: DiscordCustomId): string {
  const head = `${CUSTOM_ID_PREFIX}:${id.kind}`;
  switch (id.kind) {
    case 'notes':
    case 'send':
    case 'remove':
    case 'remove-yes':
    case 'remove-no':
      return `${head}:${id.ref}`;
    case 'pick':
    case 'notes-for':
      return `${head}:${id.ref}${memberArg(id.member)}`;
    case 'send-yes':
      return `${head}:${id.ref}:${id.check}`;
    case 'notes-modal':
      if (id.inbox !== undefined) return `${head}:${id.ref}:${stateArgs(id.inbox)}`;
      return id.menu === true ? `${head}:${id.ref}:${MENU_ARG}` : `${head}:${id.ref}`;
    case 'inbox-filter':
      return head;
    case 'inbox-question':
    case 'inbox-send':
    case 'inbox-page':
      return `${head}:${stateArgs(id.inbox)}`;
    case 'inbox-pick':
      return `${head}:${id.ref}${memberArg(id.member)}:${stateArgs(id.inbox)}`;
    case 'inbox-notes':
      return `${head}:${id.ref}:${stateArgs(id.inbox)}`;
  }
}

function ref(text: string | undefined): string | undefined {
  return parseQuestionRef(text) === undefined ? undefined : text;
}

/** A member index as ids carry it (`0`…`99`), or undefined. */
function member(text: string | undefined): number | undefined {
  return text !== undefined && /^(0|[1-9]\d?)$/.test(text) ? Number(text) : undefined;
}

function state(filter: string | undefined, after: string | undefined): InboxState | undefined {
  const validFilter = parseInboxFilter(filter);
  const validAfter = parseAfter(after);
  return validFilter === undefined || validAfter === undefined ? undefined : { filter: validFilter, ...validAfter };
}

/** A ref with an optional member after it (`<ref>` or `<ref>:<member>`), from an id's arguments. */
function refAndMember(args: readonly string[]): { ref: string; member?: number } | undefined {
  const [a, b] = args;
  const valid = ref(a);
  if (valid === undefined || args.length > 2) return undefined;
  if (args.length === 1) return { ref: valid };
  const index = member(b);
  return index === undefined ? undefined : { ref: valid, member: index };
}

/**
 * What `customId` says, or undefined when it is not one of ours (another app's, malformed, a bad ref or state,
 * extra or missing arguments, not a string). Never throws. `parseCustomId(formatCustomId(id))` equals `id`.
 */
export function parseCustomId(customId: unknown): DiscordCustomId | undefined {
  if (typeof customId !== 'string' || customId.length > CUSTOM_ID_MAX) return undefined;
  const [prefix, kind, ...args] = customId.split(':');
  if (prefix !== CUSTOM_ID_PREFIX || kind === undefined) return undefined;
  const [a, b, c] = args;
  switch (kind) {
    case 'notes':
    case 'send':
    case 'remove':
    case 'remove-yes':
    case 'remove-no': {
      const valid = args.length === 1 ? ref(a) : undefined;
      return valid === undefined ? undefined : { kind, ref: valid };
    }
    case 'pick':
    case 'notes-for': {
      const parsed = refAndMember(args);
      return parsed === undefined ? undefined : { kind, ...parsed };
    }
    case 'send-yes': {
      const valid = args.length === 2 ? ref(a) : undefined;
      const check = b !== undefined && new RegExp(`^[A-Za-z0-9_-]{${REVIEW_CHECK_LENGTH}}$`).test(b) ? b : undefined;
      return valid === undefined || check === undefined ? undefined : { kind, ref: valid, check };
    }
    case 'notes-modal': {
      const valid = ref(a);
      if (valid === undefined) return undefined;
      if (args.length === 1) return { kind, ref: valid };
      if (args.length === 2) return b === MENU_ARG ? { kind, ref: valid, menu: true } : undefined;
      const inbox = args.length === 3 ? state(b, c) : undefined;
      return inbox === undefined ? undefined : { kind, ref: valid, inbox };
    }
    case 'inbox-filter':
      return args.length === 0 ? { kind } : undefined;
    case 'inbox-question':
    case 'inbox-send':
    case 'inbox-page': {
      const inbox = args.length === 2 ? state(a, b) : undefined;
      return inbox === undefined ? undefined : { kind, inbox };
    }
    case 'inbox-pick': {
      if (args.length !== 3 && args.length !== 4) return undefined;
      const parsed = refAndMember(args.slice(0, args.length - 2));
      const inbox = state(args.at(-2), args.at(-1));
      return parsed === undefined || inbox === undefined ? undefined : { kind, ...parsed, inbox };
    }
    case 'inbox-notes': {
      const valid = args.length === 3 ? ref(a) : undefined;
      const inbox = state(b, c);
      return valid === undefined || inbox === undefined ? undefined : { kind, ref: valid, inbox };
    }
    default:
      return undefined;
  }
}

/**
 * The custom ids of the notes modal's components. On submit, the Label's component arrives in
 * `data.components[i].component` with `custom_id` and, for the select, `values` (read them with
 * {@link selectionFromValues}) or, for the text input, `value`.
 */
export const NOTES_MODAL_FIELDS = Object.freeze({
  /** The answer select (options + Other) of a single question. */
  choice: 'choice',
  /** The answer notes text input of a single question. */
  notes: 'notes',
} as const);

/**
 * One text input of a notes modal: the answer notes of an item (`option` absent) or the notes of one picked option
 * (its index in the item's options); `member` is the set's member, absent for a single question.
 */
export interface NotesField {
  readonly member?: number;
  readonly option?: number;
}

/**
 * A notes text input's custom id (unique within its modal): `notes` / `notes:<member>` for the answer notes,
 * `option:<index>` / `option:<index>:<member>` for an option's. A single question's answer notes keep the id they
 * always had ({@link NOTES_MODAL_FIELDS}.notes).
 */
export function formatNotesField(field: NotesField): string {
  const head = field.option === undefined ? NOTES_MODAL_FIELDS.notes : `option:${field.option}`;
  return `${head}${memberArg(field.member)}`;
}

/** What a notes text input's custom id says, or undefined (the answer select's id, another id, garbage). */
export function parseNotesField(customId: unknown): NotesField | undefined {
  if (typeof customId !== 'string') return undefined;
  const parts = customId.split(':');
  const [head, x, y] = parts;
  if (head === NOTES_MODAL_FIELDS.notes) {
    if (parts.length === 1) return {};
    const index = parts.length === 2 ? member(x) : undefined;
    return index === undefined ? undefined : { member: index };
  }
  if (head !== 'option' || (parts.length !== 2 && parts.length !== 3)) return undefined;
  const option = member(x);
  if (option === undefined) return undefined;
  if (parts.length === 2) return { option };
  const index = member(y);
  return index === undefined ? undefined : { member: index, option };
}

/** The notes menu's value for an item's answer notes (an option's notes are the option's select value). */
export const ANSWER_NOTES_VALUE = 'notes';

// ---------------------------------------------------------------------------------------------------------------
// Select values <-> labels

export { labelForSelectValue, OTHER_SELECT_VALUE, selectValue, selectValueForLabel } from '../select-values.js';

/**
 * The picks in a string select's `values` (a component interaction's `data.values`, or a modal select's `values`):
 * the choices (labels in the options' order) and whether `Other` is picked. Undefined when `values` is not an array
 * of strings or names a value the question does not have. An empty array is a valid "nothing picked". Notes are
 * not part of a select's values; whether the picks are allowed (one on a single-select question) is
 * `checkAnswer`'s job.
 */
export function selectionFromValues(
  question: Pick<QuestionItem, 'options'>,
  values: unknown,
): Pick<Selection, 'choices' | 'other'> | undefined {
  if (!Array.isArray(values) || values.length > 25) return undefined;
  const labels = new Set<string>();
  for (const value of values) {
    const label = labelForSelectValue(question, value);
    if (label === undefined) return undefined;
    labels.add(label);
  }
  return {
    choices: question.options.map((option) => option.label).filter((label) => labels.has(label)),
    other: labels.has(OTHER_LABEL),
  };
}
