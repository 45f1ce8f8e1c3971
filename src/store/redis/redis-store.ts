/**
 * The Store port on Redis (node-redis). Every state change that touches more than one key is one Lua script
 * (see scripts.ts and lua/); this file maps domain calls to scripts and script codes to domain results.
 */
import { randomUUID } from 'node:crypto';
import { deliveryEntryLength } from '../../core/delivery-note.js';
import type {
  DeliveryPath,
  Draft,
  MessageRef,
  Question,
  QuestionSpec,
  QuestionStatus,
  Reply,
  Responder,
} from '../../core/question.js';
import { QUESTION_STATUSES } from '../../core/question.js';
import { answerOf } from '../../core/reply.js';
import { CorruptRecordError } from '../corrupt-record-error.js';
import {
  byBlockingThenAge,
  byBlockingThenId,
  checkDraftChange,
  draftBase,
  draftItem,
  parseDraft,
  personKey,
  unreadableDraft,
} from '../drafts.js';
import { failedRecord, newestFirst, readFailedRecord } from '../failed-events.js';
import {
  type Cursor,
  closedSinceKey,
  formatCursor,
  formatListCursor,
  parseCursor,
  parseListCursor,
  sortInView,
  viewKey,
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
import { faultOrder, faultRecord, readFaultRecord } from '../surface-faults.js';
import type { TokenStore } from '../token-port.js';
import { type DecisionPage, type TrailQuery, trailPage } from '../trail.js';
import { connectRedis, type NodeConnector } from './cluster-connection.js';
import type { RedisConnection, Subscription, SubscriptionListener } from './connection.js';
import { parseStreamReply, RedisEventConsumer } from './events.js';
import { globalKeys, ProjectKeys } from './keys.js';
import { StoreConnections } from './readiness.js';
import { hashFromFlat, messageField, messagesFromHash, questionFromHash, specRecord } from './record.js';
import {
  DeliverCode,
  DraftCode,
  ExpireCode,
  INDEX_VERSION,
  PARK_TAG_COLLISION,
  RemindCode,
  type Script,
  SLOT_MOVING,
  scripts,
  TransitionCode,
} from './scripts.js';
import { SlotMovingError } from './slot-moving-error.js';
import { RedisEventTail } from './tail.js';
import { RedisTokenStore } from './tokens.js';

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
  readonly connection?: 'node-redis' | 'minimal';
  /** Redis Cluster: how often a consumer reads every stream, whatever the hints said (default `FULL_PASS_MS`). */
  readonly eventFullPassMs?: number;
}

export const RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** Questions kept in the in-process spec cache. */
const CACHE_MAX = 10_000;
/** How often a script answering SLOT_MOVING is run again (back-off 10 ms doubling to 250 ms: about 2.8 s). */
const SETTLE_ATTEMPTS = 16;
/** Projects whose keys are kept (a few strings each). */
const KEYS_CACHE_MAX = 100_000;
/**
 * How long a view check (views-10) stands for the page reads that follow it. Its only risk is an older version's
 * write landing in this window, which the next check (the next view drawn) repairs.
 */
const VIEW_CHECK_MS = 2000;

/** Errors that mean "the server is not there", as opposed to a bug or a script error. */
function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const names = [
    'ClientClosedError',
    'ClientOfflineError',
    'SocketClosedUnexpectedlyError',
    'ConnectionTimeoutError',
    // A connection of its own (a tail, a consumer) that could not be made: its first connect gives up at once.
    'ReconnectStrategyError',
    'SlotMovingError',
  ];
  if (names.includes(error.name) || names.includes(error.constructor.name)) return true;
  const code = (error as { code?: unknown }).code;
  return (
    typeof code === 'string' &&
    ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH'].includes(code)
  );
}

/** Rethrow connection failures as `StoreUnavailableError`; anything else unchanged. */
export function toStoreError(error: unknown): unknown {
  if (error instanceof StoreUnavailableError) return error;
  return isConnectionError(error) ? new StoreUnavailableError({ cause: error }) : error;
}

/**
 * Open the store. `connection: 'node-redis'` (default) suits long-running processes (it reconnects);
 * `'minimal'` is a bare RESP client that loads in a millisecond, for the per-prompt hook. Either is imported only
 * when chosen. A Redis Cluster is detected and routed over connections of the chosen client (cluster-connection.ts).
 * Fails with `StoreUnavailableError` when the server cannot be reached.
 */
export async function openRedisStore(options: RedisStoreOptions): Promise<RedisStore> {
  const timeout = options.connectTimeoutMs ?? 2000;
  try {
    const connector = await nodeConnector(options.connection ?? 'node-redis', timeout);
    return new RedisStore(await connectRedis(options.url, connector), options);
  } catch (error) {
    throw new StoreUnavailableError({ cause: error });
  }
}

/** How the store connects to one server (or to each node of a cluster), the chosen client imported only. */
async function nodeConnector(kind: 'node-redis' | 'minimal', timeoutMs: number): Promise<NodeConnector> {
  if (kind === 'minimal') {
    const { connectResp } = await import('./resp-connection.js');
    return (url) => connectResp(url, { connectTimeoutMs: timeoutMs });
  }
  const { connectNodeRedis } = await import('./node-redis-connection.js');
  return (url) => connectNodeRedis(url, timeoutMs);
}

