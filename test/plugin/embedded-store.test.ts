/**
 * The plugin's bundles on the embedded store, as Claude Code runs them: plugin/ copied into a directory outside any
 * npm install (as in Claude Code's plugin cache, or a marketplace cloned from GitHub: no node_modules, so
 * better-sqlite3 cannot be resolved from there), with a temporary HOME and no REDIS_URL, so the MCP server and the
 * hook both use `$HOME/.local/state/ask-later/inbox.db`.
 *
 * On a Node without node:sqlite (20), before any npm install of ask-later recorded its SQLite engine next to that
 * file, both say how to set it up (the MCP server as an isError result, the hook as one stderr line). After
 * `ask-later serve` ran once from this repository's build, the same MCP session parks a question in the file, the
 * test answers it through the store, and the hook bundle delivers the answer exactly once.
 *
 * On a Node with node:sqlite (24), the bundles open the file themselves: the MCP session parks, `serve` started
 * afterwards takes the answer in its web inbox, the hook bundle delivers it once, and no engine record is ever
 * written.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatQuestionRef } from '../../src/core/question-ref.js';
import { WEB_ROUTES } from '../../src/render/web/routes.js';
import { nodeSqlite } from '../../src/store/sqlite/driver.js';
import { ENGINE_FILE } from '../../src/store/sqlite/engine.js';
import { SqliteEngineMissingError } from '../../src/store/sqlite/engine-missing-error.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { answeredIds, noteOf, payload, runHookCli } from '../agents/hooks/support.js';
import { isError, textOf } from '../support/mcp.js';
import { person } from '../support/store.js';

const repoRoot = realpathSync(new URL('../..', import.meta.url).pathname);
const cli = join(repoRoot, 'dist', 'cli.js');
const scratch: string[] = [];
const QUESTION = {
  context: 'The nightly export writes CSV; finance asked for Parquet.',
  question: 'Which format should the nightly export write?',
  impact: 'Decides the writer library.',
  isBlocking: false,
  options: ['CSV', 'Parquet'],
};
const NOTES = 'Parquet for the finance bucket only (ref 41c7e).';

/** The installed plugin: a copy of plugin/, far from the repository, like Claude Code's cache. */
let pluginRoot: string;
let home: string;
/** The embedded store's default file under that HOME (README "Quick start"). */
let stateDir: string;
let dbPath: string;
/** A git repository: the project of the MCP server and the hook. */
let project: string;
let client: Client;
let store: SqliteStore | undefined;
let serve: ChildProcess | undefined;

function tempDir(name: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `ask-later-embedded-${name}-`)));
  scratch.push(dir);
  return dir;
}

/** What Claude Code gives the plugin's processes here: PATH and the temporary HOME, no REDIS_URL. */
function pluginEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: home };
}

/** `node <plugin>/dist/hook.cjs` as Claude Code runs it: the UserPromptSubmit JSON on stdin. */
function runHookBundle(stdin: string) {
  return runHookCli({ ...pluginEnv(), CLAUDE_PROJECT_DIR: project }, stdin, {
    cwd: project,
    args: [join(pluginRoot, 'dist', 'hook.cjs')],
  });
}

/** `ask-later serve` from this repository's build (an npm install), on a port of its own; resolves when it is ready. */
function startServe(): Promise<{ child: ChildProcess; firstLine: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'serve'], {
      cwd: tempDir('serve-cwd'),
      env: { ...pluginEnv(), PORT: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const end = stderr.indexOf('\n');
      if (end >= 0) resolve({ child, firstLine: stderr.slice(0, end) });
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      reject(new Error(`ask-later serve exited with ${code} before it was ready: ${stderr}`)),
    );
  });
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

