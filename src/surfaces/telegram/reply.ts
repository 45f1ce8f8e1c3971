/**
 * The pipeline's results as Telegram replies: a toast (`answerCallbackQuery`, an alert for a refusal), an edit of
 * the message the button is on (the question message redrawn with the person's picks, the inbox, a review or a
 * confirmation turning into what happened), and a new message where one is needed (a review, Remove's
 * confirmation, the notes prompt, `/questions`). `respond.ts` sends it. The shared question message's outcome is
 * the bridge's to draw when the store's event arrives; a redraw here first checks the question is still pending.
 */

import { shownSelection } from '../../core/inbox.js';
import type { Logger } from '../../core/logger.js';
import type { Draft, Question } from '../../core/question.js';
import { renderInbox } from '../../render/telegram/inbox.js';
import { renderQuestion } from '../../render/telegram/question-message.js';
import {
  callbackAnswerText,
  renderNotesPrompt,
  renderNotice,
  renderRemoveConfirmation,
  renderReview,
} from '../../render/telegram/replies.js';
import type { TelegramMessage } from '../../render/telegram/types.js';
import { REFUSALS, readyMark } from '../../render/vocabulary.js';
import { type ActionResult, itemAt } from '../actions/action.js';
import { perform } from '../actions/perform.js';
import type { InteractionService } from '../interactions.js';
import { inboxRequest, type TelegramRequest } from './parse.js';

/** What an update is answered with; every part optional. */
export interface TelegramReply {
  /** The callback's toast (or alert). */
  readonly toast?: { readonly text: string; readonly alert: boolean };
  /** Redraw a message of the chat. */
  readonly edit?: { readonly messageId: number; readonly message: TelegramMessage };
  /** Send a message to the chat, replying to `replyTo`; `prompt`: as a force-reply. */
  readonly send?: { readonly message: TelegramMessage; readonly replyTo?: number; readonly prompt?: boolean };
}

function toast(text: string, alert = false): TelegramReply {
  return { toast: { text: callbackAnswerText(text), alert } };
}

export class TelegramReplier {
  readonly #interactions: InteractionService;
  readonly #log: Logger;

  constructor(interactions: InteractionService, logger: Logger) {
    this.#interactions = interactions;
    this.#log = logger;
  }

  async reply(request: TelegramRequest, result: ActionResult): Promise<TelegramReply> {
    const { origin } = request;
    if (result.kind === 'refused') {
      return origin.kind === 'notes-reply' || origin.kind === 'command'
        ? {
            send: {
              message: renderNotice(result.text),
              ...('messageId' in origin ? { replyTo: origin.messageId } : {}),
            },
          }
        : toast(result.text, true);
    }
    if (result.kind === 'dropped') return {};
    switch (origin.kind) {
      case 'question':
        return this.#onQuestion(origin.messageId, origin.member, result);
      case 'notes': {
        if (result.kind !== 'notes') return {};
        const item = itemAt(result.question, origin.target.member);
        if (item === undefined) return {};
        const selection = shownSelection(item, result.drafts[origin.target.member ?? 0]);
        return {
          ...toast('Reply to the prompt with your notes.'),
          send: {
            message: renderNotesPrompt(result.question, origin.target, selection),
            replyTo: origin.messageId,
            prompt: true,
          },
        };
      }
      case 'confirmation':
        if (result.kind === 'review') {
          const entries = result.review.lines.map((line) => ({ selection: line.selection, readiness: line.readiness }));
          const changed = result.changed === true ? REFUSALS.reviewChanged : undefined;
          return {
            ...toast(changed ?? ''),
            edit: {
              messageId: origin.messageId,
              message: renderReview(result.review.question, entries, result.check, changed),
            },
          };
        }
        return 'text' in result
          ? { ...toast(result.text), edit: { messageId: origin.messageId, message: renderNotice(result.text) } }
          : {};
      case 'inbox':
        if (result.kind === 'inbox')
          return {
            ...toast(''),
            edit: { messageId: origin.messageId, message: renderInbox(result.page, origin.state) },
          };
        if (result.kind === 'batch')
          return {
            ...toast(result.text),
            ...(await this.#inbox(request, origin.messageId, origin.state, result.text)),
          };
        return {};
      case 'open':
        return result.kind === 'notes' ? this.#pointAt(result.question, request.chatId) : {};
      case 'command':
        return result.kind === 'inbox' ? { send: { message: renderInbox(result.page, origin.state) } } : {};
      case 'notes-reply': {
        if (result.kind !== 'drafted') return {};
        const ref =
          origin.target.member === undefined
            ? `#${result.question.id}`
            : `#${result.question.id}.${origin.target.member + 1}`;
        const saved: TelegramReply = {
          send: {
            message: renderNotice(`📝 Notes saved for ${ref} · ${readyMark(result.readiness)}`),
            replyTo: origin.messageId,
          },
        };
        if (origin.target.messageId === undefined) return saved;
        const redraw = await this.#redraw(result.question, result.drafts, origin.target.member);
        return redraw === undefined
          ? saved
          : { ...saved, edit: { messageId: origin.target.messageId, message: redraw } };
      }
    }
  }

  async #onQuestion(messageId: number, member: number | undefined, result: ActionResult): Promise<TelegramReply> {
    switch (result.kind) {
      case 'drafted':
      case 'notes': {
        const redraw = await this.#redraw(result.question, result.drafts, member);
        const text = result.kind === 'drafted' ? readyMark(result.readiness) : '';
        return { ...toast(text), ...(redraw === undefined ? {} : { edit: { messageId, message: redraw } }) };
      }
      case 'review': {
        const entries = result.review.lines.map((line) => ({ selection: line.selection, readiness: line.readiness }));
        return {
          ...toast('Review your answers, then Send answers.'),
          send: { message: renderReview(result.review.question, entries, result.check), replyTo: messageId },
        };
      }
      case 'confirm-remove':
        return { ...toast(''), send: { message: renderRemoveConfirmation(result.question), replyTo: messageId } };
      case 'sent':
      case 'removed':
      case 'kept':
        return toast(result.text);
      default:
        return {};
    }
  }

  /** The question message drawn with the person's drafts, unless it closed meanwhile (the bridge draws that). */
  async #redraw(
    question: Question,
    drafts: readonly (Draft | undefined)[],
    member: number | undefined,
  ): Promise<TelegramMessage | undefined> {
    const current = await this.#interactions.current(question);
    if (current === undefined || current.status !== 'pending') return undefined;
    return renderQuestion(current, { drafts, ...(member === undefined ? {} : { member }) }).message;
  }

  /** A short message replying to the question's own message in this chat, so a tap on it jumps there. */
  #pointAt(question: Question, chatId: number): TelegramReply {
    const copy = question.messages.find((ref) => ref.platform === 'telegram' && ref.channel === String(chatId));
    if (copy === undefined) return toast(`#${question.id} was not posted in this chat.`, true);
    return {
      ...toast(''),
      send: { message: renderNotice(`👆 #${question.id}: answer it on its message.`), replyTo: Number(copy.messageId) },
    };
  }

  /** The inbox drawn afresh for `state`, with `notice` above it. */
  async #inbox(
    request: TelegramRequest,
    messageId: number,
    state: Parameters<typeof inboxRequest>[0],
    notice: string,
  ): Promise<TelegramReply> {
    const action = { kind: 'inbox', request: inboxRequest(state) } as const;
    const result = await perform(this.#interactions, { actor: request.actor, place: request.place, action }, this.#log);
    if (result.kind !== 'inbox') return {};
    return { edit: { messageId, message: renderInbox(result.page, state, notice) } };
  }
}
