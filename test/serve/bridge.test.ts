import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Bridge, type BridgeOptions, pause } from '../../src/serve/bridge/bridge.js';
import type { EventConsumer, Store } from '../../src/store/port.js';
import { StoreUnavailableError } from '../../src/store/store-unavailable-error.js';
import { openTestStore, person, spec, uniqueProject } from '../support/store.js';
import { RecordingSurface } from '../surfaces/recording-surface.js';
import { RecordingLogger } from '../surfaces/slack/harness.js';

const open: { stop: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.stop();
});

async function setup(options: { reclaimIdleMs?: number; routes?: (project: string) => readonly string[] } = {}) {
  const store = await openTestStore();
  const routes = options.routes ?? (() => ['C-team']);
  const slack = new RecordingSurface('slack', routes);
  const discord = new RecordingSurface('discord', () => ['D-team']);
  const web = new RecordingSurface('web', () => ['local']);
  const start = async (name: string, surfaces = [slack, discord], more: Partial<BridgeOptions> = {}) => {
    const bridge = new Bridge({
      store,
      surfaces,
      consumerName: name,
      blockMs: 50,
      retryBaseMs: 5,
      reclaimIdleMs: options.reclaimIdleMs ?? 30_000,
      ...more,
    });
    await bridge.start();
    open.push(bridge);
    return bridge;
  };
  open.push({ stop: () => store.close() });
  return { store, slack, discord, web, start };
}

