/**
 * A tail over the `events` table (see `EventTail` in the port): a cursor of its own, from the newest row when it
 * began; it waits through the change watch (connection.ts) like a blocking group read. Nothing is written, so it never
 * takes the write lock.
 */
import type { EventTail, StoreEvent, WaitOptions } from '../port.js';
import { StoreUnavailableError } from '../store-unavailable-error.js';
import { type SqliteConnection, toStoreError } from './connection.js';
import { type EventRow, toEvents } from './consumer.js';

export class SqliteEventTail implements EventTail {
  readonly #connection: SqliteConnection;
  readonly #closing = new AbortController();
  #cursor: number;

  constructor(connection: SqliteConnection) {
    this.#connection = connection;
    const newest = connection.statement('SELECT MAX(id) AS id FROM events').get() as { id: number | null } | undefined;
    this.#cursor = newest?.id ?? 0;
  }

  async next(options: WaitOptions & { readonly count?: number }): Promise<StoreEvent[]> {
    const deadline = Date.now() + options.timeoutMs;
    const select = this.#connection.statement(
      'SELECT id, type, project, question_id, at FROM events WHERE id > ? ORDER BY id LIMIT ?',
    );
    try {
      for (;;) {
        if (this.#closing.signal.aborted) throw new StoreUnavailableError();
        if (options.signal?.aborted) return [];
        const mark = this.#connection.watch.mark();
        const rows = select.all(this.#cursor, options.count ?? 100) as EventRow[];
        const last = rows.at(-1);
        if (last) {
          this.#cursor = last.id;
          return toEvents(rows);
        }
        const left = deadline - Date.now();
        if (left <= 0) return [];
        const signal = options.signal ? AbortSignal.any([options.signal, this.#closing.signal]) : this.#closing.signal;
        await this.#connection.watch.wait(mark, left, signal);
      }
    } catch (error) {
      throw toStoreError(error);
    }
  }

  async close(): Promise<void> {
    this.#closing.abort();
  }
}
