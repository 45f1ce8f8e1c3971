/**
 * The paged views and counts in the SQLite file (see `ViewsSection` in the port; the orders and cursors are
 * store/paging.ts): the same orders in SQL, over the generated columns `blocking` and `closed_at` and an index per
 * view (schema v5), so a page reads its rows and no more.
 */
import { QUESTION_STATUSES } from '../../core/question.js';
import {
  type Cursor,
  closedKey,
  formatCursor,
  parseCursor,
  parseListCursor,
  pendingKey,
  viewStatuses,
} from '../paging.js';
import type {
  ListPageQuery,
  PageQuery,
  PageView,
  QuestionCounts,
  QuestionPage,
  ViewCounts,
  ViewsSection,
} from '../port.js';
import { tallyCounts } from '../shared.js';
import type { Row, SqliteContext } from './context.js';
import { QUESTION_COLUMNS } from './record.js';

/** The views' filters after a cursor (store/paging.ts): pending ascending, the closed views descending. */
const PAGE_WHERE = {
  pending: `q.status = 'pending' AND q.project IN (SELECT value FROM json_each(@projects))
    AND (@blocking IS NULL OR q.blocking = @blocking)
    AND (@key IS NULL OR q.blocking < @blocking_after
      OR (q.blocking = @blocking_after AND (q.created_at, q.id, p.tag) > (@at, @id, @tag)))`,
  closed: `q.status IN (SELECT value FROM json_each(@statuses)) AND q.project IN (SELECT value FROM json_each(@projects))
    AND (@since IS NULL OR q.closed_at >= @since)
    AND (@key IS NULL OR (q.closed_at, q.id, p.tag) < (@at, @id, @tag))`,
} as const;

const PAGE_ORDER = {
  pending: 'q.blocking DESC, q.created_at, q.id, p.tag',
  closed: 'q.closed_at DESC, q.id DESC, p.tag DESC',
} as const;

/** A cursor as the parameters of {@link PAGE_WHERE}. */
function cursorParams(view: PageView, cursor: Cursor | undefined): Record<string, string | number | null> {
  if (view === 'pending') {
    if (cursor === undefined) return { key: null, blocking_after: null, at: null, id: null, tag: null };
    const { key, tag } = cursor;
    return {
      key,
      blocking_after: key[0] === '0' ? 1 : 0,
      at: Number(key.slice(1, 16)),
      id: Number(key.slice(16)),
      tag,
    };
  }
  if (cursor === undefined) return { key: null, at: null, id: null, tag: null };
  const { key, tag } = cursor;
  return { key, at: Number(key.slice(0, 15)), id: Number(key.slice(15)), tag };
}

/** The columns a page's rows carry for their cursor. */
const VIEW_COLUMNS = 'q.blocking AS view_blocking, q.closed_at AS view_closed_at, p.tag AS view_tag';

interface ViewRow extends Row {
  readonly view_blocking: number | bigint;
  readonly view_closed_at: number | bigint | null;
  readonly view_tag: string;
}

/** The cursor of a row read for a page, from its view columns (not its record, which may not read). */
function cursorOfRow(view: PageView, row: ViewRow): Cursor {
  const id = Number(row.id);
  const key =
    view === 'pending'
      ? pendingKey(Number(row.view_blocking) === 1, Number(row.created_at), id)
      : closedKey(Number(row.view_closed_at ?? 0), id);
  return { key, tag: row.view_tag };
}

export class SqliteViews implements ViewsSection {
  readonly #x: SqliteContext;

  constructor(context: SqliteContext) {
    this.#x = context;
  }

