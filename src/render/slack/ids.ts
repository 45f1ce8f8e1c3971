/**
 * The contract between the Slack renderers and the Bolt handlers: every action id, view callback id and block id
 * the renderers put in a payload, how a question is referenced in it, and the helpers that read those back.
 *
 * How a question is referenced: by its ref, `formatQuestionRef(project, id)` (`<16-char tag>.<id>`, see
 * `core/question-ref.ts`), never by project name or text.
 * - Buttons (`al_notes`, `al_send`, `al_remove`, `al_inbox_notes`) carry the ref as their `value`.
 * - Selects (`al_pick`, `al_inbox_pick`) carry the option's value (see below); the ref is in their block's
 *   `block_id`: `al_q:<ref>:<revision>`, and for a member of a set `al_q:<ref>:<revision>:<member>` (0-based).
 *   In a message the revision is the caller's message revision; in the inbox it is the draft's `updatedAt` (0
 *   without a draft). A fresh block_id on every change makes Slack redraw the select from `initial_option` instead
 *   of keeping what the viewer last saw (FACTS.md). {@link refFromAction} reads either form, so one helper serves
 *   every action; {@link memberFromAction} reads the member from the block id (a set member's "Add notes" sits in
 *   the same block as its select). Messages posted before sets existed carry the three-part form: still read.
 * - The notes modal carries the ref as its `private_metadata` ({@link notesMetadata}: JSON with the member for a
 *   member of a set); its fields are {@link NOTES_BLOCK_IDS} and, on a multi-select, one notes input per picked
 *   option ({@link optionNotesBlockId}).
 * - The review modal of a set carries the ref as its `private_metadata` (the bot adds what was reviewed).
 * - The inbox carries its state `{filter, after?, back?}` as JSON in `private_metadata` (modal and Home tab).
 *
 * Option values in selects: the option's index in `question.options` (`"0"` … `"5"`) or `"other"` for `Other`,
 * never the label (labels may be up to 73 characters and change meaning if reordered; values stay ≤ 75).
 *
 * Every `parse…`/`…From…` helper takes an unknown payload fragment and returns undefined for anything it does not
 * recognise: payloads are input from the edge, and a bad one is refused by the handler, never thrown.
 */

import { INBOX_FILTERS, type InboxFilter } from '../../core/inbox.js';
import { OTHER_LABEL, type QuestionItem, type Selection } from '../../core/question.js';
import { parseQuestionRef } from '../../core/question-ref.js';
import { labelForSelectValue } from '../select-values.js';

/** Every action id (`action_id` of an interactive element). */
export const ACTION_IDS = Object.freeze({
  /** Question message: the select over the options + Other (`static_select` or `multi_static_select`). */
  pick: 'al_pick',
  /** Question message: "Add notes" button, opens the notes modal. `value` = ref. */
  notes: 'al_notes',
  /** Question message: "Send" button, sends the viewer's selection. `value` = ref. */
  send: 'al_send',
  /** Question message: "Remove" button (behind a confirm dialog), dismisses the question. `value` = ref. */
  remove: 'al_remove',
  /** Inbox: the filter select; option values are {@link INBOX_FILTERS}. */
  inboxFilter: 'al_inbox_filter',
  /** Inbox: one question's select; its block_id carries the ref. */
  inboxPick: 'al_inbox_pick',
  /** Inbox: one question's "Add notes" button. `value` = ref. */
  inboxNotes: 'al_inbox_notes',
  /** Inbox: "Send N answers" button. `value` = the refs of the ready questions shown, space-separated. */
  inboxSendAll: 'al_inbox_send_all',
  /** Inbox: "Previous" / "Next" buttons. `value` = {@link formatInboxPaging}: `previous` or `next:<ref>`. */
  inboxPage: 'al_inbox_page',
  /**
   * Notes modal: the select in the picker input block. The block dispatches on change (`dispatch_action`), so a
   * handler can store the draft and `views.update` the modal (the notes become required when Other is picked).
   */
  notesPick: 'al_notes_pick',
  /** Notes modal: the multiline notes input. */
  notesText: 'al_notes_text',
  /** Notes modal of a multi-select: the notes input of one picked option (its block id names the option). */
  notesOption: 'al_notes_opt',
} as const);

