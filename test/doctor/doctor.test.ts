import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUESTIONS_COMMAND_JSON } from '../../src/bot/discord/app.js';
import { runDoctor } from '../../src/doctor/run.js';
import { connectResp } from '../../src/store/redis/resp-connection.js';
import { FAKE_DISCORD_TOKEN, FakeDiscord } from '../fakes/discord.js';
import { FakeSlackApi } from '../fakes/slack-api.js';
import { freePort, startTestRedis, type TestRedis } from '../support/redis-server.js';
import { discordGaps } from './discord-gaps.js';
import { json, type Overlay, startOverlay } from './overlay.js';

const run = promisify(execFile);
const cli = new URL('../../dist/cli.js', import.meta.url).pathname;

const SLACK_TOKEN = 'xoxb-doctor-test-token-123';
const SIGNING_SECRET = 'doctor-test-signing-secret';
const CHANNEL = 'C0123ABCD';

let redis: TestRedis;
let slack: FakeSlackApi;
let discord: FakeDiscord;
let discordApi: Overlay;
let home: string;
let cwd: string;
const cleanup: (() => Promise<void> | void)[] = [];

/** A temporary home directory holding Claude Code's files, as given (path → JSON). */
function homeWith(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'ask-later-doctor-home-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), JSON.stringify(content, null, 2));
  }
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function healthyEnv(): Record<string, string> {
  return {
    REDIS_URL: redis.url,
    SLACK_BOT_TOKEN: SLACK_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_CHANNEL: CHANNEL,
    SLACK_API_URL: slack.url,
    DISCORD_TOKEN: FAKE_DISCORD_TOKEN,
    DISCORD_CHANNEL: discord.channelId,
    DISCORD_GUILD_ID: discord.guildId,
    DISCORD_API_URL: `${discordApi.url}/api`,
  };
}

/** Run doctor in-process; its output lines and exit code. */
async function doctor(
  env: Record<string, string | undefined>,
  options: { home?: string; timeoutMs?: number } = {},
): Promise<{ lines: string[]; code: number }> {
  let out = '';
  const code = await runDoctor(
    env,
    {
      stdout: {
        write: (text: string) => {
          out += text;
        },
      },
    },
    { home: options.home ?? home, cwd, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) },
  );
  return { lines: out.trimEnd().split('\n'), code };
}

/** Run the built CLI with exactly this environment (and PATH); stdout lines and exit code. */
async function doctorCli(env: Record<string, string>, homeDir = home): Promise<{ lines: string[]; code: number }> {
  const options = { cwd, env: { PATH: process.env.PATH ?? '', HOME: homeDir, ...env }, timeout: 20_000 };
  try {
    const { stdout } = await run('node', [cli, 'doctor'], options);
    return { lines: stdout.trimEnd().split('\n'), code: 0 };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { lines: (failed.stdout ?? '').trimEnd().split('\n'), code: failed.code ?? -1 };
  }
}

