/**
 * End to end with the real Claude Code binary, offline: `claude -p` runs in a temporary git repository with a
 * temporary HOME against a fake Messages API. What the fake model is sent is exactly what a real model would read.
 * Three set-ups, as the README describes them:
 * - the plugin, installed from this repository's marketplace, with the inbox's settings (the tests' private Redis)
 *   in ~/.claude/settings.json;
 * - by hand: the MCP server and the hook from the same bundles, passed as flags, the settings exported in the shell;
 * - the quick start: no REDIS_URL anywhere, `ask-later serve` (this checkout's build) started first with the same
 *   HOME, the plugin installed from the marketplace (copied outside the checkout, so the plugin has no
 *   better-sqlite3 of its own and loads the one serve recorded); every process uses the embedded store in that
 *   HOME, and the person answers in serve's web inbox.
 *
 * Prompt 1: the model parks a question with the plugin's ask_later tool and reads "Parked as #1".
 * The person answers (through the store, as the chat bridge would, or in the web inbox).
 * Prompt 2: the hook adds the answer and the notes to the prompt, once; the question is then `delivered`.
 * Prompt 3: nothing again.
 *
 * And a set of questions (issue 16): parked as one, delivered once as one entry, and read back through get_answer as
 * structured content, which is what Claude Code shows the model when a tool result has it (asserted on what the fake
 * Messages API received).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { StructuredResult } from '../../src/agents/mcp/structured.js';
import { silentLogger } from '../../src/core/logger.js';
import type { Question } from '../../src/core/question.js';
import { formatQuestionRef } from '../../src/core/question-ref.js';
import { WEB_ROUTES } from '../../src/render/web/routes.js';
import { startServe as startServeInProcess } from '../../src/serve/run.js';
import { openRedisStore, type RedisStore } from '../../src/store/redis/redis-store.js';
import { nodeSqlite } from '../../src/store/sqlite/driver.js';
import { ENGINE_FILE } from '../../src/store/sqlite/engine.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { localDisplayName } from '../../src/surfaces/web/server.js';
import {
  countInMessages,
  lastToolResults,
  type MessagesRequestBody,
  messageTexts,
  type ScriptedReply,
} from '../fakes/messages-api.js';
import { createToken } from '../support/agent-api.js';
import { freePort } from '../support/redis-server.js';
import { single, uniquePrefix } from '../support/store.js';
import {
  CLAUDE_TIMEOUT_MS,
  type ClaudeRun,
  type E2e,
  offers,
  repoRoot,
  type Setup,
  startE2e,
  textReply,
} from './support.js';

const prefix = uniquePrefix();
const running = new Set<ChildProcess>();
/** The embedded stores the tests opened, closed after all. */
const embeddedStores: SqliteStore[] = [];
let e2e: E2e;
let store: RedisStore;

/** `claude -p` in the project, allowed to call ask_later (and `tools`) without a permission prompt. */
async function prompt(setup: Setup, project: string, text: string, tools: readonly string[] = []): Promise<ClaudeRun> {
  const args = ['-p', text, '--allowedTools', [setup.tool, ...tools].join(','), ...setup.args];
  const run = await e2e.runClaude(args, project, { ...e2e.baseEnv(setup.home), ...setup.env });
  if (run.code !== 0) throw new Error(`claude -p failed\n${e2e.report(run)}`);
  return run;
}

/**
 * This checkout's marketplace (its manifest and plugin/, bundles included) copied outside the checkout. Claude Code
 * runs a plugin of a directory marketplace from that directory (CLAUDE_PLUGIN_ROOT is `<marketplace>/plugin`, not
 * its cache copy), so installed from the checkout itself the plugin would resolve better-sqlite3 from the checkout's
 * node_modules; installed from here it cannot, as when installed from GitHub.
 */
