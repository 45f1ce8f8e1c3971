/**
 * The README's quick start, run as written: the fenced block after the quick-start marker, on a fresh copy of the
 * working tree (what `git ls-files --cached --others --exclude-standard` lists: uncommitted work in, node_modules and
 * dist out), in a fresh HOME with no REDIS_URL, no Slack or Discord settings, no XDG_STATE_HOME and no ASK_LATER_*.
 * Every command but the last runs to its end; the last (`npm start`) keeps serving. Then the whole loop the quick
 * start promises: the web inbox's page, a question parked through the copy's MCP server, answered on the page, and
 * delivered once by the copy's hook; SIGTERM stops it with exit code 0.
 *
 * Slow: `npm install` compiles better-sqlite3. npm reuses this machine's npm cache (and its `nodedir`, when set, so
 * node-gyp finds the Node headers without downloading them) but nothing else of the real HOME; its logs go to a
 * temporary directory.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join, sep } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_ROUTES } from '../src/render/web/routes.js';
import { answeredIds, noteOf, payload, runHookCli } from './agents/hooks/support.js';
import { textOf } from './support/mcp.js';
import { freePort } from './support/redis-server.js';

/** The install compiles better-sqlite3: minutes, not seconds. No test asserts on time. */
const SLOW_MS = 10 * 60 * 1000;
/** How long the long-running command may take to print its first line before the test gives up (a bound, not a check). */
const FIRST_LINE_MS = 2 * 60 * 1000;

const MARKER = '<!-- quick-start: test/quickstart.test.ts runs this block as written, in a fresh HOME -->';
const repoRoot = realpathSync(new URL('..', import.meta.url).pathname);

/** The quick start's commands: the fenced block right after the marker, one per non-empty, non-comment line. */
function quickStartCommands(readme: string): string[] {
  const lines = readme.split(/\r?\n/);
  const at = lines.findIndex((line) => line.trim() === MARKER);
  if (at === -1) throw new Error(`README.md has no quick-start marker line: ${MARKER}`);
  const fence = lines.slice(at + 1).findIndex((line) => line.trim() !== '');
  const open = lines[at + 1 + fence]?.trim() ?? '';
  if (fence === -1 || !/^```(sh|bash|shell)?$/.test(open)) {
    throw new Error(
      `README.md: the quick-start marker is not followed by a fenced sh block (found ${JSON.stringify(open)})`,
    );
  }
  const body = lines.slice(at + 2 + fence);
  const close = body.findIndex((line) => line.trim().startsWith('```'));
  if (close === -1) throw new Error('README.md: the quick-start block is never closed');
  const commands = body
    .slice(0, close)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  if (commands.length === 0) throw new Error('README.md: the quick-start block holds no command');
  return commands;
}

function tempDir(name: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), `ask-later-quickstart-${name}-`)));
}

