import { afterEach, describe, expect, it } from 'vitest';
import type { Question } from '../../src/core/question.js';
import { until } from '../bot/slack/harness.js';
import { FakeDiscord } from '../fakes/discord.js';
import { FakeSlackApi } from '../fakes/slack-api.js';
import { isChat } from '../support/messages.js';
import { openTestStore, spec, uniquePrefix, uniqueProject } from '../support/store.js';
import { sleep, startReplica } from './support.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** How many times each question was posted to a platform (by the question ref its message carries). */
function slackPostsPerRef(slack: FakeSlackApi): Map<string, number> {
  const counts = new Map<string, number>();
  for (const call of slack.callsOf('chat.postMessage')) {
    const ref = (call.body.metadata as { event_payload?: { ref?: string } } | undefined)?.event_payload?.ref;
    if (ref !== undefined) counts.set(ref, (counts.get(ref) ?? 0) + 1);
  }
  return counts;
}

describe('replicas against one Redis', () => {
  it('GIVEN two bridges and 200 questions, one killed mid-way THEN the other finishes: exactly 200 posts per platform, no duplicate', async () => {
    const slack = await new FakeSlackApi().start();
    const discord = await new FakeDiscord().start();
    cleanup.push(
      () => slack.stop(),
      () => discord.stop(),
    );
    const prefix = uniquePrefix();
    const store = await openTestStore({ prefix });
    cleanup.push(() => store.close());
    // Each replica on a store connection of its own; killing one = dropping its connection, no clean shutdown.
    const storeA = await openTestStore({ prefix });
    const storeB = await openTestStore({ prefix });
    cleanup.push(() => storeB.close());
    const bridge = { blockMs: 50, retryBaseMs: 10, reclaimIdleMs: 500 };
    const a = await startReplica({ prefix, slack, discord, deps: { store: storeA, bridge, replica: 'replica-a' } });
    const b = await startReplica({ prefix, slack, discord, deps: { store: storeB, bridge, replica: 'replica-b' } });
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
    await until(() => slack.callsOf('chat.postMessage').length >= 40, 'work under way', 15_000);
    storeA.close().catch(() => undefined);
    await parking;

    const allPosted = async () => {
      const lists = await Promise.all(projects.map((project) => store.list(project)));
      return lists.flat().filter((q) => q.messages.filter(isChat).length === 2).length === 200;
    };
    await until(allPosted, 'every question posted on both platforms by the surviving bridge', 30_000);
    await sleep(300); // anything late would show now

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