function marketplaceOutsideCheckout(): string {
  const dir = e2e.tempDir('marketplace');
  cpSync(join(repoRoot, '.claude-plugin'), join(dir, '.claude-plugin'), { recursive: true });
  cpSync(join(repoRoot, 'plugin'), join(dir, 'plugin'), { recursive: true });
  const resolveFromPlugin = createRequire(join(dir, 'plugin', 'dist', 'ask-later.mjs')).resolve;
  expect(() => resolveFromPlugin('better-sqlite3'), 'the copied plugin must not find better-sqlite3 itself').toThrow();
  return dir;
}

/** By hand: the same bundles as an MCP server and a UserPromptSubmit hook; the settings come from the shell. */
function manualSetup(): Setup {
  const dist = join(repoRoot, 'plugin', 'dist');
  const mcpConfig = { mcpServers: { 'ask-later': { command: 'node', args: [join(dist, 'ask-later.mjs'), 'mcp'] } } };
  const hook = { type: 'command', command: `node "${join(dist, 'hook.cjs')}"`, timeout: 10 };
  const settings = { hooks: { UserPromptSubmit: [{ hooks: [hook] }] } };
  return {
    tool: 'mcp__ask-later__ask_later',
    home: e2e.tempDir('home'),
    args: [
      '--mcp-config',
      JSON.stringify(mcpConfig),
      '--strict-mcp-config',
      '--settings',
      JSON.stringify(settings),
      '--setting-sources',
      '',
    ],
    env: { REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix },
  };
}

/** Where the person answers, and where the test reads what became of a question. */
interface Inbox {
  get(project: string, id: number): Promise<Question | undefined>;
  /** The person answers question `id` with the option labelled `choice`, and `notes`. */
  answer(project: string, id: number, choice: string, notes: string): Promise<void>;
  /** How the delivery note names who answered (`By <name> on <where>`). */
  readonly answeredBy: string;
}

/** The tests' Redis, answered through the store as the chat bridge would. */
function redisInbox(): Inbox {
  return {
    get: (project, id) => store.get(project, id),
    answer: async (project, id, choice, notes) => {
      const result = await store.answer(
        project,
        id,
        { choices: [choice], other: false, notes },
        { platform: 'slack', userId: 'U1', displayName: 'Ada' },
      );
      expect(result.kind).toBe('won');
    },
    answeredBy: 'By Ada on Slack',
  };
}

