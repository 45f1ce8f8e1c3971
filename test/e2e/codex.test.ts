/**
 * The real Codex CLI (0.169.0, pinned: test/e2e/pinned-binary.ts) set up with `ask-later setup codex` as the README
 * says, in a fresh HOME, against a local fake of the Responses API: what reaches the model, and how often.
 *
 * `codex exec` runs one turn; `codex exec resume <session>` is the person typing the next prompt. No flag bypasses
 * the hooks' trust or the MCP tools' approval: setup's config must carry both.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { projectFromEnvironment } from '../../src/config/project.js';
import type { Store } from '../../src/store/port.js';
import { openRedisStore } from '../../src/store/redis/redis-store.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import {
  type FakeResponsesApi,
  newItems,
  type ResponsesRequest,
  type ResponsesScript,
  requestText,
  say,
  startFakeResponsesApi,
} from '../support/fake-responses-api.js';
import { uniquePrefix } from '../support/store.js';
import { codexBinary } from './pinned-binary.js';

const repoRoot = realpathSync(new URL('../..', import.meta.url).pathname);
const cli = join(repoRoot, 'dist', 'cli.js');
const RUN_TIMEOUT_MS = 120_000;
const ASK_LATER = 'mcp__ask_later';

let codex: string;
let api: FakeResponsesApi;
const scratch: string[] = [];
const running = new Set<ChildProcess>();

function tempDir(name: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `ask-later-codex-${name}-`)));
  scratch.push(dir);
  return dir;
}

/** A person's Codex config before ask-later: the fake model provider. */
function providerConfig(): string {
  return [
    'model = "fake-model"',
    'model_provider = "fake"',
    '',
    '[model_providers.fake]',
    'name = "fake"',
    `base_url = "${api.url}"`,
    'wire_api = "responses"',
    'env_key = "FAKE_KEY"',
    '',
  ].join('\n');
}

interface Run {
  readonly code: number | null;
  readonly output: string;
}

function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code, output });
    });
  });
}

/** One person's machine: a home with Codex configured for the fake model, a git project, the inbox's settings. */
class Machine {
  readonly home = tempDir('home');
  readonly project = tempDir('project');
  readonly configPath = join(this.home, '.codex', 'config.toml');

  constructor(readonly storeEnv: Readonly<Record<string, string>>) {
    execFileSync('git', ['init', '-q', this.project]);
    mkdirSync(join(this.home, '.codex'));
    writeFileSync(this.configPath, providerConfig());
  }

  env(): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: this.home,
      LANG: 'C.UTF-8',
      FAKE_KEY: 'x',
      ...this.storeEnv,
    };
  }

  /** `ask-later setup codex …` as the README says. */
  async setup(...flags: string[]): Promise<string> {
    const result = await run(process.execPath, [cli, 'setup', 'codex', ...flags], this.project, this.env());
    expect(result.code, result.output).toBe(0);
    return result.output;
  }

  /** `codex exec` (a new session) or `codex exec resume <session>` (the person's next prompt). */
  async codex(prompt: string, options: { session?: string; flags?: string[] } = {}): Promise<string> {
    const args = [
      'exec',
      ...(options.flags ?? []),
      ...(options.session === undefined ? [] : ['resume', options.session]),
      prompt,
    ];
    const result = await run(codex, args, this.project, this.env());
    expect(result.code, result.output).toBe(0);
    const session = /session id: ([0-9a-f-]{36})/.exec(result.output)?.[1];
    expect(session, result.output).toBeDefined();
    return session as string;
  }

  get projectName(): string {
    return projectFromEnvironment({}, this.project);
  }
}

/** Occurrences of `needle` in a request's whole input. */
function count(body: ResponsesRequest, needle: string): number {
  return requestText(body).split(needle).length - 1;
}

/** The requests from `from` on (by index). */
function since(from: number): ResponsesRequest[] {
  return api.requests.slice(from);
}

/** The texts this request adds (after the model's last output). */
function newText(body: ResponsesRequest): string {
  return requestText({ input: newItems(body) });
}

function lastCall(body: ResponsesRequest) {
  return newItems(body).find((item) => item.type === 'function_call_output');
}

const parkArgs = (question: string, isBlocking: boolean) => ({
  context: 'The nightly export job writes CSV today.',
  question,
  impact: 'Decides the writer library.',
  options: [{ label: 'CSV' }, { label: 'Parquet' }],
  isBlocking,
});

