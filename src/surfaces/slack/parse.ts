/**
 * Slack's payloads as the pipeline's actions: each reader takes one listener's payload (a block action of one action
 * id, a view submission, `/questions`, the Home tab opened) and returns the action with its actor and place, and the
 * {@link SlackOrigin} its reply goes to; undefined when the payload is not one it recognises (then dropped, ids
 * logged). Values are read with the guards of `payload.ts` and blocks' `ids.ts`; nothing here does I/O.
 */

import { itemsOf } from '../../core/question.js';
import {
  ACTION_IDS,
  CALLBACK_IDS,
  type InboxState,
  memberFromAction,
  pagedState,
  parseInboxFilter,
  parseInboxPaging,
  parseSendRefs,
  refFromAction,
  selectionFromSelectState,
} from '../../render/slack/ids.js';
import { INBOX_PAGE_SIZE } from '../../render/slack/inbox.js';
import type { PickReader, ShownReader } from '../actions/action.js';
import type { ActionRequest } from '../actions/perform.js';
import type { Actor, InboxPageRequest, Place } from '../interactions.js';
import { type BlockActions, obj, selectStateFor, slackId, str, type ViewInfo, viewOf } from './payload.js';
import {
  type InboxOrigin,
  type NotesOrigin,
  type ReviewOrigin,
  readInboxMetadata,
  readNotesOrigin,
} from './view-metadata.js';

/** Where a Slack action's reply goes. */
export type SlackOrigin =
  /** A question message's control: redraw it, tell the person ephemerally, open modals on the trigger. */
  | {
      readonly kind: 'message';
      readonly channel: string;
      readonly ts: string;
      readonly triggerId?: string;
      readonly responseUrl?: string;
      /** What the viewer's select shows (the notes modal starts from it). */
      readonly shown?: ShownReader;
    }
  /** The picker inside the notes modal: redraw the modal. */
  | { readonly kind: 'notes-modal'; readonly viewId: string; readonly notes: NotesOrigin }
  /** The inbox (modal or Home tab): draw it afresh, with a notice; open the notes modal over it. */
  | { readonly kind: 'inbox'; readonly inbox: InboxOrigin; readonly triggerId?: string }
  /** The notes modal submitted: the ack, then redraw what shows the draft. */
  | { readonly kind: 'notes-submit'; readonly notes: NotesOrigin; readonly view: ViewInfo }
  /** A set's review submitted: the ack (close, or the modal replaced). */
  | { readonly kind: 'review-submit'; readonly review: ReviewOrigin }
  /** `/questions`: the inbox modal on the command's trigger. */
  | { readonly kind: 'command'; readonly channel: string; readonly triggerId: string }
  /** The Home tab opened: publish the inbox. */
  | { readonly kind: 'home'; readonly inbox: InboxOrigin };

/** One Slack payload read: the action and where its reply goes. */
export interface SlackRequest extends ActionRequest {
  readonly origin: SlackOrigin;
}

/** The page size of Slack's inbox for `state`. */
export function inboxRequest(state: InboxState): InboxPageRequest {
  return {
    filter: state.filter,
    limit: INBOX_PAGE_SIZE,
    ...(state.after === undefined ? {} : { after: state.after }),
  };
}

/** A select's state read as a pick of the item. */
function selectPick(state: unknown): PickReader {
  return (item) => selectionFromSelectState(item, state);
}

/** What the viewer's message selects show for `ref`, item by item (undefined where a select sent no state). */
function shownOnMessage(p: BlockActions, ref: string): ShownReader {
  return (question) =>
    itemsOf(question).map((item, index) => {
      const state = selectStateFor(
        p.stateValues,
        ref,
        ACTION_IDS.pick,
        question.members === undefined ? undefined : index,
      );
      return state === undefined ? undefined : selectionFromSelectState(item, state);
    });
}

/** A question message's control (select, Add notes, Send, Remove). */
export function parseMessageAction(p: BlockActions): SlackRequest | undefined {
  const ref = refFromAction(p.action);
  if (ref === undefined || !p.message) return undefined;
  const member = memberFromAction(p.action);
  const origin: SlackOrigin = {
    kind: 'message',
    channel: p.message.channel,
    ts: p.message.ts,
    ...(p.triggerId === undefined ? {} : { triggerId: p.triggerId }),
    ...(p.responseUrl === undefined ? {} : { responseUrl: p.responseUrl }),
    shown: shownOnMessage(p, ref),
  };
  const base = { actor: p.actor, place: { channel: p.message.channel }, origin };
  const m = member === undefined ? {} : { member };
  switch (p.actionId) {
    case ACTION_IDS.pick:
      return { ...base, action: { kind: 'pick', ref, ...m, read: selectPick(p.action) } };
    case ACTION_IDS.notes:
      return p.triggerId === undefined ? undefined : { ...base, action: { kind: 'open-notes', ref, ...m } };
    case ACTION_IDS.send:
      return { ...base, action: { kind: 'send', ref, reviewSets: true, shown: shownOnMessage(p, ref) } };
    case ACTION_IDS.remove:
      return { ...base, action: { kind: 'remove', ref } };
    default:
      return undefined;
  }
}