export class RedisStore implements Store {
  readonly #client: RedisConnection;
  /** The client and the duplicates made for blocking reads: whether they take commands (`whenReady`). */
  readonly #connections: StoreConnections;
  readonly #options: RedisStoreOptions;
  readonly #prefix: string;
  readonly #now: () => number;
  readonly #maxLen: string;
  readonly #knownProjects = new Set<string>();
  readonly #consumers = new Set<RedisEventConsumer>();
  readonly #tails = new Set<RedisEventTail>();
  readonly #waiters = new Set<RedisConnection>();
  /** The last view check of each project (by tag), for page reads right after it (see `#views`). */
  readonly #viewChecks = new Map<string, { readonly at: number; readonly counts: Promise<ViewCounts> }>();

  constructor(client: RedisConnection, options: RedisStoreOptions) {
    this.#client = client;
    this.#connections = new StoreConnections(client);
    this.#options = options;
    this.#prefix = options.prefix ?? 'al';
    this.#now = options.now ?? Date.now;
    this.#maxLen = String(options.eventStreamMaxLen ?? 10_000);
  }

  readonly #keyCache = new Map<string, ProjectKeys>(); // small entries: KEYS_CACHE_MAX
  /**
   * Questions as last read or parked, by `project\0id`, used only for what never changes after parking (the
   * spec, id, project, times): answering, dismissing and drafting need the options and texts, and the process that
   * answers has usually read the question already (the bridge rendered it). States always come from Redis.
   */
  readonly #specCache = new Map<string, Question>();

  #keys(project: string): ProjectKeys {
    let keys = this.#keyCache.get(project);
    if (!keys) {
      if (this.#keyCache.size >= KEYS_CACHE_MAX) this.#keyCache.clear();
      keys = new ProjectKeys(this.#prefix, project);
      this.#keyCache.set(project, keys);
    }
    return keys;
  }

  #remember(question: Question): Question {
    const key = `${question.project}\0${question.id}`;
    if (!this.#specCache.has(key)) {
      if (this.#specCache.size >= CACHE_MAX) {
        const oldest = this.#specCache.keys().next();
        if (!oldest.done) this.#specCache.delete(oldest.value);
      }
      this.#specCache.set(key, question);
    }
    return question;
  }

