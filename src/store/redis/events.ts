/**
 * What happened, on Redis (see `EventsSection` in the port): each project's event stream, read by consumer groups
 * (consumer.ts), by tails outside any group (tail.ts), and with XREAD BLOCK on a connection of its own for one
 * project's watch and one question's wait, so a waiting caller wakes the moment the event lands, without polling.
 */
import type { Question } from '../../core/question.js';
import type { ConsumerOptions, EventConsumer, EventsSection, EventTail, ProjectWatch, WaitOptions } from '../port.js';
import type { RedisConnection } from './connection.js';
import { parseStreamReply, RedisEventConsumer } from './consumer.js';
import type { RedisContext } from './context.js';
import { RedisEventTail } from './tail.js';

export class RedisEvents implements EventsSection {
  readonly #x: RedisContext;
  readonly #consumers = new Set<RedisEventConsumer>();
  readonly #tails = new Set<RedisEventTail>();
  readonly #waiters = new Set<RedisConnection>();

  constructor(context: RedisContext) {
    this.#x = context;
  }

  consumer(group: string, consumerName: string, options: ConsumerOptions = {}): Promise<EventConsumer> {
    const x = this.#x;
    return x.run(async () => {
      const connection = await x.duplicate();
      const consumer = new RedisEventConsumer({
        client: x.client,
        blocking: connection,
        group,
        ...(options.inheritFrom !== undefined ? { inheritFrom: options.inheritFrom } : {}),
        consumer: consumerName,
        streams: async () => {
          const projects = await x.projects();
          return [...projects.values()].map((project) => x.keys(project));
        },
        onClose: () => this.#consumers.delete(consumer),
        ...x.hintOptions(),
      });
      this.#consumers.add(consumer);
      return consumer;
    });
  }

  tail(): Promise<EventTail> {
    const x = this.#x;
    return x.run(async () => {
      const blocking = await x.duplicate();
      const tail = await RedisEventTail.begin({
        client: x.client,
        blocking,
        streams: async () => [...(await x.projects()).values()].map((project) => x.keys(project)),
        onClose: () => this.#tails.delete(tail),
        ...x.hintOptions(),
      }).catch((error: unknown) => {
        blocking.close();
        throw error;
      });
      this.#tails.add(tail);
      return wrapTail(tail, x);
    });
  }

  /** The id of the newest entry of a project's stream ('0-0' when it has none): where a blocking read starts. */
  async #newestEntry(eventsKey: string): Promise<string> {
    const last = (await this.#x.client.sendCommand(['XREVRANGE', eventsKey, '+', '-', 'COUNT', '1'])) as string[][];
    return last[0]?.[0] ?? '0-0';
  }

  watch(project: string): Promise<ProjectWatch> {
    const x = this.#x;
    return x.run(async () => {
      const keys = x.keys(project);
      let cursor = await this.#newestEntry(keys.events);
      const connection = await x.duplicate();
      this.#waiters.add(connection);
      const close = async () => {
        this.#waiters.delete(connection);
        connection.close();
      };
      const changed = (options: WaitOptions): Promise<boolean> =>
        x.run(async () => {
          if (options.signal?.aborted || options.timeoutMs <= 0) return false;
          // A blocking read holds its connection: an abort closes it (the watch is then spent).
          const abort = () => void close();
          options.signal?.addEventListener('abort', abort, { once: true });
          try {
            const reply = await connection.sendCommand([
              'XREAD',
              'BLOCK',
              String(Math.max(1, Math.ceil(options.timeoutMs))),
              'STREAMS',
              keys.events,
              cursor,
            ]);
            const newest = parseStreamReply(reply, () => project).at(-1);
            if (!newest) return false;
            cursor = newest.entryId;
            return true;
          } catch (error) {
            if (options.signal?.aborted) return false;
            throw error;
          } finally {
            options.signal?.removeEventListener('abort', abort);
          }
        });
      return { changed, close };
    });
  }

  waitWhilePending(project: string, id: number, options: WaitOptions): Promise<Question | undefined> {
    const x = this.#x;
    return x.run(async () => {
      const keys = x.keys(project);
      const deadline = x.now() + options.timeoutMs;
      let cursor = await this.#newestEntry(keys.events);
      let question = await x.get(project, id);
      if (question?.status !== 'pending' || options.signal?.aborted) return question;

      const connection = await x.duplicate();
      this.#waiters.add(connection);
      const abort = () => connection.close();
      options.signal?.addEventListener('abort', abort, { once: true });
      try {
        for (;;) {
          const left = deadline - x.now();
          if (left <= 0 || options.signal?.aborted) break;
          let reply: unknown;
          try {
            reply = await connection.sendCommand(['XREAD', 'BLOCK', String(left), 'STREAMS', keys.events, cursor]);
          } catch (error) {
            if (options.signal?.aborted) break;
            throw error;
          }
          const events = parseStreamReply(reply, () => project);
          const mine = events.some((event) => event.questionId === id);
          const newest = events.at(-1);
          if (newest) cursor = newest.entryId;
          if (mine) {
            question = await x.get(project, id);
            if (question?.status !== 'pending') return question;
          }
        }
        return await x.get(project, id);
      } finally {
        options.signal?.removeEventListener('abort', abort);
        this.#waiters.delete(connection);
        connection.close();
      }
    });
  }

  /** Stop every consumer, tail and wait this store started. */
  async close(): Promise<void> {
    for (const consumer of this.#consumers) await consumer.close();
    for (const tail of [...this.#tails]) await tail.close();
    for (const waiter of this.#waiters) waiter.close();
  }
}

/** The tail with its failures as the store's errors (a lost connection is `StoreUnavailableError`). */
function wrapTail(tail: RedisEventTail, x: RedisContext): EventTail {
  return {
    next: async (options) => {
      try {
        return await tail.next(options);
      } catch (error) {
        throw x.toStoreError(error);
      }
    },
    close: () => tail.close(),
  };
}
