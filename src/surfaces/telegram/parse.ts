/**
 * Telegram's updates as the pipeline's actions: a button's `callback_data` (blocks' `ids.ts`), `/questions`, or a
 * reply to a notes prompt becomes an action with its actor and place (the chat), and the {@link TelegramOrigin} its
 * reply goes to; undefined when it is not one of ours (then answered silently, ids logged). Updates are read as
 * input from the edge, with guards. Nothing here does I/O.
 */
import type { CallbackQuery, Message, Update } from 'grammy/types';
import { OTHER_LABEL, type QuestionItem, type Selection } from '../../core/question.js';
import { parseQuestionRef } from '../../core/question-ref.js';
import { type InboxState, parseCallbackData } from '../../render/telegram/ids.js';
import { INBOX_PAGE_SIZE } from '../../render/telegram/inbox.js';
import { type NotesTarget, parseNotesTarget } from '../../render/telegram/replies.js';
import { itemAt, type PickReader } from '../actions/action.js';
import type { ActionRequest } from '../actions/perform.js';
import type { Actor, DraftChange, InboxPageRequest } from '../interactions.js';
import type { ShownPick } from '../review.js';

/** The command that lists what waits in the chat. */
export const QUESTIONS_COMMAND = 'questions';

/** Where a Telegram action's reply goes. */
export type TelegramOrigin =
  /** A question message's button: the message is redrawn for the person (`member`: a set's tab shown). */
  | { readonly kind: 'question'; readonly messageId: number; readonly member?: number }
  /** The Notes button: a force-reply prompt for this target. */
  | { readonly kind: 'notes'; readonly messageId: number; readonly target: NotesTarget }
  /** A review or a confirmation message: it turns into what happened. */
  | { readonly kind: 'confirmation'; readonly messageId: number }
  /** The inbox message, redrawn in place. */
  | { readonly kind: 'inbox'; readonly messageId: number; readonly state: InboxState }
  /** The inbox's question button: point at the question's message in the chat. */
  | { readonly kind: 'open'; readonly messageId: number }
  /** `/questions`: the inbox as a new message. */
  | { readonly kind: 'command'; readonly state: InboxState }
  /** Notes sent as a reply to a prompt: confirmed in a reply, and the question message redrawn. */
  | { readonly kind: 'notes-reply'; readonly messageId: number; readonly target: NotesTarget };

/** One update read: the action, where its reply goes, and what it answers. */
export interface TelegramRequest extends ActionRequest {
  readonly origin: TelegramOrigin;
  readonly chatId: number;
  /** The callback query to answer (absent for messages). */
  readonly callbackId?: string;
  /** The callback data's verb, for logs. */
  readonly verb?: string;
}

/** The page a state shows. */
export function inboxRequest(state: InboxState): InboxPageRequest {
  return { filter: state.filter, limit: INBOX_PAGE_SIZE, ...(state.after === undefined ? {} : { after: state.after }) };
}

/** The person behind an update: their id and the name people see (`First Last`, else `@username`). */
export function actorOf(
  from: { id?: unknown; first_name?: unknown; last_name?: unknown; username?: unknown } | undefined,
): Actor | undefined {
  if (from === undefined || typeof from.id !== 'number' || !Number.isSafeInteger(from.id) || from.id <= 0)
    return undefined;
  const names = [from.first_name, from.last_name].filter(
    (part): part is string => typeof part === 'string' && part.trim() !== '',
  );
  const username = typeof from.username === 'string' ? `@${from.username}` : undefined;
  const displayName = (names.join(' ') || username || String(from.id)).slice(0, 80);
  return { platform: 'telegram', userId: String(from.id), displayName };
}

/** A toggle of option `option` (or Other) against what shows now: single-select replaces, multi-select toggles. */
function toggle(option: number | 'other'): PickReader {
  return (item: QuestionItem, shown: Selection): ShownPick | undefined => {
    if (option === 'other') {
      return item.multiSelect ? { choices: shown.choices, other: !shown.other } : { choices: [], other: !shown.other };
    }
    const label = item.options[option]?.label;
    if (label === undefined) return undefined;
    if (!item.multiSelect) {
      return shown.choices.includes(label) && !shown.other
        ? { choices: [], other: false }
        : { choices: [label], other: false };
    }
    const choices = shown.choices.includes(label)
      ? shown.choices.filter((choice) => choice !== label)
      : [...shown.choices, label];
    return { choices, other: shown.other };
  };
}

/** The update as a request; undefined when it is not one of ours. */
export function parseUpdate(update: Update, botId?: number): TelegramRequest | undefined {
  if (update.callback_query !== undefined) return parseCallback(update.callback_query);
  if (update.message !== undefined) return parseMessage(update.message, botId);
  return undefined;
}

