/**
 * Who is in a chat, by `getChatMember`: a person whose status is `left` or `kicked` (or whom Telegram does not know
 * there) is not; `restricted` counts only while still a member. Answers are cached for a minute per chat and person
 * (a yes and a no alike), so a burst of taps costs one call.
 */
import type { Logger } from '../../core/logger.js';
import { telegramErrorCode, telegramErrorFields } from './api.js';
import type { TelegramSender } from './send.js';

const TTL_MS = 60_000;
const CACHE_MAX = 10_000;

export class TelegramMembership {
  readonly #api: Pick<TelegramSender, 'getChatMember'>;
  readonly #log: Logger;
  readonly #cache = new Map<string, { member: boolean; until: number }>();

  constructor(api: Pick<TelegramSender, 'getChatMember'>, logger: Logger) {
    this.#api = api;
    this.#log = logger;
  }

  /** Whether `userId` is a member of `chatId` now. A private chat is its one person's. Throws on a transient failure. */
  async isMember(chatId: number, userId: number): Promise<boolean> {
    if (chatId === userId) return true;
    const key = `${chatId}:${userId}`;
    const cached = this.#cache.get(key);
    if (cached !== undefined && cached.until > Date.now()) return cached.member;
    let member: boolean;
    try {
      const found = await this.#api.getChatMember(chatId, userId);
      member =
        found.status === 'creator' ||
        found.status === 'administrator' ||
        found.status === 'member' ||
        (found.status === 'restricted' && found.is_member);
    } catch (error) {
      // 400 "user not found" / "participant_id_invalid": not in the chat. Anything else is not an answer.
      if (telegramErrorCode(error) !== 400) throw error;
      this.#log.info(
        { chat: chatId, user: userId, ...telegramErrorFields(error) },
        'telegram: not a member of the chat',
      );
      member = false;
    }
    if (this.#cache.size >= CACHE_MAX) this.#cache.clear();
    this.#cache.set(key, { member, until: Date.now() + TTL_MS });
    return member;
  }
}
