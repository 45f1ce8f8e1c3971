/**
 * Discord as the bridge sees it: every project goes to the configured channel (a routing table comes later); a
 * question is one message posted with the bot token (`POST channels/{id}/messages`) and redrawn with `PATCH`, which
 * works on the bot's own messages at any time (interaction tokens die after 15 minutes; these never do).
 *
 * Posting twice is avoided across bridge crashes in two ways:
 * - every create carries `nonce` + `enforce_nonce: true`, the nonce derived from the question, so a create repeated
 *   within a few minutes (the bridge died after posting, before recording) returns the first message;
 * - a post flagged `maybePostedBefore` first looks through the channel's recent messages (Read Message History) for
 *   a message of this bot whose components name the question, which covers a retry after the nonce's window.
 *
 * Uses a REST client of its own (not the gateway client's): a rate limit on posts never holds up the 3-second
 * interaction answers, and stopping the gateway client does not cut off a post in flight.
 */
import { createHash } from 'node:crypto';
import { type REST, Routes } from 'discord.js';
import { type Logger, silentLogger } from '../../core/logger.js';
import type { MessageRef, Question } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import { parseCustomId } from '../../render/discord/ids.js';
import { renderQuestionMessage } from '../../render/discord/question-message.js';
import { renderReminder } from '../../render/discord/reminder.js';
import type { DiscordMessage } from '../../render/discord/types.js';
import type { PostOptions, Reminder, Surface, SurfaceFailure } from '../surface.js';
import { classifyDiscordFailure } from './failures.js';
import { arr, obj, snowflake, snowflakeAt } from './payload.js';
import { discordErrorCode, discordErrorFields } from './rest.js';

export interface DiscordSurfaceOptions {
  /** The bot-token REST client for posts and redraws. */
  readonly rest: REST;
  /** The channel id every project's questions go to. */
  readonly channel: string;
  /**
   * The bot's user id, when known (after the gateway's READY): an earlier post is only taken from this author.
   * Without it, any message whose components carry the question's custom ids is taken.
   */
  readonly botUserId?: () => string | undefined;
  readonly logger?: Logger;
  /** Messages read when looking for an earlier post (default 100: one page; a re-handled event is minutes old). */
  readonly historyLimit?: number;
}

/** Discord's limit on a message nonce. */
const NONCE_MAX = 25;

/** How long before a question's creation its message can be (clock skew between the store's host and Discord). */
const HISTORY_SKEW_MS = 5 * 60_000;

/** Discord errors that mean the message cannot be redrawn ever again: retrying would not help. */
const GONE = new Set([
  10003, // Unknown Channel
  10008, // Unknown Message
  50001, // Missing Access
  50005, // Cannot edit a message authored by another user
]);

/**
 * The create nonce of a question's message: 24 url-safe characters of a SHA-256 over the project, the id and the
 * parking time, so two inboxes (two Redis prefixes) that post the same project's #7 to one channel never collide.
 */
export function questionNonce(question: Pick<Question, 'project' | 'id' | 'createdAt'>): string {
  return createHash('sha256')
    .update(`${question.project}\n${question.id}\n${question.createdAt}`)
    .digest('base64url')
    .slice(0, NONCE_MAX - 1);
}

/**
 * The create nonce of a reminder: like {@link questionNonce}, over the question, the copy it replies to and the
 * reminder's ordinal, so the same reminder sent again within Discord's nonce window returns the first reply.
 */
export function reminderNonce(
  question: Pick<Question, 'project' | 'id' | 'createdAt'>,
  ref: Pick<MessageRef, 'messageId'>,
  ordinal: number,
): string {
  return createHash('sha256')
    .update(`reminder\n${question.project}\n${question.id}\n${question.createdAt}\n${ref.messageId}\n${ordinal}`)
    .digest('base64url')
    .slice(0, NONCE_MAX - 1);
}

export class DiscordSurface implements Surface {
  readonly platform = 'discord' as const;
  readonly #o: DiscordSurfaceOptions;
  readonly #log: Logger;

  constructor(options: DiscordSurfaceOptions) {
    this.#o = options;
    this.#log = options.logger ?? silentLogger;
  }

  /** Discord's HTTP status and error code (`HTTP 403 (50001)`), else the error's name (failures.ts). */
  classifyFailure(error: unknown): SurfaceFailure {
    return classifyDiscordFailure(error);
  }