export type ActionId = (typeof ACTION_IDS)[keyof typeof ACTION_IDS];

/** Every view `callback_id`. */
export const CALLBACK_IDS = Object.freeze({
  /** The notes modal; `private_metadata` = the ref. */
  notes: 'al_notes',
  /** The `/questions` inbox, as a modal and as the Home tab; `private_metadata` = {@link formatInboxState}. */
  inbox: 'al_inbox',
  /** A set's review before it is sent (Send on a set opens it; its submit sends); `private_metadata` = the ref. */
  review: 'al_review',
} as const);

export type CallbackId = (typeof CALLBACK_IDS)[keyof typeof CALLBACK_IDS];

/**
 * The notes modal's input blocks: read `view.state.values[NOTES_BLOCK_IDS.pick][ACTION_IDS.notesPick]` and
 * `view.state.values[NOTES_BLOCK_IDS.notes][ACTION_IDS.notesText].value` on `view_submission`; answer errors
 * with `response_action: 'errors'` keyed by these block ids.
 */
export const NOTES_BLOCK_IDS = Object.freeze({
  pick: 'al_notes_pick',
  notes: 'al_notes_text',
} as const);

/** Fixed block ids of the inbox (the question blocks use {@link questionBlockId}). */
export const INBOX_BLOCK_IDS = Object.freeze({
  filter: 'al_inbox_filter',
  sendAll: 'al_inbox_send_all',
  previousPage: 'al_inbox_page_previous',
  nextPage: 'al_inbox_page_next',
} as const);

// ---------------------------------------------------------------------------------------------------------------
// Question refs in block ids and values

const QUESTION_BLOCK_PREFIX = 'al_q';

/**
 * `al_q:<ref>:<revision>`, or `al_q:<ref>:<revision>:<member>` for a member of a set (0-based): the block id of
 * the block holding a question's (or a member's) select.
 */
export function questionBlockId(ref: string, revision: number, member?: number): string {
  const base = `${QUESTION_BLOCK_PREFIX}:${ref}:${Math.max(0, Math.trunc(revision))}`;
  return member === undefined ? base : `${base}:${Math.max(0, Math.trunc(member))}`;
}

/** What a block id made by {@link questionBlockId} names. */
export interface QuestionBlock {
  readonly ref: string;
  readonly revision: number;
  /** The member of a set (0-based); absent for a single question. */
  readonly member?: number;
}

/** The ref, revision and member in a block id made by {@link questionBlockId}, or undefined. */
export function parseQuestionBlockId(blockId: unknown): QuestionBlock | undefined {
  if (typeof blockId !== 'string' || blockId.length > 255) return undefined;
  const match = /^al_q:([^:]+):(\d{1,16})(?::(\d))?$/.exec(blockId);
  const ref = match?.[1];
  const revision = match?.[2];
  const member = match?.[3];
  if (ref === undefined || revision === undefined || parseQuestionRef(ref) === undefined) return undefined;
  return member === undefined
    ? { ref, revision: Number(revision) }
    : { ref, revision: Number(revision), member: Number(member) };
}

/**
 * The member of a set an action is about: from its `block_id` (a member's select and "Add notes" share the
 * member's block). Undefined for a single question's action, and for anything unreadable.
 */
export function memberFromAction(action: unknown): number | undefined {
  if (action === null || typeof action !== 'object') return undefined;
  return parseQuestionBlockId((action as { block_id?: unknown }).block_id)?.member;
}

