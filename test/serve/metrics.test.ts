/**
 * `GET /metrics` on serve: what it counts, what it times from the store's events, what it never shows (question
 * text; project names unless asked), and who may read it. Every scrape goes through the strict text-format parser.
 */
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { loadServeConfig, type ServeConfig } from '../../src/config/serve.js';
import { Bridge } from '../../src/serve/bridge/bridge.js';
import { createServeMetrics } from '../../src/serve/metrics.js';
import { type ServeHandle, startServe } from '../../src/serve/run.js';
import type { Store } from '../../src/store/port.js';
import { StoreUnavailableError } from '../../src/store/store-unavailable-error.js';
import type { Surface } from '../../src/surfaces/surface.js';
import { type MetricFamily, parsePrometheus, sampleValue } from '../support/prometheus.js';
import { openSqliteTestStore, person, spec, testClock, uniqueProject } from '../support/store.js';
import { RecordingLogger } from '../surfaces/slack/harness.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const TOKEN = 'metrics-test-token-0123456789abcdef';
const MINUTE = 60_000;

async function openStore(now?: () => number): Promise<Store> {
  const store = await openSqliteTestStore(now ? { now } : {});
  cleanup.push(() => store.close());
  return store;
}

async function serve(store: Store, overrides: Partial<ServeConfig> = {}): Promise<ServeHandle> {
  const config: ServeConfig = {
    store: { kind: 'sqlite', path: '/unused/the-store-is-handed-in.db' },
    port: 0,
    host: '127.0.0.1',
    ...overrides,
  };
  const handle = await startServe(config, {
    store,
    logger: new RecordingLogger(),
    sweepMs: 0,
    bridge: { blockMs: 50, retryBaseMs: 5 },
  });
  cleanup.push(() => handle.stop());
  return handle;
}

async function scrapeText(handle: ServeHandle, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${handle.url}metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return response.text();
}

async function scrape(handle: ServeHandle, headers: Record<string, string> = {}): Promise<Map<string, MetricFamily>> {
  return parsePrometheus(await scrapeText(handle, headers));
}

const answer = (notes?: string) => ({ choices: ['Postgres'], other: false, ...(notes ? { notes } : {}) });