async function answer(store: Store, project: string, id: number, notes: string): Promise<void> {
  const result = await store.answer(
    project,
    id,
    { choices: ['Parquet'], other: false, notes },
    { platform: 'slack', userId: 'U1', displayName: 'Ada' },
  );
  expect(result.kind).toBe('won');
}

async function onlyPending(store: Store, project: string): Promise<number> {
  const pending = await store.list(project, { status: ['pending'] });
  expect(pending).toHaveLength(1);
  return (pending[0] as { id: number }).id;
}

beforeAll(async () => {
  codex = await codexBinary();
  api = await startFakeResponsesApi();
}, 900_000);

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  await api?.close();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
});

describe('Codex CLI set up with ask-later setup codex (embedded store)', () => {
  let machine: Machine;
  let store: Store;

  beforeAll(async () => {
    const dbDir = tempDir('db');
    machine = new Machine({ ASK_LATER_DB: join(dbDir, 'inbox.db') });
    store = await openSqliteStore({ path: join(dbDir, 'inbox.db') });
    await machine.setup();
  });

  afterAll(async () => {
    await store?.close();
  });

  it('GIVEN a question parked with ask_later and answered THEN the next typed prompt carries the answer, once', async () => {
    const script: ResponsesScript = (body) =>
      newText(body).includes('PARK-IT')
        ? {
            type: 'call',
            namespace: ASK_LATER,
            name: 'ask_later',
            args: parkArgs('Which format should the nightly export write?', false),
          }
        : say('Carrying on.');
    api.setScript(script);
    const session = await machine.codex('PARK-IT please');
    const id = await onlyPending(store, machine.projectName);
    const notes = `NOTES-prompt-${uniquePrefix()}`;
    await answer(store, machine.projectName, id, notes);

    api.setScript(() => say('Noted.'));
    const from = api.requests.length;
    await machine.codex('What now?', { session });
    const [first] = since(from);
    expect(first && count(first, notes)).toBe(1);
    expect((await store.get(machine.projectName, id))?.deliveredVia).toBe('prompt');

    const again = api.requests.length;
    await machine.codex('Anything else?', { session });
    // The note stays once in the history; no prompt adds it again.
    for (const body of since(again)) expect(count(body, notes)).toBe(1);
  });

  it('GIVEN the model calls request_user_input THEN it is parked, the model told so, and the answer reaches it once', async () => {
    api.setScript((body) =>
      newText(body).includes('ASK-ME')
        ? {
            type: 'call',
            name: 'request_user_input',
            args: {
              questions: [
                {
                  id: 'db',
                  header: 'Database',
                  question: 'Which database should billing use?',
                  options: [
                    { label: 'Postgres (Recommended)', description: 'Relational, already run' },
                    { label: 'SQLite', description: 'Embedded' },
                  ],
                },
              ],
            },
          }
        : say('Waiting for the person on that; carrying on.'),
    );
    const from = api.requests.length;
    const session = await machine.codex('ASK-ME about the database', {
      flags: ['-c', 'features.default_mode_request_user_input=true'],
    });
    const id = await onlyPending(store, machine.projectName);
    const parked = await store.get(machine.projectName, id);
    const single = parked?.members === undefined ? parked : undefined;
    expect(single && { question: single.question, recommended: single.recommended }).toEqual({
      question: 'Which database should billing use?',
      recommended: ['Postgres'],
    });
    const denied = since(from)
      .map(lastCall)
      .find((item) => item !== undefined);
    expect(String(denied?.output)).toContain(`ask-later parked this question as #${id}`);

    const notes = `NOTES-rui-${uniquePrefix()}`;
    const result = await store.answer(
      machine.projectName,
      id,
      { choices: ['SQLite'], other: false, notes },
      { platform: 'web', userId: 'local', displayName: 'Ada' },
    );
    expect(result.kind).toBe('won');
    api.setScript(() => say('Using SQLite.'));
    const next = api.requests.length;
    await machine.codex('Go on.', { session });
    const [first] = since(next);
    expect(first && count(first, notes)).toBe(1);
    expect(first && count(first, `### #${id} answered`)).toBe(1);
    const later = api.requests.length;
    await machine.codex('And now?', { session });
    for (const body of since(later)) expect(count(body, notes)).toBe(1);
  });
});