beforeAll(async () => {
  // Laid out as Claude Code's cache: ~/.claude/plugins/cache/<marketplace>/<plugin>/<version>.
  const { version } = JSON.parse(readFileSync(join(repoRoot, 'plugin', '.claude-plugin', 'plugin.json'), 'utf8')) as {
    version: string;
  };
  const cache = join(tempDir('plugins-cache'), 'ask-later', 'ask-later', version);
  mkdirSync(cache, { recursive: true });
  cpSync(join(repoRoot, 'plugin'), cache, { recursive: true });
  pluginRoot = cache;
  home = tempDir('home');
  stateDir = join(home, '.local', 'state', 'ask-later');
  dbPath = join(stateDir, 'inbox.db');
  project = tempDir('project');
  execFileSync('git', ['init', '-q', project]);

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(pluginRoot, 'dist', 'ask-later.mjs'), 'mcp'],
    cwd: project,
    env: pluginEnv(),
    stderr: 'pipe',
  });
  client = new Client({ name: 'embedded-store-test', version: '1.0.0' });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await store?.close();
  if (serve) await stop(serve);
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

// One story, in order: the tests share the installed plugin, its MCP session and the store file.
describe.runIf(nodeSqlite() === undefined)(
  'the plugin bundles on the embedded store (no REDIS_URL), installed outside any npm install, on a Node without node:sqlite',
  () => {
    it('GIVEN the copied plugin THEN it is outside the repository and cannot resolve better-sqlite3 by itself', () => {
      const fromRepo = relative(repoRoot, pluginRoot);
      expect(fromRepo.startsWith('..') || isAbsolute(fromRepo), fromRepo).toBe(true);
      const resolveFromBundle = createRequire(join(pluginRoot, 'dist', 'ask-later.mjs')).resolve;
      expect(() => resolveFromBundle('better-sqlite3')).toThrow(/Cannot find module/);
    });

    it('GIVEN no install recorded its SQLite engine WHEN the model calls ask_later THEN an isError result carries the set-up advice and nothing is recorded', async () => {
      const result = await client.callTool({ name: 'ask_later', arguments: QUESTION });
      expect(isError(result)).toBe(true);
      expect(textOf(result)).toContain(new SqliteEngineMissingError().message);
      expect(textOf(result)).toContain('ask-later serve');
      expect(existsSync(join(stateDir, ENGINE_FILE))).toBe(false);
    });

    it('GIVEN no install recorded its SQLite engine WHEN the person types a prompt THEN the hook bundle prints nothing on stdout, one `ask-later hook:` line with the advice on stderr, and exits 0', async () => {
      const run = await runHookBundle(payload({ cwd: project }));
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^ask-later hook: [^\n]+\n$/);
      expect(run.stderr).toContain(new SqliteEngineMissingError().message);
      expect(run.stderr).toContain('answers wait for the next prompt');
      expect(existsSync(join(stateDir, ENGINE_FILE))).toBe(false);
    });

    it('GIVEN `ask-later serve` started once from the npm install with that HOME THEN it records its better-sqlite3 next to the default store file, and stops on SIGTERM', async () => {
      const started = await startServe();
      serve = started.child;
      expect(started.firstLine).toMatch(/^ask-later serve: web inbox at http:\/\/127\.0\.0\.1:\d+\/ /);
      expect(await stop(started.child)).toBe(0);
      serve = undefined;
      expect(existsSync(dbPath)).toBe(true);
      expect(JSON.parse(readFileSync(join(stateDir, ENGINE_FILE), 'utf8'))).toEqual({
        module: join(repoRoot, 'node_modules', 'better-sqlite3'),
      });
    });

    it('GIVEN the engine recorded (serve stopped again) WHEN the same MCP session parks a question and the person answers it in the store THEN the hook bundle delivers the answer once and the next prompt carries nothing', async () => {
      const parked = await client.callTool({ name: 'ask_later', arguments: QUESTION });
      expect(isError(parked), textOf(parked)).toBe(false);
      // #1: the failed call before parked nothing.
      expect(textOf(parked)).toMatch(/^Parked as #1\b/);

      // Nothing waits yet: the hook bundle opens the file with the recorded engine and says nothing at all.
      expect(await runHookBundle(payload({ cwd: project, prompt_id: 'prompt-0' }))).toMatchObject({
        code: 0,
        stdout: '',
        stderr: '',
      });

      // The test opens the default file itself: the bundle parked there, not in a store of its own. (Only now: this
      // process resolves better-sqlite3 from the repository, so opening the file writes the same engine record.)
      store = await openSqliteStore({ path: dbPath });
      const question = await store.get(project, 1);
      expect(question).toMatchObject({ status: 'pending', question: QUESTION.question });
      const answered = await store.answer(project, 1, { choices: ['Parquet'], other: false, notes: NOTES }, person());
      expect(answered.kind).toBe('won');

      const first = await runHookBundle(payload({ cwd: project }));
      expect(first.code).toBe(0);
      expect(first.stderr).toBe('');
      const note = noteOf(first.stdout);
      expect(answeredIds(note)).toEqual([1]);
      expect(occurrences(note, NOTES)).toBe(1);
      expect(note).toContain('Parquet');
      expect((await store.get(project, 1))?.status).toBe('delivered');

      const second = await runHookBundle(payload({ cwd: project, prompt_id: 'prompt-2', prompt: 'Anything else?' }));
      expect(second).toMatchObject({ code: 0, stdout: '', stderr: '' });
      expect((await store.get(project, 1))?.status).toBe('delivered');
    });
  },
);

