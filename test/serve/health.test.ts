import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../bot/slack/harness.js';
import { FakeDiscord } from '../fakes/discord.js';
import { FakeSlackApi } from '../fakes/slack-api.js';
import { startReplica } from '../ops/support.js';
import { openTestStore, uniquePrefix } from '../support/store.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function healthz(port: number | undefined) {
  const response = await fetch(`http://127.0.0.1:${port}/healthz`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('GET /healthz', () => {
  it('GIVEN Slack and Discord up THEN 200 with each part ok; the store down THEN 503 naming the store; stopping THEN 503 stopping', async () => {
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

    const port = replica.serve.port;
    const stopping = replica.serve.stop();
    // While it finishes its work, a load balancer sees it going.
    const during = await healthz(port).catch(() => undefined);
    if (during) expect(during.body.status).toBe('stopping');
    await stopping;
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
    await until(async () => (await healthz(replica.serve.port)).status === 503, 'the gateway is seen down');
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
