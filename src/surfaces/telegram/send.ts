/**
 * The calls of grammY's `Api` that ask-later makes, as one narrow type (the surface, the responder and doctor take
 * this, so a test or another client can stand in), and blocks' messages as the options Telegram takes.
 */
import type { Api } from 'grammy';
import type { TelegramMessage } from '../../render/telegram/types.js';

export type TelegramSender = Pick<
  Api,
  | 'sendMessage'
  | 'editMessageText'
  | 'answerCallbackQuery'
  | 'getChatMember'
  | 'getMe'
  | 'getUpdates'
  | 'setWebhook'
  | 'deleteWebhook'
  | 'getChat'
  | 'setMyCommands'
>;

/** `sendMessage` / `editMessageText` options for a rendered message: HTML, no link previews, its keyboard. */
export function textOptions(message: TelegramMessage) {
  return {
    parse_mode: 'HTML' as const,
    link_preview_options: { is_disabled: true },
    reply_markup: { inline_keyboard: (message.keyboard ?? []).map((row) => row.map((button) => ({ ...button }))) },
  };
}

/** `sendMessage` options for a force-reply prompt (the notes prompt). */
export function promptOptions(message: TelegramMessage, replyTo?: number) {
  return {
    parse_mode: 'HTML' as const,
    reply_markup: {
      force_reply: true as const,
      ...(message.forceReply ? { input_field_placeholder: message.forceReply.placeholder } : {}),
    },
    ...(replyTo === undefined ? {} : { reply_parameters: { message_id: replyTo, allow_sending_without_reply: true } }),
  };
}

/** The signal type grammY's calls take (its types name an AbortSignal polyfill; Node's own is what it uses). */
export type GrammySignal = NonNullable<Parameters<Api['getUpdates']>[1]>;

/** A Node `AbortSignal` as grammY's calls type it. */
export function grammySignal(signal: AbortSignal): GrammySignal {
  return signal as unknown as GrammySignal;
}
