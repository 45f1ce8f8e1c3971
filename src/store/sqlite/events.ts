/**
 * What happened, in the SQLite file (see `EventsSection` in the port): the `events` table, read by consumer groups
 * (consumer.ts) and tails (tail.ts); one project's watch and one question's wait follow the file's changes through
 * the connection's change watch (connection.ts): a commit of this process wakes them at once, another process's
 * within `pollIntervalMs`.
 */
import type { Question } from '../../core/question.js';
import type { ConsumerOptions, EventConsumer, EventsSection, EventTail, ProjectWatch, WaitOptions } from '../port.js';
import { toStoreError } from './connection.js';
import { SqliteEventConsumer } from './consumer.js';
import type { SqliteContext } from './context.js';
import { SqliteEventTail } from './tail.js';

export class SqliteEvents implements EventsSection {
  readonly #x: SqliteContext;
  readonly #consumers = new Set<EventConsumer>();
  readonly #tails = new Set<EventTail>();

  constructor(context: SqliteContext) {
    this.#x = context;
  }

  consumer(group: string, consumerName: string, options: ConsumerOptions = {}): Promise<EventConsumer> {
    const { c } = this.#x;
    return this.#x.run(async () => {
      await SqliteEventConsumer.ensureGroup(c, group, options.inheritFrom);
      const consumer: EventConsumer = new SqliteEventConsumer({
        connection: c,
        group,
        consumer: consumerName,
        now: this.#x.now,
        onClose: () => this.#consumers.delete(consumer),
      });
      this.#consumers.add(consumer);
      return consumer;
    });
  }

  tail(): Promise<EventTail> {
    return this.#x.run(() => {
      const tail = new SqliteEventTail(this.#x.c);
      this.#tails.add(tail);
      const close = tail.close.bind(tail);
      tail.close = async () => {
        this.#tails.delete(tail);
        await close();
      };
      return tail;
    });
  }

  /**
   * Returns the moment a commit of this process settles the question; a commit of another process is seen within
   * `pollIntervalMs` (the file has no push notification; looking costs one `PRAGMA data_version`). The time-out
   * is real time, not the store's clock.
   */
  async watch(_project: string): Promise<ProjectWatch> {
    const watch = this.#x.c.watch;
    let mark = watch.mark();
    return {
      changed: async (options: WaitOptions) => {
        try {
          if (options.signal?.aborted || options.timeoutMs <= 0) return false;
          await watch.wait(mark, options.timeoutMs, options.signal);
          const now = watch.mark();
          if (now.data === mark.data && now.local === mark.local) return false;
          mark = now;
          return true;
        } catch (error) {
          throw toStoreError(error);
        }
      },
      close: async () => undefined,
    };
  }

  async waitWhilePending(project: string, id: number, options: WaitOptions): Promise<Question | undefined> {
    const { watch } = this.#x.c;
    const deadline = Date.now() + options.timeoutMs;
    try {
      for (;;) {
        const mark = watch.mark();
        const question = this.#x.get(project, id);
        const left = deadline - Date.now();
        if (question?.status !== 'pending' || left <= 0 || options.signal?.aborted) return question;
        await watch.wait(mark, left, options.signal);
      }
    } catch (error) {
      throw toStoreError(error);
    }
  }

  /** Stop every consumer and tail this store started. */
  async close(): Promise<void> {
    for (const consumer of [...this.#consumers]) await consumer.close();
    for (const tail of [...this.#tails]) await tail.close();
  }
}
