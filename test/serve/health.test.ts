import { afterEach, describe, expect, it } from 'vitest';
import { ACTION_IDS } from '../../src/render/slack/ids.js';
import type { Store } from '../../src/store/port.js';
import { FakeDiscord } from '../fakes/discord.js';
import { FakeSlackApi } from '../fakes/slack-api.js';
import { startReplica } from '../ops/support.js';
import { openTestStore, spec, uniquePrefix, uniqueProject } from '../support/store.js';
import { buttonAction, messageAction, postedMessage, Responder, refOf } from '../surfaces/slack/harness.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** `store` whose `answer` waits for `release` (once `entered` resolves, a Send is in the store's hands). */
function holdingAnswers(store: Store): { store: Store; entered: Promise<void>; release: () => void } {
  let enter: () => void = () => undefined;
  const entered = new Promise<void>((resolve) => {
    enter = resolve;
  });
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const holding = new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name, target) as unknown;
      if (typeof value !== 'function') return value;
      if (name !== 'answer') return (value as (...a: unknown[]) => unknown).bind(target);
      return async (...args: unknown[]) => {
        enter();
        await released;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: holding, entered, release };
}

async function healthz(port: number | undefined) {
  const response = await fetch(`http://127.0.0.1:${port}/healthz`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('GET /healthz', () => {
  it('GIVEN Slack and Discord up THEN 200 with each part ok; the store down THEN 503 naming the store', async () => {
    const slack = await new FakeSlackApi().start();
    const discord = await new FakeDiscord().start();
    cleanup.push(
      () => slack.stop(),
      () => discord.stop(),
    );
    const prefix = uniquePrefix();
    const store = await openTestStore({ prefix });
    const replica = await startReplica({ prefix, slack, discord, deps: { store } });
    cleanup.push(() => replica.serve.stop());

    expect(await healthz(replica.serve.port)).toEqual({
      status: 200,
      body: { status: 'ok', store: 'ok', slack: 'ok', discord: 'ok' },
    });

    await store.close();
    expect(await healthz(replica.serve.port)).toEqual({
      status: 503,
      body: { status: 'down', store: 'down', slack: 'ok', discord: 'ok' },
    });
  });

  it('GIVEN a Send being stored WHEN it is told to stop THEN 503 stopping while the Send finishes, then the Send is stored', async () => {
    const slack = await new FakeSlackApi().start();
    const responder = await new Responder().start();
    cleanup.push(
      () => slack.stop(),
      () => responder.stop(),
    );
    const prefix = uniquePrefix();
    const store = await openTestStore({ prefix });
    cleanup.push(() => store.close());
    const held = holdingAnswers(store);
    const replica = await startReplica({ prefix, slack, deps: { store: held.store } });
    cleanup.push(() => replica.serve.stop());
    const project = uniqueProject('stopping');
    const question = await store.park(project, spec());
    await expect.poll(() => postedMessage(slack, question)).toBeDefined();
    const message = postedMessage(slack, question);
    if (!message) throw new Error('not posted');

    const send = replica.interact(
      messageAction(
        { user: 'U0ANA', responder, message: { channel: message.channel, ts: message.ts, blocks: message.blocks } },
        buttonAction(ACTION_IDS.send, refOf(question)),
      ),
    );
    await held.entered;
    const stopping = replica.serve.stop();
    // While it finishes its work, a load balancer sees it going.
    expect(await healthz(replica.serve.port)).toMatchObject({ status: 503, body: { status: 'stopping', store: 'ok' } });
    held.release();
    await stopping;
    expect((await send).status).toBe(200);
    expect((await store.get(project, question.id))?.answer?.by.userId).toBe('U0ANA');
  });

  it('GIVEN the Discord gateway lost THEN 503 with discord down', async () => {
    const discord = await new FakeDiscord().start();
    cleanup.push(() => discord.stop());
    const replica = await startReplica({ prefix: uniquePrefix(), discord });
    cleanup.push(() => replica.serve.stop());
    expect(replica.serve.mode).toBe('none');
    expect(await healthz(replica.serve.port)).toEqual({
      status: 200,
      body: { status: 'ok', store: 'ok', discord: 'ok' },
    });

    // Discord goes away (the gateway closes and does not come back): discord.js keeps trying, /healthz says so.
    await discord.stop();
    await expect.poll(async () => (await healthz(replica.serve.port)).status).toBe(503);
    expect(await healthz(replica.serve.port)).toEqual({
      status: 503,
      body: { status: 'down', store: 'ok', discord: 'down' },
    });
  });

  it('GIVEN a report THEN it carries no ids, tokens or data: only the part names and ok/down', async () => {
    const slack = await new FakeSlackApi().start();
    cleanup.push(() => slack.stop());
    const replica = await startReplica({ prefix: uniquePrefix(), slack });
    cleanup.push(() => replica.serve.stop());
    const { body } = await healthz(replica.serve.port);
    expect(Object.keys(body).sort()).toEqual(['slack', 'status', 'store']);
    for (const value of Object.values(body)) expect(['ok', 'down', 'stopping']).toContain(value);
  });
});
