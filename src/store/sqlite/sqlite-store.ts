/**
 * The Store port on one SQLite file (better-sqlite3, WAL): the embedded store for one machine, used when
 * `REDIS_URL` is not set. The MCP server, the hook and `serve` are separate processes sharing the file, so every
 * guarantee holds across processes: each state change is one `BEGIN IMMEDIATE` transaction that reads the state it
 * decides on under the write lock (first answer wins, cancel and dismiss only from pending, a claim's lease), and
 * its event is written in the same transaction. Tables and migrations: schema.ts; records: record.ts; consumer
 * groups: events.ts; the write lock, busy waiting and change watch: connection.ts.
 *
 * better-sqlite3 is synchronous: a call blocks its process for the length of its transaction (well under a
 * millisecond), or up to `busyTimeoutMs` while another process holds the write lock.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { deliveryEntryLength } from '../../core/delivery-note.js';
import {
  type Closure,
  type DeliveryPath,
  type Draft,
  type MessageRef,
  QUESTION_STATUSES,
  type Question,
  type QuestionSpec,
  type Reply,
  type Responder,
} from '../../core/question.js';
import { projectTag } from '../../core/question-ref.js';
import { answerOf } from '../../core/reply.js';
import { CorruptRecordError } from '../corrupt-record-error.js';
import {
  byBlockingThenAge,
  byBlockingThenId,
  checkDraftChange,
  draftItem,
  mergeDraft,
  parseDraft,
  personKey,
} from '../drafts.js';
import { failedRecord, readFailedRecord } from '../failed-events.js';
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
  AnswerResult,
  Claim,
  ClaimOptions,
  ClaimRef,
  CloseResult,
  ConsumerOptions,
  DraftChange,
  DraftResult,
  EventConsumer,
  EventTail,
  EventType,
  FailedEvent,
  FailedEventsOfGroup,
  ListFilter,
  ListPageQuery,
  PageQuery,
  PageView,
  PersonRef,
  ProjectWatch,
  QuestionCounts,
  QuestionPage,
  Readiness,
  RemindResult,
  Store,
  StoreEvent,
  SurfaceFault,
  ViewCounts,
  WaitOptions,
} from '../port.js';
import { StoreUnavailableError } from '../store-unavailable-error.js';
import { faultRecord, readFaultRecord } from '../surface-faults.js';
import type { TokenStore } from '../token-port.js';
import { type DecisionPage, type TrailQuery, trailPage } from '../trail.js';
import { SqliteConnection, toStoreError } from './connection.js';
import { openDatabase, type SqliteDatabase, type SqliteEngineName } from './driver.js';
import { SqliteEngineMissingError } from './engine-missing-error.js';
import { SqliteEventConsumer, SqliteEventTail } from './events.js';
import { QUESTION_COLUMNS, type QuestionRow, questionFromRow, specRecord } from './record.js';
import { migrate } from './schema.js';
import { SqliteTokenStore } from './tokens.js';

export interface SqliteStoreOptions {
  /** The database file; created on first use, with its directories (see `defaultDatabasePath` in path.ts). */
  readonly path: string;
  /** The clock, ms since the epoch (default `Date.now`): expiry, leases, retention and event idle times. */
  readonly now?: () => number;
  /** How long delivered and cancelled questions (and events) are kept (default 30 days). */
  readonly retentionMs?: number;
  /** Told about records that cannot be read back; listings skip them instead of failing whole. */
  readonly onCorruptRecord?: (error: CorruptRecordError) => void;
  /**
   * How long a call waits for another process's write transaction before it fails with `StoreUnavailableError`
   * (default 2000 ms). The wait blocks the process (better-sqlite3 is synchronous): the hook passes less than
   * its deadline.
   */
  readonly busyTimeoutMs?: number;
  /** How often a blocking event read or a wait looks for other processes' commits (default 25 ms). */
  readonly pollIntervalMs?: number;
  /** Which SQLite engine (default node:sqlite where this Node has it, else better-sqlite3): see driver.ts. */
  readonly engine?: SqliteEngineName;
}

