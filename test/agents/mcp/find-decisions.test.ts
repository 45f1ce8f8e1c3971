/** `find_decisions` through a real MCP client, on Redis and on the embedded store. */
import { afterAll, describe, expect, it } from 'vitest';
import type { StructuredResult } from '../../../src/agents/mcp/structured.js';
import type { Store } from '../../../src/store/port.js';
import { connectClient, isError, textOf } from '../../support/mcp.js';
import { openSqliteTestStore, openTestStore, person, spec, testClock, uniqueProject } from '../../support/store.js';

const opened: Store[] = [];
afterAll(async () => {
  for (const store of opened) await store.close();
});

describe.each([
  ['Redis', (now: () => number) => openTestStore({ now })],
  ['SQLite', (now: () => number) => openSqliteTestStore({ now })],
] as const)('find_decisions on %s', (_name, open) => {
  async function setUp() {
    const clock = testClock();
    const store = await open(clock.now);
    opened.push(store);
    const project = uniqueProject('decided');
    const client = await connectClient({ project, store: async () => store, version: 'test' });
    const decide = async (question: string, choice: string, notes?: string) => {
      const parked = await store.park(
        project,
        spec({ question, options: [{ label: choice }, { label: 'Other one' }] }),
      );
      await store.answer(
        project,
        parked.id,
        { choices: [choice], other: false, ...(notes ? { notes } : {}) },
        person(),
      );
      clock.advance(1000);
      return parked.id;
    };
    return { store, project, client, decide };
  }

  it('GIVEN decisions THEN a search finds those holding every word, newest first, with the answer, the notes and who', async () => {
    const { client, decide, store, project } = await setUp();
    await decide('Which database should billing use?', 'Postgres', 'Ops knows it.');
    await decide('Should prices include VAT?', 'Include VAT');
    await decide('Which database should search use?', 'Elasticsearch');
    await store.park(project, spec({ question: 'Which database for the archive?' })); // pending: not a decision

    const found = await client.callTool({ name: 'find_decisions', arguments: { search: 'DATABASE use' } });
    expect(isError(found)).toBe(false);
    const structured = found.structuredContent as StructuredResult;
    expect(structured.questions.map((q) => [q.id, q.items[0]?.answer?.labels])).toEqual([
      [3, ['Elasticsearch']],
      [1, ['Postgres']],
    ]);
    expect(structured.questions[1]).toMatchObject({
      answeredBy: 'Person U1 on Slack (user U1)',
      items: [{ answer: { notes: 'Ops knows it.' } }],
    });
    expect(textOf(found)).toContain('> Ops knows it.');
    expect(structured.note).toMatch(/^This project's earlier decisions, newest first/);
  });

  it('GIVEN more decisions than a page THEN `after` reads the older ones; another project sees none of them', async () => {
    const { client, decide } = await setUp();
    for (let i = 1; i <= 3; i++) await decide(`Which cache for service ${i}?`, 'Redis');
    const first = await client.callTool({ name: 'find_decisions', arguments: { search: 'cache', limit: 2 } });
    const page = first.structuredContent as StructuredResult;
    expect(page.questions.map((q) => q.id)).toEqual([3, 2]);
    expect(page.after).toBeDefined();
    const next = await client.callTool({
      name: 'find_decisions',
      arguments: { search: 'cache', limit: 2, after: page.after },
    });
    expect((next.structuredContent as StructuredResult).questions.map((q) => q.id)).toEqual([1]);

    const { client: other } = await setUp();
    expect(textOf(await other.callTool({ name: 'find_decisions', arguments: {} }))).toBe(
      'No decisions yet in this project.',
    );
  });

  it('GIVEN arguments it does not take THEN a refusal that says what it takes', async () => {
    const { client } = await setUp();
    const refused = await client.callTool({ name: 'find_decisions', arguments: { query: 'x', limit: 50 } });
    expect(isError(refused)).toBe(true);
    expect(textOf(refused)).toBe(
      'find_decisions takes `search` (words, up to 500 characters), `limit` (1–20) and `after` (a cursor from an earlier result), all optional; got also query',
    );
  });
});
