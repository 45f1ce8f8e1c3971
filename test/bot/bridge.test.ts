import { afterEach, describe, expect, it } from 'vitest';
import { Bridge } from '../../src/bot/bridge.js';
import { openTestStore, person, spec, uniqueProject } from '../support/store.js';
import { RecordingSurface } from './recording-surface.js';

const open: { stop: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.stop();
});

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting until ${what}`);
}

async function setup(options: { reclaimIdleMs?: number; routes?: (project: string) => readonly string[] } = {}) {
  const store = await openTestStore();
  const routes = options.routes ?? (() => ['C-team']);
  const slack = new RecordingSurface('slack', routes);
  const discord = new RecordingSurface('discord', () => ['D-team']);
  const start = async (name: string, surfaces = [slack, discord]) => {
    const bridge = new Bridge({
      store,
      surfaces,
      consumerName: name,
      blockMs: 50,
      retryBaseMs: 5,
      reclaimIdleMs: options.reclaimIdleMs ?? 30_000,
    });
    await bridge.start();
    open.push(bridge);
    return bridge;
  };
  open.push({ stop: () => store.close() });
  return { store, slack, discord, start };
}

describe('the bridge', () => {
  it('GIVEN a parked question THEN it is posted once on every routed surface and the copies are recorded', async () => {
    const { store, slack, discord, start } = await setup();
    await start('b1');
    const project = uniqueProject();
    await store.park(project, spec());
    await until(async () => (await store.get(project, 1))?.messages.length === 2, 'both copies are recorded');
    expect(slack.posts.map((p) => p.channel)).toEqual(['C-team']);
    expect(discord.posts.map((p) => p.channel)).toEqual(['D-team']);
    expect(slack.posts[0]?.maybePostedBefore).toBe(false);
  });

  it('GIVEN an answer THEN every copy is redrawn showing it; delivery redraws again', async () => {
    const { store, slack, discord, start } = await setup();
    await start('b1');
    const project = uniqueProject();
    await store.park(project, spec());
    await until(async () => (await store.get(project, 1))?.messages.length === 2, 'posted');
    await store.answer(project, 1, { choices: ['SQLite'], other: false }, person());
    await until(() => slack.updates.length === 1 && discord.updates.length === 1, 'both copies redrawn');
    expect(slack.updates[0]?.question.status).toBe('answered');
    expect(slack.updates[0]?.ref).toEqual({ platform: 'slack', channel: 'C-team', messageId: 'm1' });
    const claim = await store.claimUndelivered(project, { budget: 9000, leaseMs: 5000 });
    await store.confirmClaim(project, claim);
    await until(() => slack.updates.length === 2 && discord.updates.length === 2, 'redrawn as delivered');
    expect(discord.updates[1]?.question.status).toBe('delivered');
  });

  it('GIVEN a project routed nowhere on a surface THEN that surface posts nothing', async () => {
    const { store, slack, discord, start } = await setup({ routes: () => [] });
    await start('b1');
    const project = uniqueProject();
    await store.park(project, spec());
    await until(async () => (await store.get(project, 1))?.messages.length === 1, 'the Discord copy');
    expect(slack.posts).toEqual([]);
    expect(discord.posts).toHaveLength(1);
  });

  it('GIVEN the platform failing twice THEN the bridge retries and the question is posted once, flagged as a retry', async () => {
    const { store, slack, start } = await setup();
    slack.failNext = 2;
    await start('b1');
    const project = uniqueProject();
    await store.park(project, spec());
    await until(async () => (await store.get(project, 1))?.messages.length === 2, 'posted after retries');
    expect(slack.posts).toHaveLength(1);
    expect(slack.posts[0]?.maybePostedBefore).toBe(true);
  });

  it('GIVEN an event handled twice (redelivered) THEN nothing is posted twice', async () => {
    const { store, slack, discord, start } = await setup();
    const bridge = await start('b1');
    const project = uniqueProject();
    const q = await store.park(project, spec());
    await until(async () => (await store.get(project, 1))?.messages.length === 2, 'posted');
    await bridge.handle({ eventId: 'x', type: 'parked', project, questionId: q.id, at: 0 }, true);
    expect(slack.posts).toHaveLength(1);
    expect(discord.posts).toHaveLength(1);
  });

  it('GIVEN two bridges THEN each question is posted once per channel, and a bridge that stops leaves its work to the other', async () => {
    const { store, slack, discord, start } = await setup({ reclaimIdleMs: 200 });
    const first = await start('b1');
    await start('b2');
    const project = uniqueProject();
    for (let i = 0; i < 30; i++) await store.park(project, spec());
    await first.stop();
    for (let i = 0; i < 10; i++) await store.park(project, spec());
    await until(async () => (await store.list(project)).every((q) => q.messages.length === 2), 'all 40 posted');
    const slackIds = slack.posts.map((p) => p.question.id).sort((a, b) => a - b);
    expect(slackIds).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(discord.posts).toHaveLength(40);
  });

  it('GIVEN a bridge that read events and died THEN a live one reclaims them after the idle time and posts, flagged', async () => {
    const { store, slack, start } = await setup({ reclaimIdleMs: 200 });
    const project = uniqueProject();
    const dead = await store.consumer('bridge', 'dead');
    await dead.read();
    await store.park(project, spec());
    expect(await dead.read()).toHaveLength(1);
    await dead.close();
    await start('alive');
    await until(async () => (await store.get(project, 1))?.messages.length === 2, 'posted by the live bridge');
    expect(slack.posts).toHaveLength(1);
    expect(slack.posts[0]?.maybePostedBefore).toBe(true);
  });

  it('GIVEN a question answered before the bridge ever saw it THEN it is posted showing the answer', async () => {
    const { store, slack, start } = await setup();
    const project = uniqueProject();
    await store.park(project, spec());
    await store.answer(project, 1, { choices: ['SQLite'], other: false }, person());
    await start('late');
    await until(async () => (await store.get(project, 1))?.messages.length === 2, 'posted');
    const statuses = [...slack.posts.map((p) => p.question.status), ...slack.updates.map((u) => u.question.status)];
    expect(statuses.at(-1)).toBe('answered');
  });
});
