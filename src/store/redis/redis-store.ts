/**
 * The Store port on Redis: a facade over one file per section of the port (questions.ts, views.ts, drafts.ts,
 * transitions.ts, delivery.ts, events.ts, leases.ts, failed-events.ts, tokens.ts), which share one context
 * (context.ts: the connection, the keys, the scripts). Every state change that touches more than one key is one Lua
 * script (scripts.ts and lua/).
 */
import type { DeliveryPath, Draft, MessageRef, Question, QuestionSpec, Reply, Responder } from '../../core/question.js';
import type { Comparable } from '../../core/similarity.js';
import type { CorruptRecordError } from '../corrupt-record-error.js';
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
import type { RedisConnection } from './connection.js';
import { RedisContext } from './context.js';
import { RedisDecisions } from './decisions.js';
import { RedisDelivery } from './delivery.js';
import { RedisDrafts } from './drafts.js';
import { RedisEvents } from './events.js';
import { RedisFailures } from './failed-events.js';
import { RedisLeases } from './leases.js';
import { RedisQuestions } from './questions.js';
import { RedisTokenStore } from './tokens.js';
import { RedisTransitions } from './transitions.js';
import { RedisViews } from './views.js';

export { RETENTION_MS } from '../shared.js';

export interface RedisStoreOptions {
  /** `redis://` or `rediss://` URL. */
  readonly url: string;
  /** Namespace of every key (default `al`). Tests use their own so they never meet anyone's data. */
  readonly prefix?: string;
  /** The clock, ms since the epoch (default `Date.now`). Scripts take time as an argument, never from Redis. */
  readonly now?: () => number;
  /** Give up connecting after this long (default 2000 ms). */
  readonly connectTimeoutMs?: number;
  /** How long delivered and cancelled questions are kept (default 30 days). */
  readonly retentionMs?: number;
  /** Approximate cap of each project's event stream (default 10,000 entries). */
  readonly eventStreamMaxLen?: number;
  /** Told about records that cannot be read back; listings skip them instead of failing whole. */
  readonly onCorruptRecord?: (error: CorruptRecordError) => void;
  /** Which client to connect with (see `openRedisStore`). */
  readonly connection?: RedisClientKind;
  /** Redis Cluster: how often a consumer reads every stream, whatever the hints said (default `FULL_PASS_MS`). */
  readonly eventFullPassMs?: number;
}

/**
 * Which client the store connects with: `'node-redis'` (default) for long-running processes: node-redis, which
 * reconnects, queues a command during a short outage (bounded in time), routes a Redis Cluster and follows its
 * failovers (node-redis-connection.ts); `'minimal'` is the bare RESP client, which loads in a millisecond, for the
 * one-shot processes (the prompt hook, the status line): one server, or one hop of MOVED/ASK (one-hop-cluster.ts).
 */
export type RedisClientKind = 'node-redis' | 'minimal';

/**
 * Open the store over the chosen client (imported only when chosen). Fails with `StoreUnavailableError` when the
 * server cannot be reached.
 */
export async function openRedisStore(options: RedisStoreOptions): Promise<RedisStore> {
  const timeout = options.connectTimeoutMs ?? 2000;
  try {
    return new RedisStore(await connect(options.connection ?? 'node-redis', options.url, timeout), options);
  } catch (error) {
    throw new StoreUnavailableError({ cause: error });
  }
}

/** Connect with the chosen client, imported only then. */
async function connect(kind: RedisClientKind, url: string, connectTimeoutMs: number): Promise<RedisConnection> {
  if (kind === 'minimal') {
    const { connectMinimal } = await import('./one-hop-cluster.js');
    return connectMinimal(url, connectTimeoutMs);
  }
  const { connectNodeRedis } = await import('./node-redis-connection.js');
  return connectNodeRedis(url, { connectTimeoutMs });
}

/** Each call is its section's (see the port); this class only holds them together. */
export class RedisStore implements Store {
  readonly #x: RedisContext;
  readonly #questions: RedisQuestions;
  readonly #views: RedisViews;
  readonly #drafts: RedisDrafts;
  readonly #transitions: RedisTransitions;
  readonly #delivery: RedisDelivery;
  readonly #events: RedisEvents;
  readonly #leases: RedisLeases;
  readonly #failures: RedisFailures;
  readonly #decisions: RedisDecisions;

  constructor(client: RedisConnection, options: RedisStoreOptions) {
    const x = new RedisContext(client, options);
    this.#x = x;
    this.#questions = new RedisQuestions(x);
    this.#views = new RedisViews(x);
    this.#drafts = new RedisDrafts(x);
    this.#transitions = new RedisTransitions(x);
    this.#delivery = new RedisDelivery(x);
    this.#events = new RedisEvents(x);
    this.#leases = new RedisLeases(x);
    this.#failures = new RedisFailures(x);
    this.#decisions = new RedisDecisions(this.#x, (project, query) => trailPage(this, [project], query));
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
    const x = this.#x;
    return new RedisTokenStore({
      key: x.global.tokens,
      command: (args) => x.run(() => x.client.sendCommand(args)),
      eval: (script, keys, args) => x.run(() => x.eval(script, keys, args)),
    });
  }

  // The connection
  /** Every project that ever parked: tag → project name. */
  projects(): Promise<Map<string, string>> {
    return this.#x.projects();
  }
  ping(): Promise<void> {
    return this.#x.run(async () => {
      await this.#x.client.sendCommand(['PING']);
    });
  }
  whenReady(options: WaitOptions): Promise<Readiness> {
    return this.#x.connections.whenReady(options);
  }
  async close(): Promise<void> {
    await this.#events.close();
    this.#x.client.close();
  }
}