interface StartedServe {
  readonly port: number;
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * `ask-later serve` from this checkout's build (`npm start`), with only PATH, `home` and a free port: no REDIS_URL
 * and no chat settings, so it serves the web inbox on the embedded store under `home`. Resolves once it printed its
 * first line (it opened the store, recording its SQLite engine next to it, before it listens).
 */
async function startServe(home: string): Promise<StartedServe> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'serve'], {
    cwd: home,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.add(child);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    });
  });
  const firstLine = await new Promise<string>((resolve, reject) => {
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const end = stderr.indexOf('\n');
      if (end >= 0) resolve(stderr.slice(0, end));
    });
    child.once('error', reject);
    void exited.then((code) => reject(new Error(`ask-later serve exited with ${code} before it was ready: ${stderr}`)));
  });
  expect(firstLine).toBe(
    `ask-later serve: web inbox at http://127.0.0.1:${port}/ (no Slack or Discord configured: questions are answered there)`,
  );
  return {
    port,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * The embedded store under `home`, answered through the web inbox of `serve` as the page would (JSON POSTs with the
 * page's own Host and Origin); the test reads the file itself for the questions' states.
 */
function webInbox(home: string, serve: StartedServe): Inbox {
  const file = join(home, '.local', 'state', 'ask-later', 'inbox.db');
  // Opened on first use, after the model parked: opening it from the test (which resolves better-sqlite3 from this
  // checkout) writes the same engine record serve wrote, and the plugin must first be seen working from serve's.
  let embedded: SqliteStore | undefined;
  async function open(): Promise<SqliteStore> {
    if (embedded === undefined) {
      embedded = await openSqliteStore({ path: file });
      embeddedStores.push(embedded);
    }
    return embedded;
  }
  const origin = `http://127.0.0.1:${serve.port}`;
  async function post(route: string, body: unknown): Promise<unknown> {
    const response = await fetch(`${origin}${route}`, {
      method: 'POST',
      headers: { host: `127.0.0.1:${serve.port}`, origin, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.status, `${route}: ${text}`).toBe(200);
    return JSON.parse(text) as unknown;
  }
  return {
    get: async (project, id) => (await open()).get(project, id),
    answer: async (project, id, choice, notes) => {
      const ref = formatQuestionRef(project, id);
      const question = await (await open()).get(project, id);
      const index =
        question === undefined ? -1 : single(question).options.findIndex((option) => option.label === choice);
      expect(index, `${choice} among the options of #${id}`).toBeGreaterThanOrEqual(0);
      // The notes are typed into the card (saved as a draft), then the option is picked and sent.
      expect(await post(WEB_ROUTES.draft, { ref, notes })).toMatchObject({ ok: true });
      expect(await post(WEB_ROUTES.send, { ref, pick: { choices: [index], other: false } })).toMatchObject({
        ok: true,
        text: expect.stringMatching(/^Sent: /),
      });
    },
    answeredBy: `By ${localDisplayName()} on the web`,
  };
}

const QUESTION = {
  context: 'The export job writes **CSV** today; the finance team also asked for Parquet.',
  question: 'Which export format should the nightly job write?',
  impact: 'Decides the writer library and the schema migration.',
  isBlocking: false,
  options: [{ label: 'CSV', description: 'What exists' }, { label: 'Parquet' }, { label: 'Both' }],
  recommended: 'Both',
};
const NOTES = 'Parquet only for the finance bucket, keep CSV elsewhere (ref 7f3a9).';

/**
 * Prompt 1: the model parks a question and reads "Parked as #1". The person answers in `inbox`. Prompt 2: the hook's
 * note carries the answer and the notes, once, and the question is then `delivered`. Prompt 3: nothing again.
 */
async function parkAnswerDeliver(setup: Setup, inbox: Inbox): Promise<void> {
  const project = e2e.gitProject();
  const tool = setup.tool;

  // Prompt 1. Claude Code defers MCP tools behind its ToolSearch tool (it lists their names only): a model first
  // loads the tool's schema, then calls it. The fake model does the same, unless the tool is offered directly.
  const first = e2e.api.messageRequests().length;
  e2e.api.setScript((body) => {
    const [result] = lastToolResults(body);
    if (result?.toolUseId === 'toolu_ask') return textReply('Parked the format question; carrying on with CSV.');
    if (result?.toolUseId === 'toolu_search' || offers(body, tool)) {
      return { content: [{ type: 'tool_use', id: 'toolu_ask', name: tool, input: QUESTION }] };
    }
    if (offers(body, 'ToolSearch')) {
      return {
        content: [{ type: 'tool_use', id: 'toolu_search', name: 'ToolSearch', input: { query: `select:${tool}` } }],
      };
    }
    return textReply(`${tool} is not offered.`);
  });
  const run1 = await prompt(setup, project, 'Add a Parquet export to the nightly job.');
  const parkResult = e2e
    .mainRequests(first)
    .flatMap(lastToolResults)
    .find((result) => result.toolUseId === 'toolu_ask');
  expect(parkResult, `the model never got a result from ${tool}\n${e2e.report(run1)}`).toBeDefined();
  expect(parkResult?.isError, e2e.report(run1)).toBe(false);
  // The tool result carries structured content: Claude Code gives the model that JSON instead of the text, so its
  // note says what the text says.
  expect(readStructured(parkResult?.text).note, e2e.report(run1)).toMatch(/^Parked as #1\b/);
  expect(run1.stdout).toContain('Parked the format question');
  const parked = await inbox.get(project, 1);
  expect(parked?.status).toBe('pending');
  expect(parked).toMatchObject({ question: QUESTION.question });

  // The person answers.
  await inbox.answer(project, 1, 'Parquet', NOTES);
  expect((await inbox.get(project, 1))?.status).toBe('answered');

  // Prompt 2: the note carries the answer and the notes, once.
  const second = e2e.api.messageRequests().length;
  e2e.api.setScript(() => textReply('Using Parquet for the finance bucket.'));
  const run2 = await prompt(setup, project, 'Go on with the export.');
  const [seen] = e2e.mainRequests(second);
  expect(seen, e2e.report(run2)).toBeDefined();
  const sent = messageTexts(seen as MessagesRequestBody).join('\n---\n');
  expect(
    countInMessages(seen as MessagesRequestBody, NOTES),
    `the notes, once, in:\n${sent}\n${e2e.report(run2)}`,
  ).toBe(1);
  expect(countInMessages(seen as MessagesRequestBody, QUESTION.question), sent).toBe(1);
  expect(sent).toMatch(/ask-later/);
  expect(sent).toMatch(/Parquet/);
  expect(sent).toContain(inbox.answeredBy);
  expect((await inbox.get(project, 1))?.status).toBe('delivered');

  // Prompt 3: nothing is delivered twice.
  const third = e2e.api.messageRequests().length;
  e2e.api.setScript(() => textReply('Done.'));
  const run3 = await prompt(setup, project, 'Anything else?');
  const [later] = e2e.mainRequests(third);
  expect(later, e2e.report(run3)).toBeDefined();
  expect(countInMessages(later as MessagesRequestBody, NOTES)).toBe(0);
  expect(countInMessages(later as MessagesRequestBody, QUESTION.question)).toBe(0);
  expect((await inbox.get(project, 1))?.status).toBe('delivered');
}

/** A tool result as the model read it: the structured content's JSON (fails the test when it is not JSON). */
function readStructured(text: string | undefined): StructuredResult {
  expect(text?.startsWith('{'), `expected the structured content's JSON, got: ${text?.slice(0, 200)}`).toBe(true);
  return JSON.parse(text ?? '') as StructuredResult;
}

/** Nothing in it blocks, so no waiter wakes the session: the next prompt carries it (the wake is delivery.test.ts's). */
const SET = {
  context: 'The export job writes **CSV** today; finance asked for Parquet and a new bucket layout.',
  impact: 'Decides the writer library, the bucket layout and the job name.',
  ticket: 'DATA-7',
  questions: [
    {
      topic: 'Format',
      question: 'Which export format should the nightly job write?',
      options: [
        { label: 'CSV', value: 'csv' },
        { label: 'Parquet', value: 'parquet' },
      ],
      recommended: 'Parquet',
      isBlocking: false,
    },
    {
      topic: 'Buckets',
      question: 'Which buckets get the export?',
      options: [
        { label: 'finance', value: 's3://finance' },
        { label: 'analytics', value: 's3://analytics' },
        'archive',
      ],
      multiSelect: true,
      recommended: ['finance', 'analytics'],
      isBlocking: false,
    },
    {
      topic: 'Job name',
      question: 'What is the job called?',
      options: ['nightly-export', 'export-v2'],
      isBlocking: false,
    },
  ],
};
const SET_NOTES = {
  finance: 'Finance wants it by 06:00 UTC (ref 91c2e).',
  other: 'Call it parquet-nightly (ref 5d0aa).',
};

/**
 * The model parks a set (its result, structured, names each member); the person answers it with notes on one option
 * and Other; the next prompt carries it once as one entry with the answers under their topics; the model then calls
 * get_answer and reads the structured answer: labels, values, notes per option, Other's text.
 */
async function parkSetAnswerDeliver(setup: Setup): Promise<void> {
  const project = e2e.gitProject();
  const askTool = setup.tool;
  const getTool = askTool.replace(/ask_later$/, 'get_answer');
  /** The model calls `tool` with `input`, loading it through ToolSearch first when it is deferred. */
  /**
   * The model calls `tool` with `input`, loading it through ToolSearch first, then says `done`. What it already did
   * is read from the whole conversation: Claude Code may append its own messages after a tool's result.
   */
  const calling =
    (tool: string, input: object, id: string, done: string) =>
    (body: MessagesRequestBody): ScriptedReply => {
      const answered = (toolUseId: string) => JSON.stringify(body.messages).includes(`"tool_use_id":"${toolUseId}"`);
      if (answered(id)) return textReply(done);
      if (answered(`${id}_search`) || offers(body, tool)) {
        return { content: [{ type: 'tool_use', id, name: tool, input }] };
      }
      return {
        content: [{ type: 'tool_use', id: `${id}_search`, name: 'ToolSearch', input: { query: `select:${tool}` } }],
      };
    };

  const first = e2e.api.messageRequests().length;
  e2e.api.setScript(calling(askTool, SET, 'toolu_ask_set', 'Parked the export questions as one set.'));
  const run1 = await prompt(setup, project, 'Add a Parquet export to the nightly job.');
  const parked = e2e
    .mainRequests(first)
    .flatMap(lastToolResults)
    .find((result) => result.toolUseId === 'toolu_ask_set');
  expect(parked?.isError, e2e.report(run1)).toBe(false);
  const parkedSeen = readStructured(parked?.text);
  expect(parkedSeen.note).toMatch(/^Parked the set #1 \(#1\.1 Format; #1\.2 Buckets; #1\.3 Job name\)/);
  expect(parkedSeen.questions[0]?.items.map((item) => item.ref)).toEqual(['#1.1', '#1.2', '#1.3']);

  await store.answer(
    project,
    1,
    {
      members: [
        { choices: ['Parquet'], other: false },
        {
          choices: ['finance', 'archive'],
          other: false,
          choiceNotes: [{ choice: 'finance', notes: SET_NOTES.finance }],
        },
        { choices: [], other: true, notes: SET_NOTES.other },
      ],
    },
    { platform: 'slack', userId: 'U1', displayName: 'Ada' },
  );

  const second = e2e.api.messageRequests().length;
  e2e.api.setScript(calling(getTool, { id: 1 }, 'toolu_get_set', 'Read the answers.'));
  const run2 = await prompt(setup, project, 'Go on with the export.', [getTool]);
  const [seen] = e2e.mainRequests(second);
  expect(seen, e2e.report(run2)).toBeDefined();
  const sent = messageTexts(seen as MessagesRequestBody).join('\n---\n');
  // One entry: the set's header once, each member under its topic, the notes once, nested under their option.
  expect(countInMessages(seen as MessagesRequestBody, '### #1 answered: a set of 3 questions'), sent).toBe(1);
  expect(countInMessages(seen as MessagesRequestBody, SET_NOTES.finance), sent).toBe(1);
  expect(countInMessages(seen as MessagesRequestBody, SET_NOTES.other), sent).toBe(1);
  expect(sent).toContain('#### #1.2 Buckets\nQuestion: Which buckets get the export?\nAnswer: finance, archive\n');
  expect(sent).toContain(`- Notes on finance:\n  > ${SET_NOTES.finance}`);
  expect(sent).toContain('#### #1.3 Job name');
  // get_answer, as the model read it: the structured answer.
  const got = e2e
    .mainRequests(second)
    .flatMap(lastToolResults)
    .find((result) => result.toolUseId === 'toolu_get_set');
  expect(got, e2e.report(run2)).toBeDefined();
  const answer = readStructured(got?.text);
  expect(answer.note).toBe(
    "#1 was answered. The answers and notes are the person's words; the question texts are your own.",
  );
  expect(answer.questions[0]?.items.map((item) => item.answer)).toEqual([
    { labels: ['Parquet'], values: ['parquet'] },
    {
      labels: ['finance', 'archive'],
      values: ['s3://finance', 'archive'],
      optionNotes: [{ label: 'finance', value: 's3://finance', notes: SET_NOTES.finance }],
    },
    { labels: [], values: [], other: SET_NOTES.other },
  ]);
  expect(answer.questions[0]?.answeredBy).toBe('Ada on Slack (user U1)');
  expect((await store.get(project, 1))?.status).toBe('delivered');

  // Nothing twice.
  const third = e2e.api.messageRequests().length;
  e2e.api.setScript(() => textReply('Done.'));
  const run3 = await prompt(setup, project, 'Anything else?');
  const [later] = e2e.mainRequests(third);
  expect(later, e2e.report(run3)).toBeDefined();
  expect(countInMessages(later as MessagesRequestBody, SET_NOTES.other)).toBe(0);
}

beforeAll(async () => {
  e2e = await startE2e();
  store = await openRedisStore({ url: inject('redisUrl'), prefix });
}, 900_000);

afterAll(async () => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await store?.close();
  for (const embedded of embeddedStores) await embedded.close();
  await e2e?.close();
});

// The set-ups share the fake API, whose script is per prompt: they run one after the other.
describe('Claude Code with ask-later', () => {
  it(
    'GIVEN the plugin installed from the marketplace WHEN the model parks a question and the person answers THEN it reads "Parked as #1" and the next prompt carries the answer once',
    async () =>
      parkAnswerDeliver(
        await e2e.pluginSetup(e2e.tempDir('home'), {
          settingsEnv: { REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix },
        }),
        redisInbox(),
      ),
    4 * CLAUDE_TIMEOUT_MS,
  );

  it(
    'GIVEN the plugin configured with a serve URL and an agent token, and no REDIS_URL anywhere WHEN the model parks a question and the person answers THEN it reads "Parked as #1" and the next prompt carries the answer once, all over HTTP',
    async () => {
      const serve = await startServeInProcess(
        { store: { kind: 'redis', url: inject('redisUrl'), prefix }, port: 0, host: '127.0.0.1', routes: [] },
        { logger: silentLogger, sweepMs: 0 },
      );
      try {
        const token = await createToken(store, `e2e-${randomUUID().slice(0, 8)}`, ['**']);
        const setup = await e2e.pluginSetup(e2e.tempDir('home'), {
          pluginConfig: { server_url: `http://127.0.0.1:${serve.port}`, token },
        });
        await parkAnswerDeliver(setup, redisInbox());
      } finally {
        await serve.stop();
      }
    },
    4 * CLAUDE_TIMEOUT_MS,
  );

  it(
    'GIVEN the plugin WHEN the model parks a set of three and the person answers it THEN the next prompt carries it once as one entry, and get_answer gives the model the structured answer',
    async () =>
      parkSetAnswerDeliver(
        await e2e.pluginSetup(e2e.tempDir('home'), {
          settingsEnv: { REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix },
        }),
      ),
    4 * CLAUDE_TIMEOUT_MS,
  );

  it(
    'GIVEN the MCP server and the hook wired by hand WHEN the model parks a question and the person answers THEN it reads "Parked as #1" and the next prompt carries the answer once',
    async () => parkAnswerDeliver(manualSetup(), redisInbox()),
    4 * CLAUDE_TIMEOUT_MS,
  );

  it(
    'GIVEN no REDIS_URL anywhere, `ask-later serve` started first in a fresh HOME and the plugin installed from the marketplace copied outside the checkout WHEN the model parks a question and the person answers in the web inbox THEN it reads "Parked as #1" and the next prompt carries the answer once',
    async () => {
      const home = e2e.tempDir('home');
      const serve = await startServe(home);
      let exitCode: number | null | undefined;
      try {
        // On Node 20 serve opened the embedded store first and recorded its SQLite engine next to it: the plugin,
        // which carries none, loads that one. On a Node with node:sqlite the plugin needs none, and none is written.
        const record = join(home, '.local', 'state', 'ask-later', ENGINE_FILE);
        expect(existsSync(record) ? JSON.parse(readFileSync(record, 'utf8')) : 'none').toEqual(
          nodeSqlite() ? 'none' : { module: join(repoRoot, 'node_modules', 'better-sqlite3') },
        );
        const setup = await e2e.pluginSetup(home, { marketplace: marketplaceOutsideCheckout() });
        await parkAnswerDeliver(setup, webInbox(home, serve));
      } finally {
        exitCode = await serve.stop();
      }
      expect(exitCode).toBe(0);
    },
    4 * CLAUDE_TIMEOUT_MS,
  );
});