beforeAll(async () => {
  redis = await startTestRedis();
  slack = await new FakeSlackApi().start();
  discord = await new FakeDiscord().start();
  discordApi = await startOverlay(discord.url, discordGaps(discord));
  // What ask-later serve does at start: register /questions in the guild.
  const registered = await fetch(
    `${discord.apiUrl}/v10/applications/${discord.applicationId}/guilds/${discord.guildId}/commands`,
    {
      method: 'PUT',
      headers: { authorization: `Bot ${FAKE_DISCORD_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify([QUESTIONS_COMMAND_JSON]),
    },
  );
  expect(registered.status).toBe(200);
  home = homeWith({
    '.claude/settings.json': { enabledPlugins: { 'ask-later@ask-later': true }, env: { REDIS_URL: redis.url } },
    '.claude/plugins/installed_plugins.json': {
      version: 2,
      plugins: { 'ask-later@ask-later': [{ scope: 'user', version: '0.1.0' }] },
    },
  });
  cwd = mkdtempSync(join(tmpdir(), 'ask-later-doctor-cwd-'));
  cleanup.push(() => rmSync(cwd, { recursive: true, force: true }));
});

afterAll(async () => {
  await discordApi?.stop();
  await discord?.stop();
  await slack?.stop();
  await redis?.stop();
  for (const step of cleanup.reverse()) await step();
});

describe('ask-later doctor (the built CLI)', () => {
  it('GIVEN Redis with AOF, Slack, Discord and the plugin all fine THEN every line is ✓ and it exits 0', async () => {
    const { lines, code } = await doctorCli(healthyEnv());
    const version = (await redisInfo(redis.url, 'server')).get('redis_version');
    expect(lines).toEqual([
      `✓ Config: Redis from REDIS_URL (key prefix al); Slack (HTTP on PORT 3000) to ${CHANNEL}; Discord to ${discord.channelId}`,
      `✓ Redis ${version} at REDIS_URL, AOF on`,
      '✓ Slack: signed in as @ask-later to Team',
      `✓ Slack: the bot is in ${CHANNEL} (#team)`,
      `✓ Discord: signed in as ask-later (${discord.botUserId})`,
      `✓ Discord: the bot sees channel ${discord.channelId} (#questions)`,
      `✓ Discord: /questions is registered in server ${discord.guildId}`,
      '✓ Claude Code: the ask-later plugin is enabled (~/.claude/settings.json)',
    ]);
    expect(code).toBe(0);
  });

  it('GIVEN Redis is down THEN the Redis line is ✗ with the fix, nothing secret is printed, and it exits 1', async () => {
    const port = await freePort();
    const env = { ...healthyEnv(), REDIS_URL: `redis://:hunter2secret@127.0.0.1:${port}` };
    const { lines, code } = await doctorCli(env);
    expect(lines).toContain(
      '✗ Redis: cannot reach REDIS_URL (connection refused) — start Redis, or point REDIS_URL at a running one (rediss:// if it needs TLS)',
    );
    expect(lines.filter((line) => line.startsWith('✗'))).toHaveLength(1);
    const all = lines.join('\n');
    for (const secret of ['hunter2secret', SLACK_TOKEN, SIGNING_SECRET, FAKE_DISCORD_TOKEN]) {
      expect(all).not.toContain(secret);
    }
    expect(code).toBe(1);
  });

  it('GIVEN no HOME plugin and no Slack or Discord settings THEN the config line is ✗, Redis is still checked, exit 1', async () => {
    const { lines, code } = await doctorCli({ REDIS_URL: redis.url }, homeWith({}));
    expect(lines[0]).toBe(
      '✗ Config: Nothing to serve: set SLACK_BOT_TOKEN, SLACK_CHANNEL and SLACK_SIGNING_SECRET (or SLACK_APP_TOKEN) to answer from Slack, or DISCORD_TOKEN and DISCORD_CHANNEL to answer from Discord',
    );
    expect(lines[1]).toMatch(/^✓ Redis \S+ at REDIS_URL, AOF on$/);
    expect(lines[2]).toBe(
      '⚠ Claude Code: the ask-later plugin or hook was not found on this machine — claude plugin install ask-later@ask-later (fine if the agents run on another machine)',
    );
    expect(code).toBe(1);
  });
});

