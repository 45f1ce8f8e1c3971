/**
 * Already decided across sessions, through serve: a question answered on Slack is recognised when a later session
 * asks it again in other words (nothing parked); asked again with `askAgain`, the new question's Slack message and
 * web card show the earlier decision.
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { StructuredResult } from '../../src/agents/mcp/structured.js';
import { openRedisStore, type RedisStore } from '../../src/store/redis/redis-store.js';
import { FakeSlackApi } from '../fakes/slack-api.js';
import { type Replica, startReplica } from '../ops/support.js';
import { connectClient, textOf } from '../support/mcp.js';
import { person, uniquePrefix, uniqueProject } from '../support/store.js';
import { postOf } from '../surfaces/slack/harness.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

describe('already decided, through serve', () => {
  it('GIVEN a decision answered on Slack WHEN a later session asks it in other words THEN nothing is parked; WHEN it asks again with askAgain THEN Slack and the web inbox show the earlier decision', async () => {
    const slack = await new FakeSlackApi().start();
    cleanup.push(() => slack.stop());
    const prefix = uniquePrefix();
    const replica: Replica = await startReplica({ prefix, slack });
    cleanup.push(() => replica.serve.stop());
    const store: RedisStore = await openRedisStore({ url: inject('redisUrl'), prefix });
    cleanup.push(() => store.close());
    const project = uniqueProject('decided-serve');
    const session = (name: string) => connectClient({ project, store: async () => store, version: name });

    const first = await session('first');
    await first.callTool({
      name: 'ask_later',
      arguments: {
        context: 'Billing moves off the monolith.',
        question: 'Which database should billing use?',
        impact: 'Decides the schema scripts.',
        isBlocking: true,
        options: ['Postgres', 'SQLite'],
      },
    });
    await expect.poll(() => postOf(slack, { project, id: 1 }) !== undefined).toBe(true);
    await store.answer(project, 1, { choices: ['Postgres'], other: false, notes: 'Ops runs it.' }, person('UADA'));

    const later = await session('later');
    const paraphrase = {
      context: 'The billing service needs a datastore.',
      question: 'What database does billing use?',
      impact: 'Decides the migration.',
      isBlocking: true,
      options: ['Postgres', 'MySQL'],
    };
    const recognised = await later.callTool({ name: 'ask_later', arguments: paraphrase });
    expect(textOf(recognised)).toMatch(/^Not parked/);
    expect((recognised.structuredContent as StructuredResult).questions.map((q) => q.id)).toEqual([1]);
    expect((await store.list(project)).map((q) => q.id)).toEqual([1]);

    const again = await later.callTool({
      name: 'ask_later',
      arguments: { ...paraphrase, context: 'Billing now needs JSON columns MySQL lacks.', askAgain: true },
    });
    expect(textOf(again)).toMatch(/^Parked as #2/);
    const line = /Asked before: #1, answered \d{4}-\d\d-\d\d by Person UADA on Slack: Postgres/;
    await expect.poll(() => JSON.stringify(postOf(slack, { project, id: 2 })?.body.blocks ?? '')).toMatch(line);
    const page = await (await fetch(replica.serve.url)).text();
    expect(page).toMatch(line);
  });
});