function parseCallback(query: CallbackQuery): TelegramRequest | undefined {
  const actor = actorOf(query.from);
  const message = query.message;
  const data = parseCallbackData(query.data);
  if (!actor || !message || !data || typeof message.chat?.id !== 'number') return undefined;
  const chatId = message.chat.id;
  const messageId = message.message_id;
  const base = { actor, place: { channel: String(chatId) }, chatId, callbackId: query.id, verb: data.kind };
  const m = (member: number | undefined) => (member === undefined ? {} : { member });
  switch (data.kind) {
    case 'pick':
    case 'other':
      return {
        ...base,
        origin: { kind: 'question', messageId, ...m(data.member) },
        action: {
          kind: 'pick',
          ref: data.ref,
          ...m(data.member),
          read: toggle(data.kind === 'other' ? 'other' : data.option),
        },
      };
    case 'notes':
      return {
        ...base,
        origin: {
          kind: 'notes',
          messageId,
          target: {
            ref: data.ref,
            ...m(data.member),
            ...(data.option === undefined ? {} : { option: data.option }),
            messageId,
          },
        },
        action: { kind: 'open-notes', ref: data.ref, ...m(data.member) },
      };
    case 'member':
      // Showing another member is a read (access, drafts), the notes form's: the reply redraws with that tab.
      return {
        ...base,
        origin: { kind: 'question', messageId, member: data.member },
        action: { kind: 'open-notes', ref: data.ref, member: data.member },
      };
    case 'send':
      return {
        ...base,
        origin: { kind: 'question', messageId },
        action: { kind: 'send', ref: data.ref, reviewSets: true },
      };
    case 'send-yes':
      return {
        ...base,
        origin: { kind: 'confirmation', messageId },
        action: { kind: 'confirm-send', ref: data.ref, check: data.check },
      };
    case 'remove':
      return { ...base, origin: { kind: 'question', messageId }, action: { kind: 'ask-remove', ref: data.ref } };
    case 'remove-yes':
      return { ...base, origin: { kind: 'confirmation', messageId }, action: { kind: 'remove', ref: data.ref } };
    case 'remove-no':
      return { ...base, origin: { kind: 'confirmation', messageId }, action: { kind: 'keep', ref: data.ref } };
    case 'inbox':
      return {
        ...base,
        origin: { kind: 'inbox', messageId, state: data.inbox },
        action: { kind: 'inbox', request: inboxRequest(data.inbox) },
      };
    case 'inbox-send':
      return {
        ...base,
        origin: { kind: 'inbox', messageId, state: data.inbox },
        action: { kind: 'send-ready', refs: shownRefs(message), page: inboxRequest(data.inbox) },
      };
    case 'inbox-open':
      // A read that checks the person may act on the question here and gives it (with its copies): no notes open.
      return { ...base, origin: { kind: 'open', messageId }, action: { kind: 'open-notes', ref: data.ref } };
  }
}

/** The refs of the questions an inbox message shows: its question buttons' (`qo:<ref>`). */
function shownRefs(message: CallbackQuery['message']): string[] {
  const rows = message !== undefined && 'reply_markup' in message ? message.reply_markup?.inline_keyboard : undefined;
  const refs: string[] = [];
  for (const row of Array.isArray(rows) ? rows : []) {
    for (const button of Array.isArray(row) ? row : []) {
      const data = parseCallbackData((button as { callback_data?: unknown }).callback_data);
      if (data?.kind === 'inbox-open') refs.push(data.ref);
    }
  }
  return refs;
}

function parseMessage(message: Message, botId: number | undefined): TelegramRequest | undefined {
  const actor = actorOf(message.from);
  const text = message.text;
  if (!actor || typeof text !== 'string' || typeof message.chat?.id !== 'number') return undefined;
  const chatId = message.chat.id;
  const base = { actor, place: { channel: String(chatId) }, chatId };
  const command = /^\/([a-z_]+)(?:@[A-Za-z0-9_]+)?(?:\s|$)/.exec(text)?.[1];
  if (command === QUESTIONS_COMMAND) {
    const state: InboxState = { filter: 'all' };
    return {
      ...base,
      verb: 'questions',
      origin: { kind: 'command', state },
      action: { kind: 'inbox', request: inboxRequest(state) },
    };
  }
  const prompt = message.reply_to_message;
  if (prompt === undefined || (botId !== undefined && prompt.from?.id !== botId)) return undefined;
  const target = parseNotesTarget(prompt.text);
  if (target === undefined || parseQuestionRef(target.ref) === undefined) return undefined;
  const notes = text.trim() === '-' ? '' : text;
  return {
    ...base,
    verb: 'notes-reply',
    origin: { kind: 'notes-reply', messageId: message.message_id, target },
    action: { kind: 'draft', ref: target.ref, read: (question) => notesChange(question, target, notes) },
  };
}

/** A notes reply as the draft change it makes: the item's notes, or one picked option's. */
function notesChange(
  question: Parameters<typeof itemAt>[0],
  target: NotesTarget,
  notes: string,
): DraftChange[] | undefined {
  const item = itemAt(question, target.member);
  if (item === undefined) return undefined;
  const m = target.member === undefined ? {} : { member: target.member };
  if (target.option === undefined) return [{ ...m, notes }];
  const label = item.options[target.option]?.label;
  if (label === undefined || label === OTHER_LABEL) return undefined;
  return [{ ...m, choiceNotes: [{ choice: label, notes }] }];
}
