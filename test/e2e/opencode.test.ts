/**
 * The real OpenCode binary (1.18.33, pinned) against a fake chat-completions API, with ask-later wired in by
 * `ask-later setup opencode` in a fresh HOME, as the README says. The person's side is the store, answered as the
 * chat bridge would (Slack), on the embedded store and on the tier's Redis. What the model was sent is read from the
 * fake's recorded requests:
 *
 * - a parked question answered meanwhile reaches the next message once; `setup --remove` gives the config back;
 * - a blocking one answered during a turn reaches the next tool result once (Redis);
 * - an idle session (`opencode serve`) is woken and the model receives the answer with no prompt sent;
 * - OpenCode's question tool is mirrored into the inbox: answered there, the tool's own result carries it once;
 *   answered through OpenCode's API first, the inbox copy shows it answered (by OpenCode) and delivered.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WAKE_TEXT } from '../../src/agents/bridge/run.js';
import { loadAgentConfig } from '../../src/config/agent.js';
import { parseAskInput } from '../../src/core/ask-input.js';
import type { Question } from '../../src/core/question.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/port.js';
import {
  type ChatReply,
  type ChatRequestBody,
  type FakeChatCompletions,
  requestText,
  startFakeChatCompletions,
} from '../support/fake-chat-completions.js';
import { freePort } from '../support/redis-server.js';
import { uniquePrefix } from '../support/store.js';
import { openCodeBinary } from './pinned-binary.js';
import { repoRoot } from './support.js';

const CLI = join(repoRoot, 'dist', 'cli.js');
/** OpenCode fetches its provider package from npm on first use: one cache for every run, offline after the first. */
const XDG_CACHE = join(process.env.ASK_LATER_TEST_CACHE ?? join(homedir(), '.cache', 'ask-later-test'), 'opencode-xdg');
const RUN_TIMEOUT_MS = 180_000;
const TEST_TIMEOUT_MS = 300_000;
const NOTES = 'Keep the partitions daily';

let opencode: string;
let api: FakeChatCompletions;
let script: (body: ChatRequestBody, index: number) => ChatReply | Promise<ChatReply> = () => ({ text: 'ok' });
const processes: ChildProcess[] = [];
const dirs: string[] = [];
const stores: Store[] = [];

beforeAll(async () => {
  mkdirSync(XDG_CACHE, { recursive: true });
  opencode = await openCodeBinary();
  api = await startFakeChatCompletions((body, index) => script(body, index));
}, 20 * 60_000);

afterAll(async () => {
  const started = Date.now();
  const step = (what: string) =>
    process.stderr.write(`opencode e2e teardown: ${what} after ${Date.now() - started} ms\n`);
  for (const child of processes) {
    try {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  step('killed');
  await Promise.all(stores.map((store) => store.close().catch(() => undefined)));
  step('stores closed');
  await api?.close();
  step('api closed');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
  step('removed');
}, 180_000);

function tempDir(name: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `al-oc-${name}-`)));
  dirs.push(dir);
  return dir;
}

/** A git repository whose own opencode.json names the fake model. */
function gitProject(): string {
  const dir = tempDir('project');
  execFileSync('git', ['init', '-q'], { cwd: dir });
  writeFileSync(join(dir, 'notes.txt'), 'nothing here\n');
  const provider = {
    fake: {
      npm: '@ai-sdk/openai-compatible',
      options: { baseURL: api.url, apiKey: 'x' },
      models: { 'fake-model': {} },
    },
  };
  // With its `$schema`, as OpenCode writes one: OpenCode adds it to a config that lacks it.
  const config = { $schema: 'https://opencode.ai/config.json', provider, model: 'fake/fake-model' };
  writeFileSync(join(dir, 'opencode.json'), `${JSON.stringify(config, null, 2)}\n`);
  return dir;
}

/** The environment of every OpenCode run: nothing of ours leaks in (no real HOME, no REDIS_URL). */
function openCodeEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CACHE_HOME: XDG_CACHE,
    // OpenCode installs its plugin package into each config folder with npm: a cache of its own keeps that offline.
    npm_config_cache: join(XDG_CACHE, 'npm'),
    npm_config_prefer_offline: 'true',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    ...extra,
  };
}