describe('GET /metrics', () => {
  it('GIVEN questions parked and answered THEN ask_later_questions counts them by status and blocking, summed over projects', async () => {
    const store = await openStore();
    const [a, b] = [uniqueProject('metrics-a'), uniqueProject('metrics-b')];
    const first = await store.park(a, spec({ isBlocking: true }));
    await store.park(a, spec({ isBlocking: true }));
    await store.park(b, spec({ isBlocking: false }));
    await store.park(b, spec({ isBlocking: true }));
    await store.answer(a, first.id, answer(), person());
    const handle = await serve(store);

    const metrics = await scrape(handle);

    const count = (status: string, blocking: string) =>
      sampleValue(metrics, 'ask_later_questions', { status, blocking });
    expect(count('pending', 'true')).toBe(2);
    expect(count('pending', 'false')).toBe(1);
    expect(count('answered', 'true')).toBe(1);
    expect(count('answered', 'false')).toBe(0);
    expect(count('delivered', 'true')).toBe(0);
    expect(metrics.get('ask_later_questions')?.type).toBe('gauge');
    expect(metrics.get('ask_later_questions')?.samples).toHaveLength(12); // 6 statuses × blocking or not
    expect(sampleValue(metrics, 'ask_later_store_up')).toBe(1);
    // Node's process metrics ride along.
    expect(metrics.get('process_cpu_seconds_total')?.type).toBe('counter');
  });

  it('GIVEN a blocking question answered 90 minutes after it was parked (store clock) THEN one time-to-answer observation of 5400 s', async () => {
    const clock = testClock();
    const store = await openStore(clock.now);
    const project = uniqueProject('metrics-time');
    const handle = await serve(store);
    const question = await store.park(project, spec({ isBlocking: true }));
    clock.advance(90 * MINUTE);
    await store.answer(project, question.id, answer(), person());

    const name = 'ask_later_time_to_answer_seconds';
    await expect
      .poll(async () => sampleValue(await scrape(handle), name, { blocking: 'true' }, `${name}_count`))
      .toBe(1);
    const metrics = await scrape(handle);
    expect(metrics.get(name)?.type).toBe('histogram');
    expect(sampleValue(metrics, name, { blocking: 'true' }, `${name}_sum`)).toBe(5400);
    expect(sampleValue(metrics, name, { blocking: 'true', le: '3600' }, `${name}_bucket`)).toBe(0);
    expect(sampleValue(metrics, name, { blocking: 'true', le: '7200' }, `${name}_bucket`)).toBe(1);
    expect(sampleValue(metrics, name, { blocking: 'false' }, `${name}_count`)).toBe(0);
  });

  it('GIVEN an answer claimed and confirmed with a prompt 10 minutes later THEN the time to the agent is observed under path="prompt"', async () => {
    const clock = testClock();
    const store = await openStore(clock.now);
    const project = uniqueProject('metrics-path');
    const handle = await serve(store);
    const question = await store.park(project, spec());
    clock.advance(MINUTE);
    await store.answer(project, question.id, answer(), person());
    clock.advance(10 * MINUTE);
    const claim = await store.claimUndelivered(project, { budget: 9000, leaseMs: MINUTE, via: 'prompt' });
    expect(await store.confirmClaim(project, claim)).toEqual([question.id]);

    const name = 'ask_later_time_to_agent_seconds';
    await expect.poll(async () => sampleValue(await scrape(handle), name, { path: 'prompt' }, `${name}_count`)).toBe(1);
    const metrics = await scrape(handle);
    expect(sampleValue(metrics, name, { path: 'prompt' }, `${name}_sum`)).toBe(600);
    expect(sampleValue(metrics, name, { path: 'wake' }, `${name}_count`)).toBe(0);
    expect(sampleValue(metrics, 'ask_later_questions', { status: 'delivered', blocking: 'false' })).toBe(1);
  });

  it('GIVEN sentinel text in every field of questions, answers, notes and names THEN none of it appears in /metrics, even with project labels', async () => {
    const sentinel = 'Zx9Sentinel';
    const store = await openStore();
    const project = uniqueProject('metrics-sentinel');
    const handle = await serve(store, { metricsProjects: true });
    const texts = spec({
      context: `${sentinel} context`,
      question: `${sentinel} question?`,
      impact: `${sentinel} impact`,
      options: [{ label: `${sentinel} A`, description: `${sentinel} why A` }, { label: `${sentinel} B` }],
      recommended: [`${sentinel} A`],
      ticket: `${sentinel}-1`,
      isBlocking: true,
      multiSelect: true,
    });
    const answered = await store.park(project, texts);
    const dismissed = await store.park(project, texts);
    await store.park(project, texts);
    await store.saveDraft(project, dismissed.id, { platform: 'web', userId: 'u1' }, { notes: `${sentinel} draft` });
    const by = { platform: 'web' as const, userId: `${sentinel}-user`, displayName: `${sentinel} Person` };
    await store.answer(
      project,
      answered.id,
      { choices: [`${sentinel} B`], other: true, notes: `${sentinel} notes` },
      by,
    );
    await store.dismiss(project, dismissed.id, by);
    const name = 'ask_later_time_to_answer_seconds';
    await expect
      .poll(async () => sampleValue(await scrape(handle), name, { blocking: 'true' }, `${name}_count`))
      .toBe(1);

    const text = await scrapeText(handle);
    expect(text.toLowerCase()).not.toContain(sentinel.toLowerCase());
    // The project's name is the one thing the flag lets in.
    const metrics = parsePrometheus(text);
    expect(sampleValue(metrics, 'ask_later_questions', { project, status: 'pending', blocking: 'true' })).toBe(1);
    expect(sampleValue(metrics, 'ask_later_questions', { project, status: 'dismissed', blocking: 'true' })).toBe(1);
  });

  it('GIVEN ASK_LATER_METRICS_PROJECTS unset THEN no project label or name; set THEN one series set per project, names escaped', async () => {
    const store = await openStore();
    const plain = uniqueProject('metrics-plain');
    const odd = `${uniqueProject('metrics-odd')}/with "quotes" and \\ backslash`;
    await store.park(plain, spec());
    await store.park(odd, spec({ isBlocking: true }));

    const without = await serve(store);
    const text = await scrapeText(without);
    expect(text).not.toContain('project=');
    expect(text).not.toContain('metrics-plain');
    expect(text).not.toContain('metrics-odd');
    const totals = parsePrometheus(text);
    expect(sampleValue(totals, 'ask_later_questions', { status: 'pending', blocking: 'false' })).toBe(1);
    expect(sampleValue(totals, 'ask_later_questions', { status: 'pending', blocking: 'true' })).toBe(1);

    const withNames = await serve(store, { metricsProjects: true });
    const perProject = await scrape(withNames);
    const projects = new Set(perProject.get('ask_later_questions')?.samples.map((sample) => sample.labels.project));
    expect(projects).toEqual(new Set([plain, odd]));
    expect(sampleValue(perProject, 'ask_later_questions', { project: odd, status: 'pending', blocking: 'true' })).toBe(
      1,
    );
    expect(
      sampleValue(perProject, 'ask_later_questions', { project: plain, status: 'pending', blocking: 'false' }),
    ).toBe(1);
  });

  it('GIVEN a web token THEN /metrics answers 401 without it or with another, 200 with Authorization: Bearer', async () => {
    const store = await openStore();
    const handle = await serve(store, { webToken: TOKEN });
    const url = `${handle.url}metrics`;

    const none = await fetch(url);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(await none.text()).not.toContain('ask_later_');
    expect((await fetch(url, { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: TOKEN } })).status).toBe(401);
    const metrics = await scrape(handle, { authorization: `Bearer ${TOKEN}` });
    expect(sampleValue(metrics, 'ask_later_store_up')).toBe(1);
  });

  it('GIVEN no token on loopback THEN it is open to loopback host names only, and GET or HEAD only', async () => {
    const store = await openStore();
    const handle = await serve(store);
    const status = (host: string, method = 'GET') =>
      new Promise<number>((resolve, reject) => {
        const call = httpRequest({ host: '127.0.0.1', port: handle.port, path: '/metrics', method, headers: { host } });
        call.on('response', (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        call.on('error', reject);
        call.end();
      });
    expect(await status(`localhost:${handle.port}`)).toBe(200);
    expect(await status(`127.0.0.1:${handle.port}`, 'HEAD')).toBe(200);
    expect(await status('attacker.example')).toBe(403);
    expect(await status(`127.0.0.1:${handle.port}`, 'POST')).toBe(405);
  });

  it('GIVEN a post and an answer THEN the bridge counts a post and redraws for the web inbox, zero retries and failures', async () => {
    const store = await openStore();
    const project = uniqueProject('metrics-bridge');
    const handle = await serve(store);
    const question = await store.park(project, spec());
    await expect.poll(async () => (await store.get(project, question.id))?.messages.length).toBe(1);
    await store.answer(project, question.id, answer(), person());

    await expect
      .poll(async () => sampleValue(await scrape(handle), 'ask_later_bridge_redraws_total', { platform: 'web' }))
      .toBeGreaterThanOrEqual(1);
    const metrics = await scrape(handle);
    expect(sampleValue(metrics, 'ask_later_bridge_posts_total', { platform: 'web' })).toBe(1);
    expect(sampleValue(metrics, 'ask_later_bridge_retries_total', { platform: 'web' })).toBe(0);
    expect(sampleValue(metrics, 'ask_later_bridge_failures_total', { platform: 'web' })).toBe(0);
    expect(sampleValue(metrics, 'ask_later_reminders_total', { platform: 'web' })).toBe(0);
    expect(metrics.get('ask_later_bridge_posts_total')?.type).toBe('counter');
  });
});

describe('serve metrics without the HTTP server', () => {
  it('GIVEN a platform that refuses every post THEN retries count the attempts after the first and one failure is counted', async () => {
    const store = await openStore();
    const metrics = createServeMetrics({
      store,
      replica: 'r1',
      platforms: ['slack'],
      projectLabels: false,
      logger: new RecordingLogger(),
    });
    const refusing: Surface = {
      platform: 'slack',
      channelsFor: () => ['C0123456'],
      post: () => Promise.reject(new Error('refused')),
      update: () => Promise.resolve(),
    };
    const bridge = new Bridge({
      store,
      surfaces: [refusing],
      consumerName: 'r1',
      blockMs: 50,
      attempts: 3,
      retryBaseMs: 1,
      metrics: metrics.bridge,
    });
    await bridge.start();
    cleanup.push(() => bridge.stop());
    await store.park(uniqueProject('metrics-refused'), spec());

    await expect
      .poll(async () => sampleValue(parsePrometheus(await metrics.render()), 'ask_later_bridge_failures_total'))
      .toBe(1);
    const families = parsePrometheus(await metrics.render());
    expect(sampleValue(families, 'ask_later_bridge_retries_total', { platform: 'slack' })).toBe(2);
    expect(sampleValue(families, 'ask_later_bridge_posts_total', { platform: 'slack' })).toBe(0);
  });

  it('GIVEN the store failing THEN store_up is 0 and the follower backs off without throwing; once it is back both recover', async () => {
    const real = await openStore();
    let down = true;
    const failing = new Set<PropertyKey>(['consumer', 'knownProjects', 'countQuestions']);
    const store = new Proxy(real, {
      get(target, property) {
        if (down && failing.has(property)) return () => Promise.reject(new StoreUnavailableError());
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as Store;
    const logger = new RecordingLogger();
    const metrics = createServeMetrics({
      store,
      replica: 'r1',
      platforms: [],
      projectLabels: false,
      logger,
      blockMs: 50,
      retryBaseMs: 5,
      retryMaxMs: 20,
    });
    metrics.start();
    cleanup.push(() => metrics.stop());
    const project = uniqueProject('metrics-down');
    const question = await real.park(project, spec());
    await real.answer(project, question.id, answer(), person());

    await expect
      .poll(() => logger.lines.filter((line) => line.message.startsWith('metrics: cannot read events')).length)
      .toBe(1);
    const downMetrics = parsePrometheus(await metrics.render());
    expect(sampleValue(downMetrics, 'ask_later_store_up')).toBe(0);
    expect(downMetrics.get('ask_later_questions')?.samples ?? []).toEqual([]);

    down = false;
    const name = 'ask_later_time_to_answer_seconds';
    await expect
      .poll(async () =>
        sampleValue(parsePrometheus(await metrics.render()), name, { blocking: 'false' }, `${name}_count`),
      )
      .toBe(1);
    const upMetrics = parsePrometheus(await metrics.render());
    expect(sampleValue(upMetrics, 'ask_later_store_up')).toBe(1);
    expect(sampleValue(upMetrics, 'ask_later_questions', { status: 'answered', blocking: 'false' })).toBe(1);
    expect(logger.lines.some((line) => line.message === 'metrics: reading events again')).toBe(true);
    expect(logger.text()).not.toContain('Which database');
  });

  it('GIVEN two replicas in the metrics group THEN each answer is observed once across them', async () => {
    const store = await openStore();
    const replicas = ['r1', 'r2'].map((replica) =>
      createServeMetrics({
        store,
        replica,
        platforms: [],
        projectLabels: false,
        logger: new RecordingLogger(),
        blockMs: 50,
      }),
    );
    for (const replica of replicas) {
      replica.start();
      cleanup.push(() => replica.stop());
    }
    const project = uniqueProject('metrics-replicas');
    for (let i = 0; i < 6; i++) {
      const question = await store.park(project, spec());
      await store.answer(project, question.id, answer(), person());
    }

    const name = 'ask_later_time_to_answer_seconds';
    const observed = async () => {
      let total = 0;
      for (const replica of replicas) {
        total +=
          sampleValue(parsePrometheus(await replica.render()), name, { blocking: 'false' }, `${name}_count`) ?? 0;
      }
      return total;
    };
    await expect.poll(observed).toBe(6);
  });

  it('GIVEN a metrics instance that never started THEN stop resolves at once', async () => {
    const store = await openStore();
    const metrics = createServeMetrics({
      store,
      replica: 'r1',
      platforms: [],
      projectLabels: false,
      logger: new RecordingLogger(),
    });
    await expect(metrics.stop()).resolves.toBeUndefined();
  });
});

describe('ASK_LATER_METRICS_PROJECTS', () => {
  const base = { ASK_LATER_DB: '/tmp/ask-later-metrics-config/inbox.db' };

  it.each([
    [undefined, undefined],
    ['', undefined],
    ['0', undefined],
    ['1', true],
    [' 1 ', true],
  ])('GIVEN %j THEN metricsProjects is %j', (value, expected) => {
    const env = value === undefined ? base : { ...base, ASK_LATER_METRICS_PROJECTS: value };
    expect(loadServeConfig(env, () => '').metricsProjects).toBe(expected);
  });

  it.each([
    'yes',
    'true',
    '2',
  ])('GIVEN %j THEN a ConfigError naming the variable, what it takes and what came', (value) => {
    const load = () => loadServeConfig({ ...base, ASK_LATER_METRICS_PROJECTS: value }, () => '');
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(
      `ASK_LATER_METRICS_PROJECTS must be 1 (label metrics with project names) or 0 (totals only), got "${value}"`,
    );
  });
});

describe('the strict text-format parser these tests read /metrics with', () => {
  it.each([
    ['a value that is not a number', 'm{a="1"} one\n'],
    ['a bad escape in a label value', 'm{a="\\x"} 1\n'],
    ['a series given twice', 'm{a="1"} 1\nm{a="1"} 2\n'],
    ['a TYPE after samples', 'm 1\n# TYPE m gauge\n'],
    ['an unknown type', '# TYPE m meter\nm 1\n'],
    ['no final line feed', 'm 1'],
    [
      'buckets that are not cumulative',
      '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n',
    ],
    ['+Inf unequal to _count', '# TYPE h histogram\nh_bucket{le="1"} 1\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 2\n'],
  ])('GIVEN %s THEN it throws', (_, text) => {
    expect(() => parsePrometheus(text)).toThrow(/^not Prometheus text format/);
  });

  it('GIVEN escapes, NaN and a timestamp THEN it reads them', () => {
    const families = parsePrometheus('# HELP m a \\\\ help\n# TYPE m gauge\nm{a="q\\"\\n\\\\"} NaN 1700000000000\n');
    expect(families.get('m')?.help).toBe('a \\ help');
    expect(families.get('m')?.samples[0]?.labels).toEqual({ a: 'q"\n\\' });
    expect(families.get('m')?.samples[0]?.value).toBeNaN();
  });
});
