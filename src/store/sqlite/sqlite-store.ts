/**
 * The Store port on one SQLite file (WAL): the embedded store for one machine, used when `REDIS_URL` is not set: a
 * facade over one file per section of the port (questions.ts, views.ts, drafts.ts, transitions.ts, delivery.ts,
 * events.ts, leases.ts, failed-events.ts, tokens.ts), the same names as the Redis adapter's, sharing one context
 * (context.ts). The MCP server, the hook and `serve` are separate processes sharing the file, so every
 * guarantee holds across processes: each state change is one `BEGIN IMMEDIATE` transaction that reads the state it
 * decides on under the write lock (first answer wins, cancel and dismiss only from pending, a claim's lease), and
 * its event is written in the same transaction. Tables and migrations: schema.ts; records: record.ts; the engine:
 * driver.ts; the write lock, busy waiting and change watch: connection.ts.
 *
 * Both SQLite engines are synchronous: a call blocks its process for the length of its transaction (well under a
 * millisecond); waiting for another process's write lock does not block it (connection.ts).
 */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DeliveryPath, Draft, MessageRef, Question, QuestionSpec, Reply, Responder } from '../../core/question.js';
import type { Comparable } from '../../core/similarity.js';
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
  FailedEvent,
  FailedEventsOfGroup,
  ListFilter,
  ListPageQuery,
  PageQuery,
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
import type { TokenStore } from '../token-port.js';
import { type DecisionPage, type SimilarDecision, type SimilarOptions, type TrailQuery, trailPage } from '../trail.js';
import { SqliteConnection, toStoreError } from './connection.js';
import { SqliteContext } from './context.js';
import { SqliteDecisions } from './decisions.js';
import { SqliteDelivery } from './delivery.js';
import { SqliteDrafts } from './drafts.js';
import { openDatabase, type SqliteDatabase } from './driver.js';
import { SqliteEngineMissingError } from './engine-missing-error.js';
import { SqliteEvents } from './events.js';
import { SqliteFailures } from './failed-events.js';
import { SqliteLeases } from './leases.js';
import { SqliteQuestions } from './questions.js';
import { migrate } from './schema.js';
import { SqliteTokenStore } from './tokens.js';
import { SqliteTransitions } from './transitions.js';
import { SqliteViews } from './views.js';

export { RETENTION_MS } from '../shared.js';

import type { SqliteStoreOptions } from './options.js';

export type { SqliteStoreOptions } from './options.js';