/** `ask-later setup opencode …`, as the README says; its stdout. */
function setup(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): string {
  return execFileSync(process.execPath, [CLI, 'setup', 'opencode', ...args], { cwd, env, encoding: 'utf8' });
}

/** The person's side: the store the agent side uses, for this project. */
async function inbox(env: NodeJS.ProcessEnv, project: string): Promise<{ store: Store; name: string }> {
  const config = loadAgentConfig(env, project);
  if (config.store.kind === 'http') throw new Error('the tests answer through the store itself');
  const store = await openStore(config.store);
  stores.push(store);
  return { store, name: config.project };
}

async function park(store: Store, project: string, blocking: boolean): Promise<Question> {
  const parsed = parseAskInput({
    context: 'Exporting the events table.',
    question: 'Which file format for the export?',
    impact: 'The export job and its readers.',
    isBlocking: blocking,
    options: ['Parquet', 'CSV'],
  });
  if (!parsed.ok) throw new Error(parsed.reasons.join('; '));
  const { waitSeconds: _none, ...spec } = parsed.value;
  return store.park(project, spec);
}

async function answerOnSlack(store: Store, project: string, id: number): Promise<void> {
  const result = await store.answer(
    project,
    id,
    { choices: ['Parquet'], other: false, notes: NOTES },
    { platform: 'slack', userId: 'U1', displayName: 'Ada' },
  );
  expect(result.kind).toBe('won');
}

function track(child: ChildProcess): ChildProcess {
  processes.push(child);
  return child;
}

/** `opencode run <prompt>` to its end; its output for failure messages. */
function runOpenCode(cwd: string, env: NodeJS.ProcessEnv, prompt: string): Promise<string> {
  const child = track(
    spawn(opencode, ['run', prompt], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      reject(new Error(`opencode run timed out:\n${output}`));
    }, RUN_TIMEOUT_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`opencode run exited ${code}:\n${output}`));
    });
  });
}

