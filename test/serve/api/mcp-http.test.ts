/**
 * The MCP server over Streamable HTTP at serve's `/mcp`, through the SDK's real Client and
 * StreamableHTTPClientTransport, with the agents' tokens.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ServeHandle, startServe } from '../../../src/serve/run.js';
import type { Store } from '../../../src/store/port.js';
import { createToken } from '../../support/agent-api.js';
import { textOf } from '../../support/mcp.js';
import { openTestStore, person, spec, uniquePrefix, uniqueProject } from '../../support/store.js';
import { RecordingLogger } from '../../surfaces/slack/harness.js';

const prefix = uniquePrefix();
const team = uniqueProject('mcp-http');
let store: Store;
let serve: ServeHandle;
let token: string;
const clients: Client[] = [];

beforeAll(async () => {
  store = await openTestStore({ prefix });
  serve = await startServe(
    { store: { kind: 'redis', url: inject('redisUrl'), prefix }, port: 0, host: '127.0.0.1', routes: [] },
    { logger: new RecordingLogger(), sweepMs: 0, bridge: { blockMs: 50 }, agent: { progressIntervalMs: 50 } },
  );
  token = await createToken(store, 'mcp-http', [`${team}/**`]);
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await serve.stop();
  await store.close();
});

async function connect(headers: Record<string, string>, query = ''): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${serve.port}/mcp${query}`), {
    requestInit: { headers },
  });
  const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
  // The SDK's own types disagree under exactOptionalPropertyTypes (`sessionId` may be undefined).
  await client.connect(transport as Transport);
  clients.push(client);
  return client;
}

const question = { context: 'c', question: 'Which one?', impact: 'i', isBlocking: true, options: ['A', 'B'] };

describe('/mcp over Streamable HTTP', () => {
  it('GIVEN a token and the project header THEN the six tools for the model are served, ask_later parks and get_answer reads it back', async () => {
    const project = `${team}/api`;
    const client = await connect({ authorization: `Bearer ${token}`, 'x-ask-later-project': project });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'ask_later',
      'cancel_question',
      'collect_answers',
      'find_decisions',
      'get_answer',
      'list_questions',
    ]);
    expect(textOf(await client.callTool({ name: 'ask_later', arguments: question }))).toMatch(
      /^Parked as #1 \(blocking\)/,
    );
    expect(await store.get(project, 1)).toMatchObject({ question: 'Which one?' });
    await store.answer(project, 1, { choices: ['B'], other: false }, person());
    expect(textOf(await client.callTool({ name: 'get_answer', arguments: { id: '#1' } }))).toContain('B');
    expect((await store.get(project, 1))?.status).toBe('delivered');
  });

  it('GIVEN ask_later with waitSeconds THEN progress streams while it waits and the answer comes back in the call', async () => {
    const project = `${team}/wait`;
    const client = await connect({ authorization: `Bearer ${token}` }, `?project=${encodeURIComponent(project)}`);
    const progress: number[] = [];
    const call = client.callTool({ name: 'ask_later', arguments: { ...question, waitSeconds: 60 } }, undefined, {
      onprogress: (update) => progress.push(update.progress),
      timeout: 60_000,
    });
    await expect.poll(async () => (await store.list(project)).length).toBe(1);
    await expect.poll(() => progress.length).toBeGreaterThan(0);
    await store.answer(project, 1, { choices: ['A'], other: false }, person());
    expect(textOf(await call)).toContain('#1 got its outcome while you waited.');
    expect((await store.get(project, 1))?.status).toBe('delivered');
  });

  it("GIVEN answers waiting THEN collect_answers (as the plugin's prompt hook calls it) carries them once, confirmed after its response", async () => {
    const project = `${team}/collect`;
    for (const label of ['A', 'B']) {
      const parked = await store.park(project, spec());
      await store.answer(
        project,
        parked.id,
        { choices: [label === 'A' ? 'Postgres' : 'SQLite'], other: false },
        person(),
      );
    }
    const client = await connect({ authorization: `Bearer ${token}`, 'x-ask-later-project': project });
    const args = { for: 'UserPromptSubmit', prompt: 'go on', source: '', session_id: 's-http', prompt_id: 'p-http' };
    const first = JSON.parse(textOf(await client.callTool({ name: 'collect_answers', arguments: args }))) as {
      hookSpecificOutput: { additionalContext: string };
    };
    expect(first.hookSpecificOutput.additionalContext).toContain('#1');
    expect(first.hookSpecificOutput.additionalContext).toContain('#2');
    await expect.poll(async () => (await store.list(project)).map((q) => q.status)).toEqual(['delivered', 'delivered']);
    const again = await client.callTool({ name: 'collect_answers', arguments: { ...args, prompt_id: 'p-http-2' } });
    expect(textOf(again)).toBe('{}');
  });

  it('GIVEN a token naming one project THEN that is the session’s project without a header', async () => {
    const project = `${team}/only`;
    const single = await createToken(store, 'mcp-single', [project]);
    const client = await connect({ authorization: `Bearer ${single}` });
    await client.callTool({ name: 'ask_later', arguments: question });
    expect((await store.list(project)).length).toBe(1);
  });

  it('GIVEN a missing, forged or revoked token THEN 401 and nothing is served', async () => {
    const revoked = await createToken(store, 'mcp-revoked', ['**']);
    await store.tokens().revoke('mcp-revoked');
    for (const headers of [{}, { authorization: 'Bearer alt_forged' }, { authorization: `Bearer ${revoked}` }]) {
      await expect(connect({ ...headers, 'x-ask-later-project': `${team}/x` })).rejects.toMatchObject({ code: 401 });
    }
    const raw = await fetch(`http://127.0.0.1:${serve.port}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${revoked}` },
      body: '{}',
    });
    expect(raw.status).toBe(401);
    expect(await raw.json()).toEqual({
      error: { code: 'unauthorized', message: 'the token is unknown or was revoked' },
    });
  });

  it('GIVEN a project out of reach THEN 403 with the same answer whether it exists or not; no project named THEN 400', async () => {
    await store.park('/elsewhere/exists', spec());
    const ask = (headers: Record<string, string>) =>
      fetch(`http://127.0.0.1:${serve.port}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    const existing = await ask({ 'x-ask-later-project': '/elsewhere/exists' });
    const missing = await ask({ 'x-ask-later-project': '/elsewhere/nothing' });
    expect([existing.status, missing.status]).toEqual([403, 403]);
    const [a, b] = (await Promise.all([existing.json(), missing.json()])) as { error: { message: string } }[];
    expect(a?.error.message.replace('exists', 'X')).toBe(b?.error.message.replace('nothing', 'X'));
    await expect(
      connect({ authorization: `Bearer ${token}`, 'x-ask-later-project': '/elsewhere/exists' }),
    ).rejects.toMatchObject({ code: 403 });
    const unnamed = await ask({});
    expect(unnamed.status).toBe(400);
    expect(((await unnamed.json()) as { error: { message: string } }).error.message).toBe(
      'name the project: the X-Ask-Later-Project header or the project query parameter (this token reaches more than one)',
    );
    expect(
      (await fetch(`http://127.0.0.1:${serve.port}/mcp`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(405);
  });
});
