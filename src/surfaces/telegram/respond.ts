/**
 * Telegram's transport for the pipeline: every update is read (`parse.ts`), claimed once when it is ours (by
 * `update_id`, across replicas and redeliveries; a claimed update whose replica dies mid-way is not handled again:
 * the person taps again), checked against the chat's membership (a stranger's tap is refused in place),
 * performed (`actions/perform.ts`), rendered (`reply.ts`), and answered: the callback's toast first (the client
 * shows a spinner until then), then the edit, then any new message. Never throws: failures are logged (ids and
 * codes) and told in place.
 */
import type { Update } from 'grammy/types';
import type { Logger } from '../../core/logger.js';
import { renderNotice } from '../../render/telegram/replies.js';
import { REFUSALS } from '../../render/vocabulary.js';
import { perform } from '../actions/perform.js';
import type { InteractionService } from '../interactions.js';
import { telegramErrorFields } from './api.js';
import { isNotModified } from './failures.js';
import type { TelegramMembership } from './membership.js';
import { parseUpdate, type TelegramRequest } from './parse.js';
import { TelegramReplier, type TelegramReply } from './reply.js';
import { promptOptions, type TelegramSender, textOptions } from './send.js';

export interface TelegramResponderOptions {
  readonly api: TelegramSender;
  readonly interactions: InteractionService;
  readonly membership: TelegramMembership;
  readonly logger: Logger;
  /** Claim an update by id: true the first time it is seen across replicas (serve: a store lease), else false. */
  readonly claimUpdate: (updateId: number) => Promise<boolean>;
  /** The bot's own user id, once known: only replies to its own prompts are read as notes. */
  readonly botId: () => number | undefined;
}

export class TelegramResponder {
  readonly #o: TelegramResponderOptions;
  readonly #log: Logger;
  readonly #replier: TelegramReplier;

  constructor(options: TelegramResponderOptions) {
    this.#o = options;
    this.#log = options.logger;
    this.#replier = new TelegramReplier(options.interactions, options.logger);
  }

  /** One update, from the long poll or the webhook. */
  async handle(update: Update): Promise<void> {
    const started = Date.now();
    const ids = { update: update.update_id };
    const request = parseUpdate(update, this.#o.botId());
    if (request === undefined) {
      // Not ours (a chat message, a button of no question): nothing to claim; a tap is answered silently.
      if (update.callback_query !== undefined) {
        await this.#answer(update.callback_query.id, undefined, ids);
        this.#log.warn(ids, 'telegram: update dropped (not one ask-later reads)');
      }
      return;
    }
    try {
      if (!(await this.#o.claimUpdate(update.update_id))) {
        this.#log.info(ids, 'telegram: update already handled; skipped');
        return;
      }
    } catch (error) {
      this.#log.error({ ...ids, ...telegramErrorFields(error) }, 'telegram: update not claimed (store); skipped');
      if (request.callbackId !== undefined) {
        await this.#answer(request.callbackId, { text: REFUSALS.tryAgain, alert: true }, ids);
      }
      return;
    }
    const fields = {
      ...ids,
      user: request.actor.userId,
      chat: request.chatId,
      ...(request.verb ? { action: request.verb } : {}),
    };
    let reply: TelegramReply;
    try {
      if (!(await this.#o.membership.isMember(request.chatId, Number(request.actor.userId)))) {
        this.#log.info(fields, 'telegram: interaction refused (not a member of the chat)');
        reply = request.callbackId === undefined ? {} : { toast: { text: REFUSALS.notMember, alert: true } };
      } else {
        reply = await this.#replier.reply(request, await perform(this.#o.interactions, request, this.#log));
      }
    } catch (error) {
      this.#log.error({ ...fields, ...telegramErrorFields(error) }, 'telegram: interaction failed');
      reply =
        request.callbackId === undefined
          ? { send: { message: renderNotice(REFUSALS.tryAgain) } }
          : { toast: { text: REFUSALS.tryAgain, alert: true } };
    }
    await this.#send(request, reply, fields);
    this.#log.info({ ...fields, ms: Date.now() - started }, 'telegram: interaction answered');
  }

  async #answer(callbackId: string, toast: TelegramReply['toast'], fields: Record<string, unknown>): Promise<void> {
    try {
      await this.#o.api.answerCallbackQuery(
        callbackId,
        toast === undefined || toast.text === '' ? {} : { text: toast.text, show_alert: toast.alert },
      );
    } catch (error) {
      this.#log.warn({ ...fields, ...telegramErrorFields(error) }, 'telegram: callback not answered');
    }
  }

  async #send(request: TelegramRequest, reply: TelegramReply, fields: Record<string, unknown>): Promise<void> {
    if (request.callbackId !== undefined) await this.#answer(request.callbackId, reply.toast, fields);
    try {
      if (reply.edit !== undefined) {
        try {
          await this.#o.api.editMessageText(
            request.chatId,
            reply.edit.messageId,
            reply.edit.message.text,
            textOptions(reply.edit.message),
          );
        } catch (error) {
          if (!isNotModified(error)) throw error;
        }
      }
      if (reply.send !== undefined) {
        const { message, replyTo, prompt } = reply.send;
        const reference =
          replyTo === undefined ? {} : { reply_parameters: { message_id: replyTo, allow_sending_without_reply: true } };
        await this.#o.api.sendMessage(
          request.chatId,
          message.text,
          prompt === true ? promptOptions(message, replyTo) : { ...textOptions(message), ...reference },
        );
      }
    } catch (error) {
      this.#log.error({ ...fields, ...telegramErrorFields(error) }, 'telegram: reply not sent');
    }
  }
}
