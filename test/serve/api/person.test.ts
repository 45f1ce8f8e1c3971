/**
 * The person side of serve's agent API (`inbox-*`) against the test Redis: only a person's token (`token create
 * --web`) may use it; every body is checked with a 400 saying what was expected; serve answers and drafts as the
 * token's person whatever the body says; a project the token does not reach is invisible; the long poll wakes on a
 * change of a reached project.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidAnswerError } from '../../../src/core/invalid-answer-error.js';
import { projectTag } from '../../../src/core/question-ref.js';
import { hashToken, newToken } from '../../../src/core/token-format.js';
import { AgentsOnlyTokenError } from '../../../src/store/http/agents-only-token-error.js';
import { openHttpInboxStore } from '../../../src/store/http/inbox-store.js';
import { AGENTS_ONLY_TEXT } from '../../../src/store/http/protocol.js';
import type { Store } from '../../../src/store/port.js';
import { type AgentApiServer, startAgentApi } from '../../support/agent-api.js';
import { openTestStore, person, spec, uniquePrefix } from '../../support/store.js';

let store: Store;
let api: AgentApiServer;
const team = `/srv/${uniquePrefix()}`;
const shop = `${team}/shop`;
const outside = `/srv/${uniquePrefix()}/other`;
let erin: string;
let agents: string;

async function token(name: string, patterns: string[], web: boolean): Promise<string> {
  const { token: made, id } = newToken();
  await store
    .tokens()
    .create({ id, name, hash: hashToken(made), patterns, createdAt: Date.now(), ...(web ? { web: true } : {}) });
  return made;
}

interface Reply {
  readonly status: number;
  readonly body: Record<string, unknown> & { error?: { code: string; message: string } };
}

async function call(operation: string, body: unknown, bearer: string): Promise<Reply> {
  const response = await fetch(`${api.url}/agent/v1/${operation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Reply['body'] };
}

beforeAll(async () => {
  store = await openTestStore();
  api = await startAgentApi(store);
  erin = await token(`erin-${uniquePrefix()}`, [`${team}/*`], true);
  agents = await token(`ci-${uniquePrefix()}`, [`${team}/*`], false);
  await store.park(shop, spec({ question: 'Which database?' })); // shop #1
  await store.park(outside, spec({ question: 'Not yours?' })); // outside #1
});
afterAll(async () => {
  await api.close();
  await store.close();
});

const PERSON_CALLS: readonly [string, unknown][] = [
  ['inbox-projects', {}],
  ['inbox-project', { tag: projectTag(shop) }],
  ['inbox-question', { project: shop, id: 1 }],
  ['inbox-draft', { project: shop, id: 1 }],
  ['inbox-save-draft', { project: shop, id: 1, change: { notes: 'x' } }],
  ['inbox-answer', { project: shop, id: 1, reply: { choices: ['Postgres'], other: false } }],
  ['inbox-dismiss', { project: shop, id: 1 }],
  ['inbox-page', { projects: [shop], query: { view: 'pending', limit: 10 } }],
  ['inbox-counts', { projects: [shop] }],
  ['inbox-watch', {}],
  ['inbox-changed', { mark: 'x', timeoutMs: 0 }],
];

describe('the person side of the agent API', () => {
  it('GIVEN an agents-only token THEN every person operation is 403 agents-only, saying how a person’s token is made, and nothing changes', async () => {
    for (const [operation, body] of PERSON_CALLS) {
      const reply = await call(operation, body, agents);
      expect([operation, reply.status, reply.body.error]).toEqual([
        operation,
        403,
        { code: 'agents-only', message: AGENTS_ONLY_TEXT },
      ]);
    }
    expect((await store.get(shop, 1))?.status).toBe('pending');
    expect((await call('whoami', {}, agents)).body.person).toBe(false);
    expect((await call('whoami', {}, erin)).body.person).toBe(true);
  });

  it('GIVEN bad bodies THEN 400 naming the field and what was expected', async () => {
    const cases: [string, unknown, string][] = [
      ['inbox-answer', { project: shop, id: 1, reply: { choices: ['Postgres'] } }, 'reply'],
      ['inbox-page', { projects: [shop], query: { view: 'pending', limit: 0 } }, 'query.limit'],
      ['inbox-page', { projects: [shop], query: { view: 'everything', limit: 5 } }, 'query.view'],
      ['inbox-project', { tag: 'short' }, 'tag: 16 url-safe characters'],
      ['inbox-changed', { mark: 'x', timeoutMs: -1 }, 'timeoutMs'],
      ['inbox-save-draft', { project: shop, id: 0, change: {} }, 'id'],
      // Who answers is serve's to say: a responder in the body is refused, not used.
      [
        'inbox-answer',
        {
          project: shop,
          id: 1,
          reply: { choices: ['Postgres'], other: false },
          by: { platform: 'slack', userId: 'U1', displayName: 'Mallory' },
        },
        'by',
      ],
    ];
    for (const [operation, body, field] of cases) {
      const reply = await call(operation, body, erin);
      expect([operation, reply.status, reply.body.error?.code]).toEqual([operation, 400, 'bad-request']);
      expect(reply.body.error?.message).toContain(field);
    }
    expect((await store.get(shop, 1))?.status).toBe('pending');
  });

  it('GIVEN a project the token does not reach THEN it is invisible: not listed, no tag, no question, unknown to answer', async () => {
    expect((await call('inbox-projects', {}, erin)).body.projects).toEqual([shop]);
    expect((await call('inbox-project', { tag: projectTag(outside) }, erin)).body).toEqual({ project: null });
    expect((await call('inbox-question', { project: outside, id: 1 }, erin)).body).toEqual({ question: null });
    const answered = await call(
      'inbox-answer',
      { project: outside, id: 1, reply: { choices: ['Postgres'], other: false } },
      erin,
    );
    expect(answered).toEqual({ status: 200, body: { result: { kind: 'unknown' } } });
    expect((await call('inbox-dismiss', { project: outside, id: 1 }, erin)).body.result).toEqual({ kind: 'unknown' });
    const page = await call('inbox-page', { projects: [shop, outside], query: { view: 'pending', limit: 10 } }, erin);
    const questions = (page.body.page as { questions: { project: string }[] }).questions;
    expect(questions.map((q) => q.project)).toEqual([shop]);
    const counts = (await call('inbox-counts', { projects: [shop, outside] }, erin)).body.counts as [string][];
    expect(counts.map(([project]) => project)).toEqual([shop]);
    expect((await store.get(outside, 1))?.status).toBe('pending');
  });

  it('GIVEN a person’s token THEN drafts and answers are the token’s person’s; an answer the question cannot take is 422 with why', async () => {
    const name = (await call('whoami', {}, erin)).body.name as string;
    const saved = await call('inbox-save-draft', { project: shop, id: 1, change: { notes: 'small data' } }, erin);
    expect(saved.status).toBe(200);
    expect(await store.getDraft(shop, 1, { platform: 'web', userId: name })).toMatchObject({ notes: 'small data' });
    expect((await call('inbox-draft', { project: shop, id: 1 }, erin)).body.draft).toMatchObject({
      notes: 'small data',
    });

    const invalid = await call(
      'inbox-answer',
      { project: shop, id: 1, reply: { choices: ['Mongo'], other: false } },
      erin,
    );
    expect(invalid.status).toBe(422);
    expect(invalid.body.error?.code).toBe('invalid-answer');
    expect((await store.get(shop, 1))?.status).toBe('pending');

    const won = await call(
      'inbox-answer',
      { project: shop, id: 1, reply: { choices: ['Postgres'], other: false } },
      erin,
    );
    expect(won.body.result).toMatchObject({
      kind: 'won',
      question: { answer: { by: { platform: 'web', userId: name, displayName: name } } },
    });
    // The first answer wins: a later one from elsewhere is told who.
    expect((await store.answer(shop, 1, { choices: ['SQLite'], other: false }, person('U9'))).kind).toBe(
      'already-answered',
    );
  });

  it('GIVEN the inbox’s mark THEN the long poll answers at once when it moved, and wakes on a question parked in a reached project', async () => {
    const { mark } = (await call('inbox-watch', {}, erin)).body as { mark: string };
    const moved = await call('inbox-changed', { mark: 'not the mark', timeoutMs: 20_000 }, erin);
    expect(moved.body).toEqual({ changed: true, mark });

    // Parked elsewhere than the token reaches: the hold runs out unchanged.
    const quiet = call('inbox-changed', { mark, timeoutMs: 300 }, erin);
    await store.park(outside, spec({ question: 'Still not yours?' }));
    expect((await quiet).body).toEqual({ changed: false, mark });

    const waiting = call('inbox-changed', { mark, timeoutMs: 20_000 }, erin);
    await store.park(shop, spec({ question: 'Which queue?' }));
    const woke = (await waiting).body as { changed: boolean; mark: string };
    expect(woke.changed).toBe(true);
    expect(woke.mark).not.toBe(mark);
  });

  it('GIVEN the client (HttpInboxStore) THEN it reads and answers through the person side as the port says, and maps the refusals', async () => {
    const team2 = `/srv/${uniquePrefix()}`;
    const project = `${team2}/api`;
    const mine = await token(`fay-${uniquePrefix()}`, [`${team2}/*`], true);
    await store.park(project, spec({ question: 'Which port?', isBlocking: true }));
    const client = await openHttpInboxStore({ url: api.url, token: mine });
    const refused = await openHttpInboxStore({ url: api.url, token: agents });
    try {
      expect(await client.holder()).toMatchObject({ person: true });
      expect(await client.knownProjects()).toEqual([project]);
      expect(await client.projectByTag(projectTag(project))).toBe(project);
      expect(await client.projectByTag(projectTag(outside))).toBeUndefined();
      const page = await client.pageAcross([project, outside], { view: 'pending', limit: 10 });
      expect(page.questions.map((q) => [q.project, q.id])).toEqual([[project, 1]]);
      expect((await client.countAcross([project, outside])).get(project)).toMatchObject({ blocking: 1, canWait: 0 });
      const someone = { platform: 'slack', userId: 'U1' } as const;
      const saved = await client.saveDraft(project, 1, someone, { notes: 'from the terminal' });
      expect(saved.kind).toBe('saved');
      const draft = await client.getDraft(project, 1, someone);
      expect(draft).toMatchObject({ notes: 'from the terminal' });
      await expect(
        client.answer(project, 1, { choices: ['Mongo'], other: false }, { ...someone, displayName: 'x' }),
      ).rejects.toBeInstanceOf(InvalidAnswerError);
      // A draft as the reply (it carries `updatedAt`): only the selection travels; serve names who answered.
      const won = await client.answer(
        project,
        1,
        { ...(draft ?? { choices: [], other: false }), choices: ['SQLite'] },
        {
          ...someone,
          displayName: 'Mallory',
        },
      );
      expect(won).toMatchObject({
        kind: 'won',
        question: { answer: { choices: ['SQLite'], by: { platform: 'web' } } },
      });
      expect(won.kind === 'won' && won.question.answer?.by.displayName).not.toBe('Mallory');
      await expect(refused.knownProjects()).rejects.toBeInstanceOf(AgentsOnlyTokenError);
    } finally {
      await client.close();
      await refused.close();
    }
  });
});
