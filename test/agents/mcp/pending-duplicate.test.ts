/**
 * A question already waiting: `ask_later` with the same question (or nearly the same) still pending in the project
 * returns that one's id and status instead of parking a second; `askAgain` parks it anyway. Through a real MCP
 * client, on Redis and on the embedded store.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { StructuredResult } from '../../../src/agents/mcp/structured.js';
import type { Store } from '../../../src/store/port.js';
import { connectClient, isError, textOf } from '../../support/mcp.js';
import { openSqliteTestStore, openTestStore, person, uniqueProject } from '../../support/store.js';

const opened: Store[] = [];
afterAll(async () => {
  for (const store of opened) await store.close();
});

const QUESTION = {
  context: 'The billing migration needs its database.',
  question: 'Which database should billing use?',
  impact: 'Decides the schema scripts.',
  isBlocking: true,
  options: ['Postgres', 'MySQL'],
};

describe.each([
  ['Redis', () => openTestStore()],
  ['SQLite', () => openSqliteTestStore()],
] as const)('ask_later and a question already waiting on %s', (_name, open) => {
  async function setUp() {
    const store = await open();
    opened.push(store);
    const project = uniqueProject('pending-dup');
    // The decided-before check off: only the waiting question can stop a second one here.
    const client = await connectClient({ project, store: async () => store, version: 'test', decided: 'off' });
    const first = await client.callTool({ name: 'ask_later', arguments: QUESTION });
    expect(textOf(first)).toMatch(/^Parked as #1 \(blocking\)/);
    return { store, project, client };
  }

  it('GIVEN a question waiting WHEN the same one is asked again THEN its #id and status come back and nothing new is parked', async () => {
    const { store, project, client } = await setUp();
    const again = await client.callTool({
      name: 'ask_later',
      arguments: { ...QUESTION, question: '  which database should  billing use? ', options: ['MySQL', 'Postgres'] },
    });
    expect(isError(again)).toBe(false);
    expect(textOf(again)).toMatch(
      /^Not parked: #1 is the same question, already waiting for the person in this project \(status pending, blocking, parked /,
    );
    expect((again.structuredContent as StructuredResult).questions).toMatchObject([{ id: 1, status: 'pending' }]);
    expect((await store.list(project)).map((q) => q.id)).toEqual([1]);
  });

  it('GIVEN a question waiting WHEN one nearly the same comes in other words THEN it is recognised too', async () => {
    const { store, project, client } = await setUp();
    const paraphrase = await client.callTool({
      name: 'ask_later',
      arguments: { ...QUESTION, question: 'What database does billing use?', options: ['Postgres', 'SQLite'] },
    });
    expect(textOf(paraphrase)).toMatch(/^Not parked: #1 is the same question/);
    expect((await store.list(project)).map((q) => q.id)).toEqual([1]);
  });

  it('GIVEN askAgain, a different question, or the first one answered THEN a new question is parked', async () => {
    const { store, project, client } = await setUp();
    const forced = await client.callTool({ name: 'ask_later', arguments: { ...QUESTION, askAgain: true } });
    expect(textOf(forced)).toMatch(/^Parked as #2/);
    const other = await client.callTool({
      name: 'ask_later',
      arguments: { ...QUESTION, question: 'Which database should analytics use?' },
    });
    expect(textOf(other)).toMatch(/^Parked as #3/);
    for (const id of [1, 2, 3]) {
      await store.answer(project, id, { choices: ['Postgres'], other: false }, person());
    }
    const later = await client.callTool({ name: 'ask_later', arguments: QUESTION });
    expect(textOf(later)).toMatch(/^Parked as #4/);
  });
});
