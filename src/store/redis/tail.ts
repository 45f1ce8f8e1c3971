/**
 * A tail over every project's event stream (see `EventTail` in the port): plain XREAD, no consumer group, so each
 * tail sees every event and leaves nothing behind in Redis. At the start each known project's stream is read from
 * its newest entry on; a project first seen later registered after the start (park registers a project before it
 * appends its first event), so its stream is read from the beginning. In a Redis Cluster, where one XREAD cannot
 * span slots, each stream is read by a command of its own, and only the streams the store's hints name (hints.ts).
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { EventTail, StoreEvent, WaitOptions } from '../port.js';
import { StoreUnavailableError } from '../store-unavailable-error.js';
import type { RedisConnection, Subscription, SubscriptionListener } from './connection.js';
import { parseStreamReply, type RawEvent } from './consumer.js';
import { StreamHints } from './hints.js';
import type { ProjectKeys } from './keys.js';

export interface RedisEventTailOptions {
  /** For short commands (where each stream stands at the start). */
  readonly client: RedisConnection;
  /** A connection of its own: a blocking read holds its connection. Closed with the tail. */
  readonly blocking: RedisConnection;
  /** Every project's keys, read again on each call so new projects are picked up. */
  readonly streams: () => Promise<ProjectKeys[]>;
  readonly onClose: () => void;
  /** A Redis Cluster: the hint channel's subscription (see hints.ts). Absent on one server. */
  readonly hints?: (listener: SubscriptionListener) => Promise<Subscription>;
  /** Cluster: how often every stream is read whatever the hints said. */
  readonly fullPassMs?: number;
}

export class RedisEventTail implements EventTail {
  readonly #o: RedisEventTailOptions;
  /** Stream key → the id of the last entry read (or the newest when the tail began). */
  readonly #cursors: Map<string, string>;
  readonly #hints: StreamHints | undefined;
  #closed = false;

  private constructor(options: RedisEventTailOptions, cursors: Map<string, string>) {
    this.#o = options;
    this.#cursors = cursors;
    this.#hints = options.hints && new StreamHints(options.hints, options.fullPassMs);
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
      const streams = (await this.#o.streams()).map((project) => ({ tag: project.tag, key: project.events }));
      if (options.signal?.aborted) return [];
      const count = options.count ?? 100;
      const events = this.#hints
        ? await this.#readHinted(streams, count, options.timeoutMs, this.#hints)
        : await this.#readAll(
            streams.map((stream) => stream.key),
            count,
            options.timeoutMs,
          );
      for (const event of events) this.#cursors.set(event.streamKey, event.entryId);
      return events.map(({ eventId, type, project, questionId, at }) => ({ eventId, type, project, questionId, at }));
    } catch (error) {
      if (options.signal?.aborted) return [];
      throw error;
    } finally {
      options.signal?.removeEventListener('abort', abort);
    }
  }

  /** One server: every stream in one XREAD, blocking up to `timeoutMs` on the tail's own connection. */
  async #readAll(keys: readonly string[], count: number, timeoutMs: number): Promise<RawEvent[]> {
    if (keys.length === 0) {
      // No project yet, so no stream to block on: look again shortly (as the consumer group does).
      await delay(Math.min(Math.max(0, timeoutMs), 250));
      return [];
    }
    const command = ['XREAD', 'COUNT', String(count)];
    const blockMs = Math.floor(timeoutMs);
    if (blockMs > 0) command.push('BLOCK', String(blockMs));
    command.push('STREAMS', ...keys, ...keys.map((key) => this.#cursors.get(key) ?? '0-0'));
    return parseStreamReply(await this.#o.blocking.sendCommand(command), () => undefined);
  }

  /** Cluster: the streams due (hinted, or all on a full pass), one XREAD each; waiting means waiting for a hint. */
  async #readHinted(
    streams: readonly { tag: string; key: string }[],
    count: number,
    timeoutMs: number,
    hints: StreamHints,
  ): Promise<RawEvent[]> {
    await hints.subscribe();
    const read = async () => {
      const due = hints.due(streams);
      const replies = await Promise.all(
        due.map(({ key }) =>
          this.#o.client.sendCommand([
            'XREAD',
            'COUNT',
            String(count),
            'STREAMS',
            key,
            this.#cursors.get(key) ?? '0-0',
          ]),
        ),
      );
      return replies.flatMap((reply, i) => {
        const events = parseStreamReply(reply, () => undefined);
        if (events.length >= count) hints.again(due[i]?.tag ?? '');
        return events;
      });
    };
    const events = await read();
    if (events.length > 0 || timeoutMs <= 0 || this.#closed) return events;
    await hints.wait(timeoutMs);
    return this.#closed ? [] : read();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#hints?.close();
    this.#o.blocking.close();
    this.#o.onClose();
  }
}