export const RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Open (and create or migrate) the file. Fails with `StoreUnavailableError` when it cannot be created, opened,
 * locked within `busyTimeoutMs`, or was written by a newer ask-later (the cause says which), and with
 * `SqliteEngineMissingError` when this copy of ask-later has no SQLite engine to open it with (engine.ts).
 */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<SqliteStore> {
  let db: SqliteDatabase | undefined;
  try {
    if (options.path !== ':memory:') {
      // The file holds question texts and answers: only its owner reads it. SQLite gives the -wal and -shm files
      // the main file's mode, so creating it first (empty is a valid database) is enough.
      mkdirSync(dirname(options.path), { recursive: true, mode: 0o700 });
      closeSync(openSync(options.path, 'a', 0o600));
    }
    db = openDatabase(options.path, {
      directory: options.path === ':memory:' ? undefined : dirname(options.path),
      busyTimeoutMs: options.busyTimeoutMs ?? 2000,
      ...(options.engine !== undefined ? { engine: options.engine } : {}),
    });
    // WAL: readers never wait for the writer. NORMAL: a commit survives a crash of the process (not of the
    // machine's power), as Redis with AOF every second; it spares the hook an fsync per transaction.
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    migrate(db);
    return new SqliteStore(new SqliteConnection(db, options.pollIntervalMs ?? 25), options);
  } catch (error) {
    try {
      db?.close();
    } catch {
      // already unusable
    }
    if (error instanceof SqliteEngineMissingError) throw error;
    const mapped = toStoreError(error);
    throw mapped instanceof StoreUnavailableError ? mapped : new StoreUnavailableError({ cause: error });
  }
}

interface Row extends QuestionRow {
  readonly size?: number | null;
  readonly claim?: string | null;
  readonly claim_until?: number | null;
}

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

const SELECT_ONE = `SELECT ${QUESTION_COLUMNS} FROM questions q WHERE q.project = ? AND q.id = ?`;

export class SqliteStore implements Store {
  readonly #c: SqliteConnection;
  readonly #options: SqliteStoreOptions;
  readonly #now: () => number;
  readonly #consumers = new Set<EventConsumer>();
  readonly #tails = new Set<EventTail>();

  constructor(connection: SqliteConnection, options: SqliteStoreOptions) {
    this.#c = connection;
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Run synchronous work as the port's promise, connection failures as `StoreUnavailableError`. */
  async #run<T>(work: () => T): Promise<T> {
    try {
      return work();
    } catch (error) {
      throw toStoreError(error);
    }
  }

