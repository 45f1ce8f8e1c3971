/**
 * `ask-later ask` and `ask-later get` as shipped (the built CLI in a child process, a temporary HOME) against the
 * embedded store, a test Redis, and a real serve on port 0 reached with an agent token, answered in its web inbox.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { silentLogger } from '../../../src/core/logger.js';
import { WEB_ROUTES } from '../../../src/render/web/routes.js';
import { type ServeHandle, startServe } from '../../../src/serve/run.js';
import { openStore } from '../../../src/store/open.js';
import type { Store } from '../../../src/store/port.js';
import { createToken } from '../../support/agent-api.js';
import { freshHome, testHome } from '../../support/home.js';
import { openTestStore, person, sqliteTestDir, uniquePrefix, uniqueProject } from '../../support/store.js';

const cli = new URL('../../../dist/cli.js', import.meta.url).pathname;

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

interface Running {
  readonly done: Promise<Ran>;
}

function start(env: Record<string, string>, args: readonly string[]): Running {
  const child = spawn(process.execPath, [cli, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: testHome(), ...env },
    cwd: testHome(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const done = new Promise<Ran>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { done };
}

const run = (env: Record<string, string>, ...args: string[]) => start(env, args).done;

const ASK = [
  'ask',
  '--question',
  'Which rows should the import keep?',
  '--option',
  'Newest',
  '--option',
  'Oldest',
  '--recommended',
  'Newest',
  '--context',
  'Row 12 of the import has two owners.',
  '--impact',
  'Which owner the record keeps.',
];

const stores = {
  Redis: () => {
    const prefix = uniquePrefix();
    return {
      env: { REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix },
      open: () => openStore({ kind: 'redis', url: inject('redisUrl'), prefix }),
    };
  },
  'the embedded store': () => {
    const path = join(sqliteTestDir(), 'inbox.db');
    return { env: { ASK_LATER_DB: path }, open: () => openStore({ kind: 'sqlite', path }) };
  },
};

describe.each(Object.entries(stores))('ask-later ask and get on %s', (_name, make) => {
  const { env: storeEnv, open } = make();
  let store: Store;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => {
    await store.close();
  });

  it('GIVEN a question THEN it is parked in --project as the tool parks it and its id printed, exit 0', async () => {
    const project = uniqueProject('ask');
    const ran = await run({ ...storeEnv }, ...ASK, '--blocking', '--ticket', 'IMP-7', '--project', project);
    expect(ran).toEqual({ code: 0, stdout: '1\n', stderr: '' });
    expect(await store.get(project, 1)).toMatchObject({
      status: 'pending',
      question: 'Which rows should the import keep?',
      context: 'Row 12 of the import has two owners.',
      impact: 'Which owner the record keeps.',
      options: [{ label: 'Newest' }, { label: 'Oldest' }],
      recommended: ['Newest'],
      isBlocking: true,
      ticket: 'IMP-7',
    });
  });

  it('GIVEN --context-file THEN the context is the file’s text', async () => {
    const project = uniqueProject('ask');
    const file = join(freshHome(), 'context.md');
    writeFileSync(file, 'Rows 3 to 9 disagree on the owner.\n\n- row 3\n- row 9\n');
    const args = ASK.filter((_, index) => index < 9).concat(['--impact', 'x', '--context-file', file]);
    expect((await run(storeEnv, ...args, '--project', project)).code).toBe(0);
    expect((await store.get(project, 1))?.context).toBe('Rows 3 to 9 disagree on the owner.\n\n- row 3\n- row 9');
  });

  it('GIVEN a question that breaks the tool’s rules THEN one line says why, exit 1, nothing stored', async () => {
    const project = uniqueProject('ask');
    const ran = await run(storeEnv, 'ask', '--question', 'Two\nlines?', '--option', 'A', '--project', project);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toBe('');
    expect(ran.stderr.split('\n')).toHaveLength(2);
    expect(ran.stderr).toMatch(/^ask-later ask: ask_later refused the question; nothing was stored\. .*`context`.*\n$/);
    expect(ran.stderr).toContain('line break');
    expect(await store.list(project)).toEqual([]);
  });

  it('GIVEN an unknown flag or a bad --wait THEN one line, exit 2, nothing stored', async () => {
    const project = uniqueProject('ask');
    const unknown = await run(storeEnv, ...ASK, '--colour', 'red', '--project', project);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^ask-later ask: .*--colour.*\n$/);
    const wait = await run(storeEnv, ...ASK, '--wait', 'soon', '--project', project);
    expect(wait).toEqual({
      code: 2,
      stdout: '',
      stderr: 'ask-later ask: --wait takes whole seconds (30), got "soon" (see ask-later ask --help)\n',
    });
    const tooLong = await run(storeEnv, ...ASK, '--wait', '601', '--project', project);
    expect(tooLong.code).toBe(1);
    expect(tooLong.stderr).toContain('waitSeconds');
    expect(await store.list(project)).toEqual([]);
  });

  it('GIVEN --wait and no answer in time THEN the id and exit 3; answered later, get prints it once, then exit 5', async () => {
    const project = uniqueProject('ask');
    const waited = await run(storeEnv, ...ASK, '--wait', '1', '--project', project);
    expect(waited).toEqual({ code: 3, stdout: '1\n', stderr: '' });
    const early = await run(storeEnv, 'get', '1', '--project', project);
    expect(early).toEqual({ code: 3, stdout: '1\n', stderr: '' });

    await store.answer(project, 1, { choices: ['Oldest'], other: false, notes: 'Keep the audit trail.' }, person());
    const got = await run(storeEnv, 'get', '#1', '--project', project);
    expect(got).toEqual({ code: 0, stdout: 'Oldest\nNotes: Keep the audit trail.\n', stderr: '' });
    expect((await store.get(project, 1))?.status).toBe('delivered');
    const again = await run(storeEnv, 'get', '1', '--project', project);
    expect(again).toEqual({ code: 5, stdout: '', stderr: "ask-later get: #1's outcome was already collected\n" });
  });

  it('GIVEN get --wait --json while the answer lands THEN the structured question, exit 0', async () => {
    const project = uniqueProject('ask');
    expect((await run(storeEnv, ...ASK, '--project', project)).stdout).toBe('1\n');
    const getting = start(storeEnv, ['get', '1', '--wait', '30', '--json', '--project', project]);
    await store.answer(project, 1, { choices: [], other: true, notes: 'Merge them.' }, person());
    const got = await getting.done;
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({
      id: 1,
      status: 'answered',
      items: [{ ref: '#1', answer: { labels: [], values: [], other: 'Merge them.' } }],
    });
  });

  it('GIVEN a dismissed question THEN get says so on stderr, exit 4, and the outcome is collected', async () => {
    const project = uniqueProject('ask');
    await run(storeEnv, ...ASK, '--project', project);
    await store.dismiss(project, 1, person());
    expect(await run(storeEnv, 'get', '1', '--project', project)).toEqual({
      code: 4,
      stdout: '',
      stderr: 'ask-later get: #1 was dismissed by the person\n',
    });
    expect((await run(storeEnv, 'get', '1', '--project', project)).code).toBe(5);
    expect(await run(storeEnv, 'get', '9', '--project', project)).toEqual({
      code: 1,
      stdout: '',
      stderr: 'ask-later get: there is no question #9 in this project\n',
    });
  });
});

describe('ask-later ask over HTTP with an agent token, answered in the web inbox', () => {
  const prefix = uniquePrefix();
  const team = uniqueProject('jobs');
  let store: Store;
  let serve: ServeHandle;
  let env: Record<string, string>;
  beforeAll(async () => {
    store = await openTestStore({ prefix });
    serve = await startServe(
      { store: { kind: 'redis', url: inject('redisUrl'), prefix }, port: 0, host: '127.0.0.1', routes: [] },
      { logger: silentLogger, sweepMs: 0, bridge: { blockMs: 50 } },
    );
    const token = await createToken(store, 'import-job', [`${team}/**`]);
    env = { ASK_LATER_URL: `http://127.0.0.1:${serve.port}`, ASK_LATER_TOKEN: token };
  });
  afterAll(async () => {
    await serve.stop();
    await store.close();
  });

  /** Picks the option at `index` of the one question on the web inbox's page, as its form does. */
  async function answerOnPage(index: number): Promise<void> {
    const base = `http://127.0.0.1:${serve.port}`;
    let ref: string | undefined;
    await expect
      .poll(async () => {
        const page = await (await fetch(`${base}${WEB_ROUTES.page}`)).text();
        ref = /data-ref="([^"]+)"/.exec(page)?.[1];
        return ref;
      })
      .toBeDefined();
    const sent = await fetch(`${base}${WEB_ROUTES.send}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ref, pick: { choices: [index], other: false } }),
    });
    expect(await sent.json()).toMatchObject({ ok: true });
  }

  it('GIVEN ask --wait 30 answered in the web inbox THEN the answer is printed, exit 0, and collected once', async () => {
    const project = `${team}/import`;
    const asking = start(env, [...ASK, '--wait', '30', '--project', project]);
    await answerOnPage(1);
    expect(await asking.done).toEqual({ code: 0, stdout: 'Oldest\n', stderr: '' });
    expect((await store.get(project, 1))?.status).toBe('delivered');
    expect((await run(env, 'get', '1', '--project', project)).code).toBe(5);
  });

  it('GIVEN a project the token does not reach THEN one line, exit 1, nothing stored', async () => {
    const ran = await run(env, ...ASK, '--project', uniqueProject('elsewhere'));
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(/^ask-later ask: serve refused the project: .*\n$/);
    expect(ran.stderr).not.toContain(env.ASK_LATER_TOKEN);
  });
});
