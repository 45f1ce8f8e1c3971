/**
 * Reading the projects' event streams through a Redis consumer group. Each project has its own stream (in its
 * own hash slot), and a consumer learns about new projects each time it reads. Event ids are
 * `<tag>/<stream entry id>`, so an acknowledgement finds its stream.
 *
 * On one server a consumer reads every stream with one XREADGROUP (BLOCK while it waits). A Redis Cluster refuses
 * a command over several slots, so there a consumer reads each stream with a command of its own, and only the
 * streams that may have something, as hints.ts says (the store's hints, every stream now and then).
 */
import { EVENT_TYPES, type EventConsumer, type EventType, type ReadEventsOptions, type StoreEvent } from '../port.js';
import type { RedisConnection, Subscription, SubscriptionListener } from './connection.js';
import { StreamHints } from './hints.js';
import type { ProjectKeys } from './keys.js';

type Client = RedisConnection;

/** A stream entry as read, with the raw entry id beside the store event. */
export interface RawEvent extends StoreEvent {
  readonly entryId: string;
  readonly streamKey: string;
}

function isEventType(value: string | undefined): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value ?? '');
}

/** Tag of a project stream key `<prefix>:{<tag>}:events`. */
function tagOf(streamKey: string): string {
  return streamKey.slice(streamKey.indexOf('{') + 1, streamKey.indexOf('}'));
}

type Entries = [string, string[] | null][];

/** Parse an XREAD / XREADGROUP reply: null (nothing new), or [[key, [[id, [field, value, …]], …]], …]. */
export function parseStreamReply(reply: unknown, projectOf: (streamKey: string) => string | undefined): RawEvent[] {
  if (!Array.isArray(reply)) return [];
  const events: RawEvent[] = [];
  for (const [streamKey, entries] of reply as [string, Entries][]) {
    for (const [entryId, flat] of entries) events.push(...parseEntry(String(streamKey), entryId, flat, projectOf));
  }
  return events;
}

function parseEntry(
  streamKey: string,
  entryId: string,
  flat: readonly string[] | null,
  projectOf: (streamKey: string) => string | undefined,
): RawEvent[] {
  const fields: Record<string, string> = {};
  for (let i = 0; flat && i + 1 < flat.length; i += 2) fields[String(flat[i])] = String(flat[i + 1]);
  const project = fields.project ?? projectOf(streamKey);
  const type = fields.type;
  const questionId = Number(fields.id);
  if (!isEventType(type) || project === undefined || !Number.isInteger(questionId)) {
    // An entry we cannot read (trimmed, or written by a newer version): hand it out with type unknown-skipped.
    return [];
  }
  return [
    {
      eventId: `${tagOf(streamKey)}/${entryId}`,
      entryId,
      streamKey,
      type,
      project,
      questionId,
      at: Number(fields.at),
    },
  ];
}

export interface RedisEventConsumerOptions {
  readonly client: Client;
  /** A connection of its own: a blocking read holds its connection. */
  readonly blocking: Client;
  readonly group: string;
  readonly consumer: string;
  /** The group whose position a group created here starts from (`ConsumerOptions.inheritFrom`). */
  readonly inheritFrom?: string;
  /** Every project's keys, read again on each call so new projects are picked up. */
  readonly streams: () => Promise<ProjectKeys[]>;
  readonly onClose: () => void;
  /**
   * A Redis Cluster: the hint channel's subscription, made on first read (each stream is then read by a command of
   * its own). Absent on one server.
   */
  readonly hints?: (listener: SubscriptionListener) => Promise<Subscription>;
  /** Cluster: how often every stream is read whatever the hints said (default `FULL_PASS_MS`). */
  readonly fullPassMs?: number;
}

export class RedisEventConsumer implements EventConsumer {
  readonly #o: RedisEventConsumerOptions;
  readonly #grouped = new Set<string>();
  readonly #streamByTag = new Map<string, string>();
  /** Cluster: which streams to read next (hints.ts). */
  readonly #hints: StreamHints | undefined;
  #closed = false;

  constructor(options: RedisEventConsumerOptions) {
    this.#o = options;
    this.#hints = options.hints && new StreamHints(options.hints, options.fullPassMs);
  }

