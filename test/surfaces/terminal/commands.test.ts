/**
 * `ask-later inbox --list` / `--json` and `ask-later answer` against a real store (the embedded file named by
 * ASK_LATER_DB, and Redis through REDIS_URL): in-process for what they print and answer, and as the built CLI in a
 * pipe for exit codes and one-line refusals.
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runAnswerCommand, runInboxCommand } from '../../../src/commands/inbox/run.js';
import { newToken } from '../../../src/core/token-format.js';
import type { Store } from '../../../src/store/port.js';
import { openRedisStore } from '../../../src/store/redis/redis-store.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { freshHome } from '../../support/home.js';
import { person, setSpec, spec, sqliteTestDir, testClock, uniquePrefix, uniqueProject } from '../../support/store.js';
import { noRecommendation } from './support.js';

const exec = promisify(execFile);
/** The stores' clock: the questions are parked a minute apart. */
const clock = testClock();
const cli = new URL('../../../dist/cli.js', import.meta.url).pathname;

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: { write: (text: string) => out.push(text) }, stderr: { write: (text: string) => err.push(text) } },
    result: (code: number): Run => ({ code, stdout: out.join(''), stderr: err.join('') }),
  };
}

async function inbox(env: Record<string, string>, args: string[]): Promise<Run> {
  const { io: streams, result } = io();
  return result(await runInboxCommand(env, args, streams));
}

async function answer(env: Record<string, string>, args: string[], cwd = '/'): Promise<Run> {
  const { io: streams, result } = io();
  return result(await runAnswerCommand(env, args, streams, cwd));
}

