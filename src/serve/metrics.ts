/**
 * `GET /metrics` on serve: Prometheus text format through prom-client, in a registry of this serve's own (two serves
 * in one process, as in tests, never share a series), plus Node's process metrics (one set per process).
 *
 * - `ask_later_questions{status,blocking}`: counted in the store at each scrape (`countQuestions` over every known
 *   project), so every replica reports the same totals: aggregate them with `max`, not `sum`.
 *   `ASK_LATER_METRICS_PROJECTS=1` adds a `project` label; otherwise no project name appears anywhere.
 * - `ask_later_time_to_answer_seconds{blocking}` and `ask_later_time_to_agent_seconds{path}`: observed from the
 *   store's events through a consumer group of their own (`metrics`) that every replica joins: each event reaches one
 *   replica, so each counts its share and a `sum` over replicas counts each once. (At least once: an event whose
 *   replica died before acknowledging it is reclaimed and may count twice.)
 * - `ask_later_bridge_{posts,redraws,retries,failures}_total{platform}` and `ask_later_reminders_total{platform}`:
 *   counted by this replica's bridge (the {@link BridgeMetrics} port).
 *
 * Labels carry statuses, platforms, delivery paths and (only when asked for) project names: never question,
 * answer or note text. Behind the web token when one is set (always when serve listens beyond loopback), and the
 * Host / Origin rule of every entry point (`surfaces/origin-rule.ts`).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { backoff } from '../core/backoff.js';
import { errorFields, type Logger } from '../core/logger.js';
import { DELIVERY_PATHS, type Platform, QUESTION_STATUSES } from '../core/question.js';
import type { EventConsumer, Store, StoreEvent } from '../store/port.js';
import { StoreUnavailableError } from '../store/store-unavailable-error.js';
import { waitToRetry } from '../store/wait-to-retry.js';
import { type OriginRule, originRule } from '../surfaces/origin-rule.js';
import type { BridgeMetrics } from './bridge/metrics.js';

/** The consumer group the time histograms read the store's events through. */
export const METRICS_GROUP = 'metrics';

/** The route serve answers with the metrics. */
export const METRICS_PATH = '/metrics';

/** Seconds a person takes to answer: from a minute to a week (questions wait minutes to days). */
const ANSWER_BUCKETS = [30, 60, 300, 900, 1800, 3600, 7200, 14_400, 28_800, 86_400, 172_800, 345_600, 604_800];
/** Seconds from the answer to the agent: a wake takes seconds, a prompt waits for the person's next turn. */
const TO_AGENT_BUCKETS = [1, 5, 15, 60, 300, 900, 1800, 3600, 7200, 14_400, 28_800, 86_400, 259_200, 604_800];

export interface ServeMetricsOptions {
  readonly store: Store;
  /** This replica's consumer name in the `metrics` group (serve's replica name). */
  readonly replica: string;
  /** The platforms this serve bridges to: their counters start at 0. */
  readonly platforms: readonly Platform[];
  /** `ASK_LATER_METRICS_PROJECTS=1`: count questions per project, with a `project` label. */
  readonly projectLabels: boolean;
  /** The web token: when set, `/metrics` needs `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** Which Host and Origin are answered (default: loopback names and IP addresses; serve adds its public URL's). */
  readonly origins?: OriginRule;
  readonly logger: Logger;
  /** How long one read of events waits (default 1000 ms); also bounds how long `stop` waits. */
  readonly blockMs?: number;
  /** Events another replica read but did not acknowledge for this long are taken over (default 30 s). */
  readonly reclaimIdleMs?: number;
  /** Back-off while the store fails, from `retryBaseMs` (default 200 ms) up to `retryMaxMs` (default 30 s). */
  readonly retryBaseMs?: number;
  readonly retryMaxMs?: number;
  /** How long a scrape waits for the store's counts before reporting `ask_later_store_up 0` (default 5 s). */
  readonly scrapeTimeoutMs?: number;
}

export interface ServeMetrics {
  /** What the bridge (and the reminders it sends) counts into. */
  readonly bridge: BridgeMetrics;
  /** What the agent API (`serve/api/server.ts`) counts into: one call's operation and HTTP status. */
  readonly agent: { called(operation: string, status: number): void };
  /** Start following the store's events in the background (store failures back off; this never throws). */
  start(): void;
  /** Answer `GET /metrics` (auth included). */
  handle(request: IncomingMessage, response: ServerResponse): void;
  /** The text exposition, counts refreshed from the store. */
  render(): Promise<string>;
  /** Finish the event in hand (acknowledged), leave the group. */
  stop(): Promise<void>;
}

let processRegistry: Registry | undefined;

/**
 * Node's process metrics (CPU, memory, event-loop lag, GC), standard names, one set per process. The event-loop
 * monitor samples every 100 ms: at prom-client's default (10 ms) an idle serve spent about 1% of a core on it.
 */
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 100 });
  }
  return processRegistry;
}

