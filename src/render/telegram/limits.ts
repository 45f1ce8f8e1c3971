/**
 * Telegram's limits on what ask-later sends, written once and checked once, when a payload is built: every renderer
 * calls {@link assertTelegramMessage} before it returns, so a message Telegram would refuse never leaves `blocks/`.
 *
 * Sources (FACTS.md "Telegram", the Bot API reference): message text 1–4,096 characters after entity parsing (tags
 * do not count, an entity such as `&amp;` counts as one), `callback_data` 1–64 bytes, `answerCallbackQuery` text
 * ≤ 200 characters, a force-reply placeholder ≤ 64 characters. Telegram counts UTF-16 code units, as
 * `String.length` does. Button counts are ask-later's own bound (Telegram documents none; clients show about 100).
 */
import { TelegramPayloadError } from './telegram-payload-error.js';
import type { TelegramMessage } from './types.js';

export const TELEGRAM_LIMITS = Object.freeze({
  /** A message's text after entity parsing. */
  text: 4096,
  /** Bytes of a button's `callback_data`. */
  callbackData: 64,
  /** `answerCallbackQuery`'s text (the toast or alert). */
  callbackAnswer: 200,
  forceReplyPlaceholder: 64,
  /** Characters of a button's text, ask-later's bound so a row stays readable. */
  buttonText: 40,
  /** Buttons in one row. */
  rowButtons: 8,
  /** Buttons in one keyboard. */
  keyboardButtons: 100,
} as const);

/** The characters Telegram counts of our HTML: tags dropped, each entity one character. */
export function visibleLength(html: string): number {
  return html.replace(/<[^>]*>/g, '').replace(/&(?:lt|gt|amp|quot|#\d+);/g, '_').length;
}

/** The bytes of a callback data string as Telegram counts them (UTF-8). */
export function callbackBytes(data: string): number {
  return Buffer.byteLength(data, 'utf8');
}

/** Every limit `message` breaks, each naming the limit, what it allows and what came; empty when it fits. */
export function telegramMessageIssues(message: TelegramMessage): string[] {
  const issues: string[] = [];
  const length = visibleLength(message.text);
  if (length === 0 || message.text.trim() === '') issues.push('text: Telegram refuses an empty message');
  if (length > TELEGRAM_LIMITS.text) issues.push(`text: at most ${TELEGRAM_LIMITS.text} characters, got ${length}`);
  const rows = message.keyboard ?? [];
  let buttons = 0;
  const seen = new Set<string>();
  for (const row of rows) {
    if (row.length === 0) issues.push('rowButtons: a keyboard row needs at least one button');
    if (row.length > TELEGRAM_LIMITS.rowButtons) {
      issues.push(`rowButtons: at most ${TELEGRAM_LIMITS.rowButtons} buttons a row, got ${row.length}`);
    }
    for (const button of row) {
      buttons += 1;
      const bytes = callbackBytes(button.callback_data);
      if (bytes === 0 || bytes > TELEGRAM_LIMITS.callbackData) {
        issues.push(`callbackData: 1 to ${TELEGRAM_LIMITS.callbackData} bytes, got ${bytes}`);
      }
      if (seen.has(button.callback_data)) issues.push('uniqueCallbackData: two buttons send the same data');
      seen.add(button.callback_data);
      if (button.text.trim() === '' || button.text.length > TELEGRAM_LIMITS.buttonText) {
        issues.push(`buttonText: 1 to ${TELEGRAM_LIMITS.buttonText} characters, got ${button.text.length}`);
      }
    }
  }
  if (buttons > TELEGRAM_LIMITS.keyboardButtons) {
    issues.push(`keyboardButtons: at most ${TELEGRAM_LIMITS.keyboardButtons} buttons, got ${buttons}`);
  }
  const placeholder = message.forceReply?.placeholder;
  if (placeholder !== undefined && placeholder.length > TELEGRAM_LIMITS.forceReplyPlaceholder) {
    issues.push(
      `forceReplyPlaceholder: at most ${TELEGRAM_LIMITS.forceReplyPlaceholder} characters, got ${placeholder.length}`,
    );
  }
  return issues;
}

/** Throw a {@link TelegramPayloadError} naming every limit `message` breaks; return it when it fits. */
export function assertTelegramMessage<T extends TelegramMessage>(message: T): T {
  const issues = telegramMessageIssues(message);
  if (issues.length > 0)
    throw new TelegramPayloadError(`Telegram would refuse this message: ${issues.join('; ')}`, issues);
  return message;
}