describe('the bridge', () => {
  it('GIVEN a parked question THEN it is posted once on every routed surface and the copies are recorded', async () => {
    const { store, slack, discord, start } = await setup();
    await start('b1');
    const project = uniqueProject();
    await store.park(project, spec());
    await expect
      .poll(async () => (await store.get(project, 1))?.messages.length === 2, { message: 'both copies are recorded' })
      .toBe(true);
    expect(slack.posts.map((p) => p.channel)).toEqual(['C-team']);
    expect(discord.posts.map((p) => p.channel)).toEqual(['D-team']);
    expect(slack.posts[0]?.maybePostedBefore).toBe(false);
  });

  it('GIVEN an answer THEN every copy is redrawn showing it; delivery redraws again', async () => {
    const { store, slack, discord, start } = await setup();
    await start('b1');
    const project = uniqueProject();
    await store.park(project, spec());
    await expect
      .poll(async () => (await store.get(project, 1))?.messages.length === 2, { message: 'posted' })
      .toBe(true);
    await store.answer(project, 1, { choices: ['SQLite'], other: false }, person());
    await expect
      .poll(() => slack.updates.length === 1 && discord.updates.length === 1, { message: 'both copies redrawn' })
      .toBe(true);
    expect(slack.updates[0]?.question.status).toBe('answered');
    expect(slack.updates[0]?.ref).toEqual({ platform: 'slack', channel: 'C-team', messageId: 'm1' });
    const claim = await store.claimUndelivered(project, { budget: 9000, leaseMs: 5000 });
    await store.confirmClaim(project, claim);
    await expect
      .poll(() => slack.updates.length === 2 && discord.updates.length === 2, { message: 'redrawn as delivered' })
      .toBe(true);
    expect(discord.updates[1]?.question.status).toBe('delivered');
  });

  it('GIVEN a project routed nowhere on a surface THEN that surface posts nothing', async () => {
    const { store, slack, discord, start } = await setup({ routes: () => [] });
    await start('b1');
    const project = uniqueProject();
    await store.park(project, spec());
    await expect
      .poll(async () => (await store.get(project, 1))?.messages.length === 1, { message: 'the Discord copy' })
      .toBe(true);
    expect(slack.posts).toEqual([]);
    expect(discord.posts).toHaveLength(1);
  });

  it('GIVEN the platform failing twice THEN the bridge retries and the question is posted once, flagged as a retry', async () => {
    const { store, slack, start } = await setup();
    slack.failNext = 2;
    await start('b1');
    const project = uniqueProject();
    await store.park(project, spec());
    await expect
      .poll(async () => (await store.get(project, 1))?.messages.length === 2, { message: 'posted after retries' })
      .toBe(true);
    expect(slack.posts).toHaveLength(1);
    expect(slack.posts[0]?.maybePostedBefore).toBe(true);
  });

  it('GIVEN an event handled twice (redelivered) THEN nothing is posted twice', async () => {
    const { store, slack, discord, start } = await setup();
    const bridge = await start('b1');
    const project = uniqueProject();
    const q = await store.park(project, spec());
    await expect
      .poll(async () => (await store.get(project, 1))?.messages.length === 2, { message: 'posted' })
      .toBe(true);
    await bridge.handle({ eventId: 'x', type: 'parked', project, questionId: q.id, at: 0 }, true);
    expect(slack.posts).toHaveLength(1);
    expect(discord.posts).toHaveLength(1);
  });

  it('GIVEN two bridges THEN each question is posted once per channel, and a bridge that stops leaves its work to the other', async () => {
    // A stopping bridge finishes and acknowledges what it read, so nothing here needs reclaiming; a short idle time
    // would let b2 reclaim an event b1 is still posting on a loaded machine (the next test covers reclaiming).
    const { store, slack, discord, start } = await setup({ reclaimIdleMs: 60_000 });
    const first = await start('b1');
    await start('b2');
    const project = uniqueProject();
    for (let i = 0; i < 30; i++) await store.park(project, spec());
    await first.stop();
    for (let i = 0; i < 10; i++) await store.park(project, spec());
    await expect
      .poll(async () => (await store.list(project)).every((q) => q.messages.length === 2), { message: 'all 40 posted' })
      .toBe(true);
    const slackIds = slack.posts.map((p) => p.question.id).sort((a, b) => a - b);
    expect(slackIds).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(discord.posts).toHaveLength(40);
  });

  it('GIVEN a bridge that read events and died THEN a live one reclaims them after the idle time and posts, flagged', async () => {
    const { store, slack, start } = await setup({ reclaimIdleMs: 200 });
    const project = uniqueProject();
    const dead = await store.consumer('bridge:slack', 'dead');
    await dead.read();
    await store.park(project, spec());
    expect(await dead.read()).toHaveLength(1);
    await dead.close();
    await start('alive', [slack]);
    await expect
      .poll(async () => (await store.get(project, 1))?.messages.length === 1, { message: 'posted by the live bridge' })
      .toBe(true);
    expect(slack.posts).toHaveLength(1);
    expect(slack.posts[0]?.maybePostedBefore).toBe(true);
  });

  it('GIVEN a question answered before the bridge ever saw it THEN it is posted showing the answer', async () => {
    const { store, slack, start } = await setup();
    const project = uniqueProject();
    await store.park(project, spec());
    await store.answer(project, 1, { choices: ['SQLite'], other: false }, person());
    await start('late');
    await expect
      .poll(async () => (await store.get(project, 1))?.messages.length === 2, { message: 'posted' })
      .toBe(true);
    const statuses = [...slack.posts.map((p) => p.question.status), ...slack.updates.map((u) => u.question.status)];
    expect(statuses.at(-1)).toBe('answered');
  });

  it('GIVEN Slack refusing every post THEN Discord and the web inbox still get every question, and Slack’s attempts per event are bounded', async () => {
    const { store, slack, discord, web, start } = await setup();
    slack.failNext = Number.POSITIVE_INFINITY;
    await start('b1', [slack, discord, web], { attempts: 3, retryBaseMs: 1, retryMaxMs: 2 });
    const project = uniqueProject();
    for (let i = 0; i < 5; i++) await store.park(project, spec());
    await vi.waitFor(() => {
      expect(discord.posts).toHaveLength(5);
      expect(web.posts).toHaveLength(5);
    });
    await vi.waitFor(() => expect(slack.calls).toBe(15)); // 3 attempts for each of the 5 events, then it moves on
    expect(slack.posts).toEqual([]);
    await store.answer(project, 1, { choices: ['SQLite'], other: false }, person());
    await vi.waitFor(() => expect(discord.updates.map((u) => u.question.status)).toEqual(['answered']));

    // Slack's parked events were recorded as failed, with the attempts and the surface's failure code.
    await vi.waitFor(async () => {
      const failed = await store.failedEvents({ sample: 10 });
      expect(failed.map((g) => [g.group, g.count])).toEqual([['bridge:slack', 6]]);
    });
    const [slackFailed] = await store.failedEvents({ sample: 10 });
    expect(slackFailed?.sample.every((f) => f.attempts === 3 && f.error === 'Error')).toBe(true);

    // Slack is back and a person replays them: every question is posted once, and nothing is left failed.
    slack.failNext = 0;
    expect(await store.replayFailedEvents()).toBe(6);
    await vi.waitFor(() => expect(slack.posts.map((p) => p.question.id).sort()).toEqual([1, 2, 3, 4, 5]));
    expect(await store.failedEvents()).toEqual([]);
    const posted = await store.get(project, 1);
    expect(posted?.messages.map((m) => m.platform).sort()).toEqual(['discord', 'slack', 'web']);
  });

  it('GIVEN a refusal of one event’s payload (permanent, this event alone) THEN it is tried once and recorded, a warning each, and the surface is not degraded', async () => {
    const { store, slack, discord, start } = await setup();
    const logger = new RecordingLogger();
    slack.failNext = 2;
    slack.failure = { kind: 'permanent', code: 'invalid_blocks', reach: 'event', fix: 'report it' };
    await start('b1', [slack, discord], { attempts: 5, logger });
    const project = uniqueProject();
    for (let i = 0; i < 3; i++) await store.park(project, spec());
    await vi.waitFor(() => expect(slack.posts.map((p) => p.question.id)).toEqual([3]));
    await vi.waitFor(async () => {
      const [failed] = await store.failedEvents({ sample: 10 });
      expect(failed?.sample.map((f) => [f.event.questionId, f.attempts, f.error]).sort()).toEqual([
        [1, 1, 'invalid_blocks'],
        [2, 1, 'invalid_blocks'],
      ]);
    });
    expect(slack.calls).toBe(3);
    const warnings = logger.lines.filter((line) => line.level === 'warn');
    expect(warnings.map((line) => [line.fields.questionId, line.fields.fix])).toEqual([
      [1, 'report it'],
      [2, 'report it'],
    ]);
    expect(await store.surfaceFaults()).toEqual([]);
  });

  it('GIVEN the store away while an event is in hand THEN no attempt is spent on it: the event waits for the store and is posted once', async () => {
    const real = await openTestStore();
    open.push({ stop: () => real.close() });
    let away = 0;
    // The real store, whose reads of a question fail `away` times (the store away mid-event).
    const flaky = new Proxy(real, {
      get(target, property) {
        if (property === 'get' && away > 0) {
          return () => {
            away--;
            return Promise.reject(new StoreUnavailableError());
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as Store;
    const logger = new RecordingLogger();
    const slack = new RecordingSurface('slack', () => ['C-team']);
    // One attempt per event: a store failure that spent it would record the event as failed.
    const bridge = new Bridge({
      store: flaky,
      surfaces: [slack],
      consumerName: 'b1',
      blockMs: 50,
      retryBaseMs: 1,
      retryMaxMs: 2,
      attempts: 1,
      logger,
    });
    await bridge.start();
    open.push(bridge);
    away = 6;
    const project = uniqueProject();
    await real.park(project, spec());
    await vi.waitFor(() => expect(slack.posts.map((p) => p.question.id)).toEqual([1]));
    expect(away).toBe(0);
    expect(slack.calls).toBe(1);
    expect(await real.failedEvents()).toEqual([]);
    expect(logger.lines.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
      'bridge: the store is away mid-event; waiting for it',
    ]);
  });

  it('GIVEN a group shared by every surface (an older bridge) THEN the surfaces’ own groups start where it got to', async () => {
    const { store, slack, discord, start } = await setup();
    const project = uniqueProject();
    await store.park(project, spec());
    const older = await store.consumer('bridge', 'older');
    await older.ack(await older.read());
    await older.close();
    await store.park(project, spec());
    await start('b1');
    await expect
      .poll(async () => (await store.get(project, 2))?.messages.length === 2, { message: '#2 posted' })
      .toBe(true);
    expect(slack.posts.map((p) => p.question.id)).toEqual([2]);
    expect(discord.posts.map((p) => p.question.id)).toEqual([2]);
  });

  it('GIVEN the store unreadable for many reads THEN each surface logs once when it starts failing and once when it reads again, and carries on', async () => {
    const real = await openTestStore();
    open.push({ stop: () => real.close() });
    let down = true;
    let reads = 0;
    const consumerOf = async (...args: Parameters<Store['consumer']>): Promise<EventConsumer> => {
      const consumer = await real.consumer(...args);
      const failing = <T>(work: () => Promise<T>) => {
        reads++;
        return down ? Promise.reject(new StoreUnavailableError()) : work();
      };
      return {
        read: (options) => failing(() => consumer.read(options)),
        reclaim: (idle, count) => failing(() => consumer.reclaim(idle, count)),
        ack: (events) => consumer.ack(events),
        close: () => consumer.close(),
      };
    };
    // The real store, whose consumers cannot read while `down`.
    const flaky = new Proxy(real, {
      get(target, property) {
        if (property === 'consumer') return consumerOf;
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as Store;
    const logger = new RecordingLogger();
    const slack = new RecordingSurface('slack', () => ['C-team']);
    const discord = new RecordingSurface('discord', () => ['D-team']);
    const bridge = new Bridge({
      store: flaky,
      surfaces: [slack, discord],
      consumerName: 'b1',
      blockMs: 50,
      retryBaseMs: 1,
      retryMaxMs: 4,
      logger,
    });
    await bridge.start();
    open.push(bridge);
    await vi.waitFor(() => expect(reads).toBeGreaterThanOrEqual(100), { timeout: 20_000 });
    const warnings = logger.lines.filter((l) => l.level === 'warn');
    expect(warnings.map((l) => l.fields.platform).sort()).toEqual(['discord', 'slack']);
    down = false;
    const project = uniqueProject();
    await real.park(project, spec());
    await vi.waitFor(() => expect(slack.posts.length + discord.posts.length).toBe(2));
    const again = logger.lines.filter((l) => l.message === 'bridge: reading events again');
    expect(again.map((l) => l.fields.platform).sort()).toEqual(['discord', 'slack']);
    expect(logger.lines.filter((l) => l.level === 'warn')).toHaveLength(2);
  });

  it('GIVEN two hundred pauses on one stop signal THEN no listener is left on it, and an abort ends a pause at once', async () => {
    const stop = new AbortController();
    for (let i = 0; i < 200; i++) expect(await pause(0, stop.signal)).toBe(true);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
    const long = pause(60_000, stop.signal);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
    stop.abort();
    expect(await long).toBe(false);
  });
});
