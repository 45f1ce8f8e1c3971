/**
 * Discord's interactions as the pipeline's actions: a custom id (blocks' `ids.ts`) or `/questions`, read with the
 * guards of `payload.ts`, becomes an action with its actor and place, and the {@link DiscordOrigin} its reply goes to;
 * undefined when it is not one of ours (then acked silently, ids logged). Nothing here does I/O.
 *
 * | custom id / command            | action                                                               |
 * | ------------------------------ | -------------------------------------------------------------------- |
 * | `al:pick:<ref>[:<member>]`     | pick (the select's values)                                           |
 * | `al:notes:<ref>`               | open-notes: the notes modal, or the notes menu when many notes       |
 * | `al:notes-for:<ref>[:<m>]`     | open-notes of one item: the modal for the note the menu names        |
 * | `al:notes-modal:<ref>[:…]`     | save-notes (+ choice); then a receipt, the inbox or the menu         |
 * | `al:send:<ref>`                | send (a set: its review first)                                       |
 * | `al:send-yes:<ref>:<check>`    | confirm-send                                                         |
 * | `al:remove:<ref>`, `-yes`, `-no` | ask-remove, remove, keep                                           |
 * | `/questions`, `al:inbox-…`     | inbox, and in it pick, open-notes, send-ready                        |
 */
import type {
  ButtonInteraction,
  ChatInputCommandInteraction,
  ModalSubmitInteraction,
  StringSelectMenuInteraction,
} from 'discord.js';
import type { ChoiceNote, Question } from '../../core/question.js';
import { parseQuestionRef } from '../../core/question-ref.js';
import {
  ANSWER_NOTES_VALUE,
  type InboxState,
  NOTES_MODAL_FIELDS,
  parseCustomId,
  parseInboxFilter,
  parseNotesField,
  selectionFromValues,
} from '../../render/discord/ids.js';
import { INBOX_PAGE_SIZE } from '../../render/discord/inbox.js';
import type { NotesTarget } from '../../render/discord/notes-modal.js';
import { itemAt, type PickReader } from '../actions/action.js';
import type { ActionRequest } from '../actions/perform.js';
import type { DraftChange, InboxPageRequest } from '../interactions.js';
import { actorOf, obj, selectValues } from './payload.js';

/** The slash command that opens the inbox. */
export const QUESTIONS_COMMAND = 'questions';

/** Interactions a reply can answer in place (replies, updates, modals). */
export type Answerable =
  | ChatInputCommandInteraction
  | ButtonInteraction
  | StringSelectMenuInteraction
  | ModalSubmitInteraction;

/** Where a Discord action's reply goes. */
export type DiscordOrigin =
  /** A question message's control, or `/questions`: ephemeral replies, modals. */
  | { readonly kind: 'message' }
  /** The notes menu's choice: the modal for one note (`target`). */
  | { readonly kind: 'notes-target'; readonly target: NotesTarget }
  /** A review's "Send answers" or a removal's confirmation: the ephemeral message turns into what happened. */
  | { readonly kind: 'confirmation' }
  /** A notes modal submitted, opened from a message, the notes menu, or the inbox (`InboxState`). */
  | { readonly kind: 'notes-submit'; readonly from: 'message' | 'menu' | InboxState; readonly fromMessage: boolean }
  /** The ephemeral inbox, redrawn in place (`selected`: the question whose picker and notes show). */
  | { readonly kind: 'inbox'; readonly state: InboxState; readonly selected?: string }
  /** `/questions`: the inbox as a new ephemeral reply. */
  | { readonly kind: 'command'; readonly state: InboxState };

/** One interaction read: the action, where its reply goes, and how a late answer is deferred. */
export interface DiscordRequest extends ActionRequest {
  readonly origin: DiscordOrigin;
  /** A redraw defers as a silent update; the rest as an ephemeral "thinking". */
  readonly late: 'reply' | 'update';
  /** The custom id's verb, for logs. */
  readonly verb?: string;
}

