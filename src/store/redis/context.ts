/**
 * What every section of the Redis adapter works with: the connection and its error mapping, the store's options and
 * clock, each project's keys, the scripts (EVALSHA, EVAL when the server lacks one; again while a Cluster slot moves),
 * and the in-process cache of what never changes about a question.
 */
import type { Question } from '../../core/question.js';
import { StoreUnavailableError } from '../store-unavailable-error.js';
import { BoundedCache } from './bounded-cache.js';
import type { RedisConnection, Subscription, SubscriptionListener } from './connection.js';
import { globalKeys, ProjectKeys } from './keys.js';
import { StoreConnections } from './readiness.js';
import { hashFromFlat, hashFromScript, ParsedSpecs, questionFromHash } from './record.js';
import type { RedisStoreOptions } from './redis-store.js';
import { type Script, SLOT_MOVING } from './scripts.js';
import { SlotMovingError } from './slot-moving-error.js';

/** Questions kept in the in-process spec cache. */
const CACHE_MAX = 10_000;
/** How often a script answering SLOT_MOVING is run again (back-off 10 ms doubling to 250 ms: about 2.8 s). */
const SETTLE_ATTEMPTS = 16;
/** Projects whose keys are kept (a few strings each). */
export const KEYS_CACHE_MAX = 100_000;

export class RedisContext {
  readonly client: RedisConnection;
  /** The client and the duplicates made for blocking reads: whether they take commands (`whenReady`). */
  readonly connections: StoreConnections;
  readonly options: RedisStoreOptions;
  readonly prefix: string;
  /** The keys outside any project. */
  readonly global: ReturnType<typeof globalKeys>;
  readonly now: () => number;
  /** Approximate cap of each project's event stream, as the scripts take it. */
  readonly maxLen: string;
  readonly #knownProjects = new Set<string>();
  readonly #keyCache = new Map<string, ProjectKeys>(); // small entries: KEYS_CACHE_MAX
  /**
   * Questions as last read or parked, by `project\0id`, used only for what never changes after parking (the
   * spec, id, project, times): answering, dismissing and drafting need the options and texts, and the process that
   * answers has usually read the question already (the bridge rendered it). States always come from Redis.
   */
  readonly #specCache = new BoundedCache<string, Question>(CACHE_MAX);
  /** Specs as parsed from records, so reading the same record again skips parsing its spec (record.ts). */
  readonly #parsed = new ParsedSpecs(CACHE_MAX);

  constructor(client: RedisConnection, options: RedisStoreOptions) {
    this.client = client;
    this.connections = new StoreConnections(client);
    this.options = options;
    this.prefix = options.prefix ?? 'al';
    this.global = globalKeys(this.prefix);
    this.now = options.now ?? Date.now;
    this.maxLen = String(options.eventStreamMaxLen ?? 10_000);
  }

