/**
 * Slack as the bridge sees it: every project goes to the configured channel (a routing table comes later); a
 * question is one message posted with `chat.postMessage` and redrawn with `chat.update`; a reminder is a reply in
 * its thread.
 *
 * Posting twice is avoided across bridge crashes: every message carries metadata
 * `{event_type: 'ask_later_question', event_payload: {ref}}`, and a post flagged `maybePostedBefore` first looks
 * through the channel's recent history for it (`conversations.history` with `include_all_metadata`).
 *
 * Slack may refuse a message that fits every per-block limit (`msg_blocks_too_long`, around 13k characters in
 * all). Then the message is sent without its `markdown` blocks (Context and Impact; a set's members' own too), and,
 * for a new post, those follow in full as a thread reply, so no text is lost.
 *
 * Uses its own WebClient (not the Bolt app's): a 429 pauses a client's whole request queue, and the bridge's
 * posts must never hold up `views.open` calls racing a 3-second trigger.
 */

import { type Logger, silentLogger } from '../../core/logger.js';
import { type MessageRef, memberRef, type Question } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import { renderQuestionMessage } from '../../render/slack/question-message.js';
import { REMINDER_EVENT_TYPE, renderReminder } from '../../render/slack/reminder.js';
import type { MessageBlock, SlackMessage } from '../../render/slack/types.js';
import type { PostOptions, Reminder, Surface, SurfaceFailure } from '../surface.js';
import { classifySlackFailure } from './failures.js';
import { messageTs, obj } from './payload.js';
import { callSlack, slackErrorCode, slackErrorFields, type WebClient } from './web.js';

export interface SlackSurfaceOptions {
  readonly client: WebClient;
  /** The channel id every project's questions go to. */
  readonly channel: string;
  readonly logger?: Logger;
  /** Messages read per `conversations.history` page when looking for an earlier post (default 200). */
  readonly historyPageSize?: number;
  /** Pages read at most (default 5): a re-handled event is minutes old, not thousands of messages. */
  readonly historyPages?: number;
  /** The redraw revision (default `Date.now`); fresh on every post and update, see blocks' `questionBlockId`. */
  readonly revision?: () => number;
}

/** The metadata event type of a question message (blocks' `QuestionMessageMetadata`). */
export const QUESTION_EVENT_TYPE = 'ask_later_question';

/** How long before a question's creation its message can be (clock skew between the store's host and Slack). */
const HISTORY_SKEW_S = 300;

export class SlackSurface implements Surface {
  readonly platform = 'slack' as const;
  readonly #o: SlackSurfaceOptions;
  readonly #log: Logger;

  constructor(options: SlackSurfaceOptions) {
    this.#o = options;
    this.#log = options.logger ?? silentLogger;
  }

  /** Slack's error code (`channel_not_found`, `ratelimited`), else the HTTP status, else the error's name (failures.ts). */
  classifyFailure(error: unknown): SurfaceFailure {
    return classifySlackFailure(error);
  }

  channelsFor(_project: string): readonly string[] {
    return [this.#o.channel];
  }

  async post(question: Question, channel: string, options: PostOptions): Promise<MessageRef> {
    if (options.maybePostedBefore) {
      const ts = await this.findPosted(question, channel);
      if (ts !== undefined) {
        this.#log.info({ questionId: question.id, channel, ts }, 'slack: found the earlier post; not posting again');
        return { platform: 'slack', channel, messageId: ts };
      }
    }
    const message = this.#render(question);
    try {
      const ts = await this.#postMessage(channel, message);
      return { platform: 'slack', channel, messageId: ts };
    } catch (error) {
      if (slackErrorCode(error) !== 'msg_blocks_too_long') throw error;
      this.#log.warn({ questionId: question.id, channel }, 'slack: message too long; posting without Context/Impact');
      const ts = await this.#postMessage(channel, withoutMarkdown(message, 'Context and Impact are in the thread.'));
      await callSlack(this.#o.client, 'chat.postMessage', {
        channel,
        thread_ts: ts,
        markdown_text: threadMarkdown(question),
        unfurl_links: false,
        unfurl_media: false,
      });
      return { platform: 'slack', channel, messageId: ts };
    }
  }