/** The page `state` shows: {@link INBOX_PAGE_SIZE} questions (what an embed's 4,096 characters hold). */
export function inboxRequest(state: InboxState): InboxPageRequest {
  return {
    filter: state.filter,
    limit: INBOX_PAGE_SIZE,
    ...(state.after === undefined ? {} : { after: state.after }),
  };
}

/** A string select's values as a pick of the item. */
function valuesPick(values: unknown): PickReader {
  return (item) => selectionFromValues(item, selectValues(values));
}

/** The interaction as a request; undefined when it is not one of ours. */
export function parseInteraction(interaction: Answerable): DiscordRequest | undefined {
  const actor = actorOf(interaction);
  if (!actor) return undefined;
  if (interaction.isChatInputCommand()) {
    if (interaction.commandName !== QUESTIONS_COMMAND) return undefined;
    const state: InboxState = { filter: 'all' };
    return {
      actor,
      place: { channel: interaction.channelId },
      origin: { kind: 'command', state },
      action: { kind: 'inbox', request: inboxRequest(state) },
      late: 'reply',
    };
  }
  const id = parseCustomId(interaction.customId);
  if (!id) return undefined;
  const place = { channel: interaction.channelId ?? '' };
  const select = interaction.isStringSelectMenu() ? interaction : undefined;
  const redraws =
    (id.kind.startsWith('inbox-') && id.kind !== 'inbox-notes') ||
    id.kind === 'send-yes' ||
    (id.kind === 'notes-modal' && (id.menu === true || id.inbox !== undefined));
  const base = { actor, place, late: redraws ? ('update' as const) : ('reply' as const), verb: id.kind };
  const message = { kind: 'message' } as const;
  const m = (member: number | undefined) => (member === undefined ? {} : { member });
  switch (id.kind) {
    case 'pick':
      if (!select) return undefined;
      return {
        ...base,
        origin: message,
        action: { kind: 'pick', ref: id.ref, ...m(id.member), read: valuesPick(select.values) },
      };
    case 'notes':
      return { ...base, origin: message, action: { kind: 'open-notes', ref: id.ref } };
    case 'notes-for': {
      const value = select ? selectValues(select.values)?.[0] : undefined;
      const target: NotesTarget | undefined =
        value === ANSWER_NOTES_VALUE ? 'answer' : value !== undefined && /^\d$/.test(value) ? Number(value) : undefined;
      if (target === undefined) return undefined;
      return {
        ...base,
        origin: { kind: 'notes-target', target },
        action: { kind: 'open-notes', ref: id.ref, ...m(id.member) },
      };
    }
    case 'send':
      return { ...base, origin: message, action: { kind: 'send', ref: id.ref, reviewSets: true } };
    case 'send-yes':
      return {
        ...base,
        origin: { kind: 'confirmation' },
        action: { kind: 'confirm-send', ref: id.ref, check: id.check },
      };
    case 'remove':
      return { ...base, origin: message, action: { kind: 'ask-remove', ref: id.ref } };
    case 'remove-yes':
      return { ...base, origin: { kind: 'confirmation' }, action: { kind: 'remove', ref: id.ref } };
    case 'remove-no':
      return { ...base, origin: { kind: 'confirmation' }, action: { kind: 'keep', ref: id.ref } };
    case 'notes-modal': {
      if (!interaction.isModalSubmit()) return undefined;
      const submitted = interaction;
      const from = id.inbox ?? (id.menu === true ? 'menu' : 'message');
      return {
        ...base,
        origin: { kind: 'notes-submit', from, fromMessage: submitted.isFromMessage() },
        action: { kind: 'save-notes', ref: id.ref, read: (question) => modalChanges(submitted, question) },
      };
    }
    case 'inbox-filter': {
      const filter = select ? parseInboxFilter(select.values[0]) : undefined;
      if (filter === undefined) return undefined;
      const state: InboxState = { filter };
      return { ...base, origin: { kind: 'inbox', state }, action: { kind: 'inbox', request: inboxRequest(state) } };
    }
    case 'inbox-question': {
      const ref = select?.values[0];
      if (parseQuestionRef(ref) === undefined || ref === undefined) return undefined;
      return {
        ...base,
        origin: { kind: 'inbox', state: id.inbox, selected: ref },
        action: { kind: 'inbox', request: inboxRequest(id.inbox) },
      };
    }
    case 'inbox-pick':
      if (!select) return undefined;
      return {
        ...base,
        origin: { kind: 'inbox', state: id.inbox, selected: id.ref },
        action: { kind: 'pick', ref: id.ref, ...m(id.member), read: valuesPick(select.values) },
      };
    case 'inbox-notes':
      return { ...base, origin: { kind: 'inbox', state: id.inbox }, action: { kind: 'open-notes', ref: id.ref } };
    case 'inbox-send': {
      const refs = interaction.isButton() ? shownRefs(interaction.message) : [];
      return {
        ...base,
        origin: { kind: 'inbox', state: id.inbox },
        action: { kind: 'send-ready', refs, page: inboxRequest(id.inbox) },
      };
    }
    case 'inbox-page':
      return {
        ...base,
        origin: { kind: 'inbox', state: id.inbox },
        action: { kind: 'inbox', request: inboxRequest(id.inbox) },
      };
  }
}