  channelsFor(_project: string): readonly string[] {
    return [this.#o.channel];
  }

  async post(question: Question, channel: string, options: PostOptions): Promise<MessageRef> {
    if (options.maybePostedBefore) {
      const found = await this.findPosted(question, channel);
      if (found !== undefined) {
        this.#log.info(
          { questionId: question.id, channel, messageId: found },
          'discord: found the earlier post; not posting again',
        );
        return { platform: 'discord', channel, messageId: found };
      }
    }
    const body = { ...render(question), nonce: questionNonce(question), enforce_nonce: true };
    const created = obj(await this.#o.rest.post(Routes.channelMessages(channel), { body }));
    const messageId = snowflake(created?.id);
    if (messageId === undefined) throw new Error('Discord answered a message create without a message id');
    return { platform: 'discord', channel, messageId };
  }

  /** Redraw one copy. A message someone deleted (or the bot can no longer see) is logged, not retried. */
  async update(question: Question, ref: MessageRef): Promise<void> {
    try {
      await this.#o.rest.patch(Routes.channelMessage(ref.channel, ref.messageId), { body: render(question) });
    } catch (error) {
      const code = discordErrorCode(error);
      if (code === undefined || !GONE.has(code)) throw error;
      this.#log.warn(
        { questionId: question.id, channel: ref.channel, messageId: ref.messageId, ...discordErrorFields(error) },
        'discord: question message gone; not redrawn',
      );
    }
  }

  /**
   * A reminder as a reply to the copy, pinging only the owners (`allowed_mentions.users`). Sent with a nonce of the
   * question, copy and ordinal and `enforce_nonce`, so a reminder handled again soon after returns the first reply.
   * A channel the bot can no longer post in is logged, not retried.
   */
  async remind(question: Question, ref: MessageRef, reminder: Reminder, _options: PostOptions): Promise<void> {
    const body = {
      ...renderReminder(reminder, ref.messageId),
      nonce: reminderNonce(question, ref, reminder.ordinal),
      enforce_nonce: true,
    };
    try {
      await this.#o.rest.post(Routes.channelMessages(ref.channel), { body });
    } catch (error) {
      const code = discordErrorCode(error);
      if (code === undefined || !GONE.has(code)) throw error;
      this.#log.warn(
        { questionId: question.id, channel: ref.channel, messageId: ref.messageId, ...discordErrorFields(error) },
        'discord: question channel gone; reminder not sent',
      );
    }
  }

  /**
   * The id of a message in `channel`, posted since shortly before the question was parked, whose components carry
   * this question's custom ids (`al:<verb>:<ref>`).
   */
  async findPosted(question: Question, channel: string): Promise<string | undefined> {
    const ref = formatQuestionRef(question.project, question.id);
    const after = snowflakeAt(Math.max(0, question.createdAt - HISTORY_SKEW_MS));
    const page = await this.#o.rest.get(Routes.channelMessages(channel), {
      query: new URLSearchParams({ after, limit: String(this.#o.historyLimit ?? 100) }),
    });
    const botUserId = this.#o.botUserId?.();
    for (const entry of arr(page) ?? []) {
      const message = obj(entry);
      const id = snowflake(message?.id);
      if (!message || id === undefined) continue;
      if (botUserId !== undefined && obj(message.author)?.id !== botUserId) continue;
      if (customIdsOf(message.components).some((customId) => refOf(customId) === ref)) return id;
    }
    return undefined;
  }
}

function render(question: Question): DiscordMessage {
  return renderQuestionMessage(question);
}

function refOf(customId: string): string | undefined {
  const parsed = parseCustomId(customId);
  return parsed !== undefined && 'ref' in parsed ? parsed.ref : undefined;
}

/** Every `custom_id` in a message's components (action rows and what they hold), read with guards. */
function customIdsOf(components: unknown, depth = 0): string[] {
  if (depth > 3) return [];
  const ids: string[] = [];
  for (const entry of arr(components) ?? []) {
    const component = obj(entry);
    if (typeof component?.custom_id === 'string') ids.push(component.custom_id);
    ids.push(...customIdsOf(component?.components, depth + 1));
  }
  return ids;
}
