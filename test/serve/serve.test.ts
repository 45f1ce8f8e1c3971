import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { runServe } from '../../src/serve/run.js';
import { nodeSqlite } from '../../src/store/sqlite/driver.js';
import { FakeDiscord } from '../fakes/discord.js';
import { FakeSlackApi } from '../fakes/slack-api.js';
import { freePort } from '../support/redis-server.js';
import { uniquePrefix } from '../support/store.js';
import { RecordingLogger } from '../surfaces/slack/harness.js';

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
    [{ ASK_LATER_DB: 'inbox.db' }, 'ASK_LATER_DB must be an absolute path'],
    [{ REDIS_URL: 'redis://127.0.0.1:1', ASK_LATER_HOST: '0.0.0.0' }, 'set ASK_LATER_WEB_TOKEN'],
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

  it('GIVEN an embedded store that cannot be created THEN one line naming its path, exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'al-serve-'));
    writeFileSync(join(dir, 'file'), '');
    const err = stderr();
    const path = join(dir, 'file', 'inbox.db');
    expect(await runServe({ ASK_LATER_DB: path, PORT: '0' }, { stderr: err }, quiet)).toBe(1);
    expect(err.lines).toEqual([
      expect.stringMatching(/^ask-later serve: cannot open the embedded store at .*file\/inbox\.db \(/),
    ]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('GIVEN the port in use THEN one line saying so and naming PORT, exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'al-serve-'));
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    const err = stderr();
    const env = { ASK_LATER_DB: join(dir, 'inbox.db'), PORT: String(port) };
    expect(await runServe(env, { stderr: err }, quiet)).toBe(1);
    expect(err.lines).toEqual([
      `ask-later serve: cannot listen on 127.0.0.1 port ${port} (it is in use: is another ask-later serve running? Set PORT to use another)\n`,
    ]);
    await new Promise((resolve) => blocker.close(resolve));
    rmSync(dir, { recursive: true, force: true });
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

  it('GIVEN ASK_LATER_HOST beyond loopback and a token THEN the inbox asks for the token, /healthz does not, and any Host is served', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'al-serve-'));
    const port = await freePort();
    const err = stderr();
    const signals = new EventEmitter();
    const token = 'a-long-random-web-token-0123';
    const env = {
      ASK_LATER_DB: join(dir, 'inbox.db'),
      ASK_LATER_HOST: '0.0.0.0',
      ASK_LATER_WEB_TOKEN: token,
      PORT: String(port),
    };
    const running = runServe(env, { stderr: err, signals }, quiet);
    await expect.poll(() => err.lines.length).toBeGreaterThan(0);
    try {
      expect(err.lines[0]).toBe(
        `ask-later serve: web inbox at http://127.0.0.1:${port}/ (no Slack or Discord configured: questions are answered there)\n`,
      );
      expect(err.lines.join('')).not.toContain(token);
      const asked = await fetch(`http://127.0.0.1:${port}/`, { headers: { host: `inbox.example:${port}` } });
      expect(asked.status).toBe(401);
      expect(await asked.text()).toContain('type="password"');
      const signedIn = await fetch(`http://127.0.0.1:${port}/`, {
        headers: { host: `inbox.example:${port}`, authorization: `Bearer ${token}` },
      });
      expect(signedIn.status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    } finally {
      signals.emit('SIGTERM');
      expect(await running).toBe(0);
      rmSync(dir, { recursive: true, force: true });
    }
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
    await expect.poll(() => err.lines.length).toBeGreaterThan(0);
    expect(err.lines[0]).toBe(
      `ask-later serve: web inbox at http://127.0.0.1:${port}/; answering from Slack (POST /slack/events) too\n`,
    );
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    // One server: the web inbox and Slack's endpoint (Bolt checks the signature) share the port.
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const unsigned = await fetch(`http://127.0.0.1:${port}/slack/events`, { method: 'POST', body: 'payload=%7B%7D' });
    expect(unsigned.status).toBe(401);
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
    await expect.poll(() => err.lines.length).toBeGreaterThan(0);
    expect(err.lines[0]).toBe(`ask-later serve: web inbox at http://127.0.0.1:${port}/; answering from Discord too\n`);
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

  // Runs the built CLI (dist/): `npm test` and `npm run test:fast` build it first.
  it('GIVEN the built CLI with no Redis and no chat settings THEN `ask-later serve` serves the web inbox from the embedded store, says so with the URL and how to add the plugin, and stops on SIGTERM', async () => {
    const home = mkdtempSync(join(tmpdir(), 'al-home-'));
    const port = await freePort();
    const child = spawn(process.execPath, ['dist/cli.js', 'serve'], {
      env: { PATH: process.env.PATH, HOME: home, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      await expect.poll(() => err).toContain('\n');
      const url = `http://127.0.0.1:${port}/`;
      expect(err.split('\n')[0]).toBe(
        `ask-later serve: web inbox at ${url} (no Slack or Discord configured: questions are answered there)`,
      );
      await expect
        .poll(() => err)
        .toContain(
          `ask-later serve: Claude Code: claude plugin marketplace add ${process.cwd()} && claude plugin install ask-later@ask-later\n`,
        );
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>');
      const state = join(home, '.local', 'state', 'ask-later');
      expect(existsSync(join(state, 'inbox.db'))).toBe(true);
      // On Node 20, the record that lets the plugin's bundles (which carry no native addon) open the same file; on a
      // Node with node:sqlite nobody needs one, and none is written.
      const record = join(state, 'sqlite-engine.json');
      expect(existsSync(record) ? JSON.parse(readFileSync(record, 'utf8')) : 'none').toEqual(
        nodeSqlite() ? 'none' : { module: join(process.cwd(), 'node_modules', 'better-sqlite3') },
      );
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      rmSync(home, { recursive: true, force: true });
    }
  });
});