/** The picker inside the notes modal: the pick, kept as the draft of the modal's question (member). */
export function parseNotesPick(p: BlockActions): SlackRequest | undefined {
  const notes = readNotesOrigin(p.view?.privateMetadata);
  if (!notes || !p.view) return undefined;
  const member = notes.member === undefined ? {} : { member: notes.member };
  return {
    actor: p.actor,
    place: placeOf(notes),
    origin: { kind: 'notes-modal', viewId: p.view.id, notes },
    action: { kind: 'pick', ref: notes.ref, ...member, read: selectPick(p.action) },
  };
}

/** An inbox control (filter, paging, a question's select, its Add notes, Send N answers). */
export function parseInboxAction(p: BlockActions): SlackRequest | undefined {
  if (!p.view) return undefined;
  const { state, channel } = readInboxMetadata(p.view.privateMetadata);
  const inbox: InboxOrigin = {
    ...state,
    surface: p.view.type,
    ...(channel === undefined ? {} : { channel }),
    ...(p.view.type === 'modal' ? { viewId: p.view.id } : {}),
  };
  const place: Place = channel === undefined ? {} : { channel };
  const origin: SlackOrigin = {
    kind: 'inbox',
    inbox,
    ...(p.triggerId === undefined ? {} : { triggerId: p.triggerId }),
  };
  const base = { actor: p.actor, place, origin };
  switch (p.actionId) {
    case ACTION_IDS.inboxFilter: {
      const filter = parseInboxFilter(obj(p.action.selected_option)?.value);
      if (filter === undefined) return undefined;
      const next: InboxOrigin = { ...whereOf(inbox), filter };
      return {
        ...base,
        origin: { kind: 'inbox', inbox: next },
        action: { kind: 'inbox', request: inboxRequest(next) },
      };
    }
    case ACTION_IDS.inboxPage: {
      const paging = parseInboxPaging(p.action.value);
      if (paging === undefined) return undefined;
      const next: InboxOrigin = { ...whereOf(inbox), ...pagedState(inbox, paging) };
      return {
        ...base,
        origin: { kind: 'inbox', inbox: next },
        action: { kind: 'inbox', request: inboxRequest(next) },
      };
    }
    case ACTION_IDS.inboxPick: {
      const ref = refFromAction(p.action);
      if (ref === undefined) return undefined;
      const member = memberFromAction(p.action);
      const m = member === undefined ? {} : { member };
      return { ...base, action: { kind: 'pick', ref, ...m, read: selectPick(p.action) } };
    }
    case ACTION_IDS.inboxNotes: {
      const ref = refFromAction(p.action);
      if (ref === undefined || p.triggerId === undefined) return undefined;
      const member = memberFromAction(p.action);
      return { ...base, action: { kind: 'open-notes', ref, ...(member === undefined ? {} : { member }) } };
    }
    case ACTION_IDS.inboxSendAll:
      return { ...base, action: { kind: 'send-ready', refs: parseSendRefs(p.action.value) } };
    default:
      return undefined;
  }
}

/** `/questions` in a channel: the inbox of the projects routed there. */
export function parseQuestionsCommand(command: unknown): SlackRequest | undefined {
  const c = obj(command);
  const id = slackId(c?.user_id);
  const channel = slackId(c?.channel_id);
  const triggerId = str(c?.trigger_id, 200);
  if (!c || id === undefined || channel === undefined || triggerId === undefined) return undefined;
  const actor: Actor = { platform: 'slack', userId: id, displayName: str(c.user_name, 200) ?? id };
  return {
    actor,
    place: { channel },
    origin: { kind: 'command', channel, triggerId },
    action: { kind: 'inbox', request: inboxRequest({ filter: 'all' }) },
  };
}

/** The Home tab opened: the inbox of every project the person reaches, keeping the filter last shown. */
export function parseHomeOpened(event: unknown): SlackRequest | 'not-home' | undefined {
  const e = obj(event);
  if (e?.tab !== undefined && e.tab !== 'home') return 'not-home';
  const userId = slackId(e?.user);
  if (userId === undefined) return undefined;
  const shown = viewOf(e?.view);
  const { state } = readInboxMetadata(shown?.callbackId === CALLBACK_IDS.inbox ? shown.privateMetadata : undefined);
  const inbox: InboxOrigin = { ...state, surface: 'home' };
  return {
    actor: { platform: 'slack', userId, displayName: userId },
    place: {},
    origin: { kind: 'home', inbox },
    action: { kind: 'inbox', request: inboxRequest(inbox) },
  };
}

/** The channel a notes modal was opened in (from a message, or the inbox's). */
export function placeOf(origin: NotesOrigin): Place {
  const channel = origin.channel ?? origin.inbox?.channel;
  return channel !== undefined ? { channel } : {};
}

/** Where an inbox lives (its surface, channel, modal's view id), without its paging. */
function whereOf(origin: InboxOrigin): Omit<InboxOrigin, 'filter' | 'after' | 'back'> {
  return {
    surface: origin.surface,
    ...(origin.channel === undefined ? {} : { channel: origin.channel }),
    ...(origin.viewId === undefined ? {} : { viewId: origin.viewId }),
  };
}