/**
 * Open (and create or migrate) the file. Fails with `StoreUnavailableError` when it cannot be created, opened,
 * locked within `busyTimeoutMs`, or was written by a newer ask-later (the cause says which), and with
 * `SqliteEngineMissingError` when this copy of ask-later has no SQLite engine to open it with (engine.ts).
 */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<SqliteStore> {
  let db: SqliteDatabase | undefined;
  const busyTimeoutMs = options.busyTimeoutMs ?? 2000;
  try {
    if (options.path !== ':memory:') {
      // The file holds question texts and answers: only its owner reads it. SQLite gives the -wal and -shm files
      // the main file's mode, so creating it first (empty is a valid database) is enough.
      mkdirSync(dirname(options.path), { recursive: true, mode: 0o700 });
      closeSync(openSync(options.path, 'a', 0o600));
    }
    db = openDatabase(options.path, {
      directory: options.path === ':memory:' ? undefined : dirname(options.path),
      busyTimeoutMs,
      ...(options.engine !== undefined ? { engine: options.engine } : {}),
    });
    // WAL: readers never wait for the writer. NORMAL: a commit survives a crash of the process (not of the
    // machine's power), as Redis with AOF every second; it spares the hook an fsync per transaction.
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    migrate(db);
    return new SqliteStore(new SqliteConnection(db, options.pollIntervalMs ?? 25, busyTimeoutMs), options);
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

/** Each call is its section's (see the port); this class only holds them together. */
export class SqliteStore implements Store {
  readonly #x: SqliteContext;
  readonly #questions: SqliteQuestions;
  readonly #views: SqliteViews;
  readonly #drafts: SqliteDrafts;
  readonly #transitions: SqliteTransitions;
  readonly #delivery: SqliteDelivery;
  readonly #events: SqliteEvents;
  readonly #leases: SqliteLeases;
  readonly #failures: SqliteFailures;
  readonly #decisions: SqliteDecisions;

  constructor(connection: SqliteConnection, options: SqliteStoreOptions) {
    const x = new SqliteContext(connection, options);
    this.#x = x;
    this.#questions = new SqliteQuestions(x);
    this.#views = new SqliteViews(x);
    this.#drafts = new SqliteDrafts(x);
    this.#transitions = new SqliteTransitions(x);
    this.#delivery = new SqliteDelivery(x);
    this.#events = new SqliteEvents(x);
    this.#leases = new SqliteLeases(x);
    this.#failures = new SqliteFailures(x);
    this.#decisions = new SqliteDecisions(x);
  }

  // Questions (questions.ts)
  park(project: string, spec: QuestionSpec): Promise<Question> {
    return this.#questions.park(project, spec);
  }
  get(project: string, id: number): Promise<Question | undefined> {
    return this.#questions.get(project, id);
  }
  list(project: string, filter?: ListFilter): Promise<Question[]> {
    return this.#questions.list(project, filter);
  }
  listAcross(projects: readonly string[], filter?: ListFilter): Promise<Question[]> {
    return this.#questions.listAcross(projects, filter);
  }
  knownProjects(): Promise<string[]> {
    return this.#questions.knownProjects();
  }
  projectByTag(tag: string): Promise<string | undefined> {
    return this.#questions.projectByTag(tag);
  }
  recordMessage(project: string, id: number, ref: MessageRef): Promise<boolean> {
    return this.#questions.recordMessage(project, id, ref);
  }

  // Views (views.ts)
  pageAcross(projects: readonly string[], query: PageQuery): Promise<QuestionPage> {
    return this.#views.pageAcross(projects, query);
  }
  countAcross(projects: readonly string[]): Promise<ReadonlyMap<string, ViewCounts>> {
    return this.#views.countAcross(projects);
  }
  listPage(project: string, query: ListPageQuery): Promise<QuestionPage> {
    return this.#views.listPage(project, query);
  }
  findDecisions(project: string, query: TrailQuery): Promise<DecisionPage> {
    return trailPage(this, [project], query);
  }
  similarDecisions(
    project: string,
    items: readonly Comparable[],
    options?: SimilarOptions,
  ): Promise<SimilarDecision[][]> {
    return this.#decisions.similarDecisions(project, items, options);
  }
  countQuestions(project: string): Promise<QuestionCounts> {
    return this.#views.countQuestions(project);
  }

  // Drafts (drafts.ts)
  saveDraft(project: string, id: number, person: PersonRef, change: DraftChange): Promise<DraftResult> {
    return this.#drafts.saveDraft(project, id, person, change);
  }
  getDraft(project: string, id: number, person: PersonRef, member?: number): Promise<Draft | undefined> {
    return this.#drafts.getDraft(project, id, person, member);
  }

  // Transitions (transitions.ts)
  answer(project: string, id: number, reply: Reply, by: Responder): Promise<AnswerResult> {
    return this.#transitions.answer(project, id, reply, by);
  }
  cancel(project: string, id: number): Promise<CloseResult> {
    return this.#transitions.cancel(project, id);
  }
  dismiss(project: string, id: number, by: Responder): Promise<CloseResult> {
    return this.#transitions.dismiss(project, id, by);
  }
  remind(project: string, id: number, ordinal: number): Promise<RemindResult> {
    return this.#transitions.remind(project, id, ordinal);
  }
  expireDue(): Promise<number> {
    return this.#transitions.expireDue();
  }
  purgeExpired(): Promise<number> {
    return this.#transitions.purgeExpired();
  }

  // Delivery (delivery.ts)
  claimUndelivered(project: string, options: ClaimOptions): Promise<Claim> {
    return this.#delivery.claimUndelivered(project, options);
  }
  confirmClaim(project: string, claim: ClaimRef, ids?: readonly number[]): Promise<number[]> {
    return this.#delivery.confirmClaim(project, claim, ids);
  }
  waitingOutcomes(project: string, options?: { readonly blockingOnly?: boolean }): Promise<Question[]> {
    return this.#delivery.waitingOutcomes(project, options);
  }
  releaseClaim(project: string, claim: ClaimRef, ids?: readonly number[]): Promise<void> {
    return this.#delivery.releaseClaim(project, claim, ids);
  }
  markDelivered(project: string, id: number, via?: DeliveryPath): Promise<'delivered' | 'leased' | 'not-waiting'> {
    return this.#delivery.markDelivered(project, id, via);
  }

  // Events (events.ts)
  consumer(group: string, consumerName: string, options?: ConsumerOptions): Promise<EventConsumer> {
    return this.#events.consumer(group, consumerName, options);
  }
  tail(): Promise<EventTail> {
    return this.#events.tail();
  }
  watch(project: string): Promise<ProjectWatch> {
    return this.#events.watch(project);
  }
  waitWhilePending(project: string, id: number, options: WaitOptions): Promise<Question | undefined> {
    return this.#events.waitWhilePending(project, id, options);
  }

  // Leases (leases.ts)
  acquireLease(name: string, owner: string, ms: number): Promise<boolean> {
    return this.#leases.acquireLease(name, owner, ms);
  }
  releaseLease(name: string, owner: string): Promise<void> {
    return this.#leases.releaseLease(name, owner);
  }
  seizeLease(name: string, owner: string, ms: number): Promise<void> {
    return this.#leases.seizeLease(name, owner, ms);
  }

  // Failures (failed-events.ts)
  recordFailedEvent(group: string, event: StoreEvent, failure: { attempts: number; error: string }): Promise<void> {
    return this.#failures.recordFailedEvent(group, event, failure);
  }
  failedEvents(options?: { readonly sample?: number }): Promise<FailedEventsOfGroup[]> {
    return this.#failures.failedEvents(options);
  }
  replayFailedEvents(group?: string): Promise<number> {
    return this.#failures.replayFailedEvents(group);
  }
  takeReplayedEvents(group: string, count: number): Promise<FailedEvent[]> {
    return this.#failures.takeReplayedEvents(group, count);
  }
  recordSurfaceFault(fault: Omit<SurfaceFault, 'since'>): Promise<void> {
    return this.#failures.recordSurfaceFault(fault);
  }
  clearSurfaceFaults(group: string, channels: readonly string[]): Promise<void> {
    return this.#failures.clearSurfaceFaults(group, channels);
  }
  surfaceFaults(): Promise<SurfaceFault[]> {
    return this.#failures.surfaceFaults();
  }

  // Tokens (tokens.ts)
  tokens(): TokenStore {
    return new SqliteTokenStore(this.#x.c, (work) => this.#x.run(work));
  }

  // The file
  ping(): Promise<void> {
    return this.#x.run(() => {
      this.#x.c.statement('SELECT 1').get();
    });
  }
  /** A file has no connection to lose: a failure here had another cause. */
  async whenReady(_options: WaitOptions): Promise<Readiness> {
    return 'ready';
  }
  async close(): Promise<void> {
    await this.#events.close();
    this.#x.c.close();
  }
}