describe('Codex CLI on the team setup (Redis)', () => {
  let machine: Machine;
  let store: Store;

  beforeAll(async () => {
    const prefix = uniquePrefix();
    machine = new Machine({ REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix });
    store = await openRedisStore({ url: inject('redisUrl'), prefix });
    await machine.setup();
  });

  afterAll(async () => {
    await store?.close();
  });

  it('GIVEN a blocking question answered while the agent works THEN its next tool result carries the answer, once', async () => {
    const notes = `NOTES-blocking-${uniquePrefix()}`;
    let id: number | undefined;
    api.setScript(async (body) => {
      if (newText(body).includes('EXPORT-IT')) {
        return { type: 'call', namespace: ASK_LATER, name: 'ask_later', args: parkArgs('Which format?', true) };
      }
      if (lastCall(body) !== undefined && id === undefined) {
        // ask_later's result: the person answers now, while the agent goes on with a shell command.
        id = await onlyPending(store, machine.projectName);
        await answer(store, machine.projectName, id, notes);
        return { type: 'call', name: 'exec_command', args: { cmd: 'echo working' } };
      }
      return say('Done.');
    });
    const from = api.requests.length;
    const session = await machine.codex('EXPORT-IT now');
    const requests = since(from);
    const carrying = requests.filter((body) => newText(body).includes(notes));
    expect(carrying).toHaveLength(1);
    expect(carrying[0] && lastCall(carrying[0])?.output).toContain('working');
    expect((await store.get(machine.projectName, id as number))?.deliveredVia).toBe('tool-call');

    api.setScript(() => say('OK.'));
    const later = api.requests.length;
    await machine.codex('Next?', { session });
    for (const body of since(later)) expect(count(body, notes)).toBe(1);
  });
});

describe('ask-later setup codex --remove', () => {
  it('GIVEN setup, then a session, then --remove THEN the user config is byte for byte what it was', async () => {
    const machine = new Machine({ ASK_LATER_DB: join(tempDir('db'), 'inbox.db') });
    const before = `# my settings\r\n${providerConfig().replaceAll('\n', '\r\n')}[projects."/elsewhere"]\r\ntrust_level = "trusted"`;
    writeFileSync(machine.configPath, before);
    await machine.setup();
    expect(await machine.setup()).toContain('already set up');
    api.setScript(() => say('Hello.'));
    await machine.codex('hello');
    await machine.setup('--remove');
    expect(readFileSync(machine.configPath, 'utf8')).toBe(before);
  });

  it('GIVEN --project under CODEX_HOME THEN the repository gets its .codex/config.toml and --remove leaves both as they were', async () => {
    const machine = new Machine({ ASK_LATER_DB: join(tempDir('db'), 'inbox.db') });
    const codexHome = tempDir('codex-home');
    const userConfig = `${providerConfig()}\n[projects."${machine.project}"]\ntrust_level = "trusted"\n`;
    writeFileSync(join(codexHome, 'config.toml'), userConfig);
    const env = { ...machine.env(), CODEX_HOME: codexHome };
    const setup = await run(process.execPath, [cli, 'setup', 'codex', '--project'], machine.project, env);
    expect(setup.code, setup.output).toBe(0);
    expect(readFileSync(join(machine.project, '.codex', 'config.toml'), 'utf8')).toContain('[mcp_servers.ask-later]');

    api.setScript((body) =>
      lastCall(body) === undefined
        ? { type: 'call', namespace: ASK_LATER, name: 'list_questions', args: {} }
        : say('Listed.'),
    );
    const from = api.requests.length;
    const result = await run(codex, ['exec', 'PROJECT-SETUP'], machine.project, env);
    expect(result.code, result.output).toBe(0);
    // The project's MCP server answered (no approval asked) and its hooks ran (trusted from the user's file).
    expect(String(since(from).map(lastCall).find(Boolean)?.output)).toContain('No questions');
    expect(result.output).toContain('hook: UserPromptSubmit Completed');

    const remove = await run(process.execPath, [cli, 'setup', 'codex', '--project', '--remove'], machine.project, env);
    expect(remove.code, remove.output).toBe(0);
    expect(readFileSync(join(codexHome, 'config.toml'), 'utf8')).toBe(userConfig);
    expect(() => readFileSync(join(machine.project, '.codex', 'config.toml'))).toThrow();
  });
});
