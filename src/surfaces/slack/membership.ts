/**
 * Which channels a Slack user is in, for the Home tab (a place without a channel): `users.conversations` with the
 * user's id, public and private channels (`channels:read`, `groups:read`; private channels are those the bot is in
 * too, which every routed channel is). Answers are cached per user for `ttlMs`; a caller whose cached answer said
 * no may ask again (`fresh`), at most once per `refreshMs` per user, so an outsider's clicks cannot flood Slack.
 * Concurrent asks for one user share one request. A failed ask answers "no channels" (nothing is shown or
 * accepted from Home) and is logged with Slack's code, never retried faster than `refreshMs`.
 */

import type { Logger } from '../../core/logger.js';
import type { Actor, Membership } from '../interactions.js';
import { callSlack, slackErrorFields, type WebClient } from './web.js';

export interface SlackMembershipOptions {
  readonly client: WebClient;
  readonly logger: Logger;
  /** How long an answer is used (default 60 s). */
  readonly ttlMs?: number;
  /** The least time between two asks for one user (default 10 s). */
  readonly refreshMs?: number;
  /** Pages of 999 channels read at most per ask (default 10). */
  readonly maxPages?: number;
  readonly now?: () => number;
}

interface Entry {
  readonly at: number;
  readonly channels: Promise<ReadonlySet<string>>;
}

const NONE: ReadonlySet<string> = new Set();

export class SlackMembership implements Membership {
  readonly #o: SlackMembershipOptions;
  readonly #now: () => number;
  readonly #byUser = new Map<string, Entry>();

  constructor(options: SlackMembershipOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
  }

  channelsOf(actor: Actor, options: { readonly fresh?: boolean } = {}): Promise<ReadonlySet<string>> {
    if (actor.platform !== 'slack') return Promise.resolve(NONE);
    const now = this.#now();
    const entry = this.#byUser.get(actor.userId);
    const age = entry ? now - entry.at : Number.POSITIVE_INFINITY;
    if (entry && age < (options.fresh ? (this.#o.refreshMs ?? 10_000) : (this.#o.ttlMs ?? 60_000))) {
      return entry.channels;
    }
    const channels = this.#ask(actor.userId);
    this.#byUser.set(actor.userId, { at: now, channels });
    // A small team's cache: drop what is long stale rather than grow without bound.
    if (this.#byUser.size > 10_000) this.#forgetStale(now);
    return channels;
  }

  async #ask(user: string): Promise<ReadonlySet<string>> {
    const channels = new Set<string>();
    const started = this.#now();
    try {
      let cursor = '';
      for (let page = 0; page < (this.#o.maxPages ?? 10); page++) {
        const result = await callSlack(this.#o.client, 'users.conversations', {
          user,
          types: 'public_channel,private_channel',
          exclude_archived: true,
          limit: 999,
          ...(cursor !== '' ? { cursor } : {}),
        });
        for (const channel of Array.isArray(result.channels) ? result.channels : []) {
          const id = (channel as { id?: unknown } | null)?.id;
          if (typeof id === 'string') channels.add(id);
        }
        const next = (result.response_metadata as { next_cursor?: unknown } | undefined)?.next_cursor;
        if (typeof next !== 'string' || next === '') break;
        cursor = next;
      }
      this.#o.logger.info({ user, channels: channels.size, ms: this.#now() - started }, 'slack: membership read');
      return channels;
    } catch (error) {
      this.#o.logger.warn({ user, ...slackErrorFields(error) }, 'slack: cannot read channel membership');
      return NONE;
    }
  }

  #forgetStale(now: number): void {
    for (const [user, entry] of this.#byUser) {
      if (now - entry.at >= (this.#o.ttlMs ?? 60_000)) this.#byUser.delete(user);
    }
  }
}
