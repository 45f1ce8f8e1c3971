/**
 * Stopping always ends: SIGTERM stops serve whatever the store and the platforms do, and what it left in hand is
 * done by the next start, once. The store-down case runs the built CLI (a real signal, a real exit code); the
 * hanging-Slack case runs `runServe` in-process so the next start can take the event over without waiting out the
 * default reclaim time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Question } from '../../src/core/question.js';
import { runServe } from '../../src/serve/run.js';
import { openRedisStore } from '../../src/store/redis/redis-store.js';
import { FakeSlackApi } from '../fakes/slack-api.js';
import { testHome } from '../support/home.js';
import { freePort, startTestRedis } from '../support/redis-server.js';
import { spec, uniquePrefix, uniqueProject } from '../support/store.js';
import { postOf, RecordingLogger, refOf, TEST_RETRY } from '../surfaces/slack/harness.js';
import { OPS_SECRET } from './support.js';

const cli = new URL('../../dist/cli.js', import.meta.url).pathname;
const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

interface ServeProcess {
  readonly child: ChildProcess;
  /** serve's pino lines, parsed. */
  readonly logs: { msg?: string; unfinished?: string[] }[];
  readonly exited: Promise<number | null>;
}

async function startServeProcess(env: Record<string, string>, port: number): Promise<ServeProcess> {
  const child = spawn(process.execPath, [cli, 'serve'], {
    env: { PATH: process.env.PATH ?? '', HOME: testHome(), PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: ServeProcess['logs'] = [];
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n').filter(Boolean)) logs.push(JSON.parse(line) as ServeProcess['logs'][number]);
  });
  child.stderr?.resume();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanup.push(() => child.kill('SIGKILL'));
  await expect
    .poll(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.status, {
      timeout: 20_000,
    })
    .toBe(200);
  return { child, logs, exited };
}

/** Chat posts per question ref (the web inbox's copies are not calls to Slack). */
function postsPerRef(slack: FakeSlackApi): Map<string, number> {
  const counts = new Map<string, number>();
  for (const call of slack.callsOf('chat.postMessage')) {
    const ref = (call.body.metadata as { event_payload?: { ref?: string } } | undefined)?.event_payload?.ref;
    if (ref !== undefined) counts.set(ref, (counts.get(ref) ?? 0) + 1);
  }
  return counts;
}

describe('stopping serve', () => {
  it('GIVEN serve running on a Redis that was killed WHEN SIGTERM arrives THEN it exits 0, and started again on the Redis back it posts every question parked meanwhile once', async () => {
    const redis = await startTestRedis();
    cleanup.push(() => redis.stop());
    const slack = await new FakeSlackApi().start();
    cleanup.push(() => slack.stop());
    const prefix = uniquePrefix();
    const env = {
      REDIS_URL: redis.url,
      ASK_LATER_REDIS_PREFIX: prefix,
      SLACK_BOT_TOKEN: 'xoxb-ops',
      SLACK_SIGNING_SECRET: OPS_SECRET,
      SLACK_CHANNEL: 'C0STOP',
      SLACK_API_URL: slack.url,
    };
    const first = await startServeProcess(env, await freePort());

    await redis.kill();
    // serve noticed: its followers say once that they cannot read.
    await expect
      .poll(() => first.logs.some((line) => line.msg === 'bridge: cannot read events; retrying with back-off'))
      .toBe(true);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.logs.filter((line) => line.msg?.startsWith('serve: stopped'))).toHaveLength(1);

    await redis.start();
    const store = await openRedisStore({ url: redis.url, prefix });
    cleanup.push(() => store.close());
    const project = uniqueProject('stop-store-down');
    const parked: Question[] = [];
    for (let i = 0; i < 3; i++) parked.push(await store.park(project, spec()));
    const second = await startServeProcess(env, await freePort());
    await expect
      .poll(() => parked.map((question) => postOf(slack, question) !== undefined))
      .toEqual([true, true, true]);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    const posts = postsPerRef(slack);
    expect(parked.map((question) => posts.get(refOf(question)))).toEqual([1, 1, 1]);
  });

  it('GIVEN the Redis serve runs on replaced by a host that takes connections and never answers WHEN SIGTERM arrives THEN it exits 0', async () => {
    const redis = await startTestRedis();
    cleanup.push(() => redis.stop());
    const first = await startServeProcess(
      { REDIS_URL: redis.url, ASK_LATER_REDIS_PREFIX: uniquePrefix() },
      await freePort(),
    );
    await redis.kill();
    // A network that swallows everything: connections open, no byte ever comes back.
    const swallowed: Socket[] = [];
    let closing = false;
    const blackHole = createServer((socket) => (closing ? socket.destroy() : swallowed.push(socket)));
    await new Promise<void>((resolve) => blackHole.listen(redis.port, '127.0.0.1', resolve));
    cleanup.push(
      () =>
        new Promise<void>((resolve) => {
          closing = true;
          for (const socket of swallowed) socket.destroy();
          blackHole.close(() => resolve());
        }),
    );
    // serve reconnected into it (its commands now wait on a server that never answers).
    await expect.poll(() => swallowed.length).toBeGreaterThan(0);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.logs.filter((line) => line.msg?.startsWith('serve: stopped'))).toHaveLength(1);
  });

  it('GIVEN Slack not answering a post in hand WHEN SIGTERM arrives THEN serve stops, saying what it left, and the next start posts that question once', async () => {
    const slack = await new FakeSlackApi().start();
    cleanup.push(() => slack.stop());
    const redis = await startTestRedis();
    cleanup.push(() => redis.stop());
    const prefix = uniquePrefix();
    const store = await openRedisStore({ url: redis.url, prefix });
    cleanup.push(() => store.close());
    const env = {
      REDIS_URL: redis.url,
      ASK_LATER_REDIS_PREFIX: prefix,
      SLACK_BOT_TOKEN: 'xoxb-ops',
      SLACK_SIGNING_SECRET: OPS_SECRET,
      SLACK_CHANNEL: 'C0STOP',
      SLACK_API_URL: slack.url,
    };
    const run = async (logger: RecordingLogger, signals: EventEmitter, port: number) => {
      const lines: string[] = [];
      const running = runServe(
        { ...env, PORT: String(port) },
        { stderr: { write: (text: string) => lines.push(text) }, signals },
        {
          logger,
          retryConfig: TEST_RETRY,
          bridge: { blockMs: 50, retryBaseMs: 10, reclaimIdleMs: 200 },
          sweepMs: 0,
          stopTimeoutMs: 500,
        },
      );
      await expect.poll(() => lines[0]).toContain('web inbox at http://127.0.0.1:');
      return { exitCode: running };
    };

    slack.hang('chat.postMessage');
    const firstLog = new RecordingLogger();
    const firstSignals = new EventEmitter();
    const first = await run(firstLog, firstSignals, await freePort());
    const project = uniqueProject('stop-slack-hangs');
    const question = await store.park(project, spec());
    await slack.waitFor((call) => call.method === 'chat.postMessage');
    firstSignals.emit('SIGTERM');
    expect(await first.exitCode).toBe(0);
    const stopped = firstLog.lines.filter((line) => line.message.startsWith('serve: stopped'));
    expect(stopped.map((line) => [line.level, line.fields.unfinished])).toEqual([['warn', ['bridge']]]);

    slack.hang('chat.postMessage', false);
    const secondSignals = new EventEmitter();
    const second = await run(new RecordingLogger(), secondSignals, await freePort());
    await expect.poll(async () => (await store.get(project, question.id))?.messages.length).toBe(2);
    secondSignals.emit('SIGTERM');
    expect(await second.exitCode).toBe(0);
    // The hung call was made but never answered; the one after it posted: one message in the channel.
    expect(slack.messages.filter((message) => message.channel === 'C0STOP')).toHaveLength(1);
  });
});
