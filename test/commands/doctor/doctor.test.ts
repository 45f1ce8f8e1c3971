import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runDoctor } from '../../../src/commands/doctor/run.js';
import { connectResp } from '../../../src/store/redis/resp-connection.js';
import { nodeSqlite } from '../../../src/store/sqlite/driver.js';
import { QUESTIONS_COMMAND_JSON } from '../../../src/surfaces/discord/app.js';
import { FAKE_DISCORD_TOKEN, FakeDiscord } from '../../fakes/discord.js';
import { FakeSlackApi } from '../../fakes/slack-api.js';
import { freePort, startTestRedis, type TestRedis } from '../../support/redis-server.js';
import { discordGaps } from './discord-gaps.js';
import { json, type Overlay, startOverlay } from './overlay.js';

const run = promisify(execFile);
const repoRoot = new URL('../../../', import.meta.url).pathname;
const cli = join(repoRoot, 'dist', 'cli.js');

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

/** An empty temporary directory, removed after the run. */
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `ask-later-doctor-${prefix}-`));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** `text` as a literal inside a RegExp. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

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

/** Run the built CLI (or another build of it) with exactly this environment (and PATH); stdout lines and exit code. */
async function doctorCli(
  env: Record<string, string>,
  homeDir = home,
  entry = cli,
): Promise<{ lines: string[]; code: number }> {
  const options = { cwd, env: { PATH: process.env.PATH ?? '', HOME: homeDir, ...env }, timeout: 20_000 };
  try {
    const { stdout } = await run(process.execPath, [entry, 'doctor'], options);
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

/** The engine this Node opens the embedded store with, and why (doctor says both). */
const ENGINE =
  '(node:sqlite: built into Node \\S+|better-sqlite3: Node \\S+ has no node:sqlite \\(22\\.13 and later do\\))';
/** The delivery line of the plugin on its defaults. */
const PLUGIN_PATHS =
  '✓ Claude Code: answers reach the agent with the next prompt; at its next tool call (answers to blocking questions); by waking an idle session (answers to blocking questions)';
const PLUGIN_CAPTURE =
  '✓ Claude Code: AskUserQuestion and plan approvals: parked in the inbox, the agent carries on (park)';

describe('ask-later doctor (the built CLI)', () => {
  it('GIVEN Redis with AOF, Slack, Discord and the plugin all fine THEN every line is ✓ and it exits 0', async () => {
    const { lines, code } = await doctorCli(healthyEnv());
    const version = (await redisInfo(redis.url, 'server')).get('redis_version');
    expect(lines).toEqual([
      `✓ Config: Redis from REDIS_URL (key prefix al); web inbox on http://127.0.0.1:7420/; Slack (HTTP at /slack/events on PORT 7420) to ${CHANNEL}; Discord to ${discord.channelId}`,
      `✓ Redis ${version} at REDIS_URL, AOF on`,
      '✓ Slack: signed in as @ask-later to Team',
      `✓ Slack: the bot is in ${CHANNEL} (#team)`,
      `✓ Discord: signed in as ask-later (${discord.botUserId})`,
      `✓ Discord: the bot sees channel ${discord.channelId} (#questions)`,
      `✓ Discord: /questions is registered in server ${discord.guildId}`,
      '✓ Claude Code: the ask-later plugin is enabled (~/.claude/settings.json)',
      PLUGIN_PATHS,
      PLUGIN_CAPTURE,
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

  it('GIVEN no plugin in HOME and no Slack or Discord settings THEN the config line is ✓ with the web inbox alone, Redis is checked, exit 0', async () => {
    const { lines, code } = await doctorCli({ REDIS_URL: redis.url }, homeWith({}));
    expect(lines[0]).toBe(
      '✓ Config: Redis from REDIS_URL (key prefix al); web inbox on http://127.0.0.1:7420/; no Slack or Discord: answers come from the web inbox',
    );
    expect(lines[1]).toMatch(/^✓ Redis \S+ at REDIS_URL, AOF on$/);
    expect(lines[2]).toBe(
      '⚠ Claude Code: the ask-later plugin or hook was not found on this machine — claude plugin install ask-later@ask-later (fine if the agents run on another machine)',
    );
    expect(lines).toHaveLength(3);
    expect(code).toBe(0);
  });

  it('GIVEN the embedded store and no plugin in HOME THEN the ⚠ says to add it here with the commands serve prints', async () => {
    const homeDir = homeWith({});
    const { lines, code } = await doctorCli({}, homeDir);
    expect(lines.at(-1)).toBe(
      '⚠ Claude Code: the ask-later plugin or hook was not found on this machine — add it with the two claude commands `ask-later serve` prints (claude plugin marketplace add …, claude plugin install ask-later@ask-later)',
    );
    expect(code).toBe(0);
  });

  it('GIVEN no REDIS_URL nor ASK_LATER_DB THEN the embedded store under HOME is created and ✓ with its SQLite version and WAL, exit 0', async () => {
    const homeDir = homeWith({ '.claude/settings.json': { enabledPlugins: { 'ask-later@ask-later': true } } });
    const db = join(homeDir, '.local', 'state', 'ask-later', 'inbox.db');
    const token = 'web-token-never-printed-0123456789';
    const port = await freePort();
    const { lines, code } = await doctorCli({ PORT: String(port), ASK_LATER_WEB_TOKEN: token }, homeDir);
    expect(lines).toHaveLength(6);
    expect(lines[0]).toBe(
      `✓ Config: the embedded store at ${db}; web inbox on http://127.0.0.1:${port}/ (asks for ASK_LATER_WEB_TOKEN); no Slack or Discord: answers come from the web inbox`,
    );
    expect(lines[1]).toMatch(
      new RegExp(`^✓ Embedded store at ${literal(db)} \\(SQLite \\d+\\.\\d+\\.\\d+, WAL, via ${ENGINE}\\)$`),
    );
    expect(lines[2]).toMatch(/^⚠ Serve: not answering at /);
    expect(lines[3]).toBe('✓ Claude Code: the ask-later plugin is enabled (~/.claude/settings.json)');
    expect(lines[4]).toBe(PLUGIN_PATHS);
    expect(lines[5]).toBe(PLUGIN_CAPTURE);
    expect(existsSync(db)).toBe(true);
    expect(lines.join('\n')).not.toContain(token);
    expect(code).toBe(0);
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

  it('GIVEN an app without channels:read THEN ⚠ says the Home tab needs the read scopes', async () => {
    slack.fail('users.conversations', { status: 200, error: 'missing_scope' });
    const { lines, code } = await doctor(healthyEnv());
    expect(lines).toContain(
      '⚠ Slack: the Home tab cannot tell which channels a person is in (missing_scope) — add the bot scopes channels:read and groups:read (manifest.yml) and reinstall the app',
    );
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

  it('GIVEN REDIS_URL naming a node of a Redis Cluster THEN a ✓ says so with its masters and slots; a database other than 0 is ✗', async () => {
    const url = inject('redisClusterUrl');
    const { lines } = await doctor({ ...healthyEnv(), REDIS_URL: url });
    expect(lines).toContain('✓ Redis Cluster at REDIS_URL: 3 masters, all 16384 slots served');
    const other = await doctor({ ...healthyEnv(), REDIS_URL: `${url}/2` });
    expect(other.lines).toContain(
      '✗ REDIS_URL names database 2, but a Redis Cluster has only database 0 — drop it from the URL',
    );
    expect(other.code).toBe(1);
  });

  it('GIVEN a Redis user that may not run CLUSTER SLOTS THEN a ⚠ says it is used as one server and what to grant', async () => {
    const name = `doctor-${Date.now()}`;
    const admin = await connectResp(redis.url, { connectTimeoutMs: 2000 });
    await admin.sendCommand(['ACL', 'SETUSER', name, 'on', '>secret', '~*', '&*', '+@all', '-cluster']);
    try {
      const { lines } = await doctor({ ...healthyEnv(), REDIS_URL: `redis://${name}:secret@127.0.0.1:${redis.port}` });
      expect(lines).toContain(
        '⚠ Redis: this user may not run CLUSTER SLOTS, so ask-later uses REDIS_URL as one server — on a Redis Cluster, grant it +cluster|slots',
      );
    } finally {
      await admin.sendCommand(['ACL', 'DELUSER', name]);
      admin.close();
    }
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

describe('ask-later doctor, the embedded store', () => {
  /** Claude Code set up with the plugin and no store settings of its own. */
  let pluginHome: string;
  /** A port nothing listens on: serve is not running for these tests. */
  let noServe: number;

  beforeAll(async () => {
    pluginHome = homeWith({ '.claude/settings.json': { enabledPlugins: { 'ask-later@ask-later': true } } });
    noServe = await freePort();
  });

  /** The embedded store's settings: ASK_LATER_DB at `db`, a temporary HOME (never the real one), no serve. */
  function embedded(db: string): Record<string, string> {
    return { ASK_LATER_DB: db, HOME: tempDir('home'), PORT: String(noServe) };
  }

  /** The line saying serve is not running. */
  const noServeLine = () =>
    `⚠ Serve: not answering at http://127.0.0.1:${noServe}/ (connection refused) — start it with \`ask-later serve\` and keep it running; until then answer in this terminal with \`ask-later inbox\``;

  it('GIVEN ASK_LATER_DB in a directory that does not exist yet THEN doctor creates the store and says ✓ with SQLite and WAL, twice', async () => {
    const db = join(tempDir('db'), 'nested', 'inbox.db');
    const first = await doctor(embedded(db), { home: pluginHome });
    expect(first.lines[0]).toBe(
      `✓ Config: the embedded store at ${db}; web inbox on http://127.0.0.1:${noServe}/; no Slack or Discord: answers come from the web inbox`,
    );
    expect(first.lines[1]).toMatch(
      new RegExp(`^✓ Embedded store at ${literal(db)} \\(SQLite \\d+\\.\\d+\\.\\d+, WAL, via ${ENGINE}\\)$`),
    );
    expect(first.lines.slice(2)).toEqual([
      noServeLine(),
      '✓ Claude Code: the ask-later plugin is enabled (~/.claude/settings.json)',
      PLUGIN_PATHS,
      PLUGIN_CAPTURE,
    ]);
    expect(first.code).toBe(0);
    expect(existsSync(db)).toBe(true);
    // The file it made is a real store: opened again, it is the same line.
    const again = await doctor(embedded(db), { home: pluginHome });
    expect(again.lines).toEqual(first.lines);
    expect(again.code).toBe(0);
  });

  it('GIVEN ASK_LATER_DB under a path whose parent is a regular file THEN ✗ says a file is in the way and how to fix it, exit 1', async () => {
    const dir = tempDir('blocked');
    const file = join(dir, 'not-a-dir');
    writeFileSync(file, 'a regular file\n');
    for (const [db, code] of [
      [join(file, 'inbox.db'), 'EEXIST'],
      [join(file, 'deeper', 'inbox.db'), 'ENOTDIR'],
    ] as const) {
      const { lines, code: exit } = await doctor(embedded(db), { home: pluginHome });
      expect(lines[0]).toMatch(/^✓ Config: the embedded store at /);
      expect(lines[1]).toBe(
        `✗ Embedded store at ${db}: its directory ${join(db, '..')} cannot be made: a file is in the way (${code}) — set ASK_LATER_DB to a file in a directory this user can write, or move that file away`,
      );
      expect(exit).toBe(1);
    }
    expect(readFileSync(file, 'utf8')).toBe('a regular file\n');
  });

  it('GIVEN ASK_LATER_DB names a file that is not a SQLite database THEN ✗ says so, the file is left as it was, exit 1', async () => {
    const db = join(tempDir('notadb'), 'inbox.db');
    const text = 'These are my notes, not a database.\n'.repeat(40);
    writeFileSync(db, text);
    const { lines, code } = await doctor(embedded(db), { home: pluginHome });
    expect(lines[1]).toBe(
      `✗ Embedded store at ${db}: the file is not a SQLite database, or is damaged (SQLITE_NOTADB) — move it away (a new one is created on first use), or set ASK_LATER_DB to another file`,
    );
    expect(code).toBe(1);
    expect(readFileSync(db, 'utf8')).toBe(text);
  });

  it('GIVEN a store file written by a newer ask-later THEN ✗ says to upgrade, exit 1', async () => {
    const db = join(tempDir('newer'), 'inbox.db');
    const raw = new Database(db);
    raw.pragma('user_version = 99');
    raw.close();
    const { lines, code } = await doctor(embedded(db), { home: pluginHome });
    expect(lines[1]).toMatch(
      new RegExp(
        `^✗ Embedded store at ${literal(db)}: the file was written by a newer ask-later \\(schema version 99; this one reads up to \\d+\\) — upgrade ask-later`,
      ),
    );
    expect(code).toBe(1);
  });

  it('GIVEN a wrong Slack setting and the embedded store THEN the config line is ✗ and the store is still checked', async () => {
    const db = join(tempDir('db'), 'inbox.db');
    const { lines, code } = await doctor({ ...embedded(db), SLACK_CHANNEL: CHANNEL }, { home: pluginHome });
    expect(lines[0]).toBe('✗ Config: SLACK_CHANNEL is set but SLACK_BOT_TOKEN is not: set the bot token (xoxb-…) too');
    expect(lines[1]).toMatch(new RegExp(`^✓ Embedded store at .* \\(SQLite \\S+, WAL, via ${ENGINE}\\)$`));
    expect(code).toBe(1);
  });

  it('GIVEN the embedded store here and a REDIS_URL in Claude Code settings THEN ⚠ says the two sides would use different stores, exit 0', async () => {
    const db = join(tempDir('db'), 'inbox.db');
    const redisForAgents = homeWith({
      '.claude/settings.json': {
        enabledPlugins: { 'ask-later@ask-later': true },
        env: { REDIS_URL: 'redis://:agentsecret@elsewhere:6379' },
      },
    });
    const { lines, code } = await doctor(embedded(db), { home: redisForAgents });
    expect(lines.at(-1)).toBe(
      `⚠ Claude Code: its REDIS_URL (settings env or the MCP server's env) sends the agents to Redis, but here REDIS_URL is not set (the embedded store at ${db}) — the agents and ask-later serve must share one store: set the same REDIS_URL here, or remove it from Claude Code's settings`,
    );
    expect(lines.join('\n')).not.toContain('agentsecret');
    expect(code).toBe(0);
  });

  it("GIVEN another ASK_LATER_DB in the MCP server's env THEN ⚠ names both files; the same file THEN no ⚠", async () => {
    const db = join(tempDir('db'), 'inbox.db');
    const withDb = (path: string) =>
      homeWith({
        '.claude/settings.json': {
          hooks: {
            UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'node /opt/ask-later/plugin/dist/hook.cjs' }] }],
          },
          env: { ASK_LATER_DB: db },
        },
        '.claude.json': {
          mcpServers: { 'ask-later': { command: 'ask-later', args: ['mcp'], env: { ASK_LATER_DB: path } } },
        },
      });
    const other = join(tempDir('other'), 'inbox.db');
    const differing = await doctor(embedded(db), { home: withDb(other) });
    expect(differing.lines.at(-1)).toBe(
      `⚠ Claude Code: its ASK_LATER_DB (settings env or the MCP server's env) is ${other}, but here the embedded store is at ${db} — the agents and ask-later serve must share one file: set the same ASK_LATER_DB on both sides`,
    );
    expect(differing.code).toBe(0);
    const same = await doctor(embedded(db), { home: withDb(db) });
    expect(same.lines.filter((line) => line.startsWith('⚠'))).toEqual([noServeLine()]);
    expect(same.code).toBe(0);
  });
});

describe("ask-later doctor from the plugin's bundle (no better-sqlite3 of its own)", () => {
  let bundle: string;

  beforeAll(() => {
    const built = tempDir('bundle');
    execFileSync(process.execPath, [join(repoRoot, 'scripts', 'bundle.mjs'), built], { cwd: repoRoot, stdio: 'pipe' });
    bundle = join(built, 'ask-later.mjs');
  });

  it.runIf(nodeSqlite() !== undefined)(
    'GIVEN a Node with node:sqlite and no engine recorded THEN the bundle opens the store itself and says so: ✓ via node:sqlite',
    async () => {
      const homeDir = homeWith({ '.claude/settings.json': { enabledPlugins: { 'ask-later@ask-later': true } } });
      const db = join(tempDir('engine'), 'inbox.db');
      const { lines, code } = await doctorCli({ ASK_LATER_DB: db }, homeDir, bundle);
      expect(lines[1]).toMatch(
        new RegExp(
          `^✓ Embedded store at ${literal(db)} \\(SQLite \\S+, WAL, via node:sqlite: built into Node \\S+\\)$`,
        ),
      );
      expect(code).toBe(0);
    },
  );

  it.runIf(nodeSqlite() === undefined)(
    'GIVEN a Node without node:sqlite and no engine recorded next to the store THEN ✗ says what to do; GIVEN one recorded THEN ✓',
    async () => {
      const homeDir = homeWith({ '.claude/settings.json': { enabledPlugins: { 'ask-later@ask-later': true } } });
      const dir = tempDir('engine');
      const db = join(dir, 'inbox.db');
      const missing = await doctorCli({ ASK_LATER_DB: db }, homeDir, bundle);
      expect(missing.lines[1]).toBe(
        `✗ Embedded store at ${db}: the embedded store needs better-sqlite3, which this copy of ask-later does not carry: start \`ask-later serve\` once from an npm install of ask-later (it records where its better-sqlite3 is, next to the store), or set REDIS_URL`,
      );
      expect(missing.code).toBe(1);
      // What `serve` from an npm install writes next to the store.
      writeFileSync(
        join(dir, 'sqlite-engine.json'),
        JSON.stringify({ module: join(repoRoot, 'node_modules', 'better-sqlite3') }),
      );
      const found = await doctorCli({ ASK_LATER_DB: db }, homeDir, bundle);
      expect(found.lines[1]).toMatch(
        new RegExp(`^✓ Embedded store at ${literal(db)} \\(SQLite \\S+, WAL, via ${ENGINE}\\)$`),
      );
      expect(found.code).toBe(0);
    },
  );
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
    expect(lines.slice(-3)).toEqual([
      '✓ Claude Code: the prompt hook (~/.claude/settings.json) and the MCP server ask-later (~/.claude.json) are set up',
      '✓ Claude Code: answers reach the agent with the next prompt; at its next tool call: not set up (no PostToolUse hook calling collect_answers; README: Claude Code); by waking an idle session: not set up (no SessionStart/Stop hook running ask-later wait; README: Claude Code)',
      '✓ Claude Code: AskUserQuestion and plan approvals: not captured, they stay in the terminal (no PreToolUse hook running ask-later hook or calling capture_question; README: What the agent gets)',
    ]);
    expect(code).toBe(0);
  });

  it('GIVEN every hook wired by hand and ASK_LATER_MIDTURN=off, ASK_LATER_WAKE=all, ASK_LATER_ASK_USER_QUESTION=wait:30 in Claude Code’s settings THEN the paths and capture lines say so', async () => {
    const collect = (input: Record<string, string>) => ({
      type: 'mcp_tool',
      server: 'ask-later',
      tool: 'collect_answers',
      input,
    });
    const waiter = { type: 'command', command: 'node /opt/ask-later/dist/cli.js wait', async: true, asyncRewake: true };
    const byHand = homeWith({
      '.claude/settings.json': {
        env: { ASK_LATER_MIDTURN: 'off', ASK_LATER_WAKE: 'all', ASK_LATER_ASK_USER_QUESTION: 'wait:30' },
        hooks: {
          PreToolUse: [
            {
              matcher: 'AskUserQuestion|ExitPlanMode',
              hooks: [{ type: 'command', command: 'node /opt/ask-later/dist/cli.js hook' }],
            },
          ],
          UserPromptSubmit: [{ hooks: [collect({ for: 'UserPromptSubmit' })] }],
          PostToolUse: [{ matcher: '*', hooks: [collect({ for: 'PostToolUse' })] }],
          Stop: [{ hooks: [waiter] }],
        },
      },
      '.claude.json': { mcpServers: { 'ask-later': { command: 'node', args: ['/opt/ask-later.mjs', 'mcp'] } } },
    });
    const { lines } = await doctor(healthyEnv(), { home: byHand });
    expect(lines.slice(-2)).toEqual([
      '✓ Claude Code: answers reach the agent with the next prompt; at its next tool call: off (ASK_LATER_MIDTURN=off); by waking an idle session (every answer)',
      '✓ Claude Code: AskUserQuestion and plan approvals: parked, the call held up to 30 s for an answer (wait:30)',
    ]);
  });

  it('GIVEN the plugin and a wrong ASK_LATER_WAKE in Claude Code’s settings THEN ⚠ names it', async () => {
    const wrong = homeWith({
      '.claude/settings.json': { enabledPlugins: { 'ask-later@ask-later': true }, env: { ASK_LATER_WAKE: 'yes' } },
    });
    const { lines, code } = await doctor(healthyEnv(), { home: wrong });
    expect(lines.at(-2)).toBe(
      '⚠ Claude Code: ASK_LATER_WAKE must be blocking, all or off, got "yes" — every ask-later tool and hook refuses to work until it is fixed',
    );
    expect(code).toBe(0);
  });

  it('GIVEN only the MCP server THEN ⚠ says answers will not reach the agent without the hook', async () => {
    const mcpOnly = homeWith({
      '.claude.json': { mcpServers: { 'ask-later': { command: 'ask-later', args: ['mcp'] } } },
    });
    const { lines, code } = await doctor(healthyEnv(), { home: mcpOnly });
    expect(lines.at(-1)).toBe(
      '⚠ Claude Code: the MCP server ask-later is set up (~/.claude.json) but no UserPromptSubmit hook running ask-later hook — answers will not reach the agent: add the hook (README: Claude Code → By hand)',
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
