/**
 * Telegram's failures as the bridge acts on them. Telegram answers errors with an HTTP-like `error_code` and a
 * description; the descriptions are stable English phrases, so the permanent ones are recognised by them: a token
 * Telegram refuses, a chat it does not know or the bot was removed from, a message Telegram refuses to take. A 429
 * has been waited out already (`api.ts`) when it reaches here; it and 5xx and network failures may pass.
 */
import type { SurfaceFailure } from '../surface.js';
import { telegramDescription, telegramErrorCode } from './api.js';

type Permanent = Omit<Extract<SurfaceFailure, { kind: 'permanent' }>, 'kind' | 'code'>;

const TOKEN: Permanent = {
  reach: 'platform',
  fix: 'Telegram refuses TELEGRAM_BOT_TOKEN: set the token @BotFather gave (/token there shows it again)',
};

/** Descriptions meaning the bot cannot post in the chat, by what a person does about it. */
const CHAT_REFUSALS: readonly { readonly pattern: RegExp; readonly fix: string }[] = [
  {
    pattern: /chat not found/i,
    fix: 'Telegram does not know the chat: check the chat id in TELEGRAM_CHAT or the route',
  },
  {
    pattern: /kicked|not a member|bot was blocked|user is deactivated|bot can't initiate/i,
    fix: 'the bot is not in the chat (removed, or never added): add it to the chat again',
  },
  {
    pattern: /not enough rights|have no rights|CHAT_WRITE_FORBIDDEN|CHAT_ADMIN_REQUIRED/i,
    fix: 'the bot may not post in the chat: allow it to send messages (in a channel, make it an admin that may post)',
  },
  { pattern: /group chat was upgraded/i, fix: 'the group became a supergroup: use its new chat id (-100…)' },
];

/**
 * What a failed call means, coded as `telegram 403`: permanent for 401/404 (the token), for the chat refusals
 * above (the chat) and for any other 400 (this message); transient for 429, 5xx and anything without a code.
 */
export function classifyTelegramFailure(error: unknown): SurfaceFailure {
  const status = telegramErrorCode(error);
  if (status === undefined) {
    const name = error instanceof Error ? error.name : typeof error;
    return { kind: 'transient', code: name };
  }
  const code = `telegram ${status}`;
  if (status === 401 || status === 404) return { kind: 'permanent', code, ...TOKEN };
  const description = telegramDescription(error);
  const chat = CHAT_REFUSALS.find(({ pattern }) => pattern.test(description));
  if (chat && (status === 400 || status === 403)) return { kind: 'permanent', code, reach: 'channel', fix: chat.fix };
  if (status === 403) {
    return { kind: 'permanent', code, reach: 'channel', fix: 'the bot may not post in the chat: check it is a member' };
  }
  if (status === 400) {
    return {
      kind: 'permanent',
      code,
      reach: 'event',
      fix: "Telegram refused this message itself: a fault in ask-later's rendering; report it with the code",
    };
  }
  return { kind: 'transient', code };
}

/** Whether an edit failed only because nothing changed (Telegram refuses an identical edit). */
export function isNotModified(error: unknown): boolean {
  return telegramErrorCode(error) === 400 && /message is not modified/i.test(telegramDescription(error));
}

/** Whether an edit failed because the message is gone or can no longer be edited: retrying cannot help. */
export function isMessageGone(error: unknown): boolean {
  return (
    telegramErrorCode(error) === 400 &&
    /message to edit not found|message can't be edited|message to be replied not found/i.test(
      telegramDescription(error),
    )
  );
}
