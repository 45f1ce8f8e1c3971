import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { runServe } from '../../src/serve/run.js';
import { RecordingLogger } from '../bot/slack/harness.js';
import { FakeDiscord } from '../fakes/discord.js';
import { FakeSlackApi } from '../fakes/slack-api.js';
import { freePort } from '../support/redis-server.js';
import { uniquePrefix } from '../support/store.js';

const open: { stop: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.stop();
});

function stderr() {
  const lines: string[] = [];
  return { lines, write: (text: string) => lines.push(text) };
}

const quiet = { logger: new RecordingLogger(), sweepMs: 0 };

describe('ask-later serve', () => {
  it.each([
    [{}, 'REDIS_URL is not set'],
    [
      { REDIS_URL: 'redis://127.0.0.1:1' },
      'Nothing to serve: set SLACK_BOT_TOKEN, SLACK_CHANNEL and SLACK_SIGNING_SECRET',
    ],
    [
      { REDIS_URL: 'redis://127.0.0.1:1', SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' },
      'SLACK_CHANNEL is not set',
    ],
    [
      { REDIS_URL: 'redis://127.0.0.1:1', SLACK_BOT_TOKEN: 'xoxb-1', SLACK_CHANNEL: 'C123' },
      'SLACK_SIGNING_SECRET is not set',
    ],
    [
      { REDIS_URL: 'redis://127.0.0.1:1', SLACK_BOT_TOKEN: 'xoxp-1', SLACK_CHANNEL: 'C123', SLACK_SIGNING_SECRET: 's' },
      'SLACK_BOT_TOKEN must be a bot token',
    ],
    [
      {
        REDIS_URL: 'redis://127.0.0.1:1',
        SLACK_BOT_TOKEN: 'xoxb-1',
        SLACK_CHANNEL: '#team',
        SLACK_SIGNING_SECRET: 's',
      },
      'SLACK_CHANNEL must be a channel id',
    ],
  ])('GIVEN a missing or wrong setting (%j) THEN one precise line on stderr and exit 1', async (env, expected) => {
    const err = stderr();
    expect(await runServe(env, { stderr: err }, quiet)).toBe(1);
    expect(err.lines).toHaveLength(1);
    expect(err.lines[0]).toMatch(/^ask-later serve: .+\n$/);
    expect(err.lines[0]).toContain(expected);
  });

  it('GIVEN Redis not reachable THEN one line naming REDIS_URL, exit 1', async () => {
    const err = stderr();
    const env = {
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_CHANNEL: 'C123',
      SLACK_SIGNING_SECRET: 's',
    };
    expect(await runServe(env, { stderr: err }, quiet)).toBe(1);
    expect(err.lines).toEqual([expect.stringMatching(/^ask-later serve: cannot reach Redis at REDIS_URL/)]);
  });

  it('GIVEN Slack refusing the bot token THEN one line naming SLACK_BOT_TOKEN, exit 1', async () => {
    const slack = await new FakeSlackApi().start();
    open.push(slack);
    slack.fail('auth.test', { status: 200, error: 'invalid_auth' });
    const err = stderr();
    const env = {
      REDIS_URL: inject('redisUrl'),
      ASK_LATER_REDIS_PREFIX: uniquePrefix(),
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_CHANNEL: 'C123',
      SLACK_SIGNING_SECRET: 's',
      SLACK_API_URL: slack.url,
      PORT: '0',
    };
    expect(await runServe(env, { stderr: err }, { ...quiet, retryConfig: { retries: 0 } })).toBe(1);
    expect(err.lines).toEqual([
      "ask-later serve: Slack refused SLACK_BOT_TOKEN (invalid_auth): use the app's bot token (xoxb-…)\n",
    ]);
  });

  it('GIVEN a good config THEN it says it is ready, answers /healthz, and SIGTERM stops it cleanly with exit 0', async () => {
    const slack = await new FakeSlackApi().start();
    open.push(slack);
    const port = await freePort();
    const err = stderr();
    const signals = new EventEmitter();
    const env = {
      REDIS_URL: inject('redisUrl'),
      ASK_LATER_REDIS_PREFIX: uniquePrefix(),
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_CHANNEL: 'C123',
      SLACK_SIGNING_SECRET: 's',
      SLACK_API_URL: slack.url,
      PORT: String(port),
    };
    const running = runServe(env, { stderr: err, signals }, { ...quiet, retryConfig: { retries: 0 } });
    for (let i = 0; i < 200 && err.lines.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(err.lines).toEqual([`ask-later serve: ready (HTTP on port ${port}: POST /slack/events, GET /healthz)\n`]);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    signals.emit('SIGTERM');
    expect(await running).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });

  it('GIVEN only Discord settings THEN it connects the gateway, registers /questions, says it is ready, answers /healthz, and SIGTERM stops it with exit 0', async () => {
    const discord = await new FakeDiscord().start();
    open.push(discord);
    const port = await freePort();
    const err = stderr();
    const signals = new EventEmitter();
    const env = {
      REDIS_URL: inject('redisUrl'),
      ASK_LATER_REDIS_PREFIX: uniquePrefix(),
      DISCORD_TOKEN: discord.token,
      DISCORD_CHANNEL: discord.channelId,
      DISCORD_API_URL: discord.apiUrl,
      PORT: String(port),
    };
    const running = runServe(env, { stderr: err, signals }, { ...quiet, discord: { restRetries: 0 } });
    for (let i = 0; i < 300 && err.lines.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(err.lines).toEqual([`ask-later serve: ready (Discord gateway connected; GET /healthz on port ${port})\n`]);
    // No DISCORD_GUILD_ID: /questions is registered globally.
    expect(discord.callsOf('PUT', /^\/applications\/\d+\/commands$/)).toHaveLength(1);
    expect(discord.identifies).toBe(1);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    signals.emit('SIGTERM');
    expect(await running).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });

  it('GIVEN Discord refusing the token THEN one line naming DISCORD_TOKEN, exit 1', async () => {
    const discord = await new FakeDiscord({
      token: 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GfAkEd.the-token-discord-knows-000000',
    }).start();
    open.push(discord);
    const err = stderr();
    const env = {
      REDIS_URL: inject('redisUrl'),
      ASK_LATER_REDIS_PREFIX: uniquePrefix(),
      DISCORD_TOKEN: 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GfAkEd.a-token-discord-does-not-know',
      DISCORD_CHANNEL: discord.channelId,
      DISCORD_API_URL: discord.apiUrl,
      PORT: '0',
    };
    expect(await runServe(env, { stderr: err }, { ...quiet, discord: { restRetries: 0 } })).toBe(1);
    expect(err.lines).toEqual([
      "ask-later serve: Discord refused DISCORD_TOKEN (401): use the bot token from the Developer Portal's Bot page\n",
    ]);
  });

  it.runIf(existsSync('dist/cli.js'))(
    'GIVEN the built CLI without Slack or Discord settings THEN `ask-later serve` prints one line and exits 1',
    () => {
      const result = spawnSync(process.execPath, ['dist/cli.js', 'serve'], {
        env: { PATH: process.env.PATH, REDIS_URL: 'redis://127.0.0.1:1' },
        encoding: 'utf8',
        timeout: 10_000,
      });
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        'ask-later serve: Nothing to serve: set SLACK_BOT_TOKEN, SLACK_CHANNEL and SLACK_SIGNING_SECRET (or SLACK_APP_TOKEN) to answer from Slack, or DISCORD_TOKEN and DISCORD_CHANNEL to answer from Discord\n',
      );
    },
  );
});
