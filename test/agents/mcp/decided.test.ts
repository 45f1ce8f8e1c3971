/**
 * Already decided: `ask_later` looks for the project's earlier decisions like the new question before it parks it,
 * through a real MCP client, on Redis and on the embedded store.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { StructuredResult } from '../../../src/agents/mcp/structured.js';
import type { DecidedCheck } from '../../../src/config/agent.js';
import type { Store } from '../../../src/store/port.js';
import { connectClient, isError, textOf } from '../../support/mcp.js';
import { openSqliteTestStore, openTestStore, person, spec, uniqueProject } from '../../support/store.js';

const opened: Store[] = [];
afterAll(async () => {
  for (const store of opened) await store.close();
});

const PARAPHRASE = {
  context: 'The billing migration needs its database.',
  question: 'What database does billing use?',
  impact: 'Decides the schema scripts.',
  isBlocking: true,
  options: ['Postgres', 'MySQL'],
};

describe.each([
  ['Redis', () => openTestStore()],
  ['SQLite', () => openSqliteTestStore()],
] as const)('ask_later and earlier decisions on %s', (_name, open) => {
  async function setUp(decided?: DecidedCheck) {
    const store = await open();
    opened.push(store);
    const project = uniqueProject('decided');
    const client = await connectClient({
      project,
      store: async () => store,
      version: 'test',
      ...(decided ? { decided } : {}),
    });
    const earlier = await store.park(project, spec({ question: 'Which database should billing use?' }));
    await store.answer(
      project,
      earlier.id,
      { choices: ['Postgres'], other: false, notes: 'Ops runs it already.' },
      person(),
    );
    return { store, project, client, earlier };
  }

  it('GIVEN a decision taken WHEN the same question comes in other words THEN nothing is parked and the decision comes back with its answer, notes, who and when', async () => {
    const { store, project, client } = await setUp();
    const result = await client.callTool({ name: 'ask_later', arguments: PARAPHRASE });
    expect(isError(result)).toBe(false);
    expect(textOf(result)).toMatch(/^Not parked: the person already decided questions like this one/);
    expect(textOf(result)).toContain('Answer: Postgres');
    expect(textOf(result)).toContain('> Ops runs it already.');
    const structured = result.structuredContent as StructuredResult;
    expect(structured.note).toContain('askAgain: true');
    expect(structured.questions).toMatchObject([
      {
        id: 1,
        status: 'answered',
        answeredBy: 'Person U1 on Slack (user U1)',
        items: [{ answer: { labels: ['Postgres'], notes: 'Ops runs it already.' } }],
      },
    ]);
    expect((await store.list(project)).map((q) => q.id)).toEqual([1]);
  });

  it('GIVEN askAgain THEN it is parked with the earlier decision beside it; GIVEN an unrelated question THEN it is parked as always', async () => {
    const { store, project, client } = await setUp();
    const again = await client.callTool({ name: 'ask_later', arguments: { ...PARAPHRASE, askAgain: true } });
    expect(textOf(again)).toMatch(/^Parked as #2 \(blocking\)/);
    expect((await store.get(project, 2))?.askedBefore).toEqual([
      {
        id: 1,
        question: 'Which database should billing use?',
        answer: 'Postgres',
        by: person(),
        at: expect.any(Number),
      },
    ]);
    const unrelated = await client.callTool({
      name: 'ask_later',
      arguments: { ...PARAPHRASE, question: 'Which font should headings use?', options: ['Inter', 'Roboto'] },
    });
    expect(textOf(unrelated)).toMatch(/^Parked as #3/);
    expect((await store.get(project, 3))?.askedBefore).toBeUndefined();
  });

  it('GIVEN a set one of whose questions was decided THEN it is not parked; GIVEN ASK_LATER_DECIDED=off THEN the same question is parked', async () => {
    const { client, store, project } = await setUp();
    const set = await client.callTool({
      name: 'ask_later',
      arguments: {
        context: 'Billing moves.',
        impact: 'Decides the scripts.',
        questions: [
          { topic: 'Font', question: 'Which font for headings?', options: ['Inter'], isBlocking: false },
          { topic: 'Database', question: 'What database does billing use?', options: ['Postgres'], isBlocking: true },
        ],
      },
    });
    expect(textOf(set)).toMatch(/^Not parked/);
    expect((await store.list(project)).map((q) => q.id)).toEqual([1]);

    const { client: off, store: offStore, project: offProject } = await setUp('off');
    expect(textOf(await off.callTool({ name: 'ask_later', arguments: PARAPHRASE }))).toMatch(/^Parked as #2/);
    expect((await offStore.get(offProject, 2))?.askedBefore).toBeUndefined();
  });
});