/** The working tree as a fresh clone would hold it, uncommitted work included, copied into `dest`. */
function copyWorkingTree(dest: string): void {
  const listed = execFileSync('git', ['-C', repoRoot, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  for (const path of new Set(listed.split('\0').filter((path) => path !== ''))) {
    const from = join(repoRoot, path);
    // Deleted in the working tree but still in the index: a clone of this work would not have it.
    if (!lstatSync(from, { throwIfNoEntry: false })) continue;
    mkdirSync(dirname(join(dest, path)), { recursive: true });
    cpSync(from, join(dest, path), { recursive: true, verbatimSymlinks: true });
  }
}

/** One npm setting as this machine has it (read with the real HOME), or undefined when unset. */
function npmSetting(name: string, logs: string): string | undefined {
  const value = execFileSync('npm', ['config', 'get', name], {
    cwd: tmpdir(),
    encoding: 'utf8',
    env: { ...process.env, npm_config_logs_dir: logs },
  }).trim();
  return value === '' || value === 'undefined' || value === 'null' ? undefined : value;
}

/** PATH without node_modules/.bin entries (npx and npm scripts add this repository's): a person's shell has none. */
function plainPath(): string {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => !entry.split(sep).join('/').includes('node_modules/.bin'))
    .join(delimiter);
}

interface Started {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `bash -c command` in `cwd`, in a process group of its own (so a failed run can be ended whole). */
function startCommand(command: string, cwd: string, env: Record<string, string>): Started {
  const child = spawn('bash', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

function tail(text: string, max = 4000): string {
  return text.length <= max ? text : `…${text.slice(-max)}`;
}

/** Resolves once `check` holds for the started command's output; rejects if it exits first or `ms` pass. */
function waitForOutput(started: Started, what: string, check: () => boolean, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      clearInterval(poll);
      clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    };
    const output = () => `stdout:\n${tail(started.stdout())}\nstderr:\n${tail(started.stderr())}`;
    const poll = setInterval(() => {
      if (check()) done();
    }, 20);
    const timer = setTimeout(() => done(new Error(`no ${what} within ${ms} ms\n${output()}`)), ms);
    started.exited.then(({ code, signal }) => {
      if (!check()) done(new Error(`it exited (code ${code}, signal ${signal}) before ${what}\n${output()}`));
    }, done);
  });
}

function endGroup(child: ChildProcess | undefined): void {
  if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** What the real HOME's default inbox looks like, to see that nothing here touched it. */
function realInboxState(): string {
  const dir = join(homedir(), '.local', 'state', 'ask-later');
  const db = lstatSync(join(dir, 'inbox.db'), { throwIfNoEntry: false });
  const wal = lstatSync(join(dir, 'inbox.db-wal'), { throwIfNoEntry: false });
  return JSON.stringify({ dir: existsSync(dir), db: db?.mtimeMs, dbSize: db?.size, wal: wal?.mtimeMs });
}

const scratch: string[] = [];
let copy: string;
let home: string;
let port: number;
let serve: Started | undefined;
let realBefore: string;
let mcp: Client | undefined;

describe('the README quick start, run as written in a fresh HOME', () => {
  beforeAll(async () => {
    const commands = quickStartCommands(readFileSync(join(repoRoot, 'README.md'), 'utf8'));
    realBefore = realInboxState();
    copy = tempDir('copy');
    home = tempDir('home');
    const logs = tempDir('npm-logs');
    scratch.push(copy, home, logs);
    // Read with the real HOME, before the commands get a fresh one (npm's logs kept out of it).
    const cache = npmSetting('cache', logs);
    const nodedir = npmSetting('nodedir', logs);
    copyWorkingTree(copy);
    port = await freePort();
    const env = {
      PATH: plainPath(),
      HOME: home,
      PORT: String(port),
      ...(cache === undefined ? {} : { npm_config_cache: cache }),
      ...(nodedir === undefined ? {} : { npm_config_nodedir: nodedir }),
      npm_config_logs_dir: logs,
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };

    const last = commands.length - 1;
    for (const [index, command] of commands.entries()) {
      const started = startCommand(command, copy, env);
      if (index === last) {
        serve = started;
        await waitForOutput(
          started,
          `first stderr line from \`${command}\``,
          () => started.stderr().includes('\n'),
          FIRST_LINE_MS,
        );
        break;
      }
      const { code, signal } = await started.exited;
      if (code !== 0) {
        throw new Error(
          `quick start: \`${command}\` exited with code ${code} (signal ${signal})\nstdout:\n${tail(started.stdout())}\nstderr:\n${tail(started.stderr())}`,
        );
      }
    }
  }, SLOW_MS);

  afterAll(async () => {
    await mcp?.close().catch(() => undefined);
    endGroup(serve?.child);
    await serve?.exited.catch(() => undefined);
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it(
    'GIVEN the quick start run in a fresh HOME with no REDIS_URL THEN its first line names the web inbox and GET / serves the inbox page',
    async () => {
      const first = serve?.stderr().split('\n')[0];
      const url = `http://127.0.0.1:${port}/`;
      expect(first).toBe(
        `ask-later serve: web inbox at ${url} (no Slack or Discord configured: questions are answered there)`,
      );
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html\b/);
      expect(await response.text()).toMatch(/^<!doctype html>/i);
    },
    SLOW_MS,
  );

  it(
    'GIVEN the quick start THEN its Claude Code line names the copy as the plugin marketplace',
    async () => {
      await waitForOutput(
        serve as Started,
        'the Claude Code line',
        () => (serve?.stderr().split('\n').length ?? 0) > 2,
        FIRST_LINE_MS,
      );
      expect(serve?.stderr().split('\n')[1]).toBe(
        `ask-later serve: Claude Code: claude plugin marketplace add ${copy} && claude plugin install ask-later@ask-later`,
      );
    },
    SLOW_MS,
  );

  it(
    'GIVEN a question parked through the copy’s MCP server THEN the page shows it, the web inbox answers it, and the copy’s hook delivers the answer once',
    async () => {
      const project = tempDir('project');
      scratch.push(project);
      execFileSync('git', ['init', '-q', project]);
      const cli = join(copy, 'dist', 'cli.js');
      const agentEnv = { PATH: plainPath(), HOME: home };

      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [cli, 'mcp'],
        cwd: project,
        env: agentEnv,
        stderr: 'pipe',
      });
      mcp = new Client({ name: 'quickstart-test', version: '1.0.0' });
      await mcp.connect(transport);
      const parked = await mcp.callTool({
        name: 'ask_later',
        arguments: {
          context: 'The quick start test parks this question.',
          question: 'Which quickstart flavour should we ship?',
          impact: 'Decides nothing: it is a test.',
          isBlocking: false,
          options: ['Vanilla', 'Chocolate'],
        },
      });
      expect(textOf(parked)).toMatch(/^Parked as #1\b/);
      await mcp.close();
      mcp = undefined;

      const base = `http://127.0.0.1:${port}`;
      const page = await (await fetch(`${base}${WEB_ROUTES.page}`)).text();
      expect(page).toContain('Which quickstart flavour should we ship?');
      const fragment = await (await fetch(`${base}${WEB_ROUTES.inbox}`)).text();
      expect(fragment).toContain('Which quickstart flavour should we ship?');
      const refs = [...page.matchAll(/data-ref="([^"]+)"/g)].map((match) => match[1]);
      expect(refs).toHaveLength(1);

      const sent = await fetch(`${base}${WEB_ROUTES.send}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ref: refs[0], pick: { choices: [1], other: false } }),
      });
      expect(sent.status).toBe(200);
      expect(await sent.json()).toMatchObject({ ok: true });
      expect(await (await fetch(`${base}${WEB_ROUTES.page}`)).text()).toContain('data-status="answered"');

      const first = await runHookCli(agentEnv, payload({ cwd: project }), { cwd: project, args: [cli, 'hook'] });
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      const note = noteOf(first.stdout);
      expect(answeredIds(note)).toEqual([1]);
      expect(note).toContain('Which quickstart flavour should we ship?');
      expect(note).toMatch(/^Answer: .*Chocolate/m);

      const second = await runHookCli(agentEnv, payload({ cwd: project, prompt: 'And then?' }), {
        cwd: project,
        args: [cli, 'hook'],
      });
      expect(second).toMatchObject({ code: 0, stdout: '', stderr: '' });
    },
    SLOW_MS,
  );

  it(
    'GIVEN SIGTERM to the serve process THEN the quick start’s last command exits 0, its inbox is in the fresh HOME’s state dir, and the real HOME is untouched',
    async () => {
      const started = serve as Started;
      await waitForOutput(
        started,
        'the serve: ready log line',
        () => started.stdout().includes('"serve: ready"'),
        FIRST_LINE_MS,
      );
      const ready = started
        .stdout()
        .split('\n')
        .find((line) => line.includes('"serve: ready"'));
      const servePid = (JSON.parse(ready ?? '{}') as { pid?: number }).pid ?? 0;
      expect(servePid).toBeGreaterThan(0);
      // `npm start` runs serve under npm and sh: the signal goes to serve itself, whose exit code npm passes on.
      process.kill(servePid, 'SIGTERM');
      expect(await started.exited).toEqual({ code: 0, signal: null });
      expect(existsSync(join(home, '.local', 'state', 'ask-later', 'inbox.db'))).toBe(true);
      expect(realInboxState()).toBe(realBefore);
    },
    SLOW_MS,
  );
});