/** `opencode serve` on a free port; resolves with its base URL once it listens. */
async function serveOpenCode(cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const port = await freePort();
  const child = track(
    spawn(opencode, ['serve', '--port', String(port), '--hostname', '127.0.0.1'], {
      cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on')) resolve(`http://127.0.0.1:${port}`);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`opencode serve exited ${code}:\n${output}`)));
  });
}

async function post(url: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return response.json();
}

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

/** The last message of a request (the tool result or the user's message that started it). */
function lastMessageText(body: ChatRequestBody): string {
  const last = body.messages.at(-1);
  return last === undefined ? '' : requestText({ messages: [last] });
}

describe('OpenCode with ask-later set up', () => {
  it(
    'GIVEN a parked question answered on Slack THEN the next message carries it once, the next carries nothing, and setup --remove gives the config back byte for byte',
    async () => {
      const home = tempDir('home');
      const project = gitProject();
      const env = openCodeEnv(home);
      const userConfig = join(home, '.config', 'opencode', 'opencode.jsonc');
      mkdirSync(join(home, '.config', 'opencode'), { recursive: true });
      const original =
        '{\n  // my settings\n  "$schema": "https://opencode.ai/config.json",\n  "autoupdate": false,\n}\n';
      writeFileSync(userConfig, original);

      expect(setup(project, env)).toContain('ask-later set up');
      expect(readFileSync(userConfig, 'utf8')).toContain('"ask-later"');
      expect(existsSync(join(home, '.config', 'opencode', 'plugins', 'ask-later.js'))).toBe(true);
      expect(setup(project, env)).toContain('already set up');

      const { store, name } = await inbox(env, project);
      const question = await park(store, name, false);
      await answerOnSlack(store, name, question.id);

      script = () => ({ text: 'ok' });
      const from = api.turns().length;
      await runOpenCode(project, env, 'carry on');
      const first = api.turns()[from];
      expect(first).toBeDefined();
      const sent = requestText(first as ChatRequestBody);
      expect(occurrences(sent, NOTES)).toBe(1);
      expect(sent).toContain(`#${question.id}`);
      expect((await store.get(name, question.id))?.status).toBe('delivered');

      const next = api.turns().length;
      await runOpenCode(project, env, 'and now?');
      expect(api.turns().length).toBeGreaterThan(next);
      expect(
        api
          .turns()
          .slice(next)
          .some((body) => requestText(body).includes(NOTES)),
      ).toBe(false);

      expect(setup(project, env, '--remove')).toContain('removed');
      expect(readFileSync(userConfig, 'utf8')).toBe(original);
      expect(existsSync(join(home, '.config', 'opencode', 'plugins', 'ask-later.js'))).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'GIVEN the team setup on Redis and a blocking question answered during a turn THEN the next tool result carries it once',
    async () => {
      const home = tempDir('home');
      const project = gitProject();
      const env = openCodeEnv(home, { REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: uniquePrefix() });
      const projectConfig = readFileSync(join(project, 'opencode.json'), 'utf8');
      expect(setup(project, env, '--project')).toContain('ask-later set up');

      const { store, name } = await inbox(env, project);
      const question = await park(store, name, true);

      let turn = -1;
      script = async (_body, index) => {
        if (turn === -1) {
          turn = index;
          await answerOnSlack(store, name, question.id);
          return { toolCalls: [{ name: 'read', arguments: { filePath: join(project, 'notes.txt') } }] };
        }
        return { text: 'done' };
      };
      await runOpenCode(project, env, 'work on the export');
      const turns = api.turns();
      const asked = turns[turn];
      const after = turns[turn + 1];
      expect(asked).toBeDefined();
      expect(after).toBeDefined();
      expect(requestText(asked as ChatRequestBody)).not.toContain(NOTES);
      const toolResult = lastMessageText(after as ChatRequestBody);
      expect(toolResult).toContain('nothing here');
      expect(occurrences(toolResult, NOTES)).toBe(1);
      expect(occurrences(requestText(after as ChatRequestBody), NOTES)).toBe(1);
      const delivered = await store.get(name, question.id);
      expect(delivered?.status).toBe('delivered');
      expect(delivered?.deliveredVia).toBe('tool-call');

      expect(setup(project, env, '--project', '--remove')).toContain('removed');
      expect(readFileSync(join(project, 'opencode.json'), 'utf8')).toBe(projectConfig);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'GIVEN an idle session (opencode serve) and a blocking question answered THEN the session is woken and the model receives the answer once, with no prompt sent',
    async () => {
      const home = tempDir('home');
      const project = gitProject();
      const env = openCodeEnv(home);
      setup(project, env);
      const { store, name } = await inbox(env, project);
      const question = await park(store, name, true);
      script = () => ({ text: 'waiting for the person' });
      const base = await serveOpenCode(project, env);
      const session = (await post(`${base}/session`, {})) as { id: string };
      const from = api.turns().length;
      await post(`${base}/session/${session.id}/message`, { parts: [{ type: 'text', text: 'start the export' }] });
      expect(api.turns().length).toBe(from + 1);

      await answerOnSlack(store, name, question.id);
      await expect.poll(() => api.turns().length, { timeout: 60_000, interval: 200 }).toBe(from + 2);
      const woken = requestText(api.turns()[from + 1] as ChatRequestBody);
      expect(woken).toContain(WAKE_TEXT);
      expect(occurrences(woken, NOTES)).toBe(1);
      await expect.poll(async () => (await store.get(name, question.id))?.status).toBe('delivered');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "GIVEN OpenCode's question tool THEN it is parked in the inbox, and an answer there is the tool's own result, once",
    async () => {
      const home = tempDir('home');
      const project = gitProject();
      const env = openCodeEnv(home);
      setup(project, env);
      const { store, name } = await inbox(env, project);
      let turn = -1;
      script = (_body, index) => {
        if (turn === -1) {
          turn = index;
          return { toolCalls: [{ name: 'question', arguments: QUESTION_CALL }] };
        }
        return { text: 'thanks' };
      };
      const base = await serveOpenCode(project, env);
      const session = (await post(`${base}/session`, {})) as { id: string };
      const reply = post(`${base}/session/${session.id}/message`, { parts: [{ type: 'text', text: 'ask me' }] });

      const mirrored = await mirroredQuestion(store, name);
      expect(mirrored.isBlocking).toBe(true);
      await answerOnSlack(store, name, mirrored.id);
      await reply;
      const after = api.turns()[turn + 1];
      expect(after).toBeDefined();
      const toolResult = lastMessageText(after as ChatRequestBody);
      expect(toolResult).toContain('Parquet');
      expect(occurrences(requestText(after as ChatRequestBody), NOTES)).toBe(1);
      await expect.poll(async () => (await store.get(name, mirrored.id))?.status).toBe('delivered');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "GIVEN OpenCode's question tool answered through OpenCode's API first THEN the inbox copy shows it answered there and delivered",
    async () => {
      const home = tempDir('home');
      const project = gitProject();
      const env = openCodeEnv(home);
      setup(project, env);
      const { store, name } = await inbox(env, project);
      let turn = -1;
      script = (_body, index) => {
        if (turn === -1) {
          turn = index;
          return { toolCalls: [{ name: 'question', arguments: QUESTION_CALL }] };
        }
        return { text: 'thanks' };
      };
      const base = await serveOpenCode(project, env);
      const session = (await post(`${base}/session`, {})) as { id: string };
      const reply = post(`${base}/session/${session.id}/message`, { parts: [{ type: 'text', text: 'ask me' }] });

      const mirrored = await mirroredQuestion(store, name);
      const pending = (await (await fetch(`${base}/question`)).json()) as { id: string }[];
      expect(pending).toHaveLength(1);
      await post(`${base}/question/${pending[0]?.id}/reply`, { answers: [['CSV']] });
      await reply;
      expect(lastMessageText(api.turns()[turn + 1] as ChatRequestBody)).toContain('CSV');
      await expect.poll(async () => (await store.get(name, mirrored.id))?.status).toBe('delivered');
      const closed = await store.get(name, mirrored.id);
      expect(closed?.answer).toMatchObject({ choices: ['CSV'], by: { displayName: 'OpenCode' } });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "GIVEN OpenCode's question tool dismissed in the inbox THEN the tool returns as dismissed and the model hears it once",
    async () => {
      const home = tempDir('home');
      const project = gitProject();
      const env = openCodeEnv(home);
      setup(project, env);
      const { store, name } = await inbox(env, project);
      let turn = -1;
      script = (_body, index) => {
        if (turn === -1) {
          turn = index;
          return { toolCalls: [{ name: 'question', arguments: QUESTION_CALL }] };
        }
        return { text: 'understood' };
      };
      const base = await serveOpenCode(project, env);
      const session = (await post(`${base}/session`, {})) as { id: string };
      const reply = post(`${base}/session/${session.id}/message`, { parts: [{ type: 'text', text: 'ask me' }] });

      const mirrored = await mirroredQuestion(store, name);
      const dismissed = await store.dismiss(name, mirrored.id, { platform: 'slack', userId: 'U1', displayName: 'Ada' });
      expect(dismissed.kind).toBe('done');
      await reply;
      const after = api.turns()[turn + 1];
      expect(after).toBeDefined();
      expect(lastMessageText(after as ChatRequestBody)).toMatch(/dismissed/i);
      await expect.poll(async () => (await store.get(name, mirrored.id))?.deliveredVia).toBe('tool-result');
    },
    TEST_TIMEOUT_MS,
  );
});

const QUESTION_CALL = {
  questions: [
    {
      question: 'Which file format for the export?',
      header: 'Format',
      options: [
        { label: 'Parquet', description: 'columnar' },
        { label: 'CSV', description: 'plain text' },
      ],
    },
  ],
};

/** The question the plugin mirrored into the inbox, once it is there. */
async function mirroredQuestion(store: Store, project: string): Promise<Question> {
  let found: Question | undefined;
  await expect
    .poll(
      async () => {
        found = (await store.list(project, { status: ['pending'] })).find(
          (q) => 'question' in q && q.question === QUESTION_CALL.questions[0]?.question,
        );
        return found !== undefined;
      },
      { timeout: 60_000, interval: 200 },
    )
    .toBe(true);
  return found as Question;
}
