/**
 * Recovery on reconnect: every loop that waits on the store (the bridge's followers, the web inbox's tail, the
 * metrics follower, the sweep, the waiter) wakes when the store's connection is ready again, not when its back-off
 * step ends. Each runs against a private redis-server that the test kills (SIGKILL) and starts again, with a back-off
 * step of ten minutes: far longer than anything here waits, so a loop that carries on did so on the store's return.
 * Each outage logs one line when the loop starts failing and one when it works again.
 */
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runWaiter, WAKE_EXIT_CODE } from '../../src/agents/wake/run.js';
import { formatQuestionRef } from '../../src/core/question-ref.js';
import { Bridge } from '../../src/serve/bridge/bridge.js';
import { createServeMetrics } from '../../src/serve/metrics.js';
import { startSweep } from '../../src/serve/sweep.js';
import { openRedisStore, type RedisStore } from '../../src/store/redis/redis-store.js';
import { followStoreChanges } from '../../src/surfaces/store-changes.js';
import { WebSurface } from '../../src/surfaces/web/surface.js';
import { freshHome } from '../support/home.js';
import { parsePrometheus, sampleValue } from '../support/prometheus.js';
import { startTestRedis, type TestRedis } from '../support/redis-server.js';
import { person, spec, uniquePrefix, uniqueProject } from '../support/store.js';
import { RecordingSurface } from '../surfaces/recording-surface.js';
import { RecordingLogger } from '../surfaces/slack/harness.js';

/** Every back-off step here: ten minutes, far beyond any wait of this file. */
const STEP = 10 * 60_000;

let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis.stop();
});
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function openStore(prefix: string): Promise<RedisStore> {
  const store = await openRedisStore({ url: redis.url, prefix });
  cleanup.push(() => store.close());
  return store;
}

/**
 * Kill the server, wait until `failing` says the loop noticed, start it again (`loadDelayUs`: loading its data slowly,
 * see `TestRedis.start`).
 */
async function outage(failing: () => boolean, loadDelayUs?: number): Promise<void> {
  await redis.kill();
  try {
    await expect.poll(failing, { message: 'the loop noticed the store is gone' }).toBe(true);
  } finally {
    // Whatever happened, the next test has its server.
    await redis.start(loadDelayUs === undefined ? {} : { loadDelayUs });
  }
}

function logged(logger: RecordingLogger, message: string): number {
  return logger.lines.filter((line) => line.message === message).length;
}