describe('ask-later doctor, one broken piece at a time', () => {
  it('GIVEN Slack refuses the bot token THEN the Slack line is ✗ naming SLACK_BOT_TOKEN and it exits 1', async () => {
    slack.fail('auth.test', { status: 200, error: 'invalid_auth' });
    const { lines, code } = await doctor(healthyEnv());
    expect(lines).toContain(
      "✗ Slack refused SLACK_BOT_TOKEN (invalid_auth) — use the app's Bot User OAuth Token (xoxb-…) from OAuth & Permissions; reinstall the app if it was revoked",
    );
    expect(lines.some((line) => line.includes('the bot is in'))).toBe(false);
    expect(code).toBe(1);
  });

  it('GIVEN the bot is not in the Slack channel THEN ✗ says to invite it by name, and it exits 1', async () => {
    const notMember = await startOverlay(slack.url.replace(/\/api\/$/, ''), async (request, forward) =>
      request.url.endsWith('/conversations.info')
        ? json(200, { ok: true, channel: { id: CHANNEL, name: 'team', is_member: false } })
        : forward(),
    );
    cleanup.push(() => notMember.stop());
    const { lines, code } = await doctor({ ...healthyEnv(), SLACK_API_URL: `${notMember.url}/api/` });
    expect(lines).toContain(`✗ Slack: the bot is not in ${CHANNEL} (#team) — invite it: /invite @ask-later`);
    expect(code).toBe(1);
  });

  it('GIVEN no channels:read scope THEN membership is read from the history instead', async () => {
    slack.fail('conversations.info', { status: 200, error: 'missing_scope' });
    const { lines, code } = await doctor(healthyEnv());
    expect(lines).toContain(`✓ Slack: the bot is in ${CHANNEL}`);
    expect(code).toBe(0);
  });

  it('GIVEN a Slack channel that does not exist THEN ✗ says to use the id from the channel details', async () => {
    slack.fail('conversations.info', { status: 200, error: 'channel_not_found' });
    const { lines, code } = await doctor(healthyEnv());
    expect(lines).toContain(
      `✗ Slack: channel ${CHANNEL} was not found — use the id from the channel's details (C…); for a private channel, invite the bot first: /invite @ask-later`,
    );
    expect(code).toBe(1);
  });

  it('GIVEN Socket Mode and a refused app-level token THEN ✗ names SLACK_APP_TOKEN', async () => {
    slack.fail('apps.connections.open', { status: 200, error: 'invalid_auth' });
    const env = { ...healthyEnv(), SLACK_APP_TOKEN: 'xapp-doctor-test' };
    const { lines, code } = await doctor(env);
    expect(lines[0]).toContain('Slack (Socket Mode)');
    expect(lines).toContain(
      '✗ Slack refused SLACK_APP_TOKEN (invalid_auth) — create an app-level token with connections:write (Basic Information → App-Level Tokens) and turn Socket Mode on',
    );
    expect(code).toBe(1);
    const again = await doctor(env);
    expect(again.lines).toContain('✓ Slack Socket Mode: SLACK_APP_TOKEN opens connections');
  });

  it('GIVEN a Slack API that never answers THEN doctor gives up after its time-out with ✗', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => silent.close(() => resolve()));
    });
    const address = silent.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const started = Date.now();
    const { lines, code } = await doctor(
      { ...healthyEnv(), SLACK_API_URL: `http://127.0.0.1:${port}/api/` },
      { timeoutMs: 300 },
    );
    expect(Date.now() - started).toBeLessThan(3000);
    expect(lines).toContain(
      '✗ Slack: no answer from the Web API at SLACK_API_URL (no answer within 0.3 s) — check the network, proxy or SLACK_API_URL',
    );
    expect(code).toBe(1);
  });

  it('GIVEN Discord refuses the token (401 from the fake) THEN ✗ names DISCORD_TOKEN and it exits 1', async () => {
    const wrong = 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GwRonG.not-the-token-the-fake-accepts_0123456789';
    const { lines, code } = await doctor({ ...healthyEnv(), DISCORD_TOKEN: wrong });
    expect(lines).toContain(
      "✗ Discord refused DISCORD_TOKEN (401) — reset the token on the Developer Portal's Bot page and paste it without 'Bot '",
    );
    expect(lines.join('\n')).not.toContain(wrong);
    expect(code).toBe(1);
  });

  it('GIVEN a Discord channel the bot cannot see THEN ✗ says to give the bot View Channel', async () => {
    const hiding = await startOverlay(discord.url, discordGaps(discord, { hidden: [discord.channelId] }));
    cleanup.push(() => hiding.stop());
    const { lines, code } = await doctor({ ...healthyEnv(), DISCORD_API_URL: `${hiding.url}/api` });
    expect(lines).toContain(
      `✗ Discord: the bot cannot see channel ${discord.channelId} (50001 Missing Access) — add the bot to that server (README: Discord) and give it View Channel there`,
    );
    expect(code).toBe(1);
  });

  it('GIVEN a Discord channel id that does not exist THEN ✗ says how to copy the id', async () => {
    const { lines, code } = await doctor({ ...healthyEnv(), DISCORD_CHANNEL: '1299999999999999999' });
    expect(lines).toContain(
      "✗ Discord: channel 1299999999999999999 does not exist (10003 Unknown Channel) — use the channel's id: Developer Mode → right-click the channel → Copy Channel ID",
    );
    expect(code).toBe(1);
  });

  it('GIVEN /questions registered in no server yet THEN a ⚠ says serve registers it, and it exits 0', async () => {
    const { lines, code } = await doctor({ ...healthyEnv(), DISCORD_GUILD_ID: '1200000000000000077' });
    expect(lines).toContain(
      '⚠ Discord: channel 1200000000000000002 is in server 1200000000000000001, not DISCORD_GUILD_ID 1200000000000000077 — /questions is registered there, not where the questions are: set DISCORD_GUILD_ID to 1200000000000000001',
    );
    expect(lines).toContain(
      '⚠ Discord: /questions is not registered in server 1200000000000000077 yet — start ask-later serve: it registers the command when it starts',
    );
    expect(code).toBe(0);
  });

  it('GIVEN Redis with AOF off THEN a ⚠ says to set appendonly yes, and it exits 0', async () => {
    const noAof = await startTestRedis();
    cleanup.push(() => noAof.stop());
    const connection = await connectResp(noAof.url, { connectTimeoutMs: 2000 });
    await connection.sendCommand(['CONFIG', 'SET', 'appendonly', 'no']);
    connection.close();
    const { lines, code } = await doctor({ ...healthyEnv(), REDIS_URL: noAof.url });
    expect(lines[1]).toMatch(
      /^⚠ Redis \S+ at REDIS_URL, AOF off: answers could be lost on restart — set appendonly yes \(redis\.conf, or CONFIG SET appendonly yes\)$/,
    );
    expect(lines.filter((line) => line.startsWith('✗'))).toEqual([]);
    expect(code).toBe(0);
  });

  it('GIVEN Redis evicts keys under a memory limit THEN a ⚠ says to set noeviction', async () => {
    const evicting = await startTestRedis();
    cleanup.push(() => evicting.stop());
    const connection = await connectResp(evicting.url, { connectTimeoutMs: 2000 });
    await connection.sendCommand(['CONFIG', 'SET', 'maxmemory', '100mb']);
    await connection.sendCommand(['CONFIG', 'SET', 'maxmemory-policy', 'allkeys-lru']);
    connection.close();
    const { lines, code } = await doctor({ ...healthyEnv(), REDIS_URL: evicting.url });
    expect(lines).toContain(
      '⚠ Redis: maxmemory-policy is allkeys-lru: Redis may drop questions when memory runs out — set maxmemory-policy noeviction',
    );
    expect(code).toBe(0);
  });

  it('GIVEN Redis wants a password REDIS_URL does not carry THEN ✗ says to put it in REDIS_URL', async () => {
    const locked = await startTestRedis();
    cleanup.push(() => locked.stop());
    const connection = await connectResp(locked.url, { connectTimeoutMs: 2000 });
    await connection.sendCommand(['CONFIG', 'SET', 'requirepass', 'letmein']);
    connection.close();
    const { lines, code } = await doctor({ ...healthyEnv(), REDIS_URL: locked.url });
    expect(lines[1]).toBe('✗ Redis needs a password (NOAUTH) — put it in REDIS_URL: redis://:<password>@host:6379');
    const wrong = await doctor({ ...healthyEnv(), REDIS_URL: `redis://:wrong@127.0.0.1:${locked.port}` });
    expect(wrong.lines[1]).toBe('✗ Redis refused the user or password in REDIS_URL (WRONGPASS) — fix them in the URL');
    expect(code).toBe(1);
    // Let stop() shut it down.
    const unlock = await connectResp(`redis://:letmein@127.0.0.1:${locked.port}`, { connectTimeoutMs: 2000 });
    await unlock.sendCommand(['CONFIG', 'SET', 'requirepass', '']);
    unlock.close();
  });

  it('GIVEN a SLACK_CHANNEL that is a #name THEN the config line is ✗ naming the variable, and Redis is still checked', async () => {
    const { lines, code } = await doctor({ ...healthyEnv(), SLACK_CHANNEL: '#team' });
    expect(lines[0]).toBe('✗ Config: SLACK_CHANNEL must be a channel id such as C0123ABCD (not a #name), got "#team"');
    expect(lines[1]).toMatch(/^✓ Redis /);
    expect(lines.some((line) => line.includes('Slack:') || line.includes('Discord:'))).toBe(false);
    expect(code).toBe(1);
  });

  it('GIVEN a routing file THEN every routed channel is checked once', async () => {
    const file = join(cwd, 'routes.json');
    writeFileSync(
      file,
      JSON.stringify({
        routes: [
          { project: 'api', slack: 'C0SECOND' },
          { project: 'web', slack: CHANNEL },
        ],
      }),
    );
    const { lines, code } = await doctor({ ...healthyEnv(), ASK_LATER_CONFIG: file });
    expect(lines[0]).toContain('2 routes from ASK_LATER_CONFIG');
    expect(lines.filter((line) => line.startsWith('✓ Slack: the bot is in'))).toEqual([
      `✓ Slack: the bot is in ${CHANNEL} (#team)`,
      '✓ Slack: the bot is in C0SECOND (#team)',
    ]);
    expect(code).toBe(0);
  });
});