  #event(type: EventType, project: string, id: number, at: number): void {
    this.#c
      .statement('INSERT INTO events (type, project, question_id, at) VALUES (?, ?, ?, ?)')
      .run(type, project, id, at);
  }

  #dropDrafts(project: string, id: number): void {
    this.#c.statement('DELETE FROM drafts WHERE project = ? AND question_id = ?').run(project, id);
  }

  /** One question as stored now (inside or outside a transaction). Throws `CorruptRecordError`. */
  #get(project: string, id: number): Question | undefined {
    const row = this.#c.statement(SELECT_ONE).get(project, id) as Row | undefined;
    return row && questionFromRow(row);
  }

  /** Rows as questions; a row that does not read is reported and skipped (listings never fail whole). */
  #readMany(rows: readonly Row[]): Question[] {
    const questions: Question[] = [];
    for (const row of rows) {
      try {
        questions.push(questionFromRow(row));
      } catch (error) {
        if (!(error instanceof CorruptRecordError)) throw error;
        this.#options.onCorruptRecord?.(error);
      }
    }
    return questions;
  }

  park(project: string, spec: QuestionSpec): Promise<Question> {
    return this.#run(() =>
      this.#c.write(() => {
        const tag = projectTag(project);
        const owner = this.#c.statement('SELECT project FROM projects WHERE tag = ?').get(tag) as
          | { project: string }
          | undefined;
        if (owner && owner.project !== project) {
          throw new Error(`Project key tag ${tag} already belongs to another project; set ASK_LATER_PROJECT`);
        }
        if (!owner) this.#c.statement('INSERT INTO projects (project, tag, seq) VALUES (?, ?, 0)').run(project, tag);
        const { seq: id } = this.#c
          .statement('UPDATE projects SET seq = seq + 1 WHERE project = ? RETURNING seq')
          .get(project) as { seq: number };
        const now = this.#now();
        const expiresAt = spec.expiresInSeconds === undefined ? undefined : now + spec.expiresInSeconds * 1000;
        const record = specRecord(spec);
        this.#c
          .statement(
            `INSERT INTO questions (project, id, v, status, spec, created_at, expires_at)
             VALUES (?, ?, ?, 'pending', ?, ?, ?)`,
          )
          .run(project, id, record.version, record.json, now, expiresAt ?? null);
        this.#event('parked', project, id, now);
        const question: Question = {
          ...spec,
          project,
          id,
          status: 'pending',
          createdAt: now,
          ...(expiresAt === undefined ? {} : { expiresAt }),
          messages: [],
        };
        return question;
      }),
    );
  }

  get(project: string, id: number): Promise<Question | undefined> {
    return this.#run(() => this.#get(project, id));
  }

  #list(project: string, filter: ListFilter): Question[] {
    const statuses = filter.status === undefined ? null : JSON.stringify(filter.status);
    const rows = this.#c
      .statement(
        `SELECT ${QUESTION_COLUMNS} FROM questions q
         WHERE q.project = @project AND (@statuses IS NULL OR q.status IN (SELECT value FROM json_each(@statuses)))`,
      )
      .all({ project, statuses }) as Row[];
    return this.#readMany(rows).filter((q) => filter.blocking === undefined || q.isBlocking === filter.blocking);
  }

  list(project: string, filter: ListFilter = {}): Promise<Question[]> {
    return this.#run(() => this.#list(project, filter).sort(byBlockingThenId));
  }

  listAcross(projects: readonly string[], filter: ListFilter = {}): Promise<Question[]> {
    return this.#run(() =>
      [...new Set(projects)].flatMap((project) => this.#list(project, filter)).sort(byBlockingThenAge),
    );
  }

  pageAcross(projects: readonly string[], query: PageQuery): Promise<QuestionPage> {
    return this.#run(() => {
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
      const rows = this.#c
        .statement(
          `SELECT ${QUESTION_COLUMNS}, ${VIEW_COLUMNS} FROM questions q JOIN projects p ON p.project = q.project
           WHERE ${PAGE_WHERE[view === 'pending' ? 'pending' : 'closed']}
           ORDER BY ${PAGE_ORDER[view === 'pending' ? 'pending' : 'closed']} LIMIT @limit`,
        )
        .all({ ...base, ...cursorParams(view, cursor), limit: limit + 1 }) as ViewRow[];
      const follows = rows.length > limit;
      const questions = this.#readMany(rows.slice(0, limit));
      const lastRow = rows[Math.min(rows.length, limit) - 1];
      if (!follows || lastRow === undefined) return { questions, remaining: 0 };
      const last = cursorOfRow(view, lastRow);
      const { n } = this.#c
        .statement(
          `SELECT count(*) AS n FROM questions q JOIN projects p ON p.project = q.project
           WHERE ${PAGE_WHERE[view === 'pending' ? 'pending' : 'closed']}`,
        )
        .get({ ...base, ...cursorParams(view, last) }) as { n: number | bigint };
      return { questions, next: formatCursor(last), remaining: Number(n) };
    });
  }

  countAcross(projects: readonly string[]): Promise<ReadonlyMap<string, ViewCounts>> {
    return this.#run(() => {
      const rows = this.#c
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

  findDecisions(project: string, query: TrailQuery): Promise<DecisionPage> {
    return trailPage(this, [project], query);
  }

  listPage(project: string, query: ListPageQuery): Promise<QuestionPage> {
    return this.#run(() => {
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
      const rows = this.#c
        .statement(
          `SELECT ${QUESTION_COLUMNS}, q.blocking AS view_blocking FROM questions q WHERE ${where}
           ORDER BY q.blocking DESC, q.id LIMIT @limit`,
        )
        .all({ ...base, rank: cursor?.blockingFirst ?? null, id: cursor?.id ?? null, limit }) as (Row & {
        view_blocking: number | bigint;
      })[];
      const questions = this.#readMany(rows);
      const last = rows.at(-1);
      if (last === undefined) return { questions, remaining: 0 };
      const lastBlocking = Number(last.view_blocking) === 1;
      const { n } = this.#c.statement(`SELECT count(*) AS n FROM questions q WHERE ${where}`).get({
        ...base,
        rank: lastBlocking ? 0 : 1,
        id: Number(last.id),
      }) as { n: number | bigint };
      const remaining = Number(n);
      const next = `${lastBlocking ? '0' : '1'}.${Number(last.id)}`;
      return remaining > 0 ? { questions, next, remaining } : { questions, remaining };
    });
  }

  saveDraft(project: string, id: number, person: PersonRef, change: DraftChange): Promise<DraftResult> {
    return this.#run(() =>
      // Read and merged in the write transaction, so changes arriving together (other processes too) all land.
      this.#c.write((): DraftResult => {
        const question = this.#get(project, id);
        if (!question) return { kind: 'unknown' };
        const checked = checkDraftChange(question, change);
        if (question.status !== 'pending') return { kind: 'not-pending', question };
        const key = personKey(person, checked.member);
        const row = this.#c
          .statement('SELECT draft FROM drafts WHERE project = ? AND question_id = ? AND person = ?')
          .get(project, id, key) as { draft: string } | undefined;
        const stored = row && parseDraft(row.draft, `${project}#${id}`);
        const draft = mergeDraft(draftItem(question, checked.member), stored, checked, this.#now());
        this.#c
          .statement('INSERT OR REPLACE INTO drafts (project, question_id, person, draft) VALUES (?, ?, ?, ?)')
          .run(project, id, key, JSON.stringify(draft));
        return { kind: 'saved', draft };
      }),
    );
  }

  getDraft(project: string, id: number, person: PersonRef, member?: number): Promise<Draft | undefined> {
    return this.#run(() => {
      const row = this.#c
        .statement('SELECT draft FROM drafts WHERE project = ? AND question_id = ? AND person = ?')
        .get(project, id, personKey(person, member)) as { draft: string } | undefined;
      return row && parseDraft(row.draft, `${project}#${id}`);
    });
  }

  /**
   * Expire a pending question in the running transaction (its expiry passed): it waits in the outbox to be
   * reported to the agent, like an answer.
   */
  #expire(question: Question, now: number): Question {
    const closure: Closure = { at: now };
    const expired: Question = { ...question, status: 'expired', closure };
    this.#c
      .statement(
        `UPDATE questions SET status = 'expired', closure = ?, size = ?, ready_at = ?
         WHERE project = ? AND id = ? AND status = 'pending'`,
      )
      .run(JSON.stringify(closure), deliveryEntryLength(expired), now, question.project, question.id);
    this.#dropDrafts(question.project, question.id);
    this.#event('expired', question.project, question.id, now);
    return expired;
  }

  /** Why a question cannot leave `pending` now, or undefined when it can. Expires it when its time has passed. */
  #notPending(question: Question, now: number): AnswerResult | CloseResult | undefined {
    if (question.status === 'answered' || question.status === 'delivered') {
      return { kind: 'already-answered', question };
    }
    if (question.status !== 'pending') return { kind: 'not-pending', question };
    if (question.expiresAt !== undefined && question.expiresAt <= now) {
      return { kind: 'not-pending', question: this.#expire(question, now) };
    }
    return undefined;
  }

  answer(project: string, id: number, reply: Reply, by: Responder): Promise<AnswerResult> {
    return this.#run(() =>
      this.#c.write((): AnswerResult => {
        const question = this.#get(project, id);
        if (!question) return { kind: 'unknown' };
        const now = this.#now();
        const answer = answerOf(question, reply, { by, at: now });
        const refused = this.#notPending(question, now);
        if (refused) return refused as AnswerResult;
        const answered = { ...question, status: 'answered', answer } as Question;
        this.#c
          .statement(
            `UPDATE questions SET status = 'answered', answer = ?, size = ?, ready_at = ?
             WHERE project = ? AND id = ?`,
          )
          .run(JSON.stringify(answer), deliveryEntryLength(answered), now, project, id);
        this.#dropDrafts(project, id);
        this.#event('answered', project, id, now);
        return { kind: 'won', question: answered };
      }),
    );
  }

  #close(project: string, id: number, target: 'cancelled' | 'dismissed', by?: Responder): Promise<CloseResult> {
    return this.#run(() =>
      this.#c.write((): CloseResult => {
        const question = this.#get(project, id);
        if (!question) return { kind: 'unknown' };
        const now = this.#now();
        const refused = this.#notPending(question, now);
        if (refused) return refused as CloseResult;
        const closure: Closure = by ? { at: now, by } : { at: now };
        const closed: Question = { ...question, status: target, closure };
        // A dismissal waits in the outbox to be reported to the agent; a cancellation does not (the agent knows)
        // and starts its retention clock at once.
        const dismissed = target === 'dismissed';
        this.#c
          .statement(
            `UPDATE questions SET status = ?, closure = ?, size = ?, ready_at = ?, done_at = ?
             WHERE project = ? AND id = ?`,
          )
          .run(
            target,
            JSON.stringify(closure),
            dismissed ? deliveryEntryLength(closed) : null,
            dismissed ? now : null,
            dismissed ? null : now,
            project,
            id,
          );
        this.#dropDrafts(project, id);
        this.#event(target, project, id, now);
        return { kind: 'done', question: closed };
      }),
    );
  }

  cancel(project: string, id: number): Promise<CloseResult> {
    return this.#close(project, id, 'cancelled');
  }

  dismiss(project: string, id: number, by: Responder): Promise<CloseResult> {
    return this.#close(project, id, 'dismissed', by);
  }

  expireDue(): Promise<number> {
    return this.#run(() =>
      this.#c.write(() => {
        const now = this.#now();
        const rows = this.#c
          .statement(
            `SELECT ${QUESTION_COLUMNS} FROM questions q
             WHERE q.status = 'pending' AND q.expires_at IS NOT NULL AND q.expires_at <= ?`,
          )
          .all(now) as Row[];
        const due = this.#readMany(rows);
        for (const question of due) this.#expire(question, now);
        return due.length;
      }),
    );
  }

  purgeExpired(): Promise<number> {
    return this.#run(() =>
      this.#c.write(() => {
        const cutoff = this.#now() - (this.#options.retentionMs ?? RETENTION_MS);
        // Only finished questions: delivered, cancelled, or dismissed/expired and reported. Nothing pending or
        // waiting for the agent has a done_at, and the status check says so again.
        const finished = this.#c
          .statement(
            `SELECT project, id FROM questions
             WHERE done_at IS NOT NULL AND done_at <= ?
               AND (status IN ('delivered', 'cancelled')
                    OR (status IN ('dismissed', 'expired') AND delivered_at IS NOT NULL))`,
          )
          .all(cutoff) as { project: string; id: number }[];
        const dropQuestion = this.#c.statement('DELETE FROM questions WHERE project = ? AND id = ?');
        const dropMessages = this.#c.statement('DELETE FROM messages WHERE project = ? AND question_id = ?');
        for (const { project, id } of finished) {
          dropQuestion.run(project, id);
          dropMessages.run(project, id);
          this.#dropDrafts(project, id);
        }
        // Events age out with the questions they tell about (ids are never reused: AUTOINCREMENT).
        this.#c.statement('DELETE FROM events WHERE at <= ?').run(cutoff);
        this.#c.statement('DELETE FROM event_pending WHERE event_id NOT IN (SELECT id FROM events)').run();
        return finished.length;
      }),
    );
  }

  claimUndelivered(project: string, options: ClaimOptions): Promise<Claim> {
    return this.#run(() =>
      this.#c.write((): Claim => {
        const claimId = randomUUID();
        const now = this.#now();
        // Oldest outcome first; outcomes of the same millisecond by id.
        const waiting = this.#c
          .statement(
            `SELECT ${QUESTION_COLUMNS}, q.size, q.claim, q.claim_until FROM questions q
             WHERE q.project = ? AND q.ready_at IS NOT NULL AND (? = 0 OR json_extract(q.spec, '$.isBlocking') = 1)
               AND (? = 0 OR q.id = ?)
             ORDER BY q.ready_at, q.id`,
          )
          .all(project, options.blockingOnly ? 1 : 0, options.questionId ?? 0, options.questionId ?? 0) as Row[];
        const lease = this.#c.statement('UPDATE questions SET claim = ?, claim_until = ? WHERE project = ? AND id = ?');
        const questions: Question[] = [];
        let used = 0;
        let full = false;
        let remaining = 0;
        for (const row of waiting) {
          // Leased to another live claim: neither taken nor counted.
          if (row.claim != null && row.claim_until != null && row.claim_until > now) continue;
          const size = row.size ?? 0;
          // The first free outcome is always taken, so a claim never starves; after the first that does not fit,
          // the rest are counted, not taken, so the agent gets outcomes in order.
          if (!full && (questions.length === 0 || used + size <= options.budget)) {
            used += size;
            // A record that does not read throws here and the transaction rolls back: nothing stays leased.
            questions.push(questionFromRow(row));
            lease.run(claimId, now + options.leaseMs, project, row.id as number);
          } else {
            full = true;
            remaining++;
          }
        }
        return { claimId, via: options.via ?? 'prompt', questions, remaining };
      }),
    );
  }

  waitingOutcomes(project: string, options: { readonly blockingOnly?: boolean } = {}): Promise<Question[]> {
    return this.#run(() => {
      const rows = this.#c
        .statement(
          `SELECT ${QUESTION_COLUMNS} FROM questions q
           WHERE q.project = ? AND q.ready_at IS NOT NULL AND (q.claim IS NULL OR q.claim_until IS NULL OR q.claim_until <= ?)
             AND (? = 0 OR json_extract(q.spec, '$.isBlocking') = 1)
           ORDER BY q.ready_at, q.id`,
        )
        .all(project, this.#now(), options.blockingOnly ? 1 : 0) as Row[];
      return rows.map(questionFromRow);
    });
  }

  /** Deliver one outcome in the running transaction: answers become delivered, the retention clock starts. */
  #deliver(project: string, id: number, status: string, now: number, via: DeliveryPath): void {
    this.#c
      .statement(
        `UPDATE questions SET status = ?, delivered_at = ?, delivered_via = ?, done_at = ?, ready_at = NULL,
           claim = NULL, claim_until = NULL
         WHERE project = ? AND id = ?`,
      )
      .run(status === 'answered' ? 'delivered' : status, now, via, now, project, id);
    this.#event('delivered', project, id, now);
  }

  confirmClaim(project: string, claim: ClaimRef, ids?: readonly number[]): Promise<number[]> {
    return this.#run(() =>
      this.#c.write(() => {
        const now = this.#now();
        const read = this.#c.statement('SELECT status, claim FROM questions WHERE project = ? AND id = ?');
        const confirmed: number[] = [];
        for (const id of claimedIds(claim, ids)) {
          const row = read.get(project, id) as { status: string; claim: string | null } | undefined;
          // Still leased to this claim (even past its lease, if nobody took over): the note carried it.
          if (row?.claim !== claim.claimId) continue;
          this.#deliver(project, id, row.status, now, claim.via);
          confirmed.push(id);
        }
        return confirmed.sort((a, b) => a - b);
      }),
    );
  }

  releaseClaim(project: string, claim: ClaimRef, ids?: readonly number[]): Promise<void> {
    return this.#run(() =>
      this.#c.write(() => {
        const release = this.#c.statement(
          'UPDATE questions SET claim = NULL, claim_until = NULL WHERE project = ? AND id = ? AND claim = ?',
        );
        for (const id of claimedIds(claim, ids)) release.run(project, id, claim.claimId);
      }),
    );
  }

  markDelivered(
    project: string,
    id: number,
    via: DeliveryPath = 'tool-result',
  ): Promise<'delivered' | 'leased' | 'not-waiting'> {
    return this.#run(() =>
      this.#c.write(() => {
        const now = this.#now();
        const row = this.#c
          .statement('SELECT status, ready_at, claim, claim_until FROM questions WHERE project = ? AND id = ?')
          .get(project, id) as
          | { status: string; ready_at: number | null; claim: string | null; claim_until: number | null }
          | undefined;
        if (!row || row.ready_at === null) return 'not-waiting';
        if (row.claim !== null && row.claim_until !== null && row.claim_until > now) return 'leased';
        this.#deliver(project, id, row.status, now, via);
        return 'delivered';
      }),
    );
  }

  remind(project: string, id: number, ordinal: number): Promise<RemindResult> {
    return this.#run(() =>
      this.#c.write((): RemindResult => {
        const now = this.#now();
        const question = this.#get(project, id);
        if (!question) return { kind: 'unknown' };
        if (question.status !== 'pending' || (question.expiresAt !== undefined && question.expiresAt <= now)) {
          return { kind: 'not-pending', question };
        }
        if ((question.reminders ?? 0) !== ordinal - 1) return { kind: 'already', question };
        this.#c
          .statement('UPDATE questions SET reminders = ?, reminded_at = ? WHERE project = ? AND id = ?')
          .run(ordinal, now, project, id);
        this.#event('reminded', project, id, now);
        return { kind: 'reminded', question: { ...question, reminders: ordinal, remindedAt: now } };
      }),
    );
  }

  countQuestions(project: string): Promise<QuestionCounts> {
    return this.#run(() => {
      const rows = this.#c
        .statement(
          `SELECT status, json_extract(spec, '$.isBlocking') = 1 AS blocking, count(*) AS n FROM questions
           WHERE project = ? GROUP BY 1, 2`,
        )
        .all(project) as { status: string; blocking: number | bigint | null; n: number | bigint }[];
      const counts = Object.fromEntries(QUESTION_STATUSES.map((status) => [status, { blocking: 0, canWait: 0 }]));
      for (const row of rows) {
        const entry = counts[row.status];
        if (!entry) continue;
        if (Number(row.blocking) === 1) entry.blocking += Number(row.n);
        else entry.canWait += Number(row.n);
      }
      return counts as unknown as QuestionCounts;
    });
  }

  knownProjects(): Promise<string[]> {
    return this.#run(() =>
      (this.#c.statement('SELECT project FROM projects ORDER BY rowid').all() as { project: string }[]).map(
        (row) => row.project,
      ),
    );
  }

  projectByTag(tag: string): Promise<string | undefined> {
    return this.#run(() => {
      const row = this.#c.statement('SELECT project FROM projects WHERE tag = ?').get(tag) as
        | { project: string }
        | undefined;
      return row?.project;
    });
  }

  acquireLease(name: string, owner: string, ms: number): Promise<boolean> {
    return this.#run(() =>
      this.#c.write(() => {
        const now = this.#now();
        // Taken when free, lapsed, or already this owner's; the upsert's WHERE leaves another live owner's alone.
        const taken = this.#c
          .statement(
            `INSERT INTO leases (name, owner, until) VALUES (?, ?, ?)
             ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until = excluded.until
             WHERE leases.owner = excluded.owner OR leases.until <= ?`,
          )
          .run(name, owner, now + Math.max(1, ms), now);
        return Number(taken.changes) === 1;
      }),
    );
  }

  releaseLease(name: string, owner: string): Promise<void> {
    return this.#run(() =>
      this.#c.write(() => {
        this.#c.statement('DELETE FROM leases WHERE name = ? AND owner = ?').run(name, owner);
      }),
    );
  }

  seizeLease(name: string, owner: string, ms: number): Promise<void> {
    return this.#run(() =>
      this.#c.write(() => {
        this.#c
          .statement(
            `INSERT INTO leases (name, owner, until) VALUES (?, ?, ?)
             ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until = excluded.until`,
          )
          .run(name, owner, this.#now() + Math.max(1, ms));
      }),
    );
  }

  recordFailedEvent(group: string, event: StoreEvent, failure: { attempts: number; error: string }): Promise<void> {
    return this.#run(() =>
      this.#c.write(() => {
        const r = failedRecord(event, failure, this.#now());
        this.#c
          .statement(
            `INSERT OR REPLACE INTO failed_events
               (group_name, event_id, type, project, question_id, at, attempts, error, failed_at, replay)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
          )
          .run(group, event.eventId, r.type, r.project, r.questionId, r.at, r.attempts, r.error, r.failedAt);
      }),
    );
  }

  failedEvents(options: { readonly sample?: number } = {}): Promise<FailedEventsOfGroup[]> {
    return this.#run(() => {
      const groups = this.#c
        .statement(
          'SELECT group_name, COUNT(*) AS n FROM failed_events WHERE replay = 0 GROUP BY group_name ORDER BY group_name',
        )
        .all() as { group_name: string; n: number }[];
      const sample = this.#c.statement(
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
    return this.#run(() =>
      this.#c.write(() =>
        Number(
          this.#c
            .statement('UPDATE failed_events SET replay = 1 WHERE replay = 0 AND (? IS NULL OR group_name = ?)')
            .run(group ?? null, group ?? null).changes,
        ),
      ),
    );
  }

  takeReplayedEvents(group: string, count: number): Promise<FailedEvent[]> {
    return this.#run(() => {
      // Look first without the write lock: every surface asks on every loop, and most of the time nothing waits.
      const any = this.#c
        .statement('SELECT 1 FROM failed_events WHERE group_name = ? AND replay = 1 LIMIT 1')
        .get(group);
      if (any === undefined) return [];
      return this.#c.write(() => {
        const rows = this.#c
          .statement('SELECT * FROM failed_events WHERE group_name = ? AND replay = 1 ORDER BY failed_at LIMIT ?')
          .all(group, count) as FailedRow[];
        const drop = this.#c.statement('DELETE FROM failed_events WHERE group_name = ? AND event_id = ?');
        for (const row of rows) drop.run(group, row.event_id);
        return rows.map((row) => failedFromRow(row)).filter((event): event is FailedEvent => event !== undefined);
      });
    });
  }

  recordSurfaceFault(fault: Omit<SurfaceFault, 'since'>): Promise<void> {
    return this.#run(() =>
      this.#c.write(() => {
        const r = faultRecord(fault, this.#now());
        this.#c
          .statement(
            `INSERT OR REPLACE INTO surface_faults (group_name, channel, error, fix, since) VALUES (?, ?, ?, ?, ?)`,
          )
          .run(r.group, r.channel ?? '', r.error, r.fix, r.since);
      }),
    );
  }

  clearSurfaceFaults(group: string, channels: readonly string[]): Promise<void> {
    return this.#run(() =>
      this.#c.write(() => {
        const drop = this.#c.statement('DELETE FROM surface_faults WHERE group_name = ? AND channel = ?');
        for (const channel of ['', ...channels]) drop.run(group, channel);
      }),
    );
  }

  surfaceFaults(): Promise<SurfaceFault[]> {
    return this.#run(() =>
      (
        this.#c.statement('SELECT * FROM surface_faults ORDER BY group_name, channel').all() as {
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

  ping(): Promise<void> {
    return this.#run(() => {
      this.#c.statement('SELECT 1').get();
    });
  }

  /** A file has no connection to lose: a failure here had another cause. */
  async whenReady(_options: WaitOptions): Promise<Readiness> {
    return 'ready';
  }

  recordMessage(project: string, id: number, ref: MessageRef): Promise<boolean> {
    return this.#run(() =>
      this.#c.write(() => {
        const exists = this.#c.statement('SELECT 1 FROM questions WHERE project = ? AND id = ?').get(project, id);
        if (exists === undefined) return false;
        this.#c
          .statement(
            `INSERT OR REPLACE INTO messages (project, question_id, platform, channel, message_id)
             VALUES (?, ?, ?, ?, ?)`,
          )
          .run(project, id, ref.platform, ref.channel, ref.messageId);
        return true;
      }),
    );
  }

  consumer(group: string, consumerName: string, options: ConsumerOptions = {}): Promise<EventConsumer> {
    return this.#run(() => {
      SqliteEventConsumer.ensureGroup(this.#c, group, options.inheritFrom);
      const consumer: EventConsumer = new SqliteEventConsumer({
        connection: this.#c,
        group,
        consumer: consumerName,
        now: this.#now,
        onClose: () => this.#consumers.delete(consumer),
      });
      this.#consumers.add(consumer);
      return consumer;
    });
  }

  tail(): Promise<EventTail> {
    return this.#run(() => {
      const tail = new SqliteEventTail(this.#c);
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
    const watch = this.#c.watch;
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
    const deadline = Date.now() + options.timeoutMs;
    try {
      for (;;) {
        const mark = this.#c.watch.mark();
        const question = this.#get(project, id);
        const left = deadline - Date.now();
        if (question?.status !== 'pending' || left <= 0 || options.signal?.aborted) return question;
        await this.#c.watch.wait(mark, left, options.signal);
      }
    } catch (error) {
      throw toStoreError(error);
    }
  }

  tokens(): TokenStore {
    return new SqliteTokenStore(this.#c, (work) => this.#run(work));
  }

  async close(): Promise<void> {
    for (const consumer of [...this.#consumers]) await consumer.close();
    for (const tail of [...this.#tails]) await tail.close();
    this.#c.close();
  }
}

/** The ids of a claim to confirm or release: all it carried, or the given ones among them. */
function claimedIds(claim: ClaimRef, only?: readonly number[]): number[] {
  const ids = claim.questions.map((q) => q.id);
  return only ? ids.filter((id) => only.includes(id)) : ids;
}

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
