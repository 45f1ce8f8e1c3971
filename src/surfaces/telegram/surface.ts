/**
 * Telegram as the bridge sees it: a question is one message in the routed chat (`sendMessage`, HTML, with its
 * inline keyboard), plus, when it does not fit in one, a reply under it with the rest (posted once, with the
 * message); every later transition redraws the message (`editMessageText`); a reminder is a reply to it, mentioning
 * only the route's owners.
 *
 * Posting twice across a bridge crash: Telegram has no idempotency key and no way for a bot to read a chat's
 * history, so a post that may have happened before cannot be looked up. The bridge records the message right after
 * `sendMessage` returns; only a replica that dies between the two (a window of one round trip) can cause a second
 * copy. That is said here rather than hidden.
 */

import { type Logger, silentLogger } from '../../core/logger.js';
import type { MessageRef, Question } from '../../core/question.js';
import { renderQuestion } from '../../render/telegram/question-message.js';
import { renderReminder } from '../../render/telegram/replies.js';
import type { PostOptions, Reminder, Surface, SurfaceFailure } from '../surface.js';
import { telegramErrorFields } from './api.js';
import { classifyTelegramFailure, isMessageGone, isNotModified } from './failures.js';
import { type TelegramSender, textOptions } from './send.js';

export interface TelegramSurfaceOptions {
  readonly api: TelegramSender;
  /** The default chat (routing is serve's business: `routedSurface`). */
  readonly chat?: string;
  readonly logger?: Logger;
}

export class TelegramSurface implements Surface {
  readonly platform = 'telegram' as const;
  readonly #o: TelegramSurfaceOptions;
  readonly #log: Logger;

  constructor(options: TelegramSurfaceOptions) {
    this.#o = options;
    this.#log = options.logger ?? silentLogger;
  }

  classifyFailure(error: unknown): SurfaceFailure {
    return classifyTelegramFailure(error);
  }

  channelsFor(_project: string): readonly string[] {
    return this.#o.chat === undefined ? [] : [this.#o.chat];
  }

  async post(question: Question, channel: string, _options: PostOptions): Promise<MessageRef> {
    const { message, details } = renderQuestion(question);
    const sent = await this.#o.api.sendMessage(channel, message.text, textOptions(message));
    const ref: MessageRef = { platform: 'telegram', channel, messageId: String(sent.message_id) };
    for (const detail of details) {
      try {
        await this.#o.api.sendMessage(channel, detail, {
          parse_mode: 'HTML',
          link_preview_options: { is_disabled: true },
          reply_parameters: { message_id: sent.message_id, allow_sending_without_reply: true },
        });
      } catch (error) {
        // The question is posted; its continuation is not worth a second copy of it (the event would be retried).
        this.#log.warn(
          { questionId: question.id, channel, ...telegramErrorFields(error) },
          'telegram: continuation not posted',
        );
      }
    }
    return ref;
  }

  /** Redraw one copy. An unchanged or vanished message is logged (or nothing), not retried. */
  async update(question: Question, ref: MessageRef): Promise<void> {
    const { message } = renderQuestion(question);
    try {
      await this.#o.api.editMessageText(ref.channel, Number(ref.messageId), message.text, textOptions(message));
    } catch (error) {
      if (isNotModified(error)) return;
      if (!isMessageGone(error)) throw error;
      this.#log.warn(
        { questionId: question.id, channel: ref.channel, messageId: ref.messageId, ...telegramErrorFields(error) },
        'telegram: question message gone; not redrawn',
      );
    }
  }

  /** A reminder replying to the copy, mentioning the owners only; to a vanished copy, as a plain message. */
  async remind(question: Question, ref: MessageRef, reminder: Reminder, _options: PostOptions): Promise<void> {
    const message = renderReminder(reminder);
    await this.#o.api.sendMessage(ref.channel, message.text, {
      parse_mode: 'HTML',
      reply_parameters: { message_id: Number(ref.messageId), allow_sending_without_reply: true },
    });
    this.#log.info(
      { questionId: question.id, channel: ref.channel, ordinal: reminder.ordinal },
      'telegram: reminder sent',
    );
  }
}