/** `value` when it is a question ref, else undefined. For the buttons' `value` and the notes modal's metadata. */
export function parseRefValue(value: unknown): string | undefined {
  return parseQuestionRef(value) === undefined ? undefined : (value as string);
}

/**
 * The question an action is about: from the action's `value` when it is a ref (buttons), else from its `block_id`
 * (selects). `action` is one entry of a `block_actions` payload's `actions`.
 */
export function refFromAction(action: unknown): string | undefined {
  if (action === null || typeof action !== 'object') return undefined;
  const { value, block_id: blockId } = action as { value?: unknown; block_id?: unknown };
  return parseRefValue(value) ?? parseQuestionBlockId(blockId)?.ref;
}

/**
 * The notes modal's `private_metadata`: the bare ref for a single question (as before sets), else
 * `{"ref":"<ref>","member":<n>}`.
 */
export function notesMetadata(ref: string, member?: number): string {
  return member === undefined ? ref : JSON.stringify({ ref, member });
}

/** The ref and member in metadata made by {@link notesMetadata} (either form), or undefined. */
export function parseNotesMetadata(privateMetadata: unknown): { ref: string; member?: number } | undefined {
  const bare = parseRefValue(privateMetadata);
  if (bare !== undefined) return { ref: bare };
  const parsed = parseMetadataJson(privateMetadata);
  if (parsed === null || typeof parsed !== 'object') return undefined;
  const { ref, member } = parsed as { ref?: unknown; member?: unknown };
  const valid = parseRefValue(ref);
  if (valid === undefined) return undefined;
  const index = parseMember(member);
  return index === undefined ? { ref: valid } : { ref: valid, member: index };
}

/** A member index as payloads carry it (0 to 9), or undefined. */
export function parseMember(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 9 ? value : undefined;
}

