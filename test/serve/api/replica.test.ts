/**
 * A serve replica killed while an agent waits on it: `ask-later mcp` (the built CLI) over ASK_LATER_URL waits in
 * `ask_later` with waitSeconds; the serve it talks to is SIGKILLed mid-wait and another starts on the same port
 * (as a load balancer would hand the next connection to a live replica); the answer given meanwhile reaches the
 * agent in that call, exactly once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { Store } from '../../../src/store/port.js';
import { createToken } from '../../support/agent-api.js';
import { testHome } from '../../support/home.js';
import { textOf } from '../../support/mcp.js';
import { freePort } from '../../support/redis-server.js';
import { createRedisUser } from '../../support/redis-user.js';
import { openTestStore, person, spec, uniquePrefix, uniqueProject } from '../../support/store.js';

const cli = new URL('../../../dist/cli.js', import.meta.url).pathname;
const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

interface Replica {
  readonly child: ChildProcess;
  /** Every line serve logged on stdout (pino JSON: ids, statuses, timings). */
  readonly logs: string[];
}

async function startServe(prefix: string, port: number, redisUrl: string = inject('redisUrl')): Promise<Replica> {
  const child = spawn(process.execPath, [cli, 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: testHome(),
      REDIS_URL: redisUrl,
      ASK_LATER_REDIS_PREFIX: prefix,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => logs.push(...chunk.split('\n').filter(Boolean)));
  child.stderr?.resume();
  cleanup.push(() => child.kill('SIGKILL'));
  await expect
    .poll(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.status, {
      timeout: 20_000,
    })
    .toBe(200);
  return { child, logs };
}

function died(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

describe('a replica killed while an agent waits', () => {
  it('GIVEN ask_later waiting over HTTP WHEN its serve is killed and another takes the port THEN the answer given meanwhile comes back in that call, once', async () => {
    const prefix = uniquePrefix();
    const store: Store = await openTestStore({ prefix });
    cleanup.push(() => store.close());
    const port = await freePort();
    const project = uniqueProject('replica');
    const token = await createToken(store, 'replica-agent', [project]);
    // The first replica as a Redis user of its own: its blocked XREAD shows the wait is held there.
    const user = await createRedisUser(inject('redisUrl'));
    cleanup.push(() => user.remove());
    const first = await startServe(prefix, port, user.url);

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'mcp'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: testHome(),
        ASK_LATER_URL: `http://127.0.0.1:${port}`,
        ASK_LATER_TOKEN: token,
        ASK_LATER_PROJECT: project,
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'replica-test', version: '1.0.0' });
    await client.connect(transport);
    cleanup.push(() => client.close());
    const call = client.callTool(
      {
        name: 'ask_later',
        arguments: {
          context: 'c',
          question: 'Which one?',
          impact: 'i',
          isBlocking: true,
          options: ['A', 'B'],
          waitSeconds: 120,
        },
      },
      undefined,
      { timeout: 120_000 },
    );
    // Parked through the first replica, whose agent API now holds the wait (blocked on the project's stream), beside
    // the one blocked read a serve always has once a project exists: its web inbox's tail of the store's events.
    await expect.poll(async () => (await store.list(project)).map((q) => q.status)).toEqual(['pending']);
    await expect.poll(() => user.blockedReads()).toBe(2);

    first.child.kill('SIGKILL');
    await died(first.child);
    await store.answer(project, 1, { choices: ['B'], other: false }, person());
    const second = await startServe(prefix, port);

    const result = await call;
    expect(textOf(result)).toContain('#1 got its outcome while you waited.');
    expect(textOf(result)).toContain('B');
    // Once: delivered by the tool result, so no prompt or claim carries it again.
    expect((await store.get(project, 1))?.status).toBe('delivered');
    expect((await store.claimUndelivered(project, { budget: 10_000, leaseMs: 5000 })).questions).toEqual([]);
    // The wait that completed went through the second replica.
    expect(second.logs.some((line) => line.includes('"operation":"wait"') && line.includes('"status":200'))).toBe(true);
  });

  it('GIVEN the waiter waiting over HTTP WHEN its serve is killed and another takes the port THEN the answer given meanwhile wakes the session', async () => {
    const prefix = uniquePrefix();
    const store: Store = await openTestStore({ prefix });
    cleanup.push(() => store.close());
    const port = await freePort();
    const project = uniqueProject('replica-waiter');
    const token = await createToken(store, 'replica-waiter', [project]);
    await store.park(project, spec({ isBlocking: true }));
    const first = await startServe(prefix, port);

    const waiter = spawn(process.execPath, [cli, 'wait'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: testHome(),
        ASK_LATER_URL: `http://127.0.0.1:${port}`,
        ASK_LATER_TOKEN: token,
        ASK_LATER_PROJECT: project,
      },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    cleanup.push(() => waiter.kill('SIGKILL'));
    let stderr = '';
    waiter.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => waiter.once('close', resolve));
    waiter.stdin?.end(JSON.stringify({ session_id: 'replica-session', hook_event_name: 'SessionStart' }));
    // It started looking through the first replica (the pending question keeps it waiting); whichever call the kill
    // then cuts, the look or the wait on a change, it asks again until the second replica answers.
    await expect
      .poll(() => first.logs.some((line) => line.includes('"operation":"list"') && line.includes(token.slice(4, 16))))
      .toBe(true);

    first.child.kill('SIGKILL');
    await died(first.child);
    await store.answer(project, 1, { choices: ['Postgres'], other: false }, person());
    await startServe(prefix, port);

    expect(await exited).toBe(2);
    expect(stderr).toBe('#1 (blocking) was answered on Slack. Call the collect_answers tool to read it.\n');
  });
});
