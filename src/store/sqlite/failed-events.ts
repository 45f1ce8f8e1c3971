/**
 * Failed events and surface faults in the SQLite file (see `FailuresSection` in the port): the `failed_events` and
 * `surface_faults` tables (schema v3, v7). The records' shapes and hand validation: store/failed-events.ts and
 * store/surface-faults.ts, as for Redis.
 */
import { failedRecord, readFailedRecord } from '../failed-events.js';
import type { FailedEvent, FailedEventsOfGroup, FailuresSection, StoreEvent, SurfaceFault } from '../port.js';
import { faultRecord, readFaultRecord } from '../surface-faults.js';
import type { SqliteContext } from './context.js';

/** A `failed_events` row. */
interface FailedRow {
  readonly group_name: string;
  readonly event_id: string;
  readonly type: string;
  readonly project: string;
  readonly question_id: number;
  readonly at: number;
  readonly attempts: number;
  readonly error: string;
  readonly failed_at: number;
}

function failedFromRow(row: FailedRow): FailedEvent | undefined {
  const { type, project, question_id: questionId, at, attempts, error, failed_at: failedAt } = row;
  return readFailedRecord(row.group_name, row.event_id, { type, project, questionId, at, attempts, error, failedAt });
}

export class SqliteFailures implements FailuresSection {
  readonly #x: SqliteContext;

  constructor(context: SqliteContext) {
    this.#x = context;
  }

  recordFailedEvent(group: string, event: StoreEvent, failure: { attempts: number; error: string }): Promise<void> {
    const { c } = this.#x;
    return this.#x.run(() =>
      c.write(() => {
        const r = failedRecord(event, failure, this.#x.now());
        c.statement(
          `INSERT OR REPLACE INTO failed_events
               (group_name, event_id, type, project, question_id, at, attempts, error, failed_at, replay)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
        ).run(group, event.eventId, r.type, r.project, r.questionId, r.at, r.attempts, r.error, r.failedAt);
      }),
    );
  }

  failedEvents(options: { readonly sample?: number } = {}): Promise<FailedEventsOfGroup[]> {
    const { c } = this.#x;
    return this.#x.run(() => {
      const groups = c
        .statement(
          'SELECT group_name, COUNT(*) AS n FROM failed_events WHERE replay = 0 GROUP BY group_name ORDER BY group_name',
        )
        .all() as { group_name: string; n: number }[];
      const sample = c.statement(
        `SELECT * FROM failed_events WHERE group_name = ? AND replay = 0 ORDER BY failed_at DESC LIMIT ?`,
      );
      return groups.map(({ group_name: group, n }) => ({
        group,
        count: n,
        sample: (sample.all(group, options.sample ?? 5) as FailedRow[])
          .map((row) => failedFromRow(row))
          .filter((event): event is FailedEvent => event !== undefined),
      }));
    });
  }

  replayFailedEvents(group?: string): Promise<number> {
    const { c } = this.#x;
    return this.#x.run(() =>
      c.write(() =>
        Number(
          c
            .statement('UPDATE failed_events SET replay = 1 WHERE replay = 0 AND (? IS NULL OR group_name = ?)')
            .run(group ?? null, group ?? null).changes,
        ),
      ),
    );
  }

  takeReplayedEvents(group: string, count: number): Promise<FailedEvent[]> {
    const { c } = this.#x;
    return this.#x.run(() => {
      // Look first without the write lock: every surface asks on every loop, and most of the time nothing waits.
      const any = c.statement('SELECT 1 FROM failed_events WHERE group_name = ? AND replay = 1 LIMIT 1').get(group);
      if (any === undefined) return [];
      return c.write(() => {
        const rows = c
          .statement('SELECT * FROM failed_events WHERE group_name = ? AND replay = 1 ORDER BY failed_at LIMIT ?')
          .all(group, count) as FailedRow[];
        const drop = c.statement('DELETE FROM failed_events WHERE group_name = ? AND event_id = ?');
        for (const row of rows) drop.run(group, row.event_id);
        return rows.map((row) => failedFromRow(row)).filter((event): event is FailedEvent => event !== undefined);
      });
    });
  }

  recordSurfaceFault(fault: Omit<SurfaceFault, 'since'>): Promise<void> {
    const { c } = this.#x;
    return this.#x.run(() =>
      c.write(() => {
        const r = faultRecord(fault, this.#x.now());
        c.statement(
          `INSERT OR REPLACE INTO surface_faults (group_name, channel, error, fix, since) VALUES (?, ?, ?, ?, ?)`,
        ).run(r.group, r.channel ?? '', r.error, r.fix, r.since);
      }),
    );
  }

  clearSurfaceFaults(group: string, channels: readonly string[]): Promise<void> {
    const { c } = this.#x;
    return this.#x.run(() =>
      c.write(() => {
        const drop = c.statement('DELETE FROM surface_faults WHERE group_name = ? AND channel = ?');
        for (const channel of ['', ...channels]) drop.run(group, channel);
      }),
    );
  }

  surfaceFaults(): Promise<SurfaceFault[]> {
    return this.#x.run(() =>
      (
        this.#x.c.statement('SELECT * FROM surface_faults ORDER BY group_name, channel').all() as {
          group_name: string;
          channel: string;
          error: string;
          fix: string;
          since: number;
        }[]
      )
        .map((row) =>
          readFaultRecord({
            group: row.group_name,
            channel: row.channel,
            error: row.error,
            fix: row.fix,
            since: row.since,
          }),
        )
        .filter((fault): fault is SurfaceFault => fault !== undefined),
    );
  }
}
