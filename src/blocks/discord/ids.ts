/**
 * The contract between the Discord renderers and the discord.js handlers: every `custom_id` the renderers put in a
 * payload, the values of their selects, and the helpers that read those back.
 *
 * Every custom id is `al:<verb>` followed by `:`-separated arguments, ≤ 100 characters (Discord's limit; the
 * longest here is about 60). A question is referenced by its ref, `formatQuestionRef(project, id)`
 * (`<16-char tag>.<id>`, see `core/question-ref.ts`), never by project name or text. Discord requires custom ids
 * to be unique within one message, and these are: each names its question (and, for paging, its target page).
 * The inbox pages by cursor, not by number: `<after>` is the ref of the question before the page, `-` for the first
 * page (a ref, not the store's longer cursor, so the longest id stays under 100 characters: about 85).
 *
 * | custom id                                   | component                                             |
 * | ------------------------------------------- | ----------------------------------------------------- |
 * | `al:pick:<ref>`                             | question message: the string select (options + Other) |
 * | `al:notes:<ref>`                            | question message: "Add notes" button (opens the modal) |
 * | `al:send:<ref>`                             | question message: "Send" button                       |
 * | `al:remove:<ref>`                           | question message: "Remove" button (asks to confirm)   |
 * | `al:remove-yes:<ref>`                       | ephemeral confirmation: "Remove" (dismisses)          |
 * | `al:remove-no:<ref>`                        | ephemeral confirmation: "Cancel"                      |
 * | `al:notes-modal:<ref>`                      | the notes modal, opened from a question message       |
 * | `al:notes-modal:<ref>:<filter>:<after>`     | the notes modal, opened from the inbox (redraw it)    |
 * | `al:inbox-filter`                           | inbox: filter select; values {@link INBOX_FILTERS}    |
 * | `al:inbox-question:<filter>:<after>`        | inbox: which question to answer; values are refs      |
 * | `al:inbox-pick:<ref>:<filter>:<after>`      | inbox: the selected question's answer select          |
 * | `al:inbox-notes:<ref>:<filter>:<after>`     | inbox: "Add notes" for the selected question          |
 * | `al:inbox-send:<filter>:<after>`            | inbox: "Send N answers" (the ready ones shown)        |
 * | `al:inbox-page:<filter>:<after>`            | inbox: "First" / "Next"; `after` starts the page shown |
 *
 * `<filter>` is `all`, `blocking` or `non-blocking`; `<after>` a ref or `-`. The inbox is an ephemeral
 * reply that each interaction redraws in place (`interaction.update`), so every inbox id carries the inbox state it
 * was drawn in: a handler redraws without remembering anything. The filter select carries none: a new filter
 * starts at its first page with nothing selected.
 *
 * Inside the notes modal the components' custom ids are {@link NOTES_MODAL_FIELDS} (`choice`, `notes`): Discord
 * requires them unique within the modal only, and the modal's own id carries the ref.
 *
 * Select values: the option's index in `question.options` (`"0"` … `"5"`) or `"other"` for `Other`, never the label
 * (labels change meaning if reordered and may outgrow a value). {@link selectionFromValues} reads a select's
 * `values` back.
 *
 * Every `parse…` helper takes an unknown fragment of an interaction payload and returns undefined for anything it
 * does not recognise: payloads are input from the edge, refused by the handler, never thrown at.
 */

import { INBOX_FILTERS, type InboxFilter } from '../../core/inbox.js';
import { OTHER_LABEL, type QuestionSpec, type Selection } from '../../core/question.js';
import { parseQuestionRef } from '../../core/question-ref.js';

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
export const QUESTION_VERBS = ['pick', 'notes', 'send', 'remove', 'remove-yes', 'remove-no'] as const;
export type QuestionVerb = (typeof QUESTION_VERBS)[number];

/**
 * What a custom id says, by `kind` (the verb). `ref` is a question ref (checked with `parseQuestionRef`); `inbox`
 * is the inbox state the component was drawn in (for `inbox-page`, the page to show).
 */
export type DiscordCustomId =
  | { readonly kind: QuestionVerb; readonly ref: string }
  /** The notes modal; `inbox` is set when it was opened from the inbox, which its submit then redraws. */
  | { readonly kind: 'notes-modal'; readonly ref: string; readonly inbox?: InboxState }
  | { readonly kind: 'inbox-filter' }
  | { readonly kind: 'inbox-question'; readonly inbox: InboxState }
  | { readonly kind: 'inbox-pick'; readonly ref: string; readonly inbox: InboxState }
  | { readonly kind: 'inbox-notes'; readonly ref: string; readonly inbox: InboxState }
  | { readonly kind: 'inbox-send'; readonly inbox: InboxState }
  | { readonly kind: 'inbox-page'; readonly inbox: InboxState };

