import { afterEach, describe, expect, inject, it } from 'vitest';
import type { Question } from '../../src/core/question.js';
import { ProjectKeys } from '../../src/store/redis/keys.js';
import { connectNodeRedis } from '../../src/store/redis/node-redis-connection.js';
import { FakeDiscord } from '../fakes/discord.js';
import { FakeSlackApi } from '../fakes/slack-api.js';
import { isChat } from '../support/messages.js';
import { openTestStore, spec, uniquePrefix, uniqueProject } from '../support/store.js';
import { sleep, startReplica } from './support.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/**
 * Per project stream, each surface's consumer group with its events not yet read (lag) plus read and not yet
 * acknowledged (pending), e.g. `bridge:slack 0`.
 */
async function eventsInFlight(url: string, prefix: string, projects: readonly string[]): Promise<string[]> {
  // Routed by slot when `url` names a Redis Cluster node.
  const raw = await connectNodeRedis(url, { connectTimeoutMs: 2000 });
  try {
    const found: string[] = [];
    for (const project of projects) {
      // Each group as a flat [field, value, …] list (RESP2).
      const groups = (await raw.sendCommand([
        'XINFO',
        'GROUPS',
        new ProjectKeys(prefix, project).events,
      ])) as unknown[][];
      for (const flat of groups) {
        const group: Record<string, unknown> = {};
        for (let i = 0; i + 1 < flat.length; i += 2) group[String(flat[i])] = flat[i + 1];
        const name = String(group.name);
        // lag is nil when Redis cannot tell (never here: the streams are not trimmed); count it as in flight.
        const lag = group.lag === null ? 1 : Number(group.lag);
        if (name.startsWith('bridge:')) found.push(`${name} ${Number(group.pending) + lag}`);
      }
    }
    return found.sort((a, b) => a.localeCompare(b));
  } finally {
    raw.close();
  }
}

/** How many times each question was posted to a platform (by the question ref its message carries). */
function slackPostsPerRef(slack: FakeSlackApi): Map<string, number> {
  const counts = new Map<string, number>();
  for (const call of slack.callsOf('chat.postMessage')) {
    const ref = (call.body.metadata as { event_payload?: { ref?: string } } | undefined)?.event_payload?.ref;
    if (ref !== undefined) counts.set(ref, (counts.get(ref) ?? 0) + 1);
  }
  return counts;
}

const servers = [
  { kind: 'one Redis', url: inject('redisUrl') },
  { kind: 'one Redis Cluster', url: inject('redisClusterUrl') },
] as const;

describe.each(servers)('replicas against $kind', ({ url }) => {
  it('GIVEN two bridges and 200 questions, one killed mid-way THEN the other finishes: exactly 200 posts per platform, no duplicate', async () => {
    const slack = await new FakeSlackApi().start();
    const discord = await new FakeDiscord().start();
    cleanup.push(
      () => slack.stop(),
      () => discord.stop(),
    );
    const prefix = uniquePrefix();
    const store = await openTestStore({ url, prefix });
    cleanup.push(() => store.close());
    // Each replica on a store connection of its own; killing one = dropping its connection, no clean shutdown.
    const storeA = await openTestStore({ url, prefix });
    const storeB = await openTestStore({ url, prefix });
    cleanup.push(() => storeB.close());
    const bridge = { blockMs: 50, retryBaseMs: 10, reclaimIdleMs: 500 };
    const a = await startReplica({
      url,
      prefix,
      slack,
      discord,
      deps: { store: storeA, bridge, replica: 'replica-a' },
    });
    const b = await startReplica({
      url,
      prefix,
      slack,
      discord,
      deps: { store: storeB, bridge, replica: 'replica-b' },
    });
    cleanup.push(
      () => b.serve.stop(),
      () => a.serve.stop(),
    );

    const projects = [uniqueProject('replicas-1'), uniqueProject('replicas-2'), uniqueProject('replicas-3')];
    const parked: Question[] = [];
    const parking = (async () => {
      for (let i = 0; i < 200; i++) {
        parked.push(await store.park(projects[i % projects.length] ?? '', spec({ question: `Question ${i}?` })));
        if (i % 20 === 19) await sleep(5);
      }
    })();

    // Kill A once the work is under way: its connection drops mid-event (posts may be out, not yet recorded).
    await expect.poll(() => slack.callsOf('chat.postMessage').length, { timeout: 15_000 }).toBeGreaterThanOrEqual(40);
    storeA.close().catch(() => undefined);
    await parking;

    const postedOnBoth = async () => {
      const lists = await Promise.all(projects.map((project) => store.list(project)));
      return lists.flat().filter((q) => q.messages.filter(isChat).length === 2).length;
    };
    await expect.poll(postedOnBoth, { timeout: 30_000 }).toBe(200);
    // Nothing can be posted late once every surface's group has read and acknowledged every event (A's included,
    // taken over by B).
    await expect
      .poll(() => eventsInFlight(url, prefix, projects), { timeout: 30_000 })
      .toEqual(['bridge:discord 0', 'bridge:slack 0', 'bridge:web 0'].flatMap((group) => projects.map(() => group)));

    const slackCounts = slackPostsPerRef(slack);
    expect(slack.callsOf('chat.postMessage')).toHaveLength(200);
    expect(slackCounts.size).toBe(200);
    expect([...slackCounts.values()].every((n) => n === 1)).toBe(true);
    // Discord: one message per question in the channel (a repeated create with the same nonce returns the first).
    expect(discord.messages.size).toBe(200);
    const nonces = new Set([...discord.messages.values()].map((m) => m.nonce));
    expect(nonces.size).toBe(200);
    // Both replicas did part of the work, and B took over what A left.
    expect(a.logger.lines.some((l) => l.message === 'bridge: event handled')).toBe(true);
    expect(b.logger.lines.some((l) => l.message === 'bridge: event handled')).toBe(true);
  }, 60_000);
});