  keys(project: string): ProjectKeys {
    let keys = this.#keyCache.get(project);
    if (!keys) {
      if (this.#keyCache.size >= KEYS_CACHE_MAX) this.#keyCache.clear();
      keys = new ProjectKeys(this.prefix, project);
      this.#keyCache.set(project, keys);
    }
    return keys;
  }

  /** Keep a question's unchanging parts for later calls about it; returns it. */
  remember(question: Question): Question {
    const key = `${question.project}\0${question.id}`;
    if (!this.#specCache.has(key)) this.#specCache.set(key, question);
    return question;
  }

  /** The question's unchanging parts: from the cache, else read (and remembered). */
  async spec(project: string, id: number): Promise<Question | undefined> {
    return this.#specCache.get(`${project}\0${id}`) ?? (await this.get(project, id));
  }

  /** Run a call's work, connection failures as `StoreUnavailableError`. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw this.toStoreError(error);
    }
  }

  /**
   * Connection failures (as the client classes them, see `RedisConnection.unavailable`) and a Cluster slot that did
   * not settle, rethrown as `StoreUnavailableError`; anything else unchanged.
   */
  toStoreError(error: unknown): unknown {
    if (error instanceof StoreUnavailableError) return error;
    const unavailable = error instanceof SlotMovingError || this.client.unavailable(error);
    return unavailable ? new StoreUnavailableError({ cause: error }) : error;
  }

  /** A record's fields as a question, remembered. Throws `CorruptRecordError`. */
  fromHash(hash: Readonly<Record<string, string>>, where: string): Question {
    return this.remember(questionFromHash(hash, where, this.#parsed));
  }

  /** A record a script sent (see `hashFromScript`) as a question, remembered. Throws `CorruptRecordError`. */
  read(reply: unknown, where: string): Question {
    return this.fromHash(hashFromScript(reply, where), where);
  }

  /** A hash's fields; undefined when the key does not exist. */
  async hash(key: string): Promise<Record<string, string> | undefined> {
    const hash = hashFromFlat(await this.client.sendCommand(['HGETALL', key]));
    return Object.keys(hash).length === 0 ? undefined : hash;
  }

  /** One question as stored now (not mapped: callers run it inside `run`). */
  async get(project: string, id: number): Promise<Question | undefined> {
    const hash = await this.hash(this.keys(project).question(id));
    return hash && this.fromHash(hash, `${project}#${id}`);
  }

  /** Run a script. */
  async eval(script: Script, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    if (keys.length !== script.numberOfKeys) throw new Error(`${script.name} takes ${script.numberOfKeys} keys`);
    // Built in a loop, not by spreading: every call of the store sends one, and spreads are slow on Node 20.
    const command = ['EVALSHA', script.sha, String(keys.length)];
    for (const key of keys) command.push(key);
    for (const arg of args) command.push(String(arg));
    try {
      return await this.client.sendCommand(command);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('NOSCRIPT')) {
        const again = command.slice();
        again[0] = 'EVAL';
        again[1] = script.source;
        return this.client.sendCommand(again);
      }
      throw error;
    }
  }

  /**
   * What a script that reads the records an index names does with one that is absent: in a Redis Cluster the slot
   * may be migrating (the record is on the other node for now), so it answers SLOT_MOVING and writes nothing; on
   * one server the record is gone.
   */
  get missing(): 'wait' | 'gone' {
    return this.client.isCluster ? 'wait' : 'gone';
  }

  /** `eval`, again after a back-off while the script answers SLOT_MOVING (bounded: then SlotMovingError). */
  async evalSettled(script: Script, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      const reply = await this.eval(script, keys, args);
      if (reply !== SLOT_MOVING) return reply;
      if (attempt >= SETTLE_ATTEMPTS) throw new SlotMovingError(keys[0] ?? script.name, attempt);
      await new Promise((resolve) => setTimeout(resolve, Math.min(10 * 2 ** (attempt - 1), 250)));
    }
  }

  /** Record the project in `projects` (tag → name), once per process. */
  async registerProject(keys: ProjectKeys): Promise<void> {
    if (this.#knownProjects.has(keys.tag)) return;
    await this.client.sendCommand(['HSETNX', this.global.projects, keys.tag, keys.project]);
    this.#knownProjects.add(keys.tag);
  }

  /**
   * Cluster only: tell event consumers that this project's stream has something new (consumer.ts), once the
   * transition is written. A lost hint only delays consumers until their next full pass, so it never fails a call.
   */
  async hint(keys: ProjectKeys): Promise<void> {
    if (!this.client.isCluster) return;
    await this.client.sendCommand(['PUBLISH', this.global.hints, keys.tag]).catch(() => undefined);
  }

  /** Every project that ever parked: tag → project name. */
  async projects(): Promise<Map<string, string>> {
    const reply = await this.client.sendCommand(['HGETALL', this.global.projects]);
    return new Map(Object.entries(hashFromFlat(reply)));
  }

  /** A connection of its own for a blocking read, followed by `whenReady`. */
  async duplicate(): Promise<RedisConnection> {
    return this.connections.add(await this.client.duplicate());
  }

  /** Cluster only: how readers of every project's stream learn which streams to read (hints.ts). */
  hintOptions(): {
    hints?: (listener: SubscriptionListener) => Promise<Subscription>;
    fullPassMs?: number;
  } {
    if (!this.client.isCluster) return {};
    return {
      hints: (listener) => this.client.subscribe(this.global.hints, listener),
      ...(this.options.eventFullPassMs !== undefined ? { fullPassMs: this.options.eventFullPassMs } : {}),
    };
  }
}
