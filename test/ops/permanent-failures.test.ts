/**
 * A platform refusing for good, seen from outside: Slack answering `channel_not_found` to every post while Discord
 * is healthy. Each refused event is tried once and recorded as failed, one warning says what to fix, `/healthz` and
 * doctor show Slack degraded, Discord gets everything; once the channel is fixed, `ask-later retry-failed` (the built
 * CLI) posts each refused question once, and Slack is no longer degraded.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { formatLine } from '../../src/commands/doctor/check.js';
import { checkFailedEvents } from '../../src/commands/doctor/failed-events.js';
import { FakeDiscord } from '../fakes/discord.js';
import { FakeSlackApi } from '../fakes/slack-api.js';
import { freshHome } from '../support/home.js';
import { openTestStore, spec, uniquePrefix, uniqueProject } from '../support/store.js';
import { startReplica } from './support.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function healthz(port: number) {
  const response = await fetch(`http://127.0.0.1:${port}/healthz`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function retryFailed(prefix: string, platform: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [new URL('../../dist/cli.js', import.meta.url).pathname, 'retry-failed', platform],
      {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: freshHome(),
          REDIS_URL: inject('redisUrl'),
          ASK_LATER_REDIS_PREFIX: prefix,
        },
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.once('close', (code) => resolve({ code, stdout }));
  });
}

/** Successful Slack posts per question ref (the fake records only the posts it accepted). */
function slackPostsPerRef(slack: FakeSlackApi): Map<string, number> {
  const counts = new Map<string, number>();
  for (const message of slack.messages) {
    const ref = (message.metadata as { event_payload?: { ref?: string } } | undefined)?.event_payload?.ref;
    if (ref !== undefined && message.thread_ts === undefined) counts.set(ref, (counts.get(ref) ?? 0) + 1);
  }
  return counts;
}

