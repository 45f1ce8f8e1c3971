/**
 * `ask-later status`, the line for Claude Code's `statusLine`: what it counts for the session's project, on both
 * stores, which project it counts (the stdin's directories, resolved as the agent side resolves them), and that a
 * store that cannot be read gives an empty line and exit 0 (in this process, and as the built CLI and the plugin's
 * `status.cjs` run it).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runStatus, type StatusOptions } from '../../../src/agents/status-line/run.js';
import type { Store } from '../../../src/store/port.js';
import { openRedisStore, type RedisStore } from '../../../src/store/redis/redis-store.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { testHome } from '../../support/home.js';
import { person, spec, uniquePrefix, uniqueProject } from '../../support/store.js';

const repoRoot = realpathSync(new URL('../../..', import.meta.url).pathname);
const cli = join(repoRoot, 'dist', 'cli.js');
const bundle = join(repoRoot, 'plugin', 'dist', 'status.cjs');
const scratch: string[] = [];
/** A generous budget for runs in this process that are not about the deadline (the machine may be loaded). */
const ROOMY: StatusOptions = { deadlineMs: 10_000, ownsProcess: false };
const FULL_LINE = 'ask-later: 2 waiting, 1 blocking · 1 answered → ask-later inbox\n';

function tempDir(name: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `ask-later-status-${name}-`)));
  scratch.push(dir);
  return dir;
}

/** A git repository with a subdirectory `src/deep`: its project is the top-level. */
function gitRepo(name: string): string {
  const dir = tempDir(name);
  execFileSync('git', ['init', '-q', dir]);
  mkdirSync(join(dir, 'src', 'deep'), { recursive: true });
  return dir;
}

/** Claude Code's status line JSON (the fields it always sends, and the directories given). */
function statusJson(workspace: { project_dir?: string; current_dir?: string }, cwd = workspace.current_dir): string {
  return JSON.stringify({
    hook_event_name: 'Status',
    session_id: 'session-1',
    transcript_path: '/tmp/ask-later-test/transcript.jsonl',
    ...(cwd === undefined ? {} : { cwd }),
    model: { id: 'claude-opus-4-1', display_name: 'Opus' },
    workspace,
    version: '2.1.332',
    cost: { total_cost_usd: 0.01, total_duration_ms: 1000 },
  });
}

interface StatusRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `runStatus` in this process with `stdin` as its standard input. */
async function statusHere(
  env: Record<string, string>,
  stdin: string,
  options: StatusOptions = ROOMY,
  cwd = process.cwd(),
): Promise<StatusRun> {
  let stdout = '';
  let stderr = '';
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        append(chunk.toString());
        done();
      },
    });
  const code = await runStatus(
    {
      stdin: Readable.from(stdin === '' ? [] : [Buffer.from(stdin)]),
      stdout: sink((text) => {
        stdout += text;
      }),
      stderr: sink((text) => {
        stderr += text;
      }),
    },
    env,
    cwd,
    options,
  );
  return { code, stdout, stderr };
}

/** `node <args>` as Claude Code runs a statusLine command: the JSON on stdin, the line on stdout. */
function statusProcess(args: readonly string[], env: Record<string, string>, stdin: string): Promise<StatusRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, cwd: tmpdir(), stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.stdin.on('error', () => undefined);
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/**
 * In `project`: 2 pending (1 blocking), 1 answered and waiting for the agent, 1 answered and delivered, 1 cancelled,
 * 1 dismissed. The line counts the first three kinds only.
 */
async function seed(store: Store, project: string): Promise<void> {
  await store.park(project, spec({ isBlocking: true }));
  await store.park(project, spec());
  const answered = await store.park(project, spec({ isBlocking: true }));
  expect((await store.answer(project, answered.id, { choices: ['Postgres'], other: false }, person())).kind).toBe(
    'won',
  );
  const delivered = await store.park(project, spec());
  expect((await store.answer(project, delivered.id, { choices: ['SQLite'], other: false }, person())).kind).toBe('won');
  expect(await store.markDelivered(project, delivered.id)).toBe('delivered');
  const cancelled = await store.park(project, spec({ isBlocking: true }));
  expect((await store.cancel(project, cancelled.id)).kind).toBe('done');
  const dismissed = await store.park(project, spec({ isBlocking: true }));
  expect((await store.dismiss(project, dismissed.id, person('U2'))).kind).toBe('done');
}

afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('ask-later status on the embedded store', () => {
  let dbPath: string;
  let store: SqliteStore;
  let env: Record<string, string>;

  beforeAll(async () => {
    dbPath = join(tempDir('db'), 'inbox.db');
    store = await openSqliteStore({ path: dbPath });
    env = { HOME: testHome(), ASK_LATER_DB: dbPath };
  });
  afterAll(async () => {
    await store.close();
  });

  it('GIVEN pending, blocking, answered, delivered and closed questions THEN the line counts waiting, blocking and answered', async () => {
    const repo = gitRepo('sqlite');
    await seed(store, repo);
    const run = await statusHere(env, statusJson({ project_dir: repo, current_dir: repo }));
    expect(run).toEqual({ code: 0, stdout: FULL_LINE, stderr: '' });
  });

  it("GIVEN the stdin's project_dir in a subdirectory of a repository, and another working directory THEN the repository's questions are counted", async () => {
    const repo = gitRepo('project-dir');
    const elsewhere = gitRepo('elsewhere');
    await seed(store, repo);
    await store.park(elsewhere, spec({ isBlocking: true }));
    const run = await statusHere(
      env,
      statusJson({ project_dir: join(repo, 'src', 'deep'), current_dir: elsewhere }),
      ROOMY,
      elsewhere,
    );
    expect(run).toEqual({ code: 0, stdout: FULL_LINE, stderr: '' });
  });

  it('GIVEN only a current_dir on stdin THEN its repository is the project, not the process working directory', async () => {
    const repo = gitRepo('current-dir');
    await store.park(repo, spec());
    const run = await statusHere(env, statusJson({ current_dir: join(repo, 'src') }), ROOMY, tempDir('cwd'));
    expect(run).toEqual({ code: 0, stdout: 'ask-later: 1 waiting → ask-later inbox\n', stderr: '' });
  });

  it('GIVEN ASK_LATER_PROJECT THEN it names the project whatever the stdin says (as on the agent side)', async () => {
    const named = uniqueProject('named');
    const repo = gitRepo('named-repo');
    await seed(store, repo);
    const answered = await store.park(named, spec());
    expect((await store.answer(named, answered.id, { choices: ['Postgres'], other: false }, person())).kind).toBe(
      'won',
    );
    const run = await statusHere({ ...env, ASK_LATER_PROJECT: named }, statusJson({ project_dir: repo }));
    expect(run).toEqual({ code: 0, stdout: 'ask-later: 1 answered\n', stderr: '' });
  });

  it('GIVEN no stdin at all (run by hand) THEN the working directory is the session', async () => {
    const repo = gitRepo('by-hand');
    await store.park(repo, spec({ isBlocking: true }));
    const run = await statusHere(env, '', ROOMY, join(repo, 'src', 'deep'));
    expect(run).toEqual({ code: 0, stdout: 'ask-later: 1 waiting, 1 blocking → ask-later inbox\n', stderr: '' });
  });

  it('GIVEN a project with no questions waiting THEN the line says so', async () => {
    const repo = gitRepo('quiet');
    const done = await store.park(repo, spec());
    expect((await store.cancel(repo, done.id)).kind).toBe('done');
    const run = await statusHere(env, statusJson({ project_dir: repo }));
    expect(run).toEqual({ code: 0, stdout: 'ask-later: no questions waiting\n', stderr: '' });
  });

  it('GIVEN no store file yet THEN the line says nothing waits and no file is created', async () => {
    const missing = join(tempDir('missing'), 'state', 'inbox.db');
    const run = await statusHere({ HOME: testHome(), ASK_LATER_DB: missing }, statusJson({ project_dir: tmpdir() }));
    expect(run).toEqual({ code: 0, stdout: 'ask-later: no questions waiting\n', stderr: '' });
    expect(existsSync(missing)).toBe(false);
  });

  it('GIVEN a store file that is not a database THEN an empty line, one stderr line and exit 0', async () => {
    const broken = join(tempDir('broken'), 'inbox.db');
    writeFileSync(broken, 'this is not a SQLite database, just some text long enough to have a header'.repeat(20));
    const run = await statusHere({ HOME: testHome(), ASK_LATER_DB: broken }, statusJson({ project_dir: tmpdir() }));
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('\n');
    expect(run.stderr).toMatch(/^ask-later status: the inbox \(the embedded store\) is unreachable[^\n]*\n$/);
  });
});

describe('ask-later status on Redis', () => {
  const prefix = uniquePrefix();
  let store: RedisStore;
  let env: Record<string, string>;

  beforeAll(async () => {
    store = await openRedisStore({ url: inject('redisUrl'), prefix });
    env = { HOME: testHome(), REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix };
  });
  afterAll(async () => {
    await store.close();
  });

  it('GIVEN pending, blocking, answered, delivered and closed questions THEN the line counts waiting, blocking and answered', async () => {
    const repo = gitRepo('redis');
    await seed(store, repo);
    const run = await statusHere(env, statusJson({ project_dir: repo, current_dir: join(repo, 'src') }));
    expect(run).toEqual({ code: 0, stdout: FULL_LINE, stderr: '' });
  });

  it("GIVEN questions in other projects only THEN this project's line counts none of them", async () => {
    const mine = gitRepo('mine');
    await seed(store, uniqueProject('other'));
    await seed(store, join(mine, 'src'));
    const run = await statusHere(env, statusJson({ project_dir: mine }));
    expect(run).toEqual({ code: 0, stdout: 'ask-later: no questions waiting\n', stderr: '' });
  });

  it('GIVEN the same project under another key prefix THEN its questions are not counted', async () => {
    const repo = gitRepo('prefix');
    await seed(store, repo);
    const run = await statusHere({ ...env, ASK_LATER_REDIS_PREFIX: uniquePrefix() }, statusJson({ project_dir: repo }));
    expect(run).toEqual({ code: 0, stdout: 'ask-later: no questions waiting\n', stderr: '' });
  });
});

