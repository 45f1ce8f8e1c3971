import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Store } from '../../../src/store/port.js';
import { openRedisStore, type RedisStore } from '../../../src/store/redis/redis-store.js';
import { StoreUnavailableError } from '../../../src/store/store-unavailable-error.js';
import { connectClient, isError, textOf } from '../../support/mcp.js';
import { createRedisUser, type RedisUser } from '../../support/redis-user.js';
import { openTestStore, person, spec, uniquePrefix, uniqueProject } from '../../support/store.js';

let store: RedisStore;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(async () => {
  await store.close();
});

const question = {
  context: 'Billing moves off the monolith.',
  question: 'Which database should billing use?',
  impact: 'Decides the migration scripts.',
  isBlocking: true,
  options: ['Postgres', { label: 'SQLite', description: 'One file' }],
  recommended: 'Postgres',
};

async function clientFor(project: string, extra: { progressIntervalMs?: number; store?: () => Promise<Store> } = {}) {
  return connectClient({ project, store: async () => store, version: 'test', ...extra });
}

describe('tools/list', () => {
  it('GIVEN a client THEN it sees the six tools for the model and the capture hook’s, with described fields and the right annotations', async () => {
    // As `ask-later mcp` serves them (serve's /mcp, on another machine than the session, has no capture: mcp-http.test.ts).
    const client = await connectClient({
      project: uniqueProject(),
      store: async () => store,
      version: 'test',
      capture: { mode: { kind: 'park' }, inbox: 'the web inbox', stateDir: '/nonexistent' },
    });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'ask_later',
      'get_answer',
      'list_questions',
      'cancel_question',
      'collect_answers',
      'find_decisions',
      'capture_question',
    ]);
    expect(tools.find((t) => t.name === 'capture_question')?.description).toMatch(/Do not call it yourself/);
    const ask = tools.find((t) => t.name === 'ask_later');
    const properties = ask?.inputSchema.properties as Record<string, { description?: string }>;
    for (const field of [
      'context',
      'question',
      'impact',
      'isBlocking',
      'options',
      'recommended',
      'multiSelect',
      'ticket',
      'expiresInSeconds',
      'waitSeconds',
    ]) {
      expect(properties[field]?.description, field).toBeTruthy();
    }
    // One question's own fields are required by the tool's checks unless a set (`questions`) replaces them.
    expect(ask?.inputSchema.required).toEqual(['context', 'impact']);
    expect(properties.questions?.description).toMatch(/a set of 2 to 4 related questions/);
    for (const name of ['ask_later', 'get_answer', 'list_questions', 'collect_answers']) {
      expect(tools.find((t) => t.name === name)?.outputSchema?.required, name).toEqual(['note', 'questions']);
    }
    expect(tools.find((t) => t.name === 'cancel_question')?.outputSchema).toBeUndefined();
    expect(ask?.description).toMatch(/Do not park/);
    expect(tools.find((t) => t.name === 'get_answer')?.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((t) => t.name === 'list_questions')?.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((t) => t.name === 'collect_answers')?.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((t) => t.name === 'cancel_question')?.annotations?.destructiveHint).toBe(true);
    await client.close();
  });
});