describe('a platform refusing every post for good', () => {
  it('GIVEN Slack answering channel_not_found while Discord is healthy THEN each event is tried once and recorded, one warning names the fix, /healthz and doctor say Slack is degraded, and retry-failed posts each once after the fix', async () => {
    const slack = await new FakeSlackApi().start();
    const discord = await new FakeDiscord().start();
    cleanup.push(
      () => slack.stop(),
      () => discord.stop(),
    );
    slack.refuse('chat.postMessage', 'channel_not_found');
    const prefix = uniquePrefix();
    const store = await openTestStore({ prefix });
    cleanup.push(() => store.close());
    const replica = await startReplica({ prefix, slack, discord });
    cleanup.push(() => replica.serve.stop());

    const project = uniqueProject('refused');
    const questions = 12;
    for (let i = 0; i < questions; i++) await store.park(project, spec());

    // Every event is recorded as failed, and Discord has every question meanwhile.
    await expect
      .poll(async () => (await store.failedEvents()).find((g) => g.group === 'bridge:slack')?.count, {
        message: 'every Slack event recorded as failed',
      })
      .toBe(questions);
    await expect.poll(() => discord.creates().length, { message: 'Discord posted every question' }).toBe(questions);
    // Tried once each: one refused post per question, no more.
    expect(slack.callsOf('chat.postMessage')).toHaveLength(questions);
    const failed = (await store.failedEvents({ sample: 20 })).find((g) => g.group === 'bridge:slack');
    expect(failed?.sample.every((f) => f.attempts === 1 && f.error === 'channel_not_found')).toBe(true);

    // One warning in all, naming the fix; nothing logged as an error.
    const warnings = replica.logger.lines.filter((line) => line.level === 'warn' || line.level === 'error');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.fields).toMatchObject({
      platform: 'slack',
      channel: 'C0DEFAULT',
      failure: 'channel_not_found',
    });
    expect(String(warnings[0]?.fields.fix)).toMatch(/invite the app/);

    expect(await healthz(replica.serve.port)).toEqual({
      status: 200,
      body: { status: 'degraded', store: 'ok', slack: 'degraded', discord: 'ok', failed: questions },
    });
    const doctor = (await checkFailedEvents({ kind: 'redis', url: inject('redisUrl'), prefix }, 3000)).map(formatLine);
    expect(doctor[0]).toMatch(
      /^✗ Slack is degraded: posts to C0DEFAULT are refused \(channel_not_found\) — the channel does not exist .*invite the app/,
    );
    expect(doctor).toContain(
      `⚠ Bridge: ${questions} events could not be shown on Slack (channel_not_found) — fix the cause, then run ask-later retry-failed slack`,
    );

    // The channel is fixed: retry-failed hands them back, and each is posted once.
    slack.refuse('chat.postMessage', undefined);
    const replay = await retryFailed(prefix, 'slack');
    expect(replay.code).toBe(0);
    expect(replay.stdout).toMatch(new RegExp(`^Handed ${questions} failed events back`));
    await expect
      .poll(() => [...slackPostsPerRef(slack).values()], { message: 'every question posted on Slack' })
      .toHaveLength(questions);
    expect([...slackPostsPerRef(slack).values()].every((count) => count === 1)).toBe(true);
    await expect
      .poll(async () => (await healthz(replica.serve.port)).body, { message: 'Slack is no longer degraded' })
      .toEqual({ status: 'ok', store: 'ok', slack: 'ok', discord: 'ok' });
    expect(await store.surfaceFaults()).toEqual([]);
    expect(replica.logger.lines.some((line) => line.message.startsWith('bridge: posting works again'))).toBe(true);
    // Still one warning: the recovery is an info line.
    expect(replica.logger.lines.filter((line) => line.level === 'warn' || line.level === 'error')).toHaveLength(1);
  });

  it('GIVEN Discord refusing posts with Missing Access (403, 50001) THEN each event is tried once and Discord shows degraded while Slack is fine', async () => {
    const slack = await new FakeSlackApi().start();
    const discord = await new FakeDiscord().start();
    cleanup.push(
      () => slack.stop(),
      () => discord.stop(),
    );
    const questions = 3;
    discord.fail(
      'POST /channels/:id/messages',
      ...Array.from({ length: questions }, () => ({ status: 403 as const, code: 50001 })),
    );
    const prefix = uniquePrefix();
    const store = await openTestStore({ prefix });
    cleanup.push(() => store.close());
    const replica = await startReplica({ prefix, slack, discord });
    cleanup.push(() => replica.serve.stop());

    const project = uniqueProject('missing-access');
    for (let i = 0; i < questions; i++) await store.park(project, spec());
    await expect
      .poll(async () => (await store.failedEvents()).find((g) => g.group === 'bridge:discord')?.count, {
        message: 'every Discord event recorded as failed',
      })
      .toBe(questions);
    expect(discord.creates()).toHaveLength(questions);
    await expect.poll(() => slackPostsPerRef(slack).size, { message: 'Slack posted every question' }).toBe(questions);
    expect(await healthz(replica.serve.port)).toEqual({
      status: 200,
      body: { status: 'degraded', store: 'ok', slack: 'ok', discord: 'degraded', failed: questions },
    });
    const [fault] = await store.surfaceFaults();
    expect(fault).toMatchObject({
      group: 'bridge:discord',
      channel: discord.channelId,
      error: 'HTTP 403 (50001)',
      fix: expect.stringMatching(/View Channel/),
    });
    const warnings = replica.logger.lines.filter((line) => line.level === 'warn' || line.level === 'error');
    expect(warnings.map((line) => line.fields.platform)).toEqual(['discord']);

    // A new question posts (the fake refuses no more): Discord is no longer degraded.
    await store.park(project, spec());
    await expect
      .poll(async () => (await healthz(replica.serve.port)).body.discord, { message: 'Discord posts again' })
      .toBe('ok');
    expect(await store.surfaceFaults()).toEqual([]);
  });
});
