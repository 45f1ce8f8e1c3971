/**
 * A tail over every project's event stream (see `EventTail` in the port): plain XREAD, no consumer group, so each
 * tail sees every event and leaves nothing behind in Redis. At the start each known project's stream is read from
 * its newest entry on; a project first seen later registered after the start (park registers a project before it
 * appends its first event), so its stream is read from the beginning.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { EventTail, StoreEvent, WaitOptions } from '../port.js';
import { StoreUnavailableError } from '../store-unavailable-error.js';
import type { RedisConnection } from './connection.js';
import { parseStreamReply } from './events.js';
import type { ProjectKeys } from './keys.js';

export interface RedisEventTailOptions {
  /** For short commands (where each stream stands at the start). */
  readonly client: RedisConnection;
  /** A connection of its own: a blocking read holds its connection. Closed with the tail. */
  readonly blocking: RedisConnection;
  /** Every project's keys, read again on each call so new projects are picked up. */
  readonly streams: () => Promise<ProjectKeys[]>;
  readonly onClose: () => void;
}

export class RedisEventTail implements EventTail {
  readonly #o: RedisEventTailOptions;
  /** Stream key → the id of the last entry read (or the newest when the tail began). */
  readonly #cursors: Map<string, string>;
  #closed = false;

  private constructor(options: RedisEventTailOptions, cursors: Map<string, string>) {
    this.#o = options;
    this.#cursors = cursors;
  }

  /** Begin now: every known stream from its newest entry (one look each, sent together). */
  static async begin(options: RedisEventTailOptions): Promise<RedisEventTail> {
    const keys = (await options.streams()).map((project) => project.events);
    const newest = await Promise.all(
      keys.map((key) => options.client.sendCommand(['XREVRANGE', key, '+', '-', 'COUNT', '1']) as Promise<string[][]>),
    );
    return new RedisEventTail(options, new Map(keys.map((key, i) => [key, newest[i]?.[0]?.[0] ?? '0-0'])));
  }

  async next(options: WaitOptions & { readonly count?: number }): Promise<StoreEvent[]> {
    if (this.#closed) throw new StoreUnavailableError();
    if (options.signal?.aborted) return [];
    // A blocking read holds its connection: an abort closes it (the tail is then spent).
    const abort = () => void this.close();
    options.signal?.addEventListener('abort', abort, { once: true });
    try {
      const keys = (await this.#o.streams()).map((project) => project.events);
      if (options.signal?.aborted) return [];
      if (keys.length === 0) {
        // No project yet, so no stream to block on: look again shortly (as the consumer group does).
        await delay(Math.min(Math.max(0, options.timeoutMs), 250), undefined, { signal: options.signal }).catch(
          () => undefined,
        );
        return [];
      }
      const command = ['XREAD', 'COUNT', String(options.count ?? 100)];
      const blockMs = Math.floor(options.timeoutMs);
      if (blockMs > 0) command.push('BLOCK', String(blockMs));
      command.push('STREAMS', ...keys, ...keys.map((key) => this.#cursors.get(key) ?? '0-0'));
      const events = parseStreamReply(await this.#o.blocking.sendCommand(command), () => undefined);
      for (const event of events) this.#cursors.set(event.streamKey, event.entryId);
      return events.map(({ eventId, type, project, questionId, at }) => ({ eventId, type, project, questionId, at }));
    } catch (error) {
      if (options.signal?.aborted) return [];
      throw error;
    } finally {
      options.signal?.removeEventListener('abort', abort);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#o.blocking.close();
    this.#o.onClose();
  }
}