describe('ask-later status when the store cannot be read', () => {
  let silent: Server;
  let silentUrl: string;
  const held = new Set<Socket>();

  beforeAll(async () => {
    // Accepts connections and never answers a byte: a Redis that hangs.
    silent = createServer((socket) => {
      held.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    silentUrl = `redis://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  /** The one stderr line of a run that could not read the store. */
  function expectEmptyLine(run: StatusRun, reason: RegExp): void {
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('\n');
    expect(run.stderr).toMatch(/^ask-later status: [^\n]+\n$/);
    expect(run.stderr).toMatch(reason);
  }

  it.each([
    ['the built CLI', [cli, 'status']],
    ['the plugin bundle', [bundle]],
  ])('GIVEN a Redis that never answers THEN %s prints an empty line and exits 0', async (_, args) => {
    const run = await statusProcess(
      args,
      { HOME: testHome(), REDIS_URL: silentUrl },
      statusJson({ project_dir: tmpdir() }),
    );
    expectEmptyLine(run, /the inbox did not answer within/);
  });

  it.each([
    ['the built CLI', [cli, 'status']],
    ['the plugin bundle', [bundle]],
  ])('GIVEN ASK_LATER_STATUS_DEADLINE_MS=1000 and a Redis that never answers THEN %s waits that long from its start before the empty line', async (_, args) => {
    const run = await statusProcess(
      args,
      { HOME: testHome(), REDIS_URL: silentUrl, ASK_LATER_STATUS_DEADLINE_MS: '1000' },
      statusJson({ project_dir: tmpdir() }),
    );
    expectEmptyLine(run, /the inbox did not answer within [\d.]+ s \(\d+ ms after the process started\)/);
    // It cannot print before its deadline: the store never answers.
    expect(Number(/\((\d+) ms after/.exec(run.stderr)?.[1])).toBeGreaterThanOrEqual(1000);
  });

  it.each([
    '50',
    '10001',
    'soon',
    '1e3',
    '-300',
  ])('GIVEN ASK_LATER_STATUS_DEADLINE_MS=%j THEN an empty line whose stderr line says what it takes', async (value) => {
    const run = await statusHere(
      { HOME: testHome(), REDIS_URL: silentUrl, ASK_LATER_STATUS_DEADLINE_MS: value },
      statusJson({ project_dir: tmpdir() }),
    );
    expectEmptyLine(
      run,
      new RegExp(
        `^ask-later status: ASK_LATER_STATUS_DEADLINE_MS must be a whole number of milliseconds from 100 to 10000, got ${JSON.stringify(value)}\n$`,
      ),
    );
  });

  it('GIVEN a Redis that never answers THEN runStatus in this process gives up at its deadline with an empty line', async () => {
    const run = await statusHere({ HOME: testHome(), REDIS_URL: silentUrl }, statusJson({ project_dir: tmpdir() }), {
      deadlineMs: 200,
      ownsProcess: false,
    });
    expectEmptyLine(run, /the inbox did not answer within 0\.2 s/);
  });

  it('GIVEN nothing listening at REDIS_URL THEN an empty line says the inbox is unreachable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const address = closed.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    await new Promise((resolve) => closed.close(resolve));
    const run = await statusHere(
      { HOME: testHome(), REDIS_URL: `redis://127.0.0.1:${address.port}` },
      statusJson({ project_dir: tmpdir() }),
    );
    expectEmptyLine(run, /the inbox \(Redis at REDIS_URL\) is unreachable \(ECONNREFUSED\)/);
  });

  it.each([
    ['not JSON', '{"workspace": ', /not JSON/],
    ['a JSON array', '[]', /JSON an array/],
  ])('GIVEN %s on stdin THEN an empty line and one stderr line', async (_, stdin, reason) => {
    const run = await statusHere({ HOME: testHome(), REDIS_URL: silentUrl }, stdin);
    expectEmptyLine(run, reason);
  });

  it('GIVEN a REDIS_URL that is not a Redis URL THEN the stderr line names the variable, never the value', async () => {
    const run = await statusHere(
      { HOME: testHome(), REDIS_URL: 'http://user:SECRET@example.com' },
      statusJson({ project_dir: tmpdir() }),
    );
    expectEmptyLine(run, /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(run.stderr).not.toContain('SECRET');
  });
});

describe('ask-later --help', () => {
  it('GIVEN --help THEN the status command is listed', () => {
    expect(execFileSync(process.execPath, [cli, '--help'], { encoding: 'utf8' })).toMatch(/^ {2}status +one line for/m);
  });
});