describe.runIf(nodeSqlite() !== undefined)(
  'the plugin bundles on the embedded store (no REDIS_URL), installed outside any npm install, on a Node with node:sqlite',
  () => {
    it('GIVEN the copied plugin and an empty HOME WHEN the model parks, serve starts after, and the person answers in its web inbox THEN the hook bundle delivers the answer once, and no engine record exists anywhere', async () => {
      const resolveFromBundle = createRequire(join(pluginRoot, 'dist', 'ask-later.mjs')).resolve;
      expect(() => resolveFromBundle('better-sqlite3')).toThrow(/Cannot find module/);

      const parked = await client.callTool({ name: 'ask_later', arguments: QUESTION });
      expect(isError(parked), textOf(parked)).toBe(false);
      expect(textOf(parked)).toMatch(/^Parked as #1\b/);

      // serve runs from the npm install (the plugin does not carry it), on this same Node: with node:sqlite it records
      // no engine either.
      const started = await startServe();
      serve = started.child;
      const url = /web inbox at (http:\/\/127\.0\.0\.1:\d+)\//.exec(started.firstLine)?.[1];
      expect(url, started.firstLine).toBeDefined();
      const post = async (route: string, body: unknown) => {
        const response = await fetch(`${url}${route}`, {
          method: 'POST',
          headers: { origin: String(url), 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(response.status, route).toBe(200);
        return (await response.json()) as unknown;
      };
      const ref = formatQuestionRef(project, 1);
      expect(await post(WEB_ROUTES.draft, { ref, notes: NOTES })).toMatchObject({ ok: true });
      expect(await post(WEB_ROUTES.send, { ref, pick: { choices: [1], other: false } })).toMatchObject({ ok: true });

      const first = await runHookBundle(payload({ cwd: project }));
      expect(first).toMatchObject({ code: 0, stderr: '' });
      const note = noteOf(first.stdout);
      expect(answeredIds(note)).toEqual([1]);
      expect(occurrences(note, NOTES)).toBe(1);
      expect(note).toContain('Parquet');
      const second = await runHookBundle(payload({ cwd: project, prompt_id: 'prompt-2', prompt: 'Anything else?' }));
      expect(second).toMatchObject({ code: 0, stdout: '', stderr: '' });

      expect(await stop(started.child)).toBe(0);
      serve = undefined;
      expect(existsSync(dbPath)).toBe(true);
      expect(existsSync(join(stateDir, ENGINE_FILE))).toBe(false);
    });
  },
);