/**
 * A notes modal's fields as draft changes, one per item it holds (in the items' order): the choice select (a single
 * question's), answer notes, and notes per option (by the option's index, saved under its label). Read with guards:
 * undefined when a field names no item or option of the question, or its value is unreadable.
 */
function modalChanges(interaction: ModalSubmitInteraction, question: Question): DraftChange[] | undefined {
  type Change = { member?: number; pick?: NonNullable<DraftChange['pick']>; notes?: string; choiceNotes: ChoiceNote[] };
  const byItem = new Map<number, Change>();
  const changeOf = (member: number | undefined): Change => {
    const key = member ?? -1;
    const existing = byItem.get(key);
    if (existing !== undefined) return existing;
    const created: Change = { ...(member === undefined ? {} : { member }), choiceNotes: [] };
    byItem.set(key, created);
    return created;
  };
  for (const [customId, data] of interaction.fields.fields) {
    const field = obj(data);
    if (customId === NOTES_MODAL_FIELDS.choice) {
      const pick =
        question.members === undefined ? selectionFromValues(question, selectValues(field?.values)) : undefined;
      if (pick === undefined) return undefined;
      changeOf(undefined).pick = pick;
      continue;
    }
    const target = parseNotesField(customId);
    const value = field?.value;
    const item = target === undefined ? undefined : itemAt(question, target.member);
    if (target === undefined || item === undefined || typeof value !== 'string') return undefined;
    const change = changeOf(target.member);
    if (target.option === undefined) {
      change.notes = value;
      continue;
    }
    const label = item.options[target.option]?.label;
    if (label === undefined) return undefined;
    change.choiceNotes.push({ choice: label, notes: value });
  }
  return [...byItem.entries()]
    .sort(([a], [b]) => a - b)
    .map(
      ([, { choiceNotes, ...change }]): DraftChange => (choiceNotes.length === 0 ? change : { ...change, choiceNotes }),
    );
}

/**
 * The refs of the questions an inbox message shows: the values of its question select (`al:inbox-question:…`),
 * read from the message the component was clicked on. Input from the edge: anything unreadable gives none.
 */
function shownRefs(message: unknown): string[] {
  let rows: unknown;
  try {
    rows = JSON.parse(JSON.stringify((message as { components?: unknown } | null)?.components ?? []));
  } catch {
    return [];
  }
  const refs: string[] = [];
  for (const row of Array.isArray(rows) ? rows : []) {
    const components = (row as { components?: unknown }).components;
    for (const component of Array.isArray(components) ? components : []) {
      const c = component as { custom_id?: unknown; options?: unknown };
      if (parseCustomId(c.custom_id)?.kind !== 'inbox-question' || !Array.isArray(c.options)) continue;
      for (const option of c.options) {
        const value = (option as { value?: unknown }).value;
        if (typeof value === 'string' && parseQuestionRef(value) !== undefined) refs.push(value);
      }
    }
  }
  return refs;
}