describe('ask_later', () => {
  it('GIVEN a blocking question THEN it is stored and the result says not to go ahead on what depends on it', async () => {
    const project = uniqueProject();
    const client = await clientFor(project);
    const result = await client.callTool({ name: 'ask_later', arguments: question });
    expect(isError(result)).toBe(false);
    expect(textOf(result)).toMatch(/^Parked as #1 \(blocking\)/);
    expect(textOf(result)).toContain('Do not go ahead on what depends on it; carry on with the rest');
    const stored = await store.get(project, 1);
    expect(stored).toMatchObject({
      question: question.question,
      isBlocking: true,
      options: [{ label: 'Postgres' }, { label: 'SQLite', description: 'One file' }],
    });
    await client.close();
  });

  it('GIVEN a non-blocking question THEN the result says carry on, the answer comes in a later prompt', async () => {
    const client = await clientFor(uniqueProject());
    const result = await client.callTool({ name: 'ask_later', arguments: { ...question, isBlocking: false } });
    expect(textOf(result)).toContain('Carry on; the answer comes in a later prompt.');
    await client.close();
  });

  it.each([
    [{ ...question, options: [] }, /`options` must have 1 to 6 entries, got 0/],
    [{ ...question, question: 'two\nlines' }, /`question` must be one line/],
    [{ ...question, recommended: 'MySQL' }, /`recommended`/],
    [{ ...question, isBlocked: true }, /isBlocked/],
    [{ ...question, waitSeconds: 900 }, /`waitSeconds` must be an integer from 0 to 600, got 900/],
  ])('GIVEN a call that breaks a rule THEN an isError result with the reason, and nothing stored', async (args, reason) => {
    const project = uniqueProject();
    const client = await clientFor(project);
    const result = await client.callTool({ name: 'ask_later', arguments: args });
    expect(isError(result)).toBe(true);
    expect(textOf(result)).toMatch(/nothing was stored/);
    expect(textOf(result)).toMatch(reason);
    expect(await store.list(project)).toEqual([]);
    await client.close();
  });
});

describe('get_answer', () => {
  it('GIVEN pending, then answered THEN it reports each; the answer read here is not delivered again', async () => {
    const project = uniqueProject();
    const client = await clientFor(project);
    await client.callTool({ name: 'ask_later', arguments: question });
    const pending = await client.callTool({ name: 'get_answer', arguments: { id: 1 } });
    expect(textOf(pending)).toMatch(/#1 is still pending/);
    await store.answer(project, 1, { choices: ['SQLite'], other: false, notes: 'Keep it small' }, person('U1'));
    const answered = await client.callTool({ name: 'get_answer', arguments: { id: '#1' } });
    expect(textOf(answered)).toContain('Answer: SQLite');
    expect(textOf(answered)).toContain('> Keep it small');
    expect(textOf(answered)).toContain("person's words");
    expect((await store.get(project, 1))?.status).toBe('delivered');
    expect((await store.claimUndelivered(project, { budget: 9000, leaseMs: 1000 })).questions).toEqual([]);
    await client.close();
  });

  it.each([
    [{ id: 0 }, /Expected `id` to be a question id/],
    [{ id: 'seven' }, /Expected `id` to be a question id/],
    [{}, /Expected `id` to be a question id such as 7 or "#7", got nothing/],
    [{ id: 1, project: 'other' }, /takes one field, `id`; got also project/],
  ])('GIVEN bad arguments THEN an isError result says what was expected', async (args, reason) => {
    const client = await clientFor(uniqueProject());
    const result = await client.callTool({ name: 'get_answer', arguments: args });
    expect(isError(result)).toBe(true);
    expect(textOf(result)).toMatch(reason);
    await client.close();
  });

  it("GIVEN another project's question THEN it is unknown here", async () => {
    const theirs = uniqueProject('theirs');
    await store.park(theirs, {
      ...question,
      options: [{ label: 'Postgres' }],
      multiSelect: false,
      recommended: ['Postgres'],
    });
    const client = await clientFor(uniqueProject('mine'));
    const result = await client.callTool({ name: 'get_answer', arguments: { id: 1 } });
    expect(isError(result)).toBe(true);
    expect(textOf(result)).toBe('There is no question #1 in this project.');
    await client.close();
  });
});

describe('list_questions', () => {
  it('GIVEN several questions THEN it lists this project only, blocking first, filterable', async () => {
    const project = uniqueProject();
    const client = await clientFor(project);
    await client.callTool({
      name: 'ask_later',
      arguments: { ...question, isBlocking: false, question: 'Name the queue?' },
    });
    await client.callTool({ name: 'ask_later', arguments: { ...question, question: 'Which database?' } });
    await store.answer(project, 2, { choices: ['Postgres'], other: false }, person('U9'));
    const all = textOf(await client.callTool({ name: 'list_questions', arguments: {} }));
    expect(all.split('\n')).toEqual([
      '#2 [answered, blocking] Which database? → Postgres (Person U9 on Slack)',
      '#1 [pending, can wait] Name the queue?',
    ]);
    const pending = textOf(await client.callTool({ name: 'list_questions', arguments: { status: 'pending' } }));
    expect(pending).toBe('#1 [pending, can wait] Name the queue?');
    const none = textOf(
      await client.callTool({ name: 'list_questions', arguments: { status: ['expired'], blocking: true } }),
    );
    expect(none).toBe('No questions match in this project.');
    const bad = await client.callTool({ name: 'list_questions', arguments: { status: 'open' } });
    expect(isError(bad)).toBe(true);
    expect(textOf(bad)).toMatch(/`status` \(one of pending, answered/);
    await client.close();
  });
});

describe('list_questions paging', () => {
  it('GIVEN more questions than a page THEN it shows the limit, says how many more, and the cursor reads the rest', async () => {
    const project = uniqueProject();
    const client = await clientFor(project);
    for (let i = 0; i < 5; i++) {
      await client.callTool({
        name: 'ask_later',
        arguments: { ...question, isBlocking: i === 3, question: `Question ${i + 1}?` },
      });
    }
    const first = textOf(await client.callTool({ name: 'list_questions', arguments: { limit: 2 } })).split('\n');
    expect(first.slice(0, 2)).toEqual(['#4 [pending, blocking] Question 4?', '#1 [pending, can wait] Question 1?']);
    const cursor = /after="([^"]+)"/.exec(first[2] ?? '')?.[1];
    expect(first[2]).toMatch(/^…and 3 more: call list_questions again with after="/);
    const second = textOf(
      await client.callTool({ name: 'list_questions', arguments: { limit: 2, after: cursor ?? '' } }),
    ).split('\n');
    expect(second.slice(0, 2)).toEqual(['#2 [pending, can wait] Question 2?', '#3 [pending, can wait] Question 3?']);
    expect(second[2]).toMatch(/^…and 1 more/);
    const tooMany = await client.callTool({ name: 'list_questions', arguments: { limit: 500 } });
    expect(isError(tooMany)).toBe(true);
    expect(textOf(tooMany)).toMatch(/`limit` \(1–50\)/);
    await client.close();
  });

  it('GIVEN 60 questions and no limit THEN the default page of 20 and "40 more"', async () => {
    const project = uniqueProject();
    for (let i = 0; i < 60; i++) await store.park(project, spec());
    const client = await clientFor(project);
    const lines = textOf(await client.callTool({ name: 'list_questions', arguments: {} })).split('\n');
    expect(lines).toHaveLength(21);
    expect(lines[20]).toMatch(/^…and 40 more/);
    await client.close();
  });
});

describe('cancel_question', () => {
  it('GIVEN a pending question THEN it is withdrawn; again THEN refused as no longer pending', async () => {
    const project = uniqueProject();
    const client = await clientFor(project);
    await client.callTool({ name: 'ask_later', arguments: question });
    const done = await client.callTool({ name: 'cancel_question', arguments: { id: 1 } });
    expect(isError(done)).toBe(false);
    expect(textOf(done)).toMatch(/^Withdrew #1/);
    expect((await store.get(project, 1))?.status).toBe('cancelled');
    const again = await client.callTool({ name: 'cancel_question', arguments: { id: 1 } });
    expect(isError(again)).toBe(true);
    expect(textOf(again)).toMatch(/no longer pending/);
    await client.close();
  });

  it('GIVEN an answered question THEN nothing is withdrawn and the agent gets the answer', async () => {
    const project = uniqueProject();
    const client = await clientFor(project);
    await client.callTool({ name: 'ask_later', arguments: question });
    await store.answer(project, 1, { choices: ['Postgres'], other: false }, person('UA'));
    const result = await client.callTool({ name: 'cancel_question', arguments: { id: 1 } });
    expect(isError(result)).toBe(true);
    expect(textOf(result)).toMatch(/already answered, so it was not withdrawn/);
    expect(textOf(result)).toContain('Answer: Postgres');
    expect((await store.get(project, 1))?.status).toBe('delivered');
    await client.close();
  });

  it("GIVEN an unknown id or another project's question THEN refused, and theirs is untouched", async () => {
    const theirs = uniqueProject('theirs');
    await store.park(theirs, {
      ...question,
      options: [{ label: 'Postgres' }],
      multiSelect: false,
      recommended: ['Postgres'],
    });
    const client = await clientFor(uniqueProject('mine'));
    const result = await client.callTool({ name: 'cancel_question', arguments: { id: 1 } });
    expect(textOf(result)).toBe('There is no question #1 in this project.');
    expect((await store.get(theirs, 1))?.status).toBe('pending');
    await client.close();
  });
});

describe('waitSeconds', () => {
  // The waits run on a store connected as a Redis user of their own: the waiter's XREAD is then seen blocked (its
  // connection in CLIENT LIST) before the test answers, so each test goes through the wake-up, not the first look.
  let user: RedisUser;
  let waitingStore: RedisStore;
  beforeAll(async () => {
    user = await createRedisUser(inject('redisUrl'));
    waitingStore = await openRedisStore({ url: user.url, prefix: uniquePrefix() });
  });
  afterAll(async () => {
    await waitingStore.close();
    await user.remove();
  });
  const waitingClient = (project: string, progressIntervalMs?: number) =>
    clientFor(project, { store: async () => waitingStore, ...(progressIntervalMs ? { progressIntervalMs } : {}) });

  it('GIVEN an answer while the call waits THEN the call returns it at once, with progress reported', async () => {
    const project = uniqueProject();
    const client = await waitingClient(project, 20);
    const progress: number[] = [];
    const call = client.callTool({ name: 'ask_later', arguments: { ...question, waitSeconds: 30 } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    await expect.poll(() => user.blockedReads()).toBe(1);
    await expect.poll(() => progress.length).toBeGreaterThanOrEqual(2);
    await waitingStore.answer(project, 1, { choices: [], other: true, notes: 'Use DynamoDB' }, person('UW'));
    const result = await call;
    expect(textOf(result)).toMatch(/^#1 got its outcome while you waited/);
    expect(textOf(result)).toContain('> Use DynamoDB');
    expect((await waitingStore.get(project, 1))?.status).toBe('delivered');
    expect(await user.blockedReads()).toBe(0);
    await client.close();
  });

  it('GIVEN no answer THEN the call returns still pending at the end of the wait', async () => {
    const project = uniqueProject();
    const client = await waitingClient(project);
    const result = await client.callTool({ name: 'ask_later', arguments: { ...question, waitSeconds: 1 } });
    expect(textOf(result)).toMatch(/Still pending after waiting 1 s; the answer will come in a later prompt/);
    expect((await waitingStore.get(project, 1))?.status).toBe('pending');
    await client.close();
  });

  it('GIVEN the person dismisses it while the call waits THEN the call says so', async () => {
    const project = uniqueProject();
    const client = await waitingClient(project);
    const call = client.callTool({ name: 'ask_later', arguments: { ...question, waitSeconds: 30 } });
    await expect.poll(() => user.blockedReads()).toBe(1);
    await waitingStore.dismiss(project, 1, person('UD'));
    expect(textOf(await call)).toMatch(/#1 dismissed unanswered by Person UD on Slack/);
    await client.close();
  });

  it('GIVEN the client cancels the call while it waits THEN the server stops waiting', async () => {
    const project = uniqueProject();
    const client = await waitingClient(project);
    const controller = new AbortController();
    const call = client.callTool({ name: 'ask_later', arguments: { ...question, waitSeconds: 600 } }, undefined, {
      signal: controller.signal,
    });
    await expect.poll(() => user.blockedReads()).toBe(1);
    controller.abort();
    await expect(call).rejects.toThrow();
    await expect.poll(() => user.blockedReads()).toBe(0);
    expect((await waitingStore.get(project, 1))?.status).toBe('pending');
    await client.close();
  });
});

describe('store unreachable', () => {
  it('GIVEN the store cannot be reached THEN every tool says the inbox is unreachable, without details', async () => {
    const client = await connectClient({
      project: uniqueProject(),
      version: 'test',
      // Refuse at once: the wait for a store coming back is the stdio tests' (a real Redis stopped and restarted).
      outageWaitMs: 0,
      store: async () => {
        throw new StoreUnavailableError({ cause: new Error('connect ECONNREFUSED 127.0.0.1:6390') });
      },
    });
    for (const [name, args] of [
      ['ask_later', question],
      ['get_answer', { id: 1 }],
      ['list_questions', {}],
      ['cancel_question', { id: 1 }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      expect(isError(result), name).toBe(true);
      expect(textOf(result)).toMatch(/inbox is unreachable/);
      expect(textOf(result)).toMatch(/call this tool again in a minute: for a question, retry ask_later then/);
      expect(textOf(result)).toMatch(/Do not ask the person in the terminal/);
      expect(textOf(result)).not.toMatch(/ask the person directly/);
      expect(textOf(result)).not.toMatch(/6390|ECONNREFUSED|al:|Error/);
    }
    await client.close();
  });

  it('GIVEN an unknown tool THEN a protocol error, not a tool result', async () => {
    const client = await clientFor(uniqueProject());
    await expect(client.callTool({ name: 'ask_now', arguments: {} })).rejects.toThrow(/Unknown tool/);
    await client.close();
  });
});
