/**
 * End to end with the real Claude Code binary, offline: `claude -p` runs in a temporary git repository with a
 * temporary HOME against a fake Messages API, and the store is the tests' private Redis. What the fake model is sent
 * is exactly what a real model would read. Two set-ups, as the README describes them:
 * - the plugin, installed from this repository's marketplace, with the inbox's settings in ~/.claude/settings.json;
 * - by hand: the MCP server and the hook from the same bundles, passed as flags, the settings exported in the shell.
 *
 * Prompt 1: the model parks a question with the plugin's ask_later tool and reads "Parked as #1".
 * The person answers (through the store, as the chat bridge would).
 * Prompt 2: the hook adds the answer and the notes to the prompt, once; the question is then `delivered`.
 * Prompt 3: nothing again.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openRedisStore, type RedisStore } from '../../src/store/redis/redis-store.js';
import {
  countInMessages,
  type FakeMessagesApi,
  lastToolResults,
  type MessagesRequestBody,
  messageTexts,
  type ScriptedReply,
  startFakeMessagesApi,
} from '../fakes/messages-api.js';
import { uniquePrefix } from '../support/store.js';
import { claudeBinary } from './claude-binary.js';

const repoRoot = realpathSync(new URL('../..', import.meta.url).pathname);
const MARKETPLACE = JSON.parse(readFileSync(join(repoRoot, '.claude-plugin/marketplace.json'), 'utf8')).name as string;
/** Claude Code starts slowly on a busy machine (and waits for MCP servers): be generous. */
const CLAUDE_TIMEOUT_MS = 180_000;

const prefix = uniquePrefix();
const running = new Set<ChildProcess>();
const scratch: string[] = [];
let claude: string;
let api: FakeMessagesApi;
let store: RedisStore;

interface ClaudeRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** How one way of wiring ask-later into Claude Code runs `claude`. */
interface Setup {
  /** The ask_later tool's name as Claude Code shows it to the model. */
  readonly tool: string;
  readonly home: string;
  /** Flags for every prompt. */
  readonly args: readonly string[];
  /** Environment on top of {@link baseEnv}. */
  readonly env: Readonly<Record<string, string>>;
}

function tempDir(name: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `ask-later-e2e-${name}-`)));
  scratch.push(dir);
  return dir;
}

/** The environment of every `claude` run: nothing of ours leaks in (no real HOME, key or session variables). */
function baseEnv(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: 'dummy',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
}