export function createServeMetrics(options: ServeMetricsOptions): ServeMetrics {
  const { store, logger: log } = options;
  const registry = new Registry();
  const questionLabels = options.projectLabels ? ['project', 'status', 'blocking'] : ['status', 'blocking'];
  const questions = new Gauge({
    name: 'ask_later_questions',
    help: 'Questions in the store by status and blocking, counted at each scrape (the same in every replica).',
    labelNames: questionLabels,
    registers: [registry],
  });
  const storeUp = new Gauge({
    name: 'ask_later_store_up',
    help: '1 when the last scrape could count the questions in the store, else 0 (ask_later_questions is then absent).',
    registers: [registry],
  });
  const timeToAnswer = new Histogram({
    name: 'ask_later_time_to_answer_seconds',
    help: 'From parking to the answer, per answered question (this replica’s share of the events).',
    labelNames: ['blocking'],
    buckets: ANSWER_BUCKETS,
    registers: [registry],
  });
  const timeToAgent = new Histogram({
    name: 'ask_later_time_to_agent_seconds',
    help: 'From the answer to the agent, by delivery path (prompt, tool-call, wake, tool-result; unknown when not kept).',
    labelNames: ['path'],
    buckets: TO_AGENT_BUCKETS,
    registers: [registry],
  });
  for (const blocking of ['true', 'false']) timeToAnswer.zero({ blocking });
  for (const path of DELIVERY_PATHS) timeToAgent.zero({ path });
  const counter = (name: string, help: string) => {
    const made = new Counter({ name, help, labelNames: ['platform'], registers: [registry] });
    for (const platform of options.platforms) made.inc({ platform }, 0);
    return made;
  };
  const posts = counter('ask_later_bridge_posts_total', 'Question messages posted, by platform.');
  const redraws = counter('ask_later_bridge_redraws_total', 'Question messages redrawn, by platform.');
  const retries = counter('ask_later_bridge_retries_total', 'Bridge attempts after the first for one event.');
  const failures = counter(
    'ask_later_bridge_failures_total',
    'Events the bridge recorded as failed for good (see ask-later retry-failed).',
  );
  const reminders = counter('ask_later_reminders_total', 'Reminders sent, by platform.');
  const agentRequests = new Counter({
    name: 'ask_later_agent_requests_total',
    help: 'Calls to the agent API (POST /agent/v1/<operation>) by operation and HTTP status (401: token refused).',
    labelNames: ['operation', 'status'],
    registers: [registry],
  });

  const bridge: BridgeMetrics = {
    posted: (platform) => posts.inc({ platform }),
    redrawn: (platform) => redraws.inc({ platform }),
    retried: (platform) => retries.inc({ platform }),
    failed: (platform) => failures.inc({ platform }),
    reminded: (platform) => reminders.inc({ platform }),
  };

  // Scrapes at once share one count of the store.
  let counting: Promise<void> | undefined;
  let countFailing = false;
  const countQuestions = async (): Promise<void> => {
    const started = Date.now();
    try {
      const projects = await withTimeout(store.knownProjects(), options.scrapeTimeoutMs ?? 5000);
      const counts = await withTimeout(
        Promise.all(projects.map((project) => store.countQuestions(project))),
        options.scrapeTimeoutMs ?? 5000,
      );
      questions.reset();
      const totals = new Map<string, number>();
      counts.forEach((perStatus, index) => {
        for (const status of QUESTION_STATUSES) {
          for (const [blocking, count] of [
            ['true', perStatus[status].blocking],
            ['false', perStatus[status].canWait],
          ] as const) {
            if (options.projectLabels) {
              questions.set({ project: projects[index] ?? '', status, blocking }, count);
            } else {
              const key = `${status}\u0000${blocking}`;
              totals.set(key, (totals.get(key) ?? 0) + count);
            }
          }
        }
      });
      if (!options.projectLabels) {
        for (const status of QUESTION_STATUSES) {
          for (const blocking of ['true', 'false']) {
            questions.set({ status, blocking }, totals.get(`${status}\u0000${blocking}`) ?? 0);
          }
        }
      }
      storeUp.set(1);
      if (countFailing) log.info({ ms: Date.now() - started }, 'metrics: counting questions again');
      countFailing = false;
    } catch (error) {
      questions.reset();
      storeUp.set(0);
      if (!countFailing) log.warn(errorFields(error), 'metrics: cannot count questions; ask_later_store_up is 0');
      countFailing = true;
    }
  };

  const render = async (): Promise<string> => {
    counting ??= countQuestions().finally(() => {
      counting = undefined;
    });
    await counting;
    return Registry.merge([processMetrics(), registry]).metrics();
  };

  const follower = new EventsFollower(options, (event, question) => {
    if (event.type === 'answered' && question.answer) {
      const seconds = Math.max(0, question.answer.at - question.createdAt) / 1000;
      timeToAnswer.observe({ blocking: String(question.isBlocking) }, seconds);
    } else if (event.type === 'delivered' && question.answer && question.deliveredAt !== undefined) {
      // Dismissals and expiries reach the agent too, but carry no answer to time from.
      const seconds = Math.max(0, question.deliveredAt - question.answer.at) / 1000;
      timeToAgent.observe({ path: question.deliveredVia ?? 'unknown' }, seconds);
    }
  });

  const token = options.token === undefined || options.token === '' ? undefined : options.token;
  const origins = options.origins ?? originRule();
  return {
    bridge,
    agent: { called: (operation, status) => agentRequests.inc({ operation, status: String(status) }) },
    start: () => follower.start(),
    stop: () => follower.stop(),
    render,
    handle(request, response) {
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.writeHead(405, { allow: 'GET, HEAD' }).end();
        return;
      }
      // Like every entry point: no rebinding Host, no foreign page (surfaces/origin-rule.ts).
      const refused = origins.refusal(request.headers);
      if (refused !== undefined) {
        response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end(`Refused: ${refused}.\n`);
        return;
      }
      if (token !== undefined) {
        const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
        if (bearer === undefined || !sameSecret(bearer, token)) {
          response
            .writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer' })
            .end('Send the web token: Authorization: Bearer <ASK_LATER_WEB_TOKEN>.\n');
          return;
        }
      }
      void render().then(
        (text) => {
          response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
          response.end(request.method === 'HEAD' ? undefined : text);
        },
        (error: unknown) => {
          log.warn(errorFields(error), 'metrics: cannot render');
          response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Cannot render metrics.\n');
        },
      );
    },
  };
}