  pageAcross(projects: readonly string[], query: PageQuery): Promise<QuestionPage> {
    const { c } = this.#x;
    return this.#x.run(() => {
      const { view } = query;
      const limit = Math.max(1, Math.trunc(query.limit));
      const cursor = parseCursor(view, query.after);
      const projectList = JSON.stringify([...new Set(projects)]);
      // Exactly the parameters each view's filter names (node:sqlite refuses unknown ones).
      const base =
        view === 'pending'
          ? {
              projects: projectList,
              blocking: query.blocking === undefined ? null : query.blocking ? 1 : 0,
            }
          : { projects: projectList, statuses: JSON.stringify(viewStatuses(view)), since: query.since ?? null };
      const rows = c
        .statement(
          `SELECT ${QUESTION_COLUMNS}, ${VIEW_COLUMNS} FROM questions q JOIN projects p ON p.project = q.project
           WHERE ${PAGE_WHERE[view === 'pending' ? 'pending' : 'closed']}
           ORDER BY ${PAGE_ORDER[view === 'pending' ? 'pending' : 'closed']} LIMIT @limit`,
        )
        .all({ ...base, ...cursorParams(view, cursor), limit: limit + 1 }) as ViewRow[];
      const follows = rows.length > limit;
      const questions = this.#x.readMany(rows.slice(0, limit));
      const lastRow = rows[Math.min(rows.length, limit) - 1];
      if (!follows || lastRow === undefined) return { questions, remaining: 0 };
      const last = cursorOfRow(view, lastRow);
      const { n } = c
        .statement(
          `SELECT count(*) AS n FROM questions q JOIN projects p ON p.project = q.project
           WHERE ${PAGE_WHERE[view === 'pending' ? 'pending' : 'closed']}`,
        )
        .get({ ...base, ...cursorParams(view, last) }) as { n: number | bigint };
      return { questions, next: formatCursor(last), remaining: Number(n) };
    });
  }

  countAcross(projects: readonly string[]): Promise<ReadonlyMap<string, ViewCounts>> {
    return this.#x.run(() => {
      const rows = this.#x.c
        .statement(
          `SELECT q.project, q.status, q.blocking, count(*) AS n FROM questions q
           WHERE q.project IN (SELECT value FROM json_each(?)) GROUP BY 1, 2, 3`,
        )
        .all(JSON.stringify([...new Set(projects)])) as {
        project: string;
        status: string;
        blocking: number | bigint;
        n: number | bigint;
      }[];
      const counts = new Map<string, { blocking: number; canWait: number; closed: number; answered: number }>();
      for (const project of projects) counts.set(project, { blocking: 0, canWait: 0, closed: 0, answered: 0 });
      for (const row of rows) {
        const entry = counts.get(row.project);
        if (!entry) continue;
        const n = Number(row.n);
        if (row.status === 'pending') {
          if (Number(row.blocking) === 1) entry.blocking += n;
          else entry.canWait += n;
        } else {
          entry.closed += n;
          if (row.status === 'answered' || row.status === 'delivered') entry.answered += n;
        }
      }
      return counts;
    });
  }

  listPage(project: string, query: ListPageQuery): Promise<QuestionPage> {
    const { c } = this.#x;
    return this.#x.run(() => {
      const limit = Math.max(1, Math.trunc(query.limit));
      const cursor = parseListCursor(query.after);
      const where = `q.project = @project AND q.status IN (SELECT value FROM json_each(@statuses))
        AND (@blocking IS NULL OR q.blocking = @blocking)
        AND (@rank IS NULL OR (1 - q.blocking, q.id) > (@rank, @id))`;
      const base = {
        project,
        statuses: JSON.stringify(query.status ?? QUESTION_STATUSES),
        blocking: query.blocking === undefined ? null : query.blocking ? 1 : 0,
      };
      const rows = c
        .statement(
          `SELECT ${QUESTION_COLUMNS}, q.blocking AS view_blocking FROM questions q WHERE ${where}
           ORDER BY q.blocking DESC, q.id LIMIT @limit`,
        )
        .all({ ...base, rank: cursor?.blockingFirst ?? null, id: cursor?.id ?? null, limit }) as (Row & {
        view_blocking: number | bigint;
      })[];
      const questions = this.#x.readMany(rows);
      const last = rows.at(-1);
      if (last === undefined) return { questions, remaining: 0 };
      const lastBlocking = Number(last.view_blocking) === 1;
      const { n } = c.statement(`SELECT count(*) AS n FROM questions q WHERE ${where}`).get({
        ...base,
        rank: lastBlocking ? 0 : 1,
        id: Number(last.id),
      }) as { n: number | bigint };
      const remaining = Number(n);
      const next = `${lastBlocking ? '0' : '1'}.${Number(last.id)}`;
      return remaining > 0 ? { questions, next, remaining } : { questions, remaining };
    });
  }

  countQuestions(project: string): Promise<QuestionCounts> {
    return this.#x.run(() => {
      const rows = this.#x.c
        .statement(
          `SELECT status, json_extract(spec, '$.isBlocking') = 1 AS blocking, count(*) AS n FROM questions
           WHERE project = ? GROUP BY 1, 2`,
        )
        .all(project) as { status: string; blocking: number | bigint | null; n: number | bigint }[];
      return tallyCounts(
        rows.map((row) => ({ status: row.status, blocking: Number(row.blocking) === 1, n: Number(row.n) })),
      );
    });
  }
}
