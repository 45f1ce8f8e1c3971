/**
 * The agent side of issue 16 through a real MCP client: parking a set, refusals naming the member, and every result
 * that carries an answer also carrying structured content (checked by the SDK client against the tool's
 * outputSchema) that reads on its own: labels, values, notes, notes per option, Other's text, who and when.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StructuredResult } from '../../../src/agents/mcp/structured.js';
import type { RedisStore } from '../../../src/store/redis/redis-store.js';
import { connectClient, isError, textOf } from '../../support/mcp.js';
import { openTestStore, person, uniqueProject } from '../../support/store.js';

let store: RedisStore;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(async () => {
  await store.close();
});

const SET = {
  context: 'Splitting the ledger out of billing.',
  impact: 'Decides the first milestone.',
  ticket: 'BILL-50',
  questions: [
    {
      topic: 'Database',
      question: 'Which database for the ledger?',
      options: [
        { label: 'Postgres', value: 'pg' },
        { label: 'SQLite', value: 'sqlite' },
      ],
      recommended: 'Postgres',
      isBlocking: true,
    },
    {
      topic: 'Caches',
      question: 'Which caches may it use?',
      options: ['Redis', 'In-process', 'None'],
      multiSelect: true,
      recommended: ['Redis', 'In-process'],
      isBlocking: false,
    },
    { topic: 'Naming', question: 'What do we call it?', options: ['ledger', 'billing-v2'], isBlocking: false },
  ],
};

const ANSWER = {
  members: [
    { choices: ['Postgres'], other: false, notes: 'We run it already.' },
    { choices: ['Redis', 'None'], other: false, choiceNotes: [{ choice: 'Redis', notes: 'Prices only.' }] },
    { choices: [], other: true, notes: 'Call it "books".' },
  ],
};

async function clientFor(project: string) {
  return connectClient({ project, store: async () => store, version: 'test' });
}

function structured(result: unknown): StructuredResult {
  return (result as CallToolResult).structuredContent as StructuredResult;
}

describe('parking a set', () => {
  it('GIVEN a set of three THEN one question #1 is stored, the result names each member, blocking as one of them blocks', async () => {
    const project = uniqueProject();
    const client = await clientFor(project);
    const result = await client.callTool({ name: 'ask_later', arguments: SET });
    expect(isError(result)).toBe(false);
    expect(textOf(result)).toBe(
      'Parked the set #1 (#1.1 Database, blocking; #1.2 Caches; #1.3 Naming); its answers arrive together. It is ' +
        'waiting for the person in chat. Do not go ahead on what depends on it; carry on with the rest. The answer ' +
        'comes in a later prompt (get_answer 1 checks on it).',
    );
    expect(structured(result)).toEqual({
      note: textOf(result),
      questions: [
        {
          id: 1,
          status: 'pending',
          blocking: true,
          ticket: 'BILL-50',
          items: [
            { ref: '#1.1', topic: 'Database', question: 'Which database for the ledger?', blocking: true },
            { ref: '#1.2', topic: 'Caches', question: 'Which caches may it use?', blocking: false },
            { ref: '#1.3', topic: 'Naming', question: 'What do we call it?', blocking: false },
          ],
        },
      ],
    });
    expect(await store.get(project, 1)).toMatchObject({ isBlocking: true, members: [{ topic: 'Database' }, {}, {}] });
    await client.close();
  });

  it('GIVEN a set breaking a member’s rule THEN refused naming the member’s index, nothing stored', async () => {
    const project = uniqueProject();
    const client = await clientFor(project);
    const broken = { ...SET, questions: [SET.questions[0], { ...SET.questions[1], recommended: ['Memcached'] }] };
    const result = await client.callTool({ name: 'ask_later', arguments: broken });
    expect(isError(result)).toBe(true);
    expect(textOf(result)).toContain(
      '- `questions[1].recommended` must be copied exactly from one of the options\' labels: "Redis", "In-process", "None"; got "Memcached"',
    );
    expect(await store.list(project)).toEqual([]);
    await client.close();
  });
});

describe('answers with structured content', () => {
  it('GIVEN an answered set THEN get_answer gives the entry as text and, structured, each member’s labels, values, notes, notes per option and Other', async () => {
    const project = uniqueProject();
    const client = await clientFor(project);
    await client.callTool({ name: 'ask_later', arguments: SET });
    await store.answer(project, 1, ANSWER, person('U7'));
    const result = await client.callTool({ name: 'get_answer', arguments: { id: 1 } });
    expect(textOf(result)).toContain('### #1 answered: a set of 3 questions, answered together\nTicket: BILL-50\n');
    expect(textOf(result)).toContain('#### #1.2 Caches\nQuestion: Which caches may it use?\nAnswer: Redis, None\n');
    const { note, questions } = structured(result);
    expect(note).toBe(
      "#1 was answered. The answers and notes are the person's words; the question texts are your own.",
    );
    expect(questions).toEqual([
      {
        id: 1,
        status: 'answered',
        blocking: true,
        ticket: 'BILL-50',
        items: [
          {
            ref: '#1.1',
            topic: 'Database',
            question: 'Which database for the ledger?',
            blocking: true,
            answer: { labels: ['Postgres'], values: ['pg'], notes: 'We run it already.' },
          },
          {
            ref: '#1.2',
            topic: 'Caches',
            question: 'Which caches may it use?',
            blocking: false,
            answer: {
              labels: ['Redis', 'None'],
              values: ['Redis', 'None'],
              optionNotes: [{ label: 'Redis', value: 'Redis', notes: 'Prices only.' }],
            },
          },
          {
            ref: '#1.3',
            topic: 'Naming',
            question: 'What do we call it?',
            blocking: false,
            answer: { labels: [], values: [], other: 'Call it "books".' },
          },
        ],
        answeredBy: 'Person U7 on Slack (user U7)',
        answeredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    // Read here, it is not delivered again.
    expect((await store.get(project, 1))?.status).toBe('delivered');
    await client.close();
  });

  it('GIVEN answers waiting THEN collect_answers carries them once, structured with the framing as its note', async () => {
    const project = uniqueProject();
    const client = await clientFor(project);
    await client.callTool({ name: 'ask_later', arguments: SET });
    await client.callTool({
      name: 'ask_later',
      arguments: { context: 'c', question: 'Ship it?', impact: 'i', isBlocking: false, options: ['Yes', 'No'] },
    });
    await store.answer(project, 1, ANSWER, person('U7'));
    await store.dismiss(project, 2, person('U8'));
    const result = await client.callTool({ name: 'collect_answers', arguments: {} });
    expect(textOf(result)).toMatch(/^## ask-later: outcomes of the questions you parked/);
    const content = structured(result);
    expect(content.note).toBe(
      "From ask-later: outcomes of the questions you parked, each reported once. The question texts are your own; the answers and notes are the person's words. Dismissed or expired ones were not answered: decide them yourself, or park them again if a person must decide.",
    );
    expect(content.questions.map((q) => [q.id, q.status, q.items.length])).toEqual([
      [1, 'answered', 3],
      [2, 'dismissed', 1],
    ]);
    expect(content.questions[1]).toMatchObject({ closedBy: 'Person U8 on Slack (user U8)', items: [{ ref: '#2' }] });
    await expect.poll(async () => (await store.get(project, 1))?.deliveredVia).toBe('wake');
    const again = await client.callTool({ name: 'collect_answers', arguments: {} });
    expect(structured(again)).toEqual({ note: textOf(again), questions: [] });
    await client.close();
  });

  it('GIVEN a hook’s call THEN the text is the hook JSON and the structured content still validates', async () => {
    const project = uniqueProject();
    const client = await clientFor(project);
    await client.callTool({ name: 'ask_later', arguments: SET });
    const none = await client.callTool({
      name: 'collect_answers',
      arguments: { for: 'PostToolUse', agent_id: '', tool_name: 'Bash' },
    });
    expect(textOf(none)).toBe('{}');
    expect(structured(none).questions).toEqual([]);
    await store.answer(project, 1, ANSWER, person('U7'));
    const carried = await client.callTool({
      name: 'collect_answers',
      arguments: { for: 'PostToolUse', agent_id: '', tool_name: 'Bash' },
    });
    expect(JSON.parse(textOf(carried))).toMatchObject({ hookSpecificOutput: { hookEventName: 'PostToolUse' } });
    expect(structured(carried).questions.map((q) => q.id)).toEqual([1]);
    await client.close();
  });

  it('GIVEN a set THEN list_questions shows it as one line of topics with its answer, structured alike', async () => {
    const project = uniqueProject();
    const client = await clientFor(project);
    await client.callTool({ name: 'ask_later', arguments: SET });
    await store.answer(project, 1, ANSWER, person('U7'));
    const result = await client.callTool({ name: 'list_questions', arguments: {} });
    expect(textOf(result)).toBe(
      '#1 [answered, blocking] BILL-50 Set of 3: Database · Caches · Naming → Database: Postgres · Caches: Redis, None · Naming: Other (Person U7 on Slack)',
    );
    expect(structured(result).questions[0]?.items.map((item) => item.answer?.values)).toEqual([
      ['pg'],
      ['Redis', 'None'],
      [],
    ]);
    await client.close();
  });

  it('GIVEN a pending set THEN cancel_question withdraws the whole set', async () => {
    const project = uniqueProject();
    const client = await clientFor(project);
    await client.callTool({ name: 'ask_later', arguments: SET });
    const result = await client.callTool({ name: 'cancel_question', arguments: { id: 1 } });
    expect(textOf(result)).toMatch(/^Withdrew #1\./);
    expect((await store.get(project, 1))?.status).toBe('cancelled');
    const state = await client.callTool({ name: 'get_answer', arguments: { id: 1 } });
    expect(textOf(state)).toBe(
      '#1 was withdrawn (cancelled) by the agent; nobody will answer it.\n' +
        'Question #1.1 (Database): Which database for the ledger?\n' +
        'Question #1.2 (Caches): Which caches may it use?\n' +
        'Question #1.3 (Naming): What do we call it?',
    );
    await client.close();
  });
});