  /** The question's unchanging parts: from the cache, else read (and remembered). */
  async #spec(project: string, id: number): Promise<Question | undefined> {
    return this.#specCache.get(`${project}\0${id}`) ?? (await this.get(project, id));
  }

  async #run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw toStoreError(error);
    }
  }

  async #eval(script: Script, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    if (keys.length !== script.numberOfKeys) throw new Error(`${script.name} takes ${script.numberOfKeys} keys`);
    const tail = [String(keys.length), ...keys, ...args.map(String)];
    try {
      return await this.#client.sendCommand(['EVALSHA', script.sha, ...tail]);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('NOSCRIPT')) {
        return this.#client.sendCommand(['EVAL', script.source, ...tail]);
      }
      throw error;
    }
  }

  /**
   * What a script that reads the records an index names does with one that is absent: in a Redis Cluster the slot
   * may be migrating (the record is on the other node for now), so it answers SLOT_MOVING and writes nothing; on
   * one server the record is gone.
   */
  get #missing(): 'wait' | 'gone' {
    return this.#client.isCluster ? 'wait' : 'gone';
  }

  /** `#eval`, again after a back-off while the script answers SLOT_MOVING (bounded: then SlotMovingError). */
  async #evalSettled(script: Script, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      const reply = await this.#eval(script, keys, args);
      if (reply !== SLOT_MOVING) return reply;
      if (attempt >= SETTLE_ATTEMPTS) throw new SlotMovingError(keys[0] ?? script.name, attempt);
      await new Promise((resolve) => setTimeout(resolve, Math.min(10 * 2 ** (attempt - 1), 250)));
    }
  }

  async #registerProject(keys: ProjectKeys): Promise<void> {
    if (this.#knownProjects.has(keys.tag)) return;
    await this.#client.sendCommand(['HSETNX', globalKeys(this.#prefix).projects, keys.tag, keys.project]);
    this.#knownProjects.add(keys.tag);
  }

  /**
   * Cluster only: tell event consumers that this project's stream has something new (events.ts), once the
   * transition is written. A lost hint only delays consumers until their next full pass, so it never fails a call.
   */
  async #hint(keys: ProjectKeys): Promise<void> {
    if (!this.#client.isCluster) return;
    await this.#client.sendCommand(['PUBLISH', globalKeys(this.#prefix).hints, keys.tag]).catch(() => undefined);
  }

  knownProjects(): Promise<string[]> {
    return this.#run(async () => [...(await this.projects()).values()]);
  }

  projectByTag(tag: string): Promise<string | undefined> {
    return this.#run(async () => {
      const reply = await this.#client.sendCommand(['HGET', globalKeys(this.#prefix).projects, tag]);
      return typeof reply === 'string' ? reply : undefined;
    });
  }

  /** Every project that ever parked: tag → project name. */
  async projects(): Promise<Map<string, string>> {
    const reply = await this.#client.sendCommand(['HGETALL', globalKeys(this.#prefix).projects]);
    return new Map(Object.entries(hashFromFlat(reply)));
  }

  #read(reply: unknown, where: string): Question {
    return this.#remember(questionFromHash(hashFromFlat(reply), where));
  }

  async #hash(key: string): Promise<Record<string, string> | undefined> {
    const hash = hashFromFlat(await this.#client.sendCommand(['HGETALL', key]));
    return Object.keys(hash).length === 0 ? undefined : hash;
  }

  park(project: string, spec: QuestionSpec): Promise<Question> {
    return this.#run(async () => {
      const keys = this.#keys(project);
      await this.#registerProject(keys);
      const now = this.#now();
      const expiresAt = spec.expiresInSeconds === undefined ? undefined : now + spec.expiresInSeconds * 1000;
      const record = specRecord(spec);
      const id = Number(
        await this.#eval(
          scripts.park,
          [keys.meta, keys.status('pending'), keys.expiry, keys.events, keys.inboxIndex],
          [
            keys.base,
            project,
            record.json,
            now,
            expiresAt ?? '',
            record.version,
            this.#maxLen,
            spec.isBlocking ? '1' : '0',
            INDEX_VERSION,
          ],
        ),
      );
      if (id === PARK_TAG_COLLISION) {
        throw new Error(`Project key tag ${keys.tag} already belongs to another project; set ASK_LATER_PROJECT`);
      }
      await this.#hint(keys);
      return {
        ...spec,
        project,
        id,
        status: 'pending',
        createdAt: now,
        ...(expiresAt ? { expiresAt } : {}),
        messages: [],
      };
    });
  }

  get(project: string, id: number): Promise<Question | undefined> {
    return this.#run(async () => {
      const hash = await this.#hash(this.#keys(project).question(id));
      return hash && this.#remember(questionFromHash(hash, `${project}#${id}`));
    });
  }

  async #readMany(project: string, ids: readonly string[]): Promise<Question[]> {
    const keys = this.#keys(project);
    const hashes = await Promise.all(ids.map((id) => this.#hash(keys.question(Number(id)))));
    const questions: Question[] = [];
    hashes.forEach((hash, index) => {
      if (!hash) return;
      try {
        questions.push(this.#remember(questionFromHash(hash, `${project}#${ids[index]}`)));
      } catch (error) {
        if (!(error instanceof CorruptRecordError)) throw error;
        this.#options.onCorruptRecord?.(error);
      }
    });
    return questions;
  }

  async #list(project: string, filter: ListFilter): Promise<Question[]> {
    const keys = this.#keys(project);
    const statuses: readonly QuestionStatus[] = filter.status ?? QUESTION_STATUSES;
    const idLists = await Promise.all(
      statuses.map(
        (status) => this.#client.sendCommand(['ZRANGE', keys.status(status), '0', '-1']) as Promise<string[]>,
      ),
    );
    const questions = await this.#readMany(project, idLists.flat());
    return questions.filter((q) => filter.blocking === undefined || q.isBlocking === filter.blocking);
  }

  list(project: string, filter: ListFilter = {}): Promise<Question[]> {
    return this.#run(async () => (await this.#list(project, filter)).sort(byBlockingThenId));
  }

  listAcross(projects: readonly string[], filter: ListFilter = {}): Promise<Question[]> {
    return this.#run(async () => {
      const lists = await Promise.all([...new Set(projects)].map((project) => this.#list(project, filter)));
      return lists.flat().sort(byBlockingThenAge);
    });
  }

  /**
   * Every project's view counts, its indexes first brought in step with its status sets (views-10: built for a
   * project parked before they existed, rebuilt after an older version of ask-later wrote to it), one script per
   * project, all in flight at once. Every paged read starts with this check; a check this process made less than
   * {@link VIEW_CHECK_MS} ago (or is making) stands for a page read, so a view's counts and page cost one check.
   */
  #views(projects: readonly ProjectKeys[], reuse = false): Promise<Map<string, ViewCounts>> {
    const now = Date.now();
    return Promise.all(
      projects.map(async (keys): Promise<[string, ViewCounts]> => {
        const recent = this.#viewChecks.get(keys.tag);
        if (reuse && recent !== undefined && now - recent.at < VIEW_CHECK_MS)
          return [keys.project, await recent.counts];
        const counts = this.#checkViews(keys);
        if (this.#viewChecks.size >= KEYS_CACHE_MAX) this.#viewChecks.clear();
        this.#viewChecks.set(keys.tag, { at: now, counts });
        counts.catch(() => this.#viewChecks.delete(keys.tag));
        return [keys.project, await counts];
      }),
    ).then((entries) => new Map(entries));
  }

  async #checkViews(keys: ProjectKeys): Promise<ViewCounts> {
    const reply = (await this.#evalSettled(
      scripts.views,
      [
        keys.meta,
        keys.inboxIndex,
        keys.closedIndex,
        keys.answeredIndex,
        ...QUESTION_STATUSES.map((status) => keys.status(status)),
      ],
      [keys.base, INDEX_VERSION, this.#missing],
    )) as unknown[];
    return {
      blocking: Number(reply[0] ?? 0),
      canWait: Number(reply[1] ?? 0),
      closed: Number(reply[2] ?? 0),
      answered: Number(reply[3] ?? 0),
    };
  }

  pageAcross(projects: readonly string[], query: PageQuery): Promise<QuestionPage> {
    return this.#run(async () => {
      const all = [...new Set(projects)].map((project) => this.#keys(project));
      await this.#views(all, true);
      const { view } = query;
      const limit = Math.max(1, Math.trunc(query.limit));
      const cursor = parseCursor(view, query.after);
      const index = (keys: ProjectKeys) =>
        view === 'pending' ? keys.inboxIndex : view === 'closed' ? keys.closedIndex : keys.answeredIndex;
      // Each project's top of the view after the cursor: the page can come from one project alone.
      const ranges = await Promise.all(
        all.map(async (keys) => {
          const [from, to] = lexRange(query, keys.tag, cursor);
          const args = view === 'pending' ? [from, to] : [to, from, 'REV'];
          const members = (await this.#client.sendCommand([
            'ZRANGE',
            index(keys),
            ...args.slice(0, 2),
            'BYLEX',
            ...args.slice(2),
            'LIMIT',
            '0',
            String(limit + 1),
          ])) as string[];
          return members.map((key) => ({ key, tag: keys.tag, keys }));
        }),
      );
      const merged = sortInView(view, ranges.flat());
      const taken = merged.slice(0, limit);
      const last = taken.at(-1);
      const follows = merged.length > limit && last !== undefined;
      const [hashes, counts] = await Promise.all([
        Promise.all(taken.map((entry) => this.#hash(entry.keys.question(Number(entry.key.slice(-12)))))),
        follows
          ? Promise.all(
              all.map((keys) => {
                const [from, to] = lexRange(query, keys.tag, last);
                return this.#client.sendCommand(['ZLEXCOUNT', index(keys), from, to]);
              }),
            )
          : Promise.resolve([]),
      ]);
      const questions: Question[] = [];
      hashes.forEach((hash, i) => {
        const entry = taken[i];
        if (!hash || !entry) return;
        try {
          const question = this.#remember(questionFromHash(hash, `${entry.keys.project}#${entry.key.slice(-12)}`));
          // Changed between the index read and the record read (answered elsewhere meanwhile): left out.
          if (viewKey(view, question) === entry.key) questions.push(question);
        } catch (error) {
          if (!(error instanceof CorruptRecordError)) throw error;
          this.#options.onCorruptRecord?.(error);
        }
      });
      const remaining = counts.reduce((sum: number, n) => sum + Number(n), 0);
      return follows ? { questions, next: formatCursor(last), remaining } : { questions, remaining: 0 };
    });
  }

  countAcross(projects: readonly string[]): Promise<ReadonlyMap<string, ViewCounts>> {
    return this.#run(() => this.#views([...new Set(projects)].map((project) => this.#keys(project))));
  }

  findDecisions(project: string, query: TrailQuery): Promise<DecisionPage> {
    return trailPage(this, [project], query);
  }

  listPage(project: string, query: ListPageQuery): Promise<QuestionPage> {
    return this.#run(async () => {
      const keys = this.#keys(project);
      const wanted = query.status ?? QUESTION_STATUSES;
      const cursor = parseListCursor(query.after);
      const reply = (await this.#eval(
        scripts.listPage,
        QUESTION_STATUSES.map((status) => keys.status(status)),
        [
          keys.base,
          QUESTION_STATUSES.map((status) => (wanted.includes(status) ? '1' : '0')).join(''),
          query.blocking === undefined ? '' : query.blocking ? '1' : '0',
          Math.max(1, Math.trunc(query.limit)),
          cursor === undefined ? '' : String(cursor.blockingFirst),
          cursor === undefined ? '' : String(cursor.id),
        ],
      )) as unknown[];
      const questions: Question[] = [];
      for (let i = 1; i + 1 < reply.length; i += 2) {
        try {
          questions.push(this.#read(reply[i + 1], `${project}#${reply[i]}`));
        } catch (error) {
          if (!(error instanceof CorruptRecordError)) throw error;
          this.#options.onCorruptRecord?.(error);
        }
      }
      const remaining = Number(reply[0]);
      const lastId = reply.length >= 3 ? Number(reply[reply.length - 2]) : undefined;
      const last = lastId === undefined ? undefined : questions.find((q) => q.id === lastId);
      return remaining > 0 && last !== undefined
        ? { questions, next: formatListCursor(last), remaining }
        : { questions, remaining };
    });
  }

  saveDraft(project: string, id: number, person: PersonRef, change: DraftChange): Promise<DraftResult> {
    return this.#run(async () => {
      const question = await this.#spec(project, id);
      if (!question) return { kind: 'unknown' };
      const checked = checkDraftChange(question, change);
      const item = draftItem(question, checked.member);
      const keys = this.#keys(project);
      const reply = (await this.#eval(
        scripts.draft,
        [keys.question(id), keys.drafts(id)],
        [
          personKey(person, checked.member),
          checked.pick === undefined ? '' : JSON.stringify(checked.pick),
          checked.notes === undefined ? '0' : '1',
          checked.notes ?? '',
          JSON.stringify(draftBase(item)),
          String(this.#now()),
          checked.choiceNotes === undefined ? '' : JSON.stringify(checked.choiceNotes),
          JSON.stringify(item.options.map((option) => option.label)),
        ],
      )) as unknown[];
      const where = `${project}#${id}`;
      switch (Number(reply[0])) {
        case DraftCode.saved:
          return { kind: 'saved', draft: parseDraft(String(reply[1]), where) };
        case DraftCode.unknown:
          return { kind: 'unknown' };
        case DraftCode.notPending:
          return { kind: 'not-pending', question: this.#read(reply[1], where) };
        default:
          throw unreadableDraft(where);
      }
    });
  }

  getDraft(project: string, id: number, person: PersonRef, member?: number): Promise<Draft | undefined> {
    return this.#run(async () => {
      const key = personKey(person, member);
      const text = (await this.#client.sendCommand(['HGET', this.#keys(project).drafts(id), key])) as string | null;
      return text === null ? undefined : parseDraft(text, `${project}#${id}`);
    });
  }

  answer(project: string, id: number, reply: Reply, by: Responder): Promise<AnswerResult> {
    return this.#run(async () => {
      const question = await this.#spec(project, id);
      if (!question) return { kind: 'unknown' };
      const now = this.#now();
      const answer = answerOf(question, reply, { by, at: now });
      const size = deliveryEntryLength({ ...question, status: 'answered', answer } as Question);
      const keys = this.#keys(project);
      const result = (await this.#eval(
        scripts.answer,
        [
          keys.question(id),
          keys.drafts(id),
          keys.status('pending'),
          keys.status('answered'),
          keys.outbox,
          keys.expiry,
          keys.events,
          keys.inboxIndex,
          keys.closedIndex,
          keys.answeredIndex,
        ],
        [JSON.stringify(answer), now, size, this.#maxLen],
      )) as unknown[];
      if (Number(result[0]) === TransitionCode.done) {
        await this.#hint(keys);
        // Won: the script sends back only the message references; the rest is what was just written.
        const messages = messagesFromHash(hashFromFlat(result.slice(1)), `${project}#${id}`);
        return { kind: 'won', question: { ...question, status: 'answered', answer, messages } as Question };
      }
      return this.#transitionResult(project, id, result, (q) => ({ kind: 'won', question: q }));
    });
  }

  async #transitionResult<R extends AnswerResult | CloseResult>(
    project: string,
    id: number,
    reply: unknown[],
    onDone: (question: Question) => R,
  ): Promise<R | { kind: 'already-answered' | 'not-pending'; question: Question } | { kind: 'unknown' }> {
    const code = Number(reply[0]);
    const where = `${project}#${id}`;
    switch (code) {
      case TransitionCode.done:
        return onDone(this.#read(reply[1], where));
      case TransitionCode.alreadyAnswered:
        return { kind: 'already-answered', question: this.#read(reply[1], where) };
      case TransitionCode.notPending:
        return { kind: 'not-pending', question: this.#read(reply[1], where) };
      case TransitionCode.dueToExpire: {
        await this.#expireOne(project, id);
        const question = await this.get(project, id);
        return question ? { kind: 'not-pending', question } : { kind: 'unknown' };
      }
      default:
        return { kind: 'unknown' };
    }
  }

  #close(project: string, id: number, target: 'cancelled' | 'dismissed', by?: Responder): Promise<CloseResult> {
    return this.#run(async () => {
      const now = this.#now();
      const closure = { at: now, ...(by ? { by } : {}) };
      let size = 0;
      if (target === 'dismissed') {
        const question = await this.#spec(project, id);
        if (!question) return { kind: 'unknown' };
        size = deliveryEntryLength({ ...question, status: 'dismissed', closure });
      }
      const keys = this.#keys(project);
      const reply = (await this.#eval(
        scripts.close,
        [
          keys.question(id),
          keys.drafts(id),
          keys.status('pending'),
          keys.status(target),
          keys.outbox,
          keys.expiry,
          keys.done,
          keys.events,
          keys.inboxIndex,
          keys.closedIndex,
        ],
        [target, JSON.stringify(closure), now, size, this.#maxLen],
      )) as unknown[];
      if (Number(reply[0]) === TransitionCode.done) await this.#hint(keys);
      return this.#transitionResult(project, id, reply, (q) => ({ kind: 'done', question: q }));
    });
  }

  cancel(project: string, id: number): Promise<CloseResult> {
    return this.#close(project, id, 'cancelled');
  }

  dismiss(project: string, id: number, by: Responder): Promise<CloseResult> {
    return this.#close(project, id, 'dismissed', by);
  }

  async #expireOne(project: string, id: number): Promise<boolean> {
    const question = await this.#spec(project, id);
    const now = this.#now();
    const closure = { at: now };
    const size = question ? deliveryEntryLength({ ...question, status: 'expired', closure }) : 0;
    const keys = this.#keys(project);
    const code = Number(
      await this.#eval(
        scripts.expire,
        [
          keys.question(id),
          keys.drafts(id),
          keys.status('pending'),
          keys.status('expired'),
          keys.outbox,
          keys.expiry,
          keys.events,
          keys.inboxIndex,
          keys.closedIndex,
        ],
        [id, JSON.stringify(closure), now, size, this.#maxLen],
      ),
    );
    if (code === ExpireCode.expired) await this.#hint(keys);
    return code === ExpireCode.expired;
  }

  expireDue(): Promise<number> {
    return this.#run(async () => {
      let expired = 0;
      for (const project of (await this.projects()).values()) {
        const due = (await this.#client.sendCommand([
          'ZRANGEBYSCORE',
          this.#keys(project).expiry,
          '-inf',
          String(this.#now()),
        ])) as string[];
        for (const id of due) if (await this.#expireOne(project, Number(id))) expired++;
      }
      return expired;
    });
  }

  purgeExpired(): Promise<number> {
    return this.#run(async () => {
      const cutoff = this.#now() - (this.#options.retentionMs ?? RETENTION_MS);
      let dropped = 0;
      for (const project of (await this.projects()).values()) {
        const keys = this.#keys(project);
        for (;;) {
          const n = Number(
            await this.#evalSettled(
              scripts.purge,
              [
                keys.done,
                keys.closedIndex,
                keys.answeredIndex,
                keys.status('delivered'),
                keys.status('cancelled'),
                keys.status('dismissed'),
                keys.status('expired'),
              ],
              [keys.base, cutoff, 500, this.#missing],
            ),
          );
          dropped += n;
          if (n < 500) break;
        }
      }
      return dropped;
    });
  }

  claimUndelivered(project: string, options: ClaimOptions): Promise<Claim> {
    return this.#run(async () => {
      const keys = this.#keys(project);
      const claimId = randomUUID();
      const now = this.#now();
      const reply = (await this.#evalSettled(
        scripts.claim,
        [keys.outbox],
        [
          keys.base,
          now,
          options.budget,
          claimId,
          now + options.leaseMs,
          options.blockingOnly ? 'blocking' : '',
          this.#missing,
          options.questionId === undefined ? '' : String(options.questionId),
        ],
      )) as unknown[];
      const questions: Question[] = [];
      try {
        for (let i = 1; i + 1 < reply.length; i += 2)
          questions.push(this.#read(reply[i + 1], `${project}#${reply[i]}`));
      } catch (error) {
        const ids = reply.filter((_, i) => i % 2 === 1).map(String);
        await this.#evalSettled(scripts.release, [keys.outbox], [keys.base, this.#missing, claimId, ...ids]).catch(
          () => undefined,
        );
        throw error;
      }
      return { claimId, via: options.via ?? 'prompt', questions, remaining: Number(reply[0]) };
    });
  }

  waitingOutcomes(project: string, options: { readonly blockingOnly?: boolean } = {}): Promise<Question[]> {
    return this.#run(async () => {
      const keys = this.#keys(project);
      const reply = (await this.#evalSettled(
        scripts.waiting,
        [keys.outbox],
        [keys.base, this.#now(), options.blockingOnly ? 'blocking' : '', this.#missing],
      )) as unknown[];
      const questions: Question[] = [];
      for (let i = 0; i + 1 < reply.length; i += 2) questions.push(this.#read(reply[i + 1], `${project}#${reply[i]}`));
      return questions;
    });
  }

  confirmClaim(project: string, claim: ClaimRef, ids?: readonly number[]): Promise<number[]> {
    return this.#run(async () => {
      const keys = this.#keys(project);
      const reply = (await this.#evalSettled(
        scripts.confirm,
        [keys.outbox, keys.status('answered'), keys.status('delivered'), keys.done, keys.events],
        [keys.base, this.#now(), claim.claimId, this.#maxLen, claim.via, this.#missing, ...claimedIds(claim, ids)],
      )) as unknown[];
      if (reply.length > 0) await this.#hint(keys);
      return reply.map(Number).sort((a, b) => a - b);
    });
  }

  releaseClaim(project: string, claim: ClaimRef, ids?: readonly number[]): Promise<void> {
    return this.#run(async () => {
      const keys = this.#keys(project);
      await this.#evalSettled(
        scripts.release,
        [keys.outbox],
        [keys.base, this.#missing, claim.claimId, ...claimedIds(claim, ids)],
      );
    });
  }

  markDelivered(
    project: string,
    id: number,
    via: DeliveryPath = 'tool-result',
  ): Promise<'delivered' | 'leased' | 'not-waiting'> {
    return this.#run(async () => {
      const keys = this.#keys(project);
      const code = Number(
        await this.#eval(
          scripts.deliver,
          [keys.question(id), keys.outbox, keys.status('answered'), keys.status('delivered'), keys.done, keys.events],
          [id, this.#now(), this.#maxLen, via],
        ),
      );
      if (code === DeliverCode.delivered) {
        await this.#hint(keys);
        return 'delivered';
      }
      return code === DeliverCode.leased ? 'leased' : 'not-waiting';
    });
  }

  remind(project: string, id: number, ordinal: number): Promise<RemindResult> {
    return this.#run(async () => {
      const keys = this.#keys(project);
      const code = Number(
        await this.#eval(scripts.remind, [keys.question(id), keys.events], [id, ordinal, this.#now(), this.#maxLen]),
      );
      if (code === RemindCode.unknown) return { kind: 'unknown' };
      if (code === RemindCode.reminded) await this.#hint(keys);
      const question = await this.get(project, id);
      if (!question) return { kind: 'unknown' };
      if (code === RemindCode.reminded) return { kind: 'reminded', question };
      return code === RemindCode.already ? { kind: 'already', question } : { kind: 'not-pending', question };
    });
  }

  countQuestions(project: string): Promise<QuestionCounts> {
    return this.#run(async () => {
      const keys = this.#keys(project);
      const reply = (await this.#eval(
        scripts.count,
        QUESTION_STATUSES.map((status) => keys.status(status)),
        [keys.base],
      )) as unknown[];
      return Object.fromEntries(
        QUESTION_STATUSES.map((status, i) => [
          status,
          { blocking: Number(reply[2 * i] ?? 0), canWait: Number(reply[2 * i + 1] ?? 0) },
        ]),
      ) as unknown as QuestionCounts;
    });
  }

  acquireLease(name: string, owner: string, ms: number): Promise<boolean> {
    return this.#run(
      async () =>
        Number(await this.#eval(scripts.lease, [globalKeys(this.#prefix).lease(name)], [owner, Math.max(1, ms)])) === 1,
    );
  }

  releaseLease(name: string, owner: string): Promise<void> {
    return this.#run(async () => {
      await this.#eval(scripts.releaseLease, [globalKeys(this.#prefix).lease(name)], [owner]);
    });
  }

  seizeLease(name: string, owner: string, ms: number): Promise<void> {
    return this.#run(async () => {
      // One key, one command: no script needed to overwrite.
      await this.#client.sendCommand([
        'SET',
        globalKeys(this.#prefix).lease(name),
        owner,
        'PX',
        String(Math.max(1, ms)),
      ]);
    });
  }

  recordFailedEvent(group: string, event: StoreEvent, failure: { attempts: number; error: string }): Promise<void> {
    return this.#run(async () => {
      const g = globalKeys(this.#prefix);
      const record = JSON.stringify(failedRecord(event, failure, this.#now()));
      await this.#eval(scripts.recordFailure, [g.failed(group), g.failedGroups], [group, event.eventId, record]);
    });
  }

  recordSurfaceFault(fault: Omit<SurfaceFault, 'since'>): Promise<void> {
    return this.#run(async () => {
      const record = faultRecord(fault, this.#now());
      await this.#client.sendCommand([
        'HSET',
        globalKeys(this.#prefix).surfaceFaults,
        faultField(record.group, record.channel),
        JSON.stringify(record),
      ]);
    });
  }

  clearSurfaceFaults(group: string, channels: readonly string[]): Promise<void> {
    return this.#run(async () => {
      const fields = [faultField(group, undefined), ...channels.map((channel) => faultField(group, channel))];
      await this.#client.sendCommand(['HDEL', globalKeys(this.#prefix).surfaceFaults, ...fields]);
    });
  }

  surfaceFaults(): Promise<SurfaceFault[]> {
    return this.#run(async () => {
      const reply = await this.#client.sendCommand(['HGETALL', globalKeys(this.#prefix).surfaceFaults]);
      const values = Array.isArray(reply)
        ? reply.filter((_, i) => i % 2 === 1)
        : Object.values((reply ?? {}) as Record<string, unknown>);
      return values
        .map((value) => readFaultRecord(String(value)))
        .filter((fault): fault is SurfaceFault => fault !== undefined)
        .sort(faultOrder);
    });
  }

  failedEvents(options: { readonly sample?: number } = {}): Promise<FailedEventsOfGroup[]> {
    return this.#run(async () => {
      const g = globalKeys(this.#prefix);
      const groups = ((await this.#client.sendCommand(['SMEMBERS', g.failedGroups])) as string[]).sort();
      const result: FailedEventsOfGroup[] = [];
      for (const group of groups) {
        const count = Number(await this.#client.sendCommand(['HLEN', g.failed(group)]));
        if (count === 0) continue;
        if (options.sample === 0) {
          result.push({ group, count, sample: [] });
          continue;
        }
        // A look at a few (HSCAN's first batch), not the whole hash: doctor shows a sample.
        const [, flat] = (await this.#client.sendCommand(['HSCAN', g.failed(group), '0', 'COUNT', '100'])) as [
          string,
          string[],
        ];
        const records: FailedEvent[] = [];
        for (let i = 0; i + 1 < flat.length; i += 2) {
          const record = readFailedRecord(group, String(flat[i]), flat[i + 1]);
          if (record) records.push(record);
        }
        result.push({ group, count, sample: newestFirst(records, options.sample ?? 5) });
      }
      return result;
    });
  }

  replayFailedEvents(group?: string): Promise<number> {
    return this.#run(async () => {
      const g = globalKeys(this.#prefix);
      const groups =
        group !== undefined ? [group] : ((await this.#client.sendCommand(['SMEMBERS', g.failedGroups])) as string[]);
      let moved = 0;
      for (const name of groups)
        moved += Number(await this.#eval(scripts.replayFailed, [g.failed(name), g.replay(name)], []));
      return moved;
    });
  }

  takeReplayedEvents(group: string, count: number): Promise<FailedEvent[]> {
    return this.#run(async () => {
      const reply = await this.#client.sendCommand(['LPOP', globalKeys(this.#prefix).replay(group), String(count)]);
      const taken: FailedEvent[] = [];
      for (const value of Array.isArray(reply) ? reply : []) {
        let eventId: unknown;
        try {
          eventId = (JSON.parse(String(value)) as { eventId?: unknown }).eventId;
        } catch {
          continue;
        }
        const record = typeof eventId === 'string' ? readFailedRecord(group, eventId, String(value)) : undefined;
        if (record) taken.push(record);
      }
      return taken;
    });
  }

  ping(): Promise<void> {
    return this.#run(async () => {
      await this.#client.sendCommand(['PING']);
    });
  }

  whenReady(options: WaitOptions): Promise<Readiness> {
    return this.#connections.whenReady(options);
  }

  /** A connection of its own for a blocking read, followed by `whenReady`. */
  async #duplicate(): Promise<RedisConnection> {
    return this.#connections.add(await this.#client.duplicate());
  }

  recordMessage(project: string, id: number, ref: MessageRef): Promise<boolean> {
    return this.#run(async () => {
      const reply = await this.#eval(
        scripts.recordMessage,
        [this.#keys(project).question(id)],
        [messageField(ref.platform, ref.channel), ref.messageId],
      );
      return Number(reply) === 1;
    });
  }

  consumer(group: string, consumerName: string, options: ConsumerOptions = {}): Promise<EventConsumer> {
    return this.#run(async () => {
      const connection = await this.#duplicate();
      const consumer = new RedisEventConsumer({
        client: this.#client,
        blocking: connection,
        group,
        ...(options.inheritFrom !== undefined ? { inheritFrom: options.inheritFrom } : {}),
        consumer: consumerName,
        streams: async () => {
          const projects = await this.projects();
          return [...projects.values()].map((project) => this.#keys(project));
        },
        onClose: () => this.#consumers.delete(consumer),
        ...this.#hintOptions(),
      });
      this.#consumers.add(consumer);
      return consumer;
    });
  }

  /** Cluster only: how readers of every project's stream learn which streams to read (hints.ts). */
  #hintOptions(): {
    hints?: (listener: SubscriptionListener) => Promise<Subscription>;
    fullPassMs?: number;
  } {
    if (!this.#client.isCluster) return {};
    return {
      hints: (listener) => this.#client.subscribe(globalKeys(this.#prefix).hints, listener),
      ...(this.#options.eventFullPassMs !== undefined ? { fullPassMs: this.#options.eventFullPassMs } : {}),
    };
  }

  tail(): Promise<EventTail> {
    return this.#run(async () => {
      const blocking = await this.#duplicate();
      const tail = await RedisEventTail.begin({
        client: this.#client,
        blocking,
        streams: async () => [...(await this.projects()).values()].map((project) => this.#keys(project)),
        onClose: () => this.#tails.delete(tail),
        ...this.#hintOptions(),
      }).catch((error: unknown) => {
        blocking.close();
        throw error;
      });
      this.#tails.add(tail);
      return wrapTail(tail);
    });
  }

  watch(project: string): Promise<ProjectWatch> {
    return this.#run(async () => {
      const keys = this.#keys(project);
      const last = (await this.#client.sendCommand(['XREVRANGE', keys.events, '+', '-', 'COUNT', '1'])) as string[][];
      let cursor = last[0]?.[0] ?? '0-0';
      const connection = await this.#duplicate();
      this.#waiters.add(connection);
      const close = async () => {
        this.#waiters.delete(connection);
        connection.close();
      };
      const changed = (options: WaitOptions): Promise<boolean> =>
        this.#run(async () => {
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
    return this.#run(async () => {
      const keys = this.#keys(project);
      const deadline = this.#now() + options.timeoutMs;
      const last = (await this.#client.sendCommand(['XREVRANGE', keys.events, '+', '-', 'COUNT', '1'])) as string[][];
      let cursor = last[0]?.[0] ?? '0-0';
      let question = await this.get(project, id);
      if (question?.status !== 'pending' || options.signal?.aborted) return question;

      const connection = await this.#duplicate();
      this.#waiters.add(connection);
      const abort = () => connection.close();
      options.signal?.addEventListener('abort', abort, { once: true });
      try {
        for (;;) {
          const left = deadline - this.#now();
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
            question = await this.get(project, id);
            if (question?.status !== 'pending') return question;
          }
        }
        return await this.get(project, id);
      } finally {
        options.signal?.removeEventListener('abort', abort);
        this.#waiters.delete(connection);
        connection.close();
      }
    });
  }

  tokens(): TokenStore {
    return new RedisTokenStore({
      key: globalKeys(this.#prefix).tokens,
      command: (args) => this.#run(() => this.#client.sendCommand(args)),
      eval: (script, keys, args) => this.#run(() => this.#eval(script, keys, args)),
    });
  }

  async close(): Promise<void> {
    for (const consumer of this.#consumers) await consumer.close();
    for (const tail of [...this.#tails]) await tail.close();
    for (const waiter of this.#waiters) waiter.close();
    this.#client.close();
  }
}

/** A fault's field in the faults hash: the group and the channel (empty for the whole platform). */
function faultField(group: string, channel: string | undefined): string {
  return `${group}\n${channel ?? ''}`;
}

/** The tail with its failures as the store's errors (a lost connection is `StoreUnavailableError`). */
function wrapTail(tail: RedisEventTail): EventTail {
  return {
    next: async (options) => {
      try {
        return await tail.next(options);
      } catch (error) {
        throw toStoreError(error);
      }
    },
    close: () => tail.close(),
  };
}

/**
 * One project's range of a view's index after `cursor` (and within the query's filters), as ZRANGE BYLEX bounds
 * [low, high] in the index's ascending order; the closed views read it reversed (newest first).
 */
function lexRange(query: PageQuery, tag: string, cursor: Cursor | undefined): [string, string] {
  if (query.view === 'pending') {
    const filterLow = query.blocking === false ? '1' : '0';
    const high = query.blocking === true ? '(1' : '+';
    // After the cursor: a greater key, or the same key in a project of a greater tag.
    const low =
      cursor !== undefined && cursor.key >= filterLow
        ? `${tag > cursor.tag ? '[' : '('}${cursor.key}`
        : query.blocking === undefined
          ? '-'
          : `[${filterLow}`;
    return [low, high];
  }
  const low = query.since === undefined ? '-' : `[${closedSinceKey(query.since)}`;
  // Newest first: after the cursor is a smaller key, or the same key in a project of a smaller tag.
  const high = cursor === undefined ? '+' : `${tag < cursor.tag ? '[' : '('}${cursor.key}`;
  return [low, high];
}

/** The ids of a claim to confirm or release: all it carried, or the given ones among them. */
function claimedIds(claim: ClaimRef, only?: readonly number[]): number[] {
  const ids = claim.questions.map((q) => q.id);
  return only ? ids.filter((id) => only.includes(id)) : ids;
}
