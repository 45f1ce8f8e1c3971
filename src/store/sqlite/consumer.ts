/**
 * Consumer groups over the `events` table, with the guarantees of a Redis stream consumer group:
 * - a group has one cursor (`event_groups.last_id`): each event goes to one consumer of the group;
 * - an event handed out stays in `event_pending` (consumer, delivered_at) until acknowledged: at-least-once;
 * - `reclaim` hands events whose consumer stayed silent for `minIdleMs` to the caller (deliveries counted).
 * A new group starts before the oldest event kept, as a Redis group created at `0` does. Idle times are measured
 * with the store's clock. A blocking read polls through the connection's change watch (see connection.ts).
 */
import { EVENT_TYPES, type EventConsumer, type EventType, type ReadEventsOptions, type StoreEvent } from '../port.js';
import { type SqliteConnection, toStoreError } from './connection.js';

/** An `events` row. */
export interface EventRow {
  readonly id: number;
  readonly type: string;
  readonly project: string;
  readonly question_id: number;
  readonly at: number;
}

function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/** Rows as store events; a row of a type this version does not know (a newer writer) is left out. */
export function toEvents(rows: readonly EventRow[]): StoreEvent[] {
  const events: StoreEvent[] = [];
  for (const row of rows) {
    if (!isEventType(row.type)) continue;
    events.push({
      eventId: String(row.id),
      type: row.type,
      project: row.project,
      questionId: row.question_id,
      at: row.at,
    });
  }
  return events;
}

export interface SqliteEventConsumerOptions {
  readonly connection: SqliteConnection;
  readonly group: string;
  readonly consumer: string;
  readonly now: () => number;
  readonly onClose: () => void;
}

export class SqliteEventConsumer implements EventConsumer {
  readonly #o: SqliteEventConsumerOptions;
  readonly #closing = new AbortController();

  constructor(options: SqliteEventConsumerOptions) {
    this.#o = options;
  }

  /**
   * Create the group if missing (not a transition: no event, no notify needed, but under the write lock), at the
   * start, or where `inheritFrom` got to (before its oldest unacknowledged event, else at its cursor).
   */
  static async ensureGroup(connection: SqliteConnection, group: string, inheritFrom?: string): Promise<void> {
    await connection.write(() => {
      connection
        .statement(
          `INSERT OR IGNORE INTO event_groups (name, last_id) VALUES (?, COALESCE(
             (SELECT MIN(event_id) - 1 FROM event_pending WHERE group_name = ?),
             (SELECT last_id FROM event_groups WHERE name = ?),
             0))`,
        )
        .run(group, inheritFrom ?? null, inheritFrom ?? null);
    });
  }

  async #take(count: number): Promise<StoreEvent[]> {
    const c = this.#o.connection;
    // Look first without the write lock: a polling reader must not queue behind writers for nothing.
    const ready = c
      .statement('SELECT 1 FROM events WHERE id > (SELECT last_id FROM event_groups WHERE name = ?) LIMIT 1')
      .get(this.#o.group);
    if (ready === undefined) return [];
    return c.write(() => {
      const rows = c
        .statement(
          `SELECT e.id, e.type, e.project, e.question_id, e.at FROM events e
           WHERE e.id > (SELECT last_id FROM event_groups WHERE name = ?) ORDER BY e.id LIMIT ?`,
        )
        .all(this.#o.group, count) as EventRow[];
      const last = rows.at(-1);
      if (!last) return [];
      const now = this.#o.now();
      c.statement('UPDATE event_groups SET last_id = ? WHERE name = ?').run(last.id, this.#o.group);
      const pend = c.statement(
        `INSERT OR REPLACE INTO event_pending (group_name, event_id, consumer, delivered_at, deliveries)
         VALUES (?, ?, ?, ?, 1)`,
      );
      for (const row of rows) pend.run(this.#o.group, row.id, this.#o.consumer, now);
      return toEvents(rows);
    });
  }

  async read(options: ReadEventsOptions = {}): Promise<StoreEvent[]> {
    const count = options.count ?? 100;
    const deadline = Date.now() + (options.blockMs ?? 0);
    try {
      for (;;) {
        if (this.#closing.signal.aborted) return [];
        const mark = this.#o.connection.watch.mark();
        const events = await this.#take(count);
        const left = deadline - Date.now();
        if (events.length > 0 || left <= 0) return events;
        await this.#o.connection.watch.wait(mark, left, this.#closing.signal);
      }
    } catch (error) {
      throw toStoreError(error);
    }
  }

  async reclaim(minIdleMs: number, count = 100): Promise<StoreEvent[]> {
    const c = this.#o.connection;
    try {
      return await c.write(() => {
        const now = this.#o.now();
        const idle = c
          .statement(
            `SELECT p.event_id, e.id, e.type, e.project, e.question_id, e.at FROM event_pending p
             LEFT JOIN events e ON e.id = p.event_id
             WHERE p.group_name = ? AND p.delivered_at <= ? ORDER BY p.event_id LIMIT ?`,
          )
          .all(this.#o.group, now - minIdleMs, count) as (EventRow & { event_id: number })[];
        const move = c.statement(
          `UPDATE event_pending SET consumer = ?, delivered_at = ?, deliveries = deliveries + 1
           WHERE group_name = ? AND event_id = ?`,
        );
        const drop = c.statement('DELETE FROM event_pending WHERE group_name = ? AND event_id = ?');
        const kept: EventRow[] = [];
        for (const row of idle) {
          // An event purged by retention while pending: nothing left to hand out (XAUTOCLAIM drops those too).
          if (row.id === null) drop.run(this.#o.group, row.event_id);
          else {
            move.run(this.#o.consumer, now, this.#o.group, row.event_id);
            kept.push(row);
          }
        }
        return toEvents(kept);
      });
    } catch (error) {
      throw toStoreError(error);
    }
  }

  async ack(events: readonly StoreEvent[]): Promise<void> {
    if (events.length === 0) return;
    const c = this.#o.connection;
    try {
      await c.write(() => {
        const drop = c.statement('DELETE FROM event_pending WHERE group_name = ? AND event_id = ?');
        for (const event of events) {
          const id = Number(event.eventId);
          if (Number.isSafeInteger(id)) drop.run(this.#o.group, id);
        }
      });
    } catch (error) {
      throw toStoreError(error);
    }
  }

  async close(): Promise<void> {
    this.#closing.abort();
    this.#o.onClose();
  }
}