export type DiscordCustomIdKind = DiscordCustomId['kind'];

function stateArgs(state: InboxState): string {
  return `${state.filter}:${state.after ?? '-'}`;
}

/**
 * The custom id for `id` (see the table above). Refs are taken as given (they come from `formatQuestionRef`), so
 * the result is at most ~85 characters.
 */
export function formatCustomId(id: DiscordCustomId): string {
  const head = `${CUSTOM_ID_PREFIX}:${id.kind}`;
  switch (id.kind) {
    case 'pick':
    case 'notes':
    case 'send':
    case 'remove':
    case 'remove-yes':
    case 'remove-no':
      return `${head}:${id.ref}`;
    case 'notes-modal':
      return id.inbox === undefined ? `${head}:${id.ref}` : `${head}:${id.ref}:${stateArgs(id.inbox)}`;
    case 'inbox-filter':
      return head;
    case 'inbox-question':
    case 'inbox-send':
    case 'inbox-page':
      return `${head}:${stateArgs(id.inbox)}`;
    case 'inbox-pick':
    case 'inbox-notes':
      return `${head}:${id.ref}:${stateArgs(id.inbox)}`;
  }
}

function ref(text: string | undefined): string | undefined {
  return parseQuestionRef(text) === undefined ? undefined : text;
}

function state(filter: string | undefined, after: string | undefined): InboxState | undefined {
  const validFilter = parseInboxFilter(filter);
  const validAfter = parseAfter(after);
  return validFilter === undefined || validAfter === undefined ? undefined : { filter: validFilter, ...validAfter };
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
    case 'pick':
    case 'notes':
    case 'send':
    case 'remove':
    case 'remove-yes':
    case 'remove-no': {
      const valid = args.length === 1 ? ref(a) : undefined;
      return valid === undefined ? undefined : { kind, ref: valid };
    }
    case 'notes-modal': {
      const valid = ref(a);
      if (valid === undefined) return undefined;
      if (args.length === 1) return { kind, ref: valid };
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
    case 'inbox-pick':
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
  /** The answer select (options + Other). */
  choice: 'choice',
  /** The notes text input. */
  notes: 'notes',
} as const);

// ---------------------------------------------------------------------------------------------------------------
// Select values <-> labels

/** The select value of `Other`. */
export const OTHER_OPTION_VALUE = 'other';

/** The select value of the option at `index` in `question.options`. */
export function optionValue(index: number): string {
  return String(index);
}

/** The label a select value stands for (an option's label, or `Other`), or undefined for an unknown value. */
export function labelForOptionValue(question: Pick<QuestionSpec, 'options'>, value: unknown): string | undefined {
  if (value === OTHER_OPTION_VALUE) return OTHER_LABEL;
  if (typeof value !== 'string' || !/^(0|[1-9]\d?)$/.test(value)) return undefined;
  return question.options[Number(value)]?.label;
}

/** The select value of a label (an option's label, or `Other`), or undefined when the question has no such label. */
export function valueForLabel(question: Pick<QuestionSpec, 'options'>, label: string): string | undefined {
  if (label === OTHER_LABEL) return OTHER_OPTION_VALUE;
  const index = question.options.findIndex((option) => option.label === label);
  return index === -1 ? undefined : optionValue(index);
}

/**
 * The picks in a string select's `values` (a component interaction's `data.values`, or a modal select's `values`):
 * the choices (labels in the options' order) and whether `Other` is picked. Undefined when `values` is not an array
 * of strings or names a value the question does not have. An empty array is a valid "nothing picked". Notes are
 * not part of a select's values; whether the picks are allowed (one on a single-select question) is
 * `checkAnswer`'s job.
 */
export function selectionFromValues(
  question: Pick<QuestionSpec, 'options'>,
  values: unknown,
): Pick<Selection, 'choices' | 'other'> | undefined {
  if (!Array.isArray(values) || values.length > 25) return undefined;
  const labels = new Set<string>();
  for (const value of values) {
    const label = labelForOptionValue(question, value);
    if (label === undefined) return undefined;
    labels.add(label);
  }
  return {
    choices: question.options.map((option) => option.label).filter((label) => labels.has(label)),
    other: labels.has(OTHER_LABEL),
  };
}
