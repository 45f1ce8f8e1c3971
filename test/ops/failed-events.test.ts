/**
 * Events the bridge gave up on, seen from outside: `/healthz` counts them, `ask-later doctor` says which and what
 * to run, and `ask-later retry-failed` (the built CLI) hands them back.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { formatLine } from '../../src/commands/doctor/check.js';
import { diagnose } from '../../src/commands/doctor/doctor.js';
import { startServe } from '../../src/serve/run.js';
import type { StoreEvent } from '../../src/store/port.js';
import type { RedisStore } from '../../src/store/redis/redis-store.js';
import { freshHome } from '../support/home.js';
import { openTestStore, spec, uniquePrefix, uniqueProject } from '../support/store.js';
import { RecordingLogger } from '../surfaces/slack/harness.js';

const prefix = uniquePrefix();
let store: RedisStore;
let events: StoreEvent[];

beforeAll(async () => {
  store = await openTestStore({ prefix });
  const project = uniqueProject('failed');
  for (let i = 0; i < 3; i++) await store.park(project, spec());
  const consumer = await store.consumer('reader', 'r');
  events = await consumer.read({ count: 10 });
  await consumer.close();
});
afterAll(async () => {
  await store.close();
});

function env(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: freshHome(),
    REDIS_URL: inject('redisUrl'),
    ASK_LATER_REDIS_PREFIX: prefix,
  };
}

function retryFailed(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [new URL('../../dist/cli.js', import.meta.url).pathname, 'retry-failed', ...args],
      {
        env: env(),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('failed events, from outside', () => {
  it('GIVEN failed events on Slack and Discord THEN /healthz stays 200 and counts them, and doctor names each platform, its codes and the command', async () => {
    const [one, two, three] = events;
    if (!one || !two || !three) throw new Error('three events expected');
    await store.recordFailedEvent('bridge:slack', one, { attempts: 5, error: 'channel_not_found' });
    await store.recordFailedEvent('bridge:slack', two, { attempts: 5, error: 'channel_not_found' });
    await store.recordFailedEvent('bridge:discord', three, { attempts: 5, error: 'HTTP 403 (50001)' });

    const serve = await startServe(
      { store: { kind: 'redis', url: inject('redisUrl'), prefix }, port: 0, host: '127.0.0.1' },
      { logger: new RecordingLogger(), sweepMs: 0 },
    );
    try {
      const response = await fetch(`http://127.0.0.1:${serve.port}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok', store: 'ok', failed: 3 });
    } finally {
      await serve.stop();
    }

    const lines = (await diagnose(env(), { home: freshHome(), cwd: freshHome() })).map(formatLine);
    expect(lines).toContain(
      '⚠ Bridge: 1 event could not be shown on Discord (HTTP 403 (50001)) — fix the cause, then run ask-later retry-failed discord',
    );
    expect(lines).toContain(
      '⚠ Bridge: 2 events could not be shown on Slack (channel_not_found) — fix the cause, then run ask-later retry-failed slack',
    );
  });

  it('GIVEN `ask-later retry-failed slack` THEN Slack’s are handed back (Discord’s stay), it says how many, and a second run finds none', async () => {
    const first = await retryFailed(['slack']);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout.split('\n')[0]).toBe(
      'Handed 2 failed events back to the bridge (Slack 2); a running ask-later serve tries them again now.',
    );
    expect((await store.failedEvents()).map((g) => g.group)).toEqual(['bridge:discord']);
    expect((await store.takeReplayedEvents('bridge:slack', 10)).map((f) => f.event.questionId).sort()).toEqual([1, 2]);

    expect(await retryFailed(['slack'])).toMatchObject({ code: 0, stdout: 'No failed events for Slack.\n' });
    expect(await retryFailed([])).toMatchObject({ code: 0 });
    expect(await store.failedEvents()).toEqual([]);
  });

  it('GIVEN a wrong argument THEN exit 2 with what it takes', async () => {
    expect(await retryFailed(['teams'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'ask-later retry-failed: expected no argument, or one of slack, discord, telegram, web\n',
    });
  });
});