/** The built CLI in a pipe (no terminal): its exit code and what it wrote. */
async function piped(env: Record<string, string>, args: string[]): Promise<Run> {
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

const stores = [
  {
    name: 'the embedded store',
    async open() {
      const dir = sqliteTestDir();
      const path = join(dir, 'inbox.db');
      const store = await openSqliteStore({ path, now: clock.now });
      return {
        store,
        env: { ASK_LATER_DB: path, HOME: dir },
        done: () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'Redis',
    async open() {
      const prefix = uniquePrefix();
      const url = inject('redisUrl');
      const store = await openRedisStore({ url, prefix, now: clock.now });
      return {
        store,
        env: { REDIS_URL: url, ASK_LATER_REDIS_PREFIX: prefix, HOME: freshHome() },
        done: () => undefined,
      };
    },
  },
];

describe.each(stores)('ask-later inbox --list / --json and answer on $name', ({ open }) => {
  let store: Store;
  let env: Record<string, string>;
  let done: () => void;
  const shop = uniqueProject('shop');
  const api = uniqueProject('api');

  beforeAll(async () => {
    ({ store, env, done } = await open());
    // A minute apart, so the inbox's order (blocking first, then oldest) is one order.
    await store.park(shop, spec({ question: 'Which database?', ticket: 'SHOP-1' })); // shop #1, can wait
    clock.advance(60_000);
    await store.park(shop, noRecommendation({ question: 'Which queue?', isBlocking: true })); // shop #2
    clock.advance(60_000);
    await store.park(api, setSpec()); // api #1, a set
    clock.advance(60_000);
    await store.park(api, noRecommendation({ question: 'Which features?', multiSelect: true })); // api #2
  });

  afterAll(async () => {
    await store.close();
    done();
  });

  it('GIVEN questions in two projects WHEN --list THEN plain text: counts, blocking first, options by label', async () => {
    const run = await inbox(env, ['--list']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).not.toContain('\u001b[');
    expect(run.stdout.split('\n')[0]).toBe('4 waiting: 2 blocking, 2 can wait.');
    const heads = run.stdout.split('\n').filter((line) => /^#\d/.test(line));
    expect(heads.map((line) => line.split(' · ').slice(0, 2).join(' '))).toEqual([
      '#2 BLOCKING',
      '#1 BLOCKING',
      '#1 can wait',
      '#2 can wait',
    ]);
    expect(run.stdout).toContain('#1 · can wait · shop-');
    expect(run.stdout).toContain('SHOP-1');
    expect(run.stdout).toContain('    1. ★ Postgres (picked) — What the team knows');
    expect(run.stdout).toContain('  #1.2 Caches: Which caches may billing use? (ready)');
    expect(run.stdout).toContain('Answer one: ask-later answer <id> --pick <label>');
  });

  it('GIVEN the same inbox WHEN --json --filter blocking THEN one document with the blocking questions and every count', async () => {
    const run = await inbox(env, ['--json', '--filter', 'blocking']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const document = JSON.parse(run.stdout) as {
      filter: string;
      counts: Record<string, number>;
      questions: { id: number; project: string; isBlocking: boolean; readiness: string; items: { ref: string }[] }[];
    };
    expect(document.filter).toBe('blocking');
    expect(document.counts).toEqual({ all: 4, blocking: 2, nonBlocking: 2 });
    expect(document.questions.map((q) => [q.project, q.id, q.readiness])).toEqual([
      [shop, 2, 'pick-one'],
      [api, 1, 'pick-one'],
    ]);
    expect(document.questions[1]?.items.map((item) => item.ref)).toEqual(['#1.1', '#1.2', '#1.3']);
  });

  it('GIVEN a label the question lacks WHEN answer THEN one line naming the options, exit 1, nothing stored', async () => {
    const run = await answer(env, ['2', '--project', shop, '--pick', 'Mongo']);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: 'ask-later answer: #2 has no option "Mongo": pick one of Postgres, SQLite (or --other TEXT).\n',
    });
    expect((await store.get(shop, 2))?.status).toBe('pending');
  });

  it('GIVEN Other without a text WHEN answer THEN refused (exit 2) saying what was expected', async () => {
    const run = await answer(env, ['2', '--project', shop, '--other', ' ']);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe('ask-later answer: --other needs a text: Other without one says nothing');
  });

  it('GIVEN an id waiting in two projects WHEN answer without --project THEN refused naming both', async () => {
    const run = await answer(env, ['1', '--pick', 'Postgres']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^ask-later answer: #1 waits in several projects \(shop-.*, api-.*\): add --project NAME\.\n$/,
    );
  });

  it('GIVEN the working directory is the project WHEN answer 2 --pick THEN sent as the OS user, through the one service', async () => {
    const run = await answer(env, ['2', '--pick', 'sqlite', '--notes', 'small data'], shop);
    expect(run).toEqual({ code: 0, stdout: 'Sent: SQLite (#2).\n', stderr: '' });
    const question = await store.get(shop, 2);
    expect(question?.status).toBe('answered');
    expect(question?.answer).toMatchObject({
      choices: ['SQLite'],
      other: false,
      notes: 'small data',
      by: { platform: 'web', userId: 'local' },
    });
  });

  it('GIVEN a question answered elsewhere first WHEN answer THEN told who answered, exit 1', async () => {
    await store.answer(api, 2, { choices: ['Postgres'], other: false }, person('U7'));
    const run = await answer(env, ['2', '--project', api, '--pick', 'SQLite']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^ask-later answer: #2 was already answered by Person U7 on Slack at .* UTC: Postgres\.\n$/,
    );
    expect((await store.get(api, 2))?.answer?.by.userId).toBe('U7');
  });

  it('GIVEN a set WHEN each member is answered then the set alone THEN sent once, whole', async () => {
    const sendEarly = await answer(env, ['1', '--project', api]);
    expect(sendEarly.code).toBe(1);
    expect(sendEarly.stderr).toBe(
      'ask-later answer: Not sent: every question of the set must be ready first. Naming needs a pick.\n',
    );
    expect(await answer(env, ['1.2', '--project', api, '--pick', 'Redis', 'None'])).toMatchObject({ code: 0 });
    const other = await answer(env, ['1.3', '--project', api, '--other', 'payments']);
    expect(other).toEqual({
      code: 0,
      stdout: 'Saved #1.3: ready · 3 of 3 ready · send the set: ask-later answer 1.\n',
      stderr: '',
    });
    const sent = await answer(env, ['1', '--project', api]);
    expect(sent).toEqual({
      code: 0,
      stdout: 'Sent: Database: Postgres · Caches: Redis, None · Naming: Other (#1).\n',
      stderr: '',
    });
    const question = await store.get(api, 1);
    expect(question?.answer).toMatchObject({
      members: [
        { choices: ['Postgres'] },
        { choices: ['Redis', 'None'] },
        { choices: [], other: true, notes: 'payments' },
      ],
    });
  });

  it('GIVEN the built CLI in a pipe THEN --list prints, a bad flag and a refusal are one line with their exit codes', async () => {
    const list = await piped(env, ['inbox']);
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[0]).toBe('1 waiting: 0 blocking, 1 can wait.');
    expect(list.stderr).toBe(
      'ask-later inbox: no terminal here, so the list (ask-later inbox --list); answer with ask-later answer\n',
    );
    const json = await piped(env, ['inbox', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ counts: { all: 1 } });
    const bad = await piped(env, ['inbox', '--filter', 'urgent']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe(
      'ask-later inbox: --filter "urgent" is not one of all, blocking, non-blocking',
    );
    const refused = await piped(env, ['answer', '1', '--project', shop, '--pick', 'Mongo']);
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr: 'ask-later answer: #1 has no option "Mongo": pick one of Postgres, SQLite (or --other TEXT).\n',
    });
    const sent = await piped(env, ['answer', '1', '--project', shop, '--pick', 'Postgres']);
    expect(sent).toEqual({ code: 0, stdout: 'Sent: Postgres (#1).\n', stderr: '' });
    const empty = await piped(env, ['inbox', '--list']);
    expect(empty.stdout).toBe('0 waiting: 0 blocking, 0 can wait.\n');
  });
});

describe('ask-later inbox and answer without a store', () => {
  it('GIVEN serve’s URL where nothing answers THEN one line says the inbox is unreachable, exit 1', async () => {
    const env = { ASK_LATER_URL: 'http://127.0.0.1:9', ASK_LATER_TOKEN: newToken().token, HOME: freshHome() };
    const run = await inbox(env, ['--list']);
    expect(run).toEqual({ code: 1, stdout: '', stderr: 'ask-later inbox: the inbox (its store) is unreachable\n' });
  });

  it('GIVEN a token that is not one THEN one line names ASK_LATER_TOKEN, exit 1', async () => {
    const env = { ASK_LATER_URL: 'http://127.0.0.1:9', ASK_LATER_TOKEN: 'alt_nope', HOME: freshHome() };
    const run = await answer(env, ['3', '--pick', 'Postgres']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^ask-later answer: ASK_LATER_TOKEN must be a token from `ask-later token create`.*\n$/);
  });

  it('GIVEN a Redis that is not there THEN one line says the inbox is unreachable, exit 1', async () => {
    const run = await answer({ REDIS_URL: 'redis://127.0.0.1:9', HOME: freshHome() }, ['3', '--pick', 'Postgres']);
    expect(run).toEqual({ code: 1, stdout: '', stderr: 'ask-later answer: the inbox (its store) is unreachable\n' });
  });
});
