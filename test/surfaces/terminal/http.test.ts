/**
 * `ask-later inbox --list` / `--json` and `ask-later answer` on the token setup: a real `ask-later serve` (its
 * composition root, port 0) over a redis-server this file starts, and over the embedded file; the commands reach it
 * with ASK_LATER_URL and a person's token (`token create --web`). They see only the projects the token reaches,
 * answer under its name, the agent gets the answer once, an agents-only token is refused in one line, and the first
 * answer wins against every other way in.
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAnswerCommand, runInboxCommand } from '../../../src/commands/inbox/run.js';
import { silentLogger } from '../../../src/core/logger.js';
import { hashToken, newToken } from '../../../src/core/token-format.js';
import { type ServeHandle, startServe } from '../../../src/serve/run.js';
import { openHttpStore } from '../../../src/store/http/http-store.js';
import { AGENTS_ONLY_TEXT } from '../../../src/store/http/protocol.js';
import type { StoreLocation } from '../../../src/store/open.js';
import type { Store } from '../../../src/store/port.js';
import { openRedisStore } from '../../../src/store/redis/redis-store.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { freshHome } from '../../support/home.js';
import { startTestRedis, type TestRedis } from '../../support/redis-server.js';
import { person, setSpec, spec, sqliteTestDir, uniquePrefix, uniqueProject } from '../../support/store.js';
import { type CommandRun, commandIo, noRecommendation } from './support.js';

const exec = promisify(execFile);
const cli = new URL('../../../dist/cli.js', import.meta.url).pathname;

async function inbox(env: Record<string, string>, args: string[]): Promise<CommandRun> {
  const { io, result } = commandIo();
  return result(await runInboxCommand(env, args, io));
}

async function answer(env: Record<string, string>, args: string[]): Promise<CommandRun> {
  const { io, result } = commandIo();
  return result(await runAnswerCommand(env, args, io, '/'));
}

/** The built CLI in a pipe (no terminal): its exit code and what it wrote. */
async function piped(env: Record<string, string>, args: string[]): Promise<CommandRun> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [cli, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** A token kept in `store`; `web`: it signs a person in. Returns the token itself. */
async function token(store: Store, name: string, patterns: string[], web: boolean): Promise<string> {
  const { token: made, id } = newToken();
  const created = await store
    .tokens()
    .create({ id, name, hash: hashToken(made), patterns, createdAt: Date.now(), ...(web ? { web: true } : {}) });
  if (!created) throw new Error(`token ${name} exists`);
  return made;
}

let redis: TestRedis | undefined;
afterAll(async () => {
  await redis?.stop();
});

const backends = [
  {
    name: 'Redis',
    async location(): Promise<{ location: StoreLocation; done: () => void }> {
      redis ??= await startTestRedis();
      return { location: { kind: 'redis', url: redis.url, prefix: uniquePrefix() }, done: () => undefined };
    },
  },
  {
    name: 'the embedded store',
    async location(): Promise<{ location: StoreLocation; done: () => void }> {
      const dir = sqliteTestDir();
      return {
        location: { kind: 'sqlite', path: join(dir, 'inbox.db') },
        done: () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
];

describe.each(backends)('ask-later inbox and answer over serve’s HTTP API on $name', ({ location: where }) => {
  let serve: ServeHandle;
  let store: Store;
  let done: () => void;
  /** Carol's person token (`--web`) reaching the team's projects; Dave's too; the CI's for agents only. */
  let carol: Record<string, string>;
  let dave: Record<string, string>;
  let ci: Record<string, string>;
  let agentToken: string;
  const team = `/srv/${uniquePrefix()}`;
  const shop = `${team}/shop`;
  const docs = `${team}/docs`;
  const outside = uniqueProject('elsewhere');

  beforeAll(async () => {
    const { location, done: cleanUp } = await where();
    done = cleanUp;
    serve = await startServe(
      { store: location, port: 0, host: '127.0.0.1', routes: [] },
      { logger: silentLogger, sweepMs: 0, bridge: { blockMs: 50, retryBaseMs: 10 } },
    );
    store =
      location.kind === 'redis'
        ? await openRedisStore({ url: location.url, prefix: location.prefix })
        : await openSqliteStore({ path: location.path });
    const url = serve.url;
    carol = {
      ASK_LATER_URL: url,
      ASK_LATER_TOKEN: await token(store, 'carol', [`${team}/**`], true),
      HOME: freshHome(),
    };
    dave = { ASK_LATER_URL: url, ASK_LATER_TOKEN: await token(store, 'dave', [`${team}/**`], true), HOME: freshHome() };
    agentToken = await token(store, 'ci', [`${team}/**`], false);
    ci = { ASK_LATER_URL: url, ASK_LATER_TOKEN: agentToken, HOME: freshHome() };

    await store.park(shop, spec({ question: 'Which database?', ticket: 'SHOP-1' })); // shop #1
    await store.park(shop, noRecommendation({ question: 'Which queue?', isBlocking: true })); // shop #2
    await store.park(docs, setSpec()); // docs #1, blocking
    for (const n of [1, 2, 3]) await store.park(outside, spec({ question: `Outside question ${n}?` })); // #1–#3
  });

  afterAll(async () => {
    await serve.stop();
    await store.close();
    done();
  });

  it('GIVEN a person’s token WHEN --list and --json THEN the projects it reaches, none other', async () => {
    const listed = await inbox(carol, ['--list']);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    expect(listed.stdout.split('\n')[0]).toBe('3 waiting: 2 blocking, 1 can wait.');
    expect(listed.stdout).toContain('Which database?');
    expect(listed.stdout).toContain('SHOP-1');
    expect(listed.stdout).not.toContain('Outside question');

    const json = await inbox(carol, ['--json']);
    expect(json).toMatchObject({ code: 0, stderr: '' });
    const document = JSON.parse(json.stdout) as { counts: unknown; questions: { project: string; id: number }[] };
    expect(document.counts).toEqual({ all: 3, blocking: 2, nonBlocking: 1 });
    // Blocking first (parked in the same millisecond, the two blocking ones may come in either order).
    const order = document.questions.map((q) => [q.project, q.id]);
    expect(order.slice(0, 2).sort()).toEqual([
      [docs, 1],
      [shop, 2],
    ]);
    expect(order[2]).toEqual([shop, 1]);
  });

  it('GIVEN an agents-only token THEN --list and answer are refused in one line, exit 1, nothing changed', async () => {
    const line = `${AGENTS_ONLY_TEXT}\n`;
    expect(await inbox(ci, ['--list'])).toEqual({ code: 1, stdout: '', stderr: `ask-later inbox: ${line}` });
    expect(await answer(ci, ['2', '--project', shop, '--pick', 'Postgres'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `ask-later answer: ${line}`,
    });
    expect((await store.get(shop, 2))?.status).toBe('pending');
  });

  it('GIVEN a project outside the token’s patterns THEN answer on it is refused as unknown, and nothing changes there', async () => {
    const byId = await answer(carol, ['3', '--pick', 'Postgres']);
    expect(byId).toEqual({
      code: 1,
      stdout: '',
      stderr: 'ask-later answer: No question #3 waits (ask-later inbox --list shows what does).\n',
    });
    const byProject = await answer(carol, ['1', '--project', outside, '--pick', 'Postgres']);
    expect(byProject).toEqual({
      code: 1,
      stdout: '',
      stderr: `ask-later answer: No project ${JSON.stringify(outside)} in the inbox.\n`,
    });
    expect((await store.list(outside)).map((q) => q.status)).toEqual(['pending', 'pending', 'pending']);
  });

  it('GIVEN a person’s token WHEN answer THEN sent under the token’s name, and the agent gets it once', async () => {
    const sent = await answer(carol, ['2', '--project', shop, '--pick', 'sqlite', '--notes', 'small data']);
    expect(sent).toEqual({ code: 0, stdout: 'Sent: SQLite (#2).\n', stderr: '' });
    expect((await store.get(shop, 2))?.answer).toMatchObject({
      choices: ['SQLite'],
      notes: 'small data',
      by: { platform: 'web', userId: 'carol', displayName: 'carol' },
    });

    // The agent side, over the same API with its own token: the outcome once.
    const agent = await openHttpStore({ url: serve.url, token: agentToken });
    try {
      const claim = await agent.claimUndelivered(shop, { budget: 9000, leaseMs: 10_000 });
      expect(claim.questions.map((q) => q.id)).toEqual([2]);
      expect(await agent.confirmClaim(shop, claim)).toEqual([2]);
      const again = await agent.claimUndelivered(shop, { budget: 9000, leaseMs: 10_000 });
      expect(again.questions).toEqual([]);
    } finally {
      await agent.close();
    }
  });

  it('GIVEN a question answered first on Slack, or by another person’s token THEN the later answer is told who answered', async () => {
    await store.answer(shop, 1, { choices: ['Postgres'], other: false }, person('U7'));
    const late = await answer(carol, ['1', '--project', shop, '--pick', 'SQLite']);
    expect(late.code).toBe(1);
    expect(late.stderr).toMatch(
      /^ask-later answer: #1 was already answered by Person U7 on Slack at .* UTC: Postgres\.\n$/,
    );

    // A set: Dave's member drafts and send, then Carol's send loses to his.
    for (const member of ['1.1', '1.2', '1.3']) {
      const saved = await answer(dave, [member, '--project', docs, '--pick', '1']);
      expect(saved.code).toBe(0);
    }
    // Dave's drafts are kept as the web inbox's sign-in with his token keeps them: platform web, his name.
    expect(await store.getDraft(docs, 1, { platform: 'web', userId: 'dave' }, 0)).toBeDefined();
    expect(await answer(dave, ['1', '--project', docs])).toMatchObject({ code: 0, stderr: '' });
    const lost = await answer(carol, ['1.1', '--project', docs, '--pick', '1']);
    expect(lost.code).toBe(1);
    expect(lost.stderr).toMatch(/^ask-later answer: #1 was already answered by dave on the web inbox at .*\n$/);
    expect((await store.get(docs, 1))?.answer?.by.userId).toBe('dave');
  });

  it('GIVEN the built CLI in a pipe THEN the token setup lists, and an agents-only token is one line, exit 1', async () => {
    await store.park(shop, spec({ question: 'Which cache?' }));
    const listed = await piped(carol, ['inbox', '--list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('Which cache?');
    expect(listed.stderr).toBe('');
    const refused = await piped(ci, ['inbox', '--list']);
    expect(refused).toEqual({ code: 1, stdout: '', stderr: `ask-later inbox: ${AGENTS_ONLY_TEXT}\n` });
  });
});