/** `al_notes_opt:<index>`: the block id of the notes input of the option at `index` (a multi-select's pick). */
export function optionNotesBlockId(index: number): string {
  return `${ACTION_IDS.notesOption}:${index}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Option values <-> labels

export { labelForSelectValue, OTHER_SELECT_VALUE, selectValue, selectValueForLabel } from '../select-values.js';

/**
 * The picks in a select's state: `selected_option` (one `{value}`), `selected_options` (an array of them), or
 * null/absent (nothing picked). Returns the choices (labels in the options' order) and whether `Other` is picked,
 * or undefined when the state is malformed or names a value the question does not have. Notes are not part of a
 * select's state.
 */
export function selectionFromSelectState(
  question: Pick<QuestionItem, 'options'>,
  state: unknown,
): Pick<Selection, 'choices' | 'other'> | undefined {
  if (state === null || typeof state !== 'object') return undefined;
  const { selected_option: one, selected_options: many } = state as {
    selected_option?: unknown;
    selected_options?: unknown;
  };
  const picked: unknown[] = Array.isArray(many) ? many : one === undefined || one === null ? [] : [one];
  const labels = new Set<string>();
  for (const entry of picked) {
    const value = entry !== null && typeof entry === 'object' ? (entry as { value?: unknown }).value : undefined;
    const label = labelForSelectValue(question, value);
    if (label === undefined) return undefined;
    labels.add(label);
  }
  return {
    choices: question.options.map((option) => option.label).filter((label) => labels.has(label)),
    other: labels.has(OTHER_LABEL),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Inbox state

export { INBOX_FILTERS, type InboxFilter };

/** How many earlier pages the inbox remembers for "Previous" (beyond them, Previous goes to the first page). */
export const INBOX_BACK_MAX = 20;

/**
 * What the inbox shows: the filter, where the page starts (`after`: the ref of the question before it; absent: the
 * first page) and where the pages before it started (`back`, oldest first, "" for the first page), for Previous.
 */
export interface InboxState {
  readonly filter: InboxFilter;
  readonly after?: string;
  readonly back?: readonly string[];
}

/** A filter name, or undefined. */
export function parseInboxFilter(value: unknown): InboxFilter | undefined {
  return INBOX_FILTERS.find((filter) => filter === value);
}

/** What a paging button asks for (the `al_inbox_page` button's value). */
export type InboxPaging = { readonly to: 'next'; readonly after: string } | { readonly to: 'previous' };

/** `next:<ref>` (the page after that question) or `previous`, or undefined. */
export function parseInboxPaging(value: unknown): InboxPaging | undefined {
  if (value === 'previous') return { to: 'previous' };
  if (typeof value !== 'string' || !value.startsWith('next:')) return undefined;
  const after = value.slice('next:'.length);
  return parseQuestionRef(after) === undefined ? undefined : { to: 'next', after };
}

export function formatInboxPaging(paging: InboxPaging): string {
  return paging.to === 'next' ? `next:${paging.after}` : 'previous';
}

/** The state a paging button leads to from `state`. */
export function pagedState(state: InboxState, paging: InboxPaging): InboxState {
  if (paging.to === 'next') {
    const back = [...(state.back ?? []), state.after ?? ''].slice(-INBOX_BACK_MAX);
    return { filter: state.filter, after: paging.after, back };
  }
  const back = [...(state.back ?? [])];
  const previous = back.pop();
  return previous === undefined || previous === ''
    ? { filter: state.filter, ...(back.length > 0 ? { back } : {}) }
    : { filter: state.filter, after: previous, ...(back.length > 0 ? { back } : {}) };
}

/** The inbox's `private_metadata`: `{"filter":"all","after":"<ref>","back":["",…]}` (after and back when set). */
export function formatInboxState(state: InboxState): string {
  return JSON.stringify(inboxStateFields(state));
}

/** The state's JSON fields, for metadata that carries more next to them. */
export function inboxStateFields(state: InboxState): Record<string, unknown> {
  return {
    filter: state.filter,
    ...(state.after === undefined ? {} : { after: state.after }),
    ...(state.back === undefined || state.back.length === 0 ? {} : { back: state.back }),
  };
}

/** The state in an inbox view's `private_metadata`, or undefined (an empty or foreign one included). */
export function parseInboxState(privateMetadata: unknown): InboxState | undefined {
  return readInboxState(parseMetadataJson(privateMetadata));
}

/** A view's `private_metadata` (at most Slack's 3000 characters) read as JSON, or undefined. */
export function parseMetadataJson(privateMetadata: unknown): unknown {
  if (typeof privateMetadata !== 'string' || privateMetadata.length > 3000) return undefined;
  try {
    return JSON.parse(privateMetadata) as unknown;
  } catch {
    return undefined;
  }
}

/** The state in already parsed metadata (`{filter, after?, back?}`), or undefined. */
export function readInboxState(parsed: unknown): InboxState | undefined {
  if (parsed === null || typeof parsed !== 'object') return undefined;
  const { filter, after, back } = parsed as { filter?: unknown; after?: unknown; back?: unknown };
  const validFilter = parseInboxFilter(filter);
  if (validFilter === undefined) return undefined;
  if (after !== undefined && parseQuestionRef(after) === undefined) return undefined;
  const validBack =
    back === undefined
      ? []
      : Array.isArray(back) && back.length <= INBOX_BACK_MAX
        ? back.filter((entry): entry is string => entry === '' || parseQuestionRef(entry) !== undefined)
        : undefined;
  if (validBack === undefined || (Array.isArray(back) && validBack.length !== back.length)) return undefined;
  return {
    filter: validFilter,
    ...(after === undefined ? {} : { after: after as string }),
    ...(validBack.length > 0 ? { back: validBack } : {}),
  };
}

/** The refs "Send N answers" carries (its `value`: the ready questions shown, space-separated), valid ones only. */
export function parseSendRefs(value: unknown): string[] {
  if (typeof value !== 'string' || value.length > 2000) return [];
  return value.split(' ').filter((ref) => parseQuestionRef(ref) !== undefined);
}