describe('ask-later doctor, the Claude Code side', () => {
  it('GIVEN the hook and the MCP server set up by hand THEN ✓ names where each was found', async () => {
    const byHand = homeWith({
      '.claude/settings.json': {
        hooks: {
          UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'node /opt/ask-later/plugin/dist/hook.cjs' }] }],
        },
      },
      '.claude.json': { mcpServers: { 'ask-later': { command: 'node', args: ['/opt/ask-later.mjs', 'mcp'] } } },
    });
    const { lines, code } = await doctor(healthyEnv(), { home: byHand });
    expect(lines.at(-1)).toBe(
      '✓ Claude Code: the prompt hook (~/.claude/settings.json) and the MCP server ask-later (~/.claude.json) are set up',
    );
    expect(code).toBe(0);
  });

  it('GIVEN only the MCP server THEN ⚠ says answers will not reach the agent without the hook', async () => {
    const mcpOnly = homeWith({
      '.claude.json': { mcpServers: { 'ask-later': { command: 'ask-later', args: ['mcp'] } } },
    });
    const { lines, code } = await doctor(healthyEnv(), { home: mcpOnly });
    expect(lines.at(-1)).toBe(
      '⚠ Claude Code: the MCP server ask-later is set up (~/.claude.json) but no UserPromptSubmit hook running hook.cjs — answers will not reach the agent: add the hook (README: Claude Code → By hand)',
    );
    expect(code).toBe(0);
  });

  it('GIVEN the plugin disabled, and another REDIS_URL for Claude Code THEN two ⚠ lines, exit 0', async () => {
    const disabled = homeWith({
      '.claude/settings.json': {
        enabledPlugins: { 'ask-later@ask-later': false },
        env: { REDIS_URL: 'redis://elsewhere:6379' },
      },
    });
    const { lines, code } = await doctor(healthyEnv(), { home: disabled });
    expect(lines.slice(-2)).toEqual([
      '⚠ Claude Code: the ask-later plugin is disabled in ~/.claude/settings.json — claude plugin enable ask-later@ask-later',
      "⚠ Claude Code: its REDIS_URL (settings env or the MCP server's env) differs from this one — the agents and ask-later serve must share one Redis",
    ]);
    expect(code).toBe(0);
  });
});

async function redisInfo(url: string, section: string): Promise<Map<string, string>> {
  const connection = await connectResp(url, { connectTimeoutMs: 2000 });
  const reply = String(await connection.sendCommand(['INFO', section]));
  connection.close();
  return new Map(
    reply
      .split('\r\n')
      .filter((line) => line.includes(':'))
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)]),
  );
}