  async update(question: Question, ref: MessageRef): Promise<void> {
    await updateQuestionMessage(this.#o.client, ref.channel, ref.messageId, this.#render(question), this.#log);
  }

  /**
   * A reminder as a reply in the copy's thread (`thread_ts`), mentioning only the owners. A reminder handled again
   * (`maybePostedBefore`) is first looked for among the thread's replies by its metadata (question and ordinal).
   * A thread that is gone (the question message was deleted) is logged, not retried.
   */
  async remind(question: Question, ref: MessageRef, reminder: Reminder, options: PostOptions): Promise<void> {
    const message = renderReminder(question, reminder);
    const where = { questionId: question.id, channel: ref.channel, ts: ref.messageId, ordinal: reminder.ordinal };
    try {
      if (options.maybePostedBefore && (await this.#findReminder(ref, message.metadata.event_payload))) {
        this.#log.info(where, 'slack: found the earlier reminder; not sending it again');
        return;
      }
      await callSlack(this.#o.client, 'chat.postMessage', {
        channel: ref.channel,
        thread_ts: ref.messageId,
        text: message.text,
        metadata: message.metadata,
        unfurl_links: false,
        unfurl_media: false,
      });
    } catch (error) {
      const code = slackErrorCode(error);
      if (code !== 'thread_not_found' && code !== 'invalid_thread_ts' && code !== 'message_not_found') throw error;
      this.#log.warn({ ...where, ...slackErrorFields(error) }, 'slack: question thread gone; reminder not sent');
    }
  }

  /** Whether the copy's thread holds this reminder already (one page of replies: a thread holds few). */
  async #findReminder(ref: MessageRef, payload: { ref: string; ordinal: number }): Promise<boolean> {
    const result = await callSlack(this.#o.client, 'conversations.replies', {
      channel: ref.channel,
      ts: ref.messageId,
      include_all_metadata: true,
      limit: 200,
    });
    return (Array.isArray(result.messages) ? result.messages : []).some((entry) => {
      const metadata = obj(obj(entry)?.metadata);
      const found = obj(metadata?.event_payload);
      return (
        metadata?.event_type === REMINDER_EVENT_TYPE && found?.ref === payload.ref && found.ordinal === payload.ordinal
      );
    });
  }

  /**
   * The ts of a message in `channel` that carries this question's metadata, among the messages posted since
   * shortly before it was parked.
   */
  async findPosted(question: Question, channel: string): Promise<string | undefined> {
    const ref = formatQuestionRef(question.project, question.id);
    const oldest = Math.max(0, Math.floor(question.createdAt / 1000) - HISTORY_SKEW_S);
    let cursor: string | undefined;
    for (let page = 0; page < (this.#o.historyPages ?? 5); page++) {
      const result = await callSlack(this.#o.client, 'conversations.history', {
        channel,
        include_all_metadata: true,
        limit: this.#o.historyPageSize ?? 200,
        oldest: String(oldest),
        ...(cursor !== undefined ? { cursor } : {}),
      });
      const messages = Array.isArray(result.messages) ? result.messages : [];
      for (const entry of messages) {
        const message = obj(entry);
        const metadata = obj(message?.metadata);
        if (metadata?.event_type !== QUESTION_EVENT_TYPE || obj(metadata.event_payload)?.ref !== ref) continue;
        const ts = messageTs(message?.ts);
        if (ts !== undefined) return ts;
      }
      const next = obj(result.response_metadata)?.next_cursor;
      if (result.has_more !== true || typeof next !== 'string' || next === '') return undefined;
      cursor = next;
    }
    return undefined;
  }

  #render(question: Question): SlackMessage {
    return renderQuestionMessage(question, { revision: (this.#o.revision ?? Date.now)() });
  }

  async #postMessage(channel: string, message: SlackMessage): Promise<string> {
    const result = await callSlack(this.#o.client, 'chat.postMessage', {
      channel,
      text: message.text,
      blocks: message.blocks,
      metadata: message.metadata,
      unfurl_links: false,
      unfurl_media: false,
    });
    const ts = messageTs(result.ts);
    if (ts === undefined) throw new Error('chat.postMessage answered without a message ts');
    return ts;
  }
}

/**
 * Context and Impact as one Markdown text for the thread reply: the question's (or the set's), then each set
 * member's own under its ref and topic. A set's texts are at most 5,000 characters; a single question's 4,000.
 */
export function threadMarkdown(question: Question): string {
  const parts = [`### Context\n\n${question.context}`, `### Impact\n\n${question.impact}`];
  for (const [index, member] of (question.members ?? []).entries()) {
    if (member.context === undefined && member.impact === undefined) continue;
    parts.push(`### ${memberRef(question.id, index)} ${member.topic}`);
    if (member.context !== undefined) parts.push(`#### Context\n\n${member.context}`);
    if (member.impact !== undefined) parts.push(`#### Impact\n\n${member.impact}`);
  }
  return parts.join('\n\n');
}

/**
 * Redraw one question message. A message someone deleted stays deleted (logged, not retried: the bridge would
 * retry it forever); a redraw Slack finds too long goes out without the `markdown` blocks.
 */
export async function updateQuestionMessage(
  client: WebClient,
  channel: string,
  ts: string,
  message: SlackMessage,
  log: Logger,
): Promise<void> {
  const send = (m: SlackMessage) =>
    callSlack(client, 'chat.update', { channel, ts, text: m.text, blocks: m.blocks, metadata: m.metadata });
  try {
    await send(message);
  } catch (error) {
    const code = slackErrorCode(error);
    if (code === 'message_not_found' || code === 'cant_update_message') {
      log.warn({ channel, ts, ...slackErrorFields(error) }, 'slack: question message gone; not redrawn');
      return;
    }
    if (code !== 'msg_blocks_too_long') throw error;
    log.warn({ channel, ts }, 'slack: redraw too long; sending it without Context/Impact');
    await send(withoutMarkdown(message, 'Context and Impact left out: too long for one Slack message.'));
  }
}

/** The message without its `markdown` blocks, with a one-line note where they were. */
export function withoutMarkdown(message: SlackMessage, note: string): SlackMessage {
  const blocks: MessageBlock[] = [];
  let noted = false;
  for (const block of message.blocks) {
    if (block.type !== 'markdown') {
      blocks.push(block);
    } else if (!noted) {
      noted = true;
      blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `_${note}_` }] });
    }
  }
  return { ...message, blocks };
}