function runClaude(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<ClaudeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(claude, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      killTree(child);
      reject(
        new Error(`claude ${args.join(' ')} timed out after ${CLAUDE_TIMEOUT_MS} ms\n${reportOutput(stdout, stderr)}`),
      );
    }, CLAUDE_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      running.delete(child);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Claude Code and the MCP server and hooks it started: the whole process group. */
function killTree(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

function report(run: ClaudeRun): string {
  return `exit code ${run.code}\n${reportOutput(run.stdout, run.stderr)}`;
}

function reportOutput(stdout: string, stderr: string): string {
  const requests = api.requests
    .map((r) => {
      const tools = (r.body as MessagesRequestBody | undefined)?.tools?.map((tool) => tool.name) ?? [];
      return `${r.method} ${r.url}${tools.length > 0 ? ` tools: ${tools.join(', ')}` : ''}`;
    })
    .join('\n  ');
  return `--- claude stdout ---\n${stdout}\n--- claude stderr ---\n${stderr}\n--- requests to the fake API ---\n  ${requests}`;
}

/** `claude -p` in the project, allowed to call ask_later without a permission prompt. */
async function prompt(setup: Setup, project: string, text: string): Promise<ClaudeRun> {
  const args = ['-p', text, '--allowedTools', setup.tool, ...setup.args];
  const run = await runClaude(args, project, { ...baseEnv(setup.home), ...setup.env });
  if (run.code !== 0) throw new Error(`claude -p failed\n${report(run)}`);
  return run;
}

/** The main loop's requests (the ones that offer tools; Claude Code may also make side requests without any). */
function mainRequests(from = 0): MessagesRequestBody[] {
  return api
    .messageRequests()
    .slice(from)
    .filter((body) => (body.tools?.length ?? 0) > 0);
}

function offers(body: MessagesRequestBody, tool: string): boolean {
  return body.tools?.some((t) => t.name === tool && t.defer_loading !== true) ?? false;
}

function textReply(text: string): ScriptedReply {
  return { content: [{ type: 'text', text }] };
}

function gitProject(): string {
  const project = tempDir('project');
  execFileSync('git', ['init', '-q', project]);
  mkdirSync(join(project, 'src'));
  writeFileSync(join(project, 'src', 'export.ts'), 'export const format = "csv";\n');
  return project;
}

/** The plugin, installed the way the README tells a person to, from this checkout's marketplace. */
async function pluginSetup(): Promise<Setup> {
  const home = tempDir('home');
  for (const args of [
    ['plugin', 'marketplace', 'add', repoRoot],
    ['plugin', 'install', `ask-later@${MARKETPLACE}`],
  ]) {
    const run = await runClaude(args, home, baseEnv(home));
    if (run.code !== 0) throw new Error(`claude ${args.join(' ')} failed\n${report(run)}`);
  }
  // The inbox's settings go in the `env` of ~/.claude/settings.json, which Claude Code passes on to the plugin's
  // MCP server and hook.
  const settingsFile = join(home, '.claude', 'settings.json');
  const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
  settings.env = { REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix };
  writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
  // Plugin tools are named `mcp__plugin_<plugin>_<server>__<tool>`.
  return { tool: 'mcp__plugin_ask-later_ask-later__ask_later', home, args: [], env: {} };
}

/** By hand: the same bundles as an MCP server and a UserPromptSubmit hook; the settings come from the shell. */
function manualSetup(): Setup {
  const dist = join(repoRoot, 'plugin', 'dist');
  const mcpConfig = { mcpServers: { 'ask-later': { command: 'node', args: [join(dist, 'ask-later.mjs'), 'mcp'] } } };
  const hook = { type: 'command', command: `node "${join(dist, 'hook.cjs')}"`, timeout: 10 };
  const settings = { hooks: { UserPromptSubmit: [{ hooks: [hook] }] } };
  return {
    tool: 'mcp__ask-later__ask_later',
    home: tempDir('home'),
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
 * Prompt 1: the model parks a question and reads "Parked as #1". The person answers (through the store, as the
 * chat bridge would). Prompt 2: the hook's note carries the answer and the notes, once, and the question is then
 * `delivered`. Prompt 3: nothing again.
 */
async function parkAnswerDeliver(setup: Setup): Promise<void> {
  const project = gitProject();
  const tool = setup.tool;

  // Prompt 1. Claude Code defers MCP tools behind its ToolSearch tool (it lists their names only): a model first
  // loads the tool's schema, then calls it. The fake model does the same, unless the tool is offered directly.
  const first = api.messageRequests().length;
  api.setScript((body) => {
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
  const parkResult = mainRequests(first)
    .flatMap(lastToolResults)
    .find((result) => result.toolUseId === 'toolu_ask');
  expect(parkResult, `the model never got a result from ${tool}\n${report(run1)}`).toBeDefined();
  expect(parkResult?.isError, report(run1)).toBe(false);
  expect(parkResult?.text, report(run1)).toMatch(/^Parked as #1\b/);
  expect(run1.stdout).toContain('Parked the format question');
  const parked = await store.get(project, 1);
  expect(parked?.status).toBe('pending');
  expect(parked?.question).toBe(QUESTION.question);

  // The person answers in chat.
  const answered = await store.answer(
    project,
    1,
    { choices: ['Parquet'], other: false, notes: NOTES },
    { platform: 'slack', userId: 'U1', displayName: 'Ada' },
  );
  expect(answered.kind).toBe('won');

  // Prompt 2: the note carries the answer and the notes, once.
  const second = api.messageRequests().length;
  api.setScript(() => textReply('Using Parquet for the finance bucket.'));
  const run2 = await prompt(setup, project, 'Go on with the export.');
  const [seen] = mainRequests(second);
  expect(seen, report(run2)).toBeDefined();
  const sent = messageTexts(seen as MessagesRequestBody).join('\n---\n');
  expect(countInMessages(seen as MessagesRequestBody, NOTES), `the notes, once, in:\n${sent}\n${report(run2)}`).toBe(1);
  expect(countInMessages(seen as MessagesRequestBody, QUESTION.question), sent).toBe(1);
  expect(sent).toMatch(/ask-later/);
  expect(sent).toMatch(/Parquet/);
  expect(sent).toMatch(/Ada/);
  expect((await store.get(project, 1))?.status).toBe('delivered');

  // Prompt 3: nothing is delivered twice.
  const third = api.messageRequests().length;
  api.setScript(() => textReply('Done.'));
  const run3 = await prompt(setup, project, 'Anything else?');
  const [later] = mainRequests(third);
  expect(later, report(run3)).toBeDefined();
  expect(countInMessages(later as MessagesRequestBody, NOTES)).toBe(0);
  expect(countInMessages(later as MessagesRequestBody, QUESTION.question)).toBe(0);
}

beforeAll(async () => {
  claude = await claudeBinary();
  api = await startFakeMessagesApi();
  store = await openRedisStore({ url: inject('redisUrl'), prefix });
}, 900_000);

afterAll(async () => {
  for (const child of running) killTree(child);
  await store?.close();
  await api?.close();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

// The two set-ups share the fake API, whose script is per prompt: they run one after the other.
describe('Claude Code with ask-later', () => {
  it(
    'GIVEN the plugin installed from the marketplace WHEN the model parks a question and the person answers THEN it reads "Parked as #1" and the next prompt carries the answer once',
    async () => parkAnswerDeliver(await pluginSetup()),
    4 * CLAUDE_TIMEOUT_MS,
  );

  it(
    'GIVEN the MCP server and the hook wired by hand WHEN the model parks a question and the person answers THEN it reads "Parked as #1" and the next prompt carries the answer once',
    async () => parkAnswerDeliver(manualSetup()),
    4 * CLAUDE_TIMEOUT_MS,
  );
});
