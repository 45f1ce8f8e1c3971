/**
 * The agent side as shipped (the built CLI and the plugin's bundles) against a real `ask-later serve` over HTTP,
 * holding only ASK_LATER_URL and ASK_LATER_TOKEN: the MCP server over stdio, the hook, the status line and the
 * waiter.
 */
import { spawn } from 'node:child_process';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ServeHandle } from '../../../src/serve/run.js';
import { startServe } from '../../../src/serve/run.js';
import type { Store } from '../../../src/store/port.js';
import { answered, answeredIds, cli, hookEnv, noteOf, payload, runHookCli } from '../../agents/hooks/support.js';
import { createToken } from '../../support/agent-api.js';
import { isError, textOf } from '../../support/mcp.js';
import { parsePrometheus, sampleValue } from '../../support/prometheus.js';
import { openTestStore, person, spec, uniquePrefix, uniqueProject } from '../../support/store.js';
import { RecordingLogger } from '../../surfaces/slack/harness.js';

const root = new URL('../../../', import.meta.url).pathname;
const bundles = { hook: join(root, 'plugin/dist/hook.cjs'), status: join(root, 'plugin/dist/status.cjs') };

const prefix = uniquePrefix();
const team = uniqueProject('team');
let store: Store;
let serve: ServeHandle;
const logger = new RecordingLogger();
let url: string;
let token: string;

beforeAll(async () => {
  store = await openTestStore({ prefix });
  serve = await startServe(
    { store: { kind: 'redis', url: inject('redisUrl'), prefix }, port: 0, host: '127.0.0.1', routes: [] },
    { logger, sweepMs: 0, bridge: { blockMs: 50 } },
  );
  url = `http://127.0.0.1:${serve.port}`;
  token = await createToken(store, 'agents-over-http', [`${team}/**`]);
});
afterAll(async () => {
  await serve.stop();
  await store.close();
});

function agentEnv(project: string, extra: Record<string, string> = {}): Record<string, string> {
  return hookEnv({ ASK_LATER_URL: url, ASK_LATER_TOKEN: token, ASK_LATER_PROJECT: project, ...extra });
}

async function mcpClient(env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(root, 'dist/cli.js'), 'mcp'],
    cwd: tmpdir(),
    env,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'http-agent', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const question = { context: 'c', question: 'Which one?', impact: 'i', isBlocking: true, options: ['A', 'B'] };

