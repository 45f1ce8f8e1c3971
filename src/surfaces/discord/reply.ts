/**
 * The pipeline's results as Discord replies: an ephemeral message to the person, a redraw of the ephemeral message
 * the component is on (the inbox, a review, a confirmation) with an optional notice after it, or a modal (only as the
 * first response). `respond.ts` sends the reply in time. The shared question message is never touched here: the
 * bridge redraws it when the store's event arrives.
 */

import type { Logger } from '../../core/logger.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import type { InboxState } from '../../render/discord/ids.js';
import { renderInbox } from '../../render/discord/inbox.js';
import { renderNotes, renderNotesMenu, renderTargetModal } from '../../render/discord/notes-modal.js';
import { renderDraftReceipt, renderRemoveConfirmation } from '../../render/discord/question-message.js';
import { renderSendReview, renderSetReceipt } from '../../render/discord/review.js';
import type { DiscordMessage, DiscordModal } from '../../render/discord/types.js';
import { REFUSALS } from '../../render/vocabulary.js';
import { type ActionResult, itemAt } from '../actions/action.js';
import { perform } from '../actions/perform.js';
import type { Actor, InteractionService, Place } from '../interactions.js';
import type { ReviewLine } from '../review.js';
import { type DiscordRequest, inboxRequest } from './parse.js';

/** What an interaction is answered with. */
export type DiscordReply =
  /** An ephemeral reply to the person. */
  | { readonly kind: 'reply'; readonly message: DiscordMessage }
  /** Redraw the (ephemeral) message the component is on; `notice`: an ephemeral line after it. */
  | { readonly kind: 'update'; readonly message: DiscordMessage; readonly notice?: string }
  /** Open a modal: only as the first response. */
  | { readonly kind: 'modal'; readonly modal: DiscordModal }
  /** Nothing to say: the interaction was not ours (logged). */
  | { readonly kind: 'drop' };

/** Discord's limit on `content`. */
const CONTENT_MAX = 2000;

/** A plain ephemeral text as a message body (no mentions: the text can quote people). */
export function textMessage(text: string): DiscordMessage {
  const content = text.length > CONTENT_MAX ? `${text.slice(0, CONTENT_MAX - 1)}…` : text;
  return { content, embeds: [], components: [], allowed_mentions: { parse: [] } };
}

function say(text: string): DiscordReply {
  return { kind: 'reply', message: textMessage(text) };
}

/** A review's lines as the review renderer takes them. */
function entries(lines: readonly ReviewLine[]) {
  return lines.map((line) => ({ selection: line.selection, readiness: line.readiness }));
}

export class DiscordReplier {
  readonly #interactions: InteractionService;
  readonly #log: Logger;

  constructor(interactions: InteractionService, logger: Logger) {
    this.#interactions = interactions;
    this.#log = logger;
  }

  /** The reply to `request` that came to `result`. */
  async reply(request: DiscordRequest, result: ActionResult): Promise<DiscordReply> {
    const { origin, actor, place } = request;
    if (result.kind === 'dropped') return { kind: 'drop' };
    switch (origin.kind) {
      case 'message':
        return this.#onMessage(result);
      case 'notes-target': {
        if (result.kind !== 'notes') return result.kind === 'refused' ? say(result.text) : { kind: 'drop' };
        const item = itemAt(result.question, result.member);
        const { target } = origin;
        if (item === undefined || (target !== 'answer' && item.options[target] === undefined)) return { kind: 'drop' };
        const draft = result.drafts[result.member ?? 0];
        return { kind: 'modal', modal: renderTargetModal(result.question, result.member, target, draft) };
      }
      case 'confirmation':
        if (result.kind === 'review') {
          const message = renderSendReview(result.review.question, entries(result.review.lines));
          return { kind: 'update', message, notice: REFUSALS.reviewChanged };
        }
        return { kind: 'update', message: textMessage('text' in result ? result.text : REFUSALS.tryAgain) };
      case 'notes-submit':
        return this.#notesSubmitted(origin, actor, place, result);
      case 'inbox':
        return this.#onInbox(origin.state, origin.selected, actor, place, result);
      case 'command':
        return result.kind === 'inbox'
          ? { kind: 'reply', message: renderInbox(result.page, origin.state) }
          : say(REFUSALS.tryAgain);
    }
  }