describe('recovery on reconnect', () => {
  it('GIVEN the store killed under the bridge THEN a question parked once it is back is posted without waiting out the back-off step', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix);
    const logger = new RecordingLogger();
    const slack = new RecordingSurface('slack', () => ['C1']);
    const bridge = new Bridge({
      store,
      surfaces: [slack],
      consumerName: 'b1',
      blockMs: 50,
      retryBaseMs: STEP,
      retryMaxMs: STEP,
      logger,
    });
    await bridge.start();
    cleanup.push(() => bridge.stop());
    const project = uniqueProject('recovery');
    await store.park(project, spec());
    await vi.waitFor(() => expect(slack.posts).toHaveLength(1));
    // The event wholly handled (acknowledged), so the outage finds the bridge's loop reading, not mid-event.
    await vi.waitFor(() => expect(logged(logger, 'bridge: event handled')).toBeGreaterThanOrEqual(1));

    await outage(() => logged(logger, 'bridge: cannot read events; retrying with back-off') === 1);
    // A process that parks once the store is back (the agent's side: a connection of its own).
    const agent = await openStore(prefix);
    await agent.park(project, spec());
    await vi.waitFor(() => expect(slack.posts.map((post) => post.question.id)).toEqual([1, 2]));
    expect(logged(logger, 'bridge: reading events again')).toBe(1);
    expect(logger.lines.filter((line) => line.level !== 'info')).toHaveLength(1);
  });

  it('GIVEN the store killed under the web inbox’s tail THEN it follows the store again once it is back and its pages hear of a change', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix);
    const logger = new RecordingLogger();
    const surface = new WebSurface();
    const heard: string[] = [];
    surface.subscribe((ref) => heard.push(ref));
    const changes = followStoreChanges({ store, surface, logger, waitMs: 100, retryBaseMs: STEP, retryMaxMs: STEP });
    cleanup.push(() => changes.stop());
    await changes.started;

    await outage(() => logged(logger, 'web inbox: cannot follow the store; retrying with back-off') === 1);
    await expect
      .poll(() => logged(logger, 'web inbox: following the store again'), { message: 'the tail follows again' })
      .toBe(1);
    const project = uniqueProject('tail');
    const question = await (await openStore(prefix)).park(project, spec());
    await vi.waitFor(() => expect(heard).toContain(formatQuestionRef(project, question.id)));
    expect(logger.lines.filter((line) => line.level !== 'info')).toHaveLength(1);
  });

  it('GIVEN the store killed under the metrics follower THEN an answer given once it is back is timed', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix);
    const logger = new RecordingLogger();
    const metrics = createServeMetrics({
      store,
      replica: 'r1',
      platforms: [],
      projectLabels: false,
      logger,
      blockMs: 50,
      retryBaseMs: STEP,
      retryMaxMs: STEP,
    });
    metrics.start();
    cleanup.push(() => metrics.stop());

    await outage(() => logged(logger, 'metrics: cannot read events; retrying with back-off') === 1);
    const agent = await openStore(prefix);
    const project = uniqueProject('metrics');
    const question = await agent.park(project, spec());
    await agent.answer(project, question.id, { choices: ['SQLite'], other: false }, person());
    const name = 'ask_later_time_to_answer_seconds';
    await expect
      .poll(async () =>
        sampleValue(parsePrometheus(await metrics.render()), name, { blocking: 'false' }, `${name}_count`),
      )
      .toBe(1);
    expect(logged(logger, 'metrics: reading events again')).toBe(1);
  });

  it('GIVEN the store gone when the sweep is due THEN it sweeps the moment the store is back, not a period later', async () => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix);
    await store.ping();
    const logger = new RecordingLogger();
    await redis.kill();
    const sweeper = startSweep({ store, owner: 'r1', everyMs: STEP, logger });
    cleanup.push(() => sweeper.stop());
    await expect.poll(() => logged(logger, 'serve: sweep failed; trying again as soon as the store is back')).toBe(1);
    await redis.start();
    await expect.poll(() => logged(logger, 'serve: swept'), { message: 'swept once the store is back' }).toBe(1);
    expect(logged(logger, 'serve: sweeping again')).toBe(1);
    expect(logger.lines.filter((line) => line.level !== 'info')).toHaveLength(1);
  });

  it('GIVEN a server that answers errors on connections that stay up (as while it loads its data) THEN whenReady returns once it answers again, not after its time-out', async () => {
    const store = await openStore(uniquePrefix());
    // The default user loses PING: every connection stays up, and every PING is refused.
    const { createClient } = await import('redis');
    const client = createClient({ url: redis.url });
    await client.connect();
    cleanup.push(async () => {
      await client.sendCommand(['ACL', 'SETUSER', 'default', '+@all']);
      client.destroy();
    });
    await client.sendCommand(['ACL', 'SETUSER', 'default', '-ping']);
    let readiness: string | undefined;
    const waiting = store.whenReady({ timeoutMs: STEP }).then((value) => {
      readiness = value;
    });
    await expect
      .poll(() =>
        store.ping().then(
          () => 'answers',
          () => 'refused',
        ),
      )
      .toBe('refused');
    await client.sendCommand(['ACL', 'SETUSER', 'default', '+ping']);
    await waiting;
    expect(readiness).toBe('reconnected');
  });

  it.each([
    ['back', undefined],
    // Connections are accepted for seconds before any command is: the loop must not take them for the store back.
    ['back and loading its data slowly', 1000],
  ] as const)('GIVEN the store killed under a waiting waiter THEN it waits again once the store is %s and wakes the session for an answer given then', async (_back, loadDelayUs) => {
    const prefix = uniquePrefix();
    const store = await openStore(prefix);
    const project = uniqueProject('waiter');
    await store.park(project, spec({ isBlocking: true }));
    if (loadDelayUs !== undefined) {
      // Two thousand writes in the server's AOF: each takes loadDelayUs to load again.
      const script = "for i = 1, 2000 do redis.call('SET', ARGV[1] .. i, 'x') end";
      const { createClient } = await import('redis');
      const client = createClient({ url: redis.url });
      await client.connect();
      await client.sendCommand(['EVAL', script, '0', `${prefix}filler:`]);
      client.destroy();
    }
    // The store as the waiter has it, counting how often it waits for the store's connection.
    let backingOff = 0;
    const counted = new Proxy(store, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (typeof value !== 'function') return value;
        const bound = (value as (...args: unknown[]) => unknown).bind(target);
        if (property !== 'whenReady') return bound;
        return (...args: unknown[]) => {
          backingOff++;
          return bound(...args);
        };
      },
    });
    let waits = 0;
    const stop = new AbortController();
    cleanup.push(async () => stop.abort());
    let stderr = '';
    const done = runWaiter(
      {
        stdin: Readable.from([JSON.stringify({ session_id: `s-${prefix}`, cwd: '/tmp' })]),
        stderr: {
          write: (text: string) => {
            stderr += text;
          },
        },
      },
      { REDIS_URL: redis.url, ASK_LATER_REDIS_PREFIX: prefix, ASK_LATER_PROJECT: project, HOME: freshHome() },
      '/tmp',
      { store: counted, signal: stop.signal, retryMs: { first: STEP, max: STEP }, onWait: () => waits++ },
    );
    await expect.poll(() => waits, { message: 'the waiter waits' }).toBe(1);

    await outage(() => backingOff === 1, loadDelayUs);
    // It looks again (and waits again) once the store is back.
    await expect.poll(() => waits, { message: 'the waiter waits again' }).toBe(2);
    await (await openStore(prefix)).answer(project, 1, { choices: ['SQLite'], other: false }, person());
    expect(await done).toBe(WAKE_EXIT_CODE);
    expect(stderr).toBe('#1 (blocking) was answered on Slack. Call the collect_answers tool to read it.\n');
  });
});