  /** Stream keys of every project, creating the group (from the first entry) on streams that lack it. */
  async #streams(): Promise<string[]> {
    const keys = await this.#o.streams();
    for (const project of keys) {
      if (this.#grouped.has(project.events)) continue;
      try {
        const start = await this.#startOf(project.events);
        await this.#o.client.sendCommand(['XGROUP', 'CREATE', project.events, this.#o.group, start, 'MKSTREAM']);
      } catch (error) {
        if (!(error instanceof Error && error.message.startsWith('BUSYGROUP'))) throw error;
      }
      this.#grouped.add(project.events);
      this.#streamByTag.set(project.tag, project.events);
    }
    return [...this.#grouped];
  }

  /** Where this group starts on a stream: `0`, or where the inherited group got to (see `ConsumerOptions`). */
  async #startOf(stream: string): Promise<string> {
    const from = this.#o.inheritFrom;
    if (from === undefined) return '0';
    let groups: unknown;
    try {
      groups = await this.#o.client.sendCommand(['XINFO', 'GROUPS', stream]);
    } catch {
      return '0'; // no stream yet
    }
    const inherited = (Array.isArray(groups) ? groups : []).map(fieldsOf).find((g) => g.name === from);
    if (!inherited) return '0';
    const summary = (await this.#o.client.sendCommand(['XPENDING', stream, from])) as unknown[];
    const oldestPending = Number(summary?.[0] ?? 0) > 0 ? summary[1] : undefined;
    if (typeof oldestPending === 'string') return entryIdBefore(oldestPending);
    return typeof inherited['last-delivered-id'] === 'string' ? inherited['last-delivered-id'] : '0';
  }

  async read(options: ReadEventsOptions = {}): Promise<StoreEvent[]> {
    if (this.#hints) return this.#readEach(options, this.#hints);
    const streams = await this.#streams();
    const blockMs = options.blockMs ?? 0;
    if (streams.length === 0) {
      if (blockMs > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(blockMs, 250)));
      return [];
    }
    const command = ['XREADGROUP', 'GROUP', this.#o.group, this.#o.consumer, 'COUNT', String(options.count ?? 100)];
    if (blockMs > 0) command.push('BLOCK', String(blockMs));
    command.push('STREAMS', ...streams, ...streams.map(() => '>'));
    const connection = blockMs > 0 ? this.#o.blocking : this.#o.client;
    return parseStreamReply(await connection.sendCommand(command), () => undefined).map(strip);
  }

  /** Cluster: the hinted streams (all of them on a full pass), one command each; waiting means waiting for a hint. */
  async #readEach(options: ReadEventsOptions, hints: StreamHints): Promise<StoreEvent[]> {
    await hints.subscribe();
    const blockMs = options.blockMs ?? 0;
    const count = options.count ?? 100;
    const events = await this.#readDue(count, hints);
    if (events.length > 0 || blockMs <= 0 || this.#closed) return events;
    await hints.wait(blockMs);
    return this.#closed ? [] : this.#readDue(count, hints);
  }

  async #readDue(count: number, hints: StreamHints): Promise<StoreEvent[]> {
    await this.#streams();
    const due = hints.due([...this.#streamByTag].map(([tag, key]) => ({ tag, key })));
    const replies = await Promise.all(
      due.map(({ key }) =>
        this.#o.client.sendCommand([
          'XREADGROUP',
          'GROUP',
          this.#o.group,
          this.#o.consumer,
          'COUNT',
          String(count),
          'STREAMS',
          key,
          '>',
        ]),
      ),
    );
    const events: StoreEvent[] = [];
    replies.forEach((reply, i) => {
      const read = parseStreamReply(reply, () => undefined);
      // A full batch may have left more behind: read that stream again next time.
      if (read.length >= count) hints.again(due[i]?.tag ?? '');
      events.push(...read.map(strip));
    });
    return events;
  }

  async reclaim(minIdleMs: number, count = 100): Promise<StoreEvent[]> {
    const claimed: StoreEvent[] = [];
    for (const stream of await this.#streams()) {
      let cursor = '0-0';
      do {
        const reply = (await this.#o.client.sendCommand([
          'XAUTOCLAIM',
          stream,
          this.#o.group,
          this.#o.consumer,
          String(minIdleMs),
          cursor,
          'COUNT',
          String(count),
        ])) as [string, Entries];
        cursor = reply[0];
        for (const [entryId, flat] of reply[1] ?? []) {
          claimed.push(...parseEntry(stream, entryId, flat, () => undefined).map(strip));
        }
      } while (cursor !== '0-0' && claimed.length < count);
    }
    return claimed;
  }

  async ack(events: readonly StoreEvent[]): Promise<void> {
    const byStream = new Map<string, string[]>();
    for (const event of events) {
      const slash = event.eventId.indexOf('/');
      const stream = this.#streamByTag.get(event.eventId.slice(0, slash));
      if (!stream) continue;
      byStream.set(stream, [...(byStream.get(stream) ?? []), event.eventId.slice(slash + 1)]);
    }
    for (const [stream, ids] of byStream) {
      await this.#o.client.sendCommand(['XACK', stream, this.#o.group, ...ids]);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#hints?.close();
    this.#o.blocking.close();
    this.#o.onClose();
  }
}

/** An XINFO reply's flat [field, value, …] list as a record; anything else as no fields. */
function fieldsOf(reply: unknown): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (!Array.isArray(reply)) return fields;
  for (let i = 0; i + 1 < reply.length; i += 2) fields[String(reply[i])] = reply[i + 1];
  return fields;
}

/** The stream entry id just before `id` (`ms-seq`), so a group starting there reads `id` next. */
export function entryIdBefore(id: string): string {
  const [ms = '0', seq = '0'] = id.split('-');
  if (BigInt(seq) > 0n) return `${ms}-${BigInt(seq) - 1n}`;
  if (BigInt(ms) > 0n) return `${BigInt(ms) - 1n}-18446744073709551615`;
  return '0';
}

function strip(event: RawEvent): StoreEvent {
  return {
    eventId: event.eventId,
    type: event.type,
    project: event.project,
    questionId: event.questionId,
    at: event.at,
  };
}