type Observe = (event: StoreEvent, question: NonNullable<Awaited<ReturnType<Store['get']>>>) => void;

/**
 * Reads the `metrics` group: answered and delivered events are looked up and observed, every event is acknowledged.
 * A store that fails is retried with back-off, or as soon as its connection is ready again (one log line when it
 * starts failing, one when it reads again).
 */
class EventsFollower {
  readonly #o: ServeMetricsOptions;
  readonly #observe: Observe;
  readonly #stopping = new AbortController();
  #consumer: EventConsumer | undefined;
  #loop: Promise<void> | undefined;
  #lastReclaim = 0;

  constructor(options: ServeMetricsOptions, observe: Observe) {
    this.#o = options;
    this.#observe = observe;
  }

  start(): void {
    this.#loop ??= this.#run();
  }

  async stop(): Promise<void> {
    this.#stopping.abort();
    await this.#loop;
    await this.#consumer?.close().catch(() => undefined);
  }

  async #run(): Promise<void> {
    const signal = this.#stopping.signal;
    const reclaimIdleMs = this.#o.reclaimIdleMs ?? 30_000;
    let failures = 0;
    let failingSince = 0;
    while (!signal.aborted) {
      try {
        this.#consumer ??= await this.#o.store.consumer(METRICS_GROUP, this.#o.replica);
        const consumer = this.#consumer;
        if (Date.now() - this.#lastReclaim >= reclaimIdleMs / 2) {
          this.#lastReclaim = Date.now();
          await this.#handle(consumer, await consumer.reclaim(reclaimIdleMs, 100));
        }
        const events = await consumer.read({ count: 100, blockMs: this.#o.blockMs ?? 1000 });
        if (failures > 0) {
          this.#o.logger.info({ failures, ms: Date.now() - failingSince }, 'metrics: reading events again');
          failures = 0;
        }
        await this.#handle(consumer, events);
      } catch (error) {
        if (signal.aborted) break;
        if (failures === 0) {
          failingSince = Date.now();
          this.#o.logger.warn(errorFields(error), 'metrics: cannot read events; retrying with back-off');
        }
        // The back-off step, or less: the moment the store's connection is ready again.
        await waitToRetry(
          this.#o.store,
          backoff(failures, this.#o.retryBaseMs ?? 200, this.#o.retryMaxMs ?? 30_000),
          signal,
        );
        failures++;
      }
    }
  }

  /** Observe what the events say, then acknowledge them together (a failure leaves them pending, read again). */
  async #handle(consumer: EventConsumer, events: readonly StoreEvent[]): Promise<void> {
    if (events.length === 0) return;
    for (const event of events) {
      if (event.type !== 'answered' && event.type !== 'delivered') continue;
      const question = await this.#o.store.get(event.project, event.questionId);
      if (question) this.#observe(event, question); // purged: nothing left to time
    }
    await consumer.ack(events);
  }
}

/** Constant-time comparison of two secrets of any length. */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** `promise`, or `StoreUnavailableError` after `ms` (the promise itself is left to settle on its own). */
async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new StoreUnavailableError()), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