  #onMessage(result: ActionResult): DiscordReply {
    switch (result.kind) {
      case 'drafted':
        return {
          kind: 'reply',
          message:
            result.member === undefined
              ? renderDraftReceipt(result.question, result.draft)
              : renderDraftReceipt(result.question, result.draft, { member: result.member, drafts: result.drafts }),
        };
      case 'notes': {
        const view = renderNotes(result.question, result.drafts);
        return view.kind === 'modal' ? { kind: 'modal', modal: view.modal } : { kind: 'reply', message: view.message };
      }
      case 'review':
        return { kind: 'reply', message: renderSendReview(result.review.question, entries(result.review.lines)) };
      case 'confirm-remove':
        return { kind: 'reply', message: renderRemoveConfirmation(result.question) };
      case 'refused':
      case 'sent':
      case 'removed':
      case 'kept':
      case 'batch':
        return say(result.text);
      default:
        return { kind: 'drop' };
    }
  }

  /** After a notes modal: from the inbox, the inbox; from the notes menu, the menu; from a message, a receipt. */
  async #notesSubmitted(
    origin: Extract<DiscordRequest['origin'], { kind: 'notes-submit' }>,
    actor: Actor,
    place: Place,
    result: ActionResult,
  ): Promise<DiscordReply> {
    if (result.kind !== 'drafted') return 'text' in result ? say(result.text) : { kind: 'drop' };
    const { question } = result;
    if (origin.from !== 'message' && origin.from !== 'menu' && origin.fromMessage) {
      return this.#inbox(origin.from, formatQuestionRef(question.project, question.id), actor, place);
    }
    if (origin.from === 'menu' && origin.fromMessage) {
      return { kind: 'update', message: renderNotesMenu(question, result.drafts) };
    }
    if (question.members === undefined) return { kind: 'reply', message: renderDraftReceipt(question, result.draft) };
    return { kind: 'reply', message: renderSetReceipt(question, result.drafts) };
  }

  async #onInbox(
    state: InboxState,
    selected: string | undefined,
    actor: Actor,
    place: Place,
    result: ActionResult,
  ): Promise<DiscordReply> {
    switch (result.kind) {
      case 'inbox':
        return {
          kind: 'update',
          message: renderInbox(result.page, { ...state, ...(selected === undefined ? {} : { selected }) }),
        };
      case 'notes': {
        const view = renderNotes(result.question, result.drafts, { inbox: state });
        return view.kind === 'modal' ? { kind: 'modal', modal: view.modal } : { kind: 'reply', message: view.message };
      }
      case 'drafted':
        return this.#inbox(state, selected, actor, place);
      case 'refused':
      case 'batch':
        return this.#inbox(state, selected, actor, place, result.text);
      default:
        return { kind: 'drop' };
    }
  }

  /** The inbox drawn afresh for `state` (and the question `selected`, whose picker and notes show). */
  async #inbox(
    state: InboxState,
    selected: string | undefined,
    actor: Actor,
    place: Place,
    notice?: string,
  ): Promise<DiscordReply> {
    const action = { kind: 'inbox', request: inboxRequest(state) } as const;
    const result = await perform(this.#interactions, { actor, place, action }, this.#log);
    if (result.kind !== 'inbox') return say(REFUSALS.tryAgain);
    const message = renderInbox(result.page, { ...state, ...(selected !== undefined ? { selected } : {}) });
    return { kind: 'update', message, ...(notice !== undefined ? { notice } : {}) };
  }
}