describe('ask-later mcp over ASK_LATER_URL', () => {
  it('GIVEN only the URL and a token THEN the tools park, read, list and cancel through serve', async () => {
    const project = `${team}/mcp`;
    const client = await mcpClient(agentEnv(project));
    try {
      expect(textOf(await client.callTool({ name: 'ask_later', arguments: question }))).toMatch(/^Parked as #1/);
      expect(await store.get(project, 1)).toMatchObject({ question: 'Which one?' });
      await store.answer(project, 1, { choices: ['B'], other: false }, person());
      const answer = await client.callTool({ name: 'get_answer', arguments: { id: 1 } });
      expect(textOf(answer)).toContain('B');
      expect((await store.get(project, 1))?.status).toBe('delivered');
      await client.callTool({ name: 'ask_later', arguments: { ...question, question: 'Second?' } });
      expect(textOf(await client.callTool({ name: 'list_questions', arguments: {} }))).toContain('Second?');
      const cancelled = await client.callTool({ name: 'cancel_question', arguments: { id: 2 } });
      expect(isError(cancelled)).toBe(false);
      expect((await store.get(project, 2))?.status).toBe('cancelled');
    } finally {
      await client.close();
    }
  });

  it('GIVEN a project the token does not reach THEN every tool says so and nothing is parked', async () => {
    const elsewhere = uniqueProject('elsewhere');
    const client = await mcpClient(agentEnv(elsewhere));
    try {
      const result = await client.callTool({ name: 'ask_later', arguments: question });
      expect(isError(result)).toBe(true);
      expect(textOf(result)).toBe(
        `ask-later refused this session, so nothing was done: the token "agents-over-http" does not reach project ${JSON.stringify(elsewhere)} (its patterns: ${team}/**). Tell the person (their ask-later token needs changing); if the decision cannot wait, ask them directly.`,
      );
      expect(await store.list(elsewhere)).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe.each([
  ['the built CLI', [cli, 'hook']],
  ['the plugin bundle', [bundles.hook]],
])('the hook over ASK_LATER_URL (%s)', (_name, args) => {
  it('GIVEN answers waiting THEN the next prompt carries them once, and they are delivered', async () => {
    const project = `${team}/hook-${args.length}`;
    await answered(store, project, 2);
    const first = await runHookCli(agentEnv(project), payload(), { args });
    expect([first.code, first.stderr]).toEqual([0, '']);
    expect(answeredIds(noteOf(first.stdout))).toEqual([1, 2]);
    const second = await runHookCli(agentEnv(project), payload(), { args });
    expect([second.code, second.stdout, second.stderr]).toEqual([0, '', '']);
    expect((await store.list(project)).map((q) => q.status)).toEqual(['delivered', 'delivered']);
  });

  it('GIVEN a revoked token THEN no output, one stderr line, the answers wait', async () => {
    const project = `${team}/revoked-${args.length}`;
    await answered(store, project, 1);
    const revoked = await createToken(store, `revoked-${args.length}`, ['**']);
    await store.tokens().revoke(`revoked-${args.length}`);
    const run = await runHookCli(agentEnv(project, { ASK_LATER_TOKEN: revoked }), payload(), { args });
    expect([run.code, run.stdout]).toEqual([0, '']);
    expect(run.stderr).toBe('ask-later hook: the token is unknown or was revoked; answers wait for the next prompt\n');
    expect(run.stderr).not.toContain(revoked);
    expect((await store.get(project, 1))?.status).toBe('answered');
  });
});

/** `node <args>` as Claude Code runs a statusLine command. */
function statusRun(args: readonly string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, cwd: tmpdir(), stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.stdin.on('error', () => undefined);
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(JSON.stringify({ hook_event_name: 'Status', session_id: 's', workspace: {} }));
  });
}

describe.each([
  ['the built CLI', [cli, 'status']],
  ['the plugin bundle', [bundles.status]],
])('the status line over ASK_LATER_URL (%s)', (_name, args) => {
  const held: Socket[] = [];
  const silent = createServer((socket) => {
    held.push(socket);
    socket.on('error', () => undefined);
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('GIVEN questions in the project THEN the line counts them through serve', async () => {
    const project = `${team}/status-${args.length}`;
    await store.park(project, spec({ isBlocking: true }));
    await store.park(project, spec());
    await answered(store, project, 1);
    // A roomy deadline: what is checked here is the count through serve, not how fast a busy machine gives it.
    expect(await statusRun(args, agentEnv(project, { ASK_LATER_STATUS_DEADLINE_MS: '10000' }))).toEqual({
      code: 0,
      stdout: 'ask-later: 2 waiting, 1 blocking · 1 answered → ask-later inbox\n',
      stderr: '',
    });
  });

  it('GIVEN nothing listening at ASK_LATER_URL THEN an empty line and one stderr line', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const address = closed.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    await new Promise((resolve) => closed.close(resolve));
    // A roomy deadline, so that a starved machine still gets to connect and the refusal is the reason given.
    const run = await statusRun(
      args,
      agentEnv(`${team}/down`, {
        ASK_LATER_URL: `http://127.0.0.1:${address.port}`,
        ASK_LATER_STATUS_DEADLINE_MS: '10000',
      }),
    );
    expect(run).toEqual({
      code: 0,
      stdout: '\n',
      stderr: 'ask-later status: the inbox (serve at ASK_LATER_URL) is unreachable (ECONNREFUSED)\n',
    });
  });

  it('GIVEN a serve that never answers THEN an empty line at the deadline', async () => {
    const address = silent.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const run = await statusRun(
      args,
      agentEnv(`${team}/silent`, { ASK_LATER_URL: `http://127.0.0.1:${address.port}` }),
    );
    expect([run.code, run.stdout]).toEqual([0, '\n']);
    expect(run.stderr).toMatch(/^ask-later status: the inbox did not answer within [^\n]+\n$/);
  });
});

describe('the waiter over ASK_LATER_URL', () => {
  it('GIVEN a blocking question pending WHEN it is answered THEN the waiter wakes the session (exit 2) with the line', async () => {
    const project = `${team}/waiter`;
    await store.park(project, spec({ isBlocking: true }));
    const own = await createToken(store, 'waiter', [project]);
    const child = spawn(process.execPath, [cli, 'wait'], {
      env: agentEnv(project, { ASK_LATER_TOKEN: own }),
      cwd: tmpdir(),
      stdio: 'pipe',
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    child.stdin.end(JSON.stringify({ session_id: 'http-waiter', hook_event_name: 'SessionStart', cwd: tmpdir() }));
    // It took the session's lease, found the question pending and now waits for a change (serve's log of its calls).
    const calls = () =>
      logger.lines.filter((line) => line.fields.token === own.slice(4, 16)).map((l) => l.fields.operation);
    await expect.poll(() => calls().includes('list')).toBe(true);
    expect(calls().slice(0, 3)).toEqual(['lease-acquire', 'watch', 'lease-acquire']);
    await store.answer(project, 1, { choices: ['Postgres'], other: false }, person());
    expect(await exited).toBe(2);
    expect(stderr).toBe('#1 (blocking) was answered on Slack. Call the collect_answers tool to read it.\n');
  });
});

describe('what serve counted of all this', () => {
  it('GIVEN every call above THEN /metrics counts the agent API calls by operation and status, 401s included', async () => {
    const families = parsePrometheus(await (await fetch(`${url}/metrics`)).text());
    expect(families.get('ask_later_agent_requests_total')?.type).toBe('counter');
    expect(
      sampleValue(families, 'ask_later_agent_requests_total', { operation: 'park', status: '200' }),
    ).toBeGreaterThan(0);
    expect(sampleValue(families, 'ask_later_agent_requests_total', { operation: 'claim', status: '401' })).toBe(2);
    // ask_later first looks for an earlier decision (similar); the token's refusal comes there, before any park.
    expect(sampleValue(families, 'ask_later_agent_requests_total', { operation: 'similar', status: '403' })).toBe(1);
    expect(
      sampleValue(families, 'ask_later_agent_requests_total', { operation: 'park', status: '403' }),
    ).toBeUndefined();
  });
});

describe('what serve logged of all this', () => {
  it('GIVEN every call above THEN the log has operations, statuses and token ids, never a token or a question’s text', () => {
    const calls = logger.lines.filter((line) => line.message === 'agent api: call');
    expect(calls.length).toBeGreaterThan(10);
    for (const call of calls) {
      for (const key of Object.keys(call.fields)) expect(['ms', 'operation', 'status', 'token']).toContain(key);
    }
    const text = logger.text();
    expect(text).not.toContain(token);
    expect(text).not.toContain(token.slice(17));
    expect(text).not.toContain('Which one?');
    expect(text).not.toContain('Which database should billing use?');
  });
});
