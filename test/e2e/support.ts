/**
 * What the end-to-end tests with the real Claude Code binary share: the binary and the fake Messages API it talks
 * to, temporary directories, the environment of every `claude` run (nothing of ours leaks in), the plugin installed
 * from this checkout's marketplace, and killing every process a test started, hooks included.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type FakeMessagesApi,
  type MessagesRequestBody,
  type ScriptedReply,
  startFakeMessagesApi,
} from '../fakes/messages-api.js';
import { claudeBinary } from './pinned-binary.js';

export const repoRoot = realpathSync(new URL('../..', import.meta.url).pathname);
export const MARKETPLACE = JSON.parse(readFileSync(join(repoRoot, '.claude-plugin/marketplace.json'), 'utf8'))
  .name as string;
/** Claude Code starts slowly on a busy machine (and waits for MCP servers): be generous. */
export const CLAUDE_TIMEOUT_MS = 180_000;

/** Plugin tools are named `mcp__plugin_<plugin>_<server>__<tool>`. */
export const PLUGIN_TOOL_PREFIX = 'mcp__plugin_ask-later_ask-later__';

export interface ClaudeRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** How one way of wiring ask-later into Claude Code runs `claude`. */
export interface Setup {
  /** The ask_later tool's name as Claude Code shows it to the model. */
  readonly tool: string;
  readonly home: string;
  /** Flags for every prompt. */
  readonly args: readonly string[];
  /** Environment on top of {@link E2e.baseEnv}. */
  readonly env: Readonly<Record<string, string>>;
}

export interface PluginOptions {
  /** The inbox's settings, put in ~/.claude/settings.json; without, the plugin runs on its defaults. */
  readonly settingsEnv?: Readonly<Record<string, string>>;
  /** The marketplace directory to add (default this checkout). */
  readonly marketplace?: string;
  /** The plugin's own settings (its userConfig), saved the way `claude plugin configure` does. */
  readonly pluginConfig?: Readonly<Record<string, string>>;
}

/** One test file's binary, fake API, scratch directories and child processes. */
export interface E2e {
  readonly claude: string;
  readonly api: FakeMessagesApi;
  /** A new directory under the system's temporary directory, removed by {@link close}. */
  tempDir(name: string): string;
  /** The environment of every `claude` run: nothing of ours leaks in (no real HOME, key or session variables). */
  baseEnv(home: string): NodeJS.ProcessEnv;
  /** Spawn `command` in a process group of its own, killed (with everything it started) by {@link close}. */
  spawnTracked(command: string, args: readonly string[], options: TrackedSpawnOptions): ChildProcess;
  /** Run `claude` to its end (killed after {@link CLAUDE_TIMEOUT_MS}). */
  runClaude(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<ClaudeRun>;
  report(run: ClaudeRun): string;
  reportOutput(stdout: string, stderr: string): string;
  /** The plugin, installed the way the README tells a person to, from this checkout's marketplace, in `home`. */
  pluginSetup(home: string, options?: PluginOptions): Promise<Setup>;
  /** A fresh git repository (a project of its own) with one source file. */
  gitProject(): string;
  /** The main loop's requests (the ones that offer tools; Claude Code may also make side requests without any). */
  mainRequests(from?: number): MessagesRequestBody[];
  /** Kill every process started through this (process groups and all their descendants), close the API, clean up. */
  close(): Promise<void>;
}

export interface TrackedSpawnOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly stdio: ('ignore' | 'pipe')[];
}

export function textReply(text: string): ScriptedReply {
  return { content: [{ type: 'text', text }] };
}

/** Whether the request offers `tool` directly (not deferred behind ToolSearch). */
export function offers(body: MessagesRequestBody, tool: string): boolean {
  return body.tools?.some((t) => t.name === tool && t.defer_loading !== true) ?? false;
}

/** A process's command line, from /proc ('' when it is gone). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/**
 * The processes below `root` (children, grandchildren, …, and the detached hooks that still name it in CLAUDE_PID),
 * from /proc: pid → process group.
 */
export function descendants(root: number): Map<number, number> {
  const parents = new Map<number, { ppid: number; pgid: number }>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return new Map();
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), { ppid: Number(fields[1]), pgid: Number(fields[2]) });
    } catch {
      // gone meanwhile
    }
  }
  const found = new Map<number, number>();
  // Detached hooks whose parent shell is gone are reparented away from Claude Code, but still name it in CLAUDE_PID.
  for (const [pid, { pgid }] of parents) {
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`CLAUDE_PID=${root}`))
        found.set(pid, pgid);
    } catch {
      // gone, or not ours to read
    }
  }
  let frontier = [root, ...found.keys()];
  while (frontier.length > 0) {
    const next: number[] = [];
    for (const [pid, { ppid, pgid }] of parents) {
      if (frontier.includes(ppid) && !found.has(pid)) {
        found.set(pid, pgid);
        next.push(pid);
      }
    }
    frontier = next;
  }
  return found;
}

/**
 * Claude Code and everything it started: its process group, and the process groups of its descendants (Claude Code
 * starts async hooks detached, in groups of their own).
 */
export function killTree(child: ChildProcess): void {
  // Once it has ended its pid may belong to someone else; Claude Code ends its hooks itself when it exits.
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const below = descendants(child.pid);
  const groups = new Set<number>([child.pid, ...below.values()]);
  for (const group of groups) {
    if (group <= 1) continue;
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // no such group
    }
  }
  for (const pid of below.keys()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  child.kill('SIGKILL');
}

export async function startE2e(): Promise<E2e> {
  const claude = await claudeBinary();
  const api = await startFakeMessagesApi();
  const running = new Set<ChildProcess>();
  const scratch: string[] = [];

  const tempDir = (name: string): string => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), `ask-later-e2e-${name}-`)));
    scratch.push(dir);
    return dir;
  };

  const baseEnv = (home: string): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: 'dummy',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  });

  const spawnTracked = (command: string, args: readonly string[], options: TrackedSpawnOptions): ChildProcess => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: options.stdio, detached: true });
    running.add(child);
    child.once('close', () => running.delete(child));
    return child;
  };

  const reportOutput = (stdout: string, stderr: string): string => {
    const requests = api.requests
      .map((r) => {
        const tools = (r.body as MessagesRequestBody | undefined)?.tools?.map((tool) => tool.name) ?? [];
        return `${r.method} ${r.url}${tools.length > 0 ? ` tools: ${tools.join(', ')}` : ''}`;
      })
      .join('\n  ');
    return `--- claude stdout ---\n${stdout}\n--- claude stderr ---\n${stderr}\n--- requests to the fake API ---\n  ${requests}`;
  };

  const report = (run: ClaudeRun): string => `exit code ${run.code}\n${reportOutput(run.stdout, run.stderr)}`;

  const runClaude = (args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<ClaudeRun> =>
    new Promise((resolve, reject) => {
      const child = spawnTracked(claude, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
          new Error(
            `claude ${args.join(' ')} timed out after ${CLAUDE_TIMEOUT_MS} ms\n${reportOutput(stdout, stderr)}`,
          ),
        );
      }, CLAUDE_TIMEOUT_MS);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });

  const pluginSetup = async (home: string, options: PluginOptions = {}): Promise<Setup> => {
    const { settingsEnv, pluginConfig, marketplace = repoRoot } = options;
    for (const args of [
      ['plugin', 'marketplace', 'add', marketplace],
      ['plugin', 'install', `ask-later@${MARKETPLACE}`],
    ]) {
      const run = await runClaude(args, home, baseEnv(home));
      if (run.code !== 0) throw new Error(`claude ${args.join(' ')} failed\n${report(run)}`);
    }
    if (settingsEnv !== undefined) {
      // The inbox's settings go in the `env` of ~/.claude/settings.json, which Claude Code passes on to the plugin's
      // MCP server and hooks.
      const settingsFile = join(home, '.claude', 'settings.json');
      const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
      settings.env = settingsEnv;
      writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
    }
    if (pluginConfig !== undefined) {
      const configure = spawnSync(claude, ['plugin', 'configure', `ask-later@${MARKETPLACE}`, '--values-stdin'], {
        cwd: home,
        env: baseEnv(home),
        input: JSON.stringify(pluginConfig),
        encoding: 'utf8',
        timeout: CLAUDE_TIMEOUT_MS,
      });
      if (configure.status !== 0) {
        throw new Error(`claude plugin configure failed\n${configure.stdout}\n${configure.stderr}`);
      }
    }
    return { tool: `${PLUGIN_TOOL_PREFIX}ask_later`, home, args: [], env: {} };
  };

  const gitProject = (): string => {
    const project = tempDir('project');
    execFileSync('git', ['init', '-q', project]);
    mkdirSync(join(project, 'src'));
    writeFileSync(join(project, 'src', 'export.ts'), 'export const format = "csv";\n');
    return project;
  };

  const mainRequests = (from = 0): MessagesRequestBody[] =>
    api
      .messageRequests()
      .slice(from)
      .filter((body) => (body.tools?.length ?? 0) > 0);

  const close = async (): Promise<void> => {
    for (const child of running) killTree(child);
    await api.close();
    // A process just killed (Claude Code in a tmux pane ends on its own signal) may still be writing its state
    // under a scratch home: removing retries on ENOTEMPTY/EBUSY rather than failing the file's cleanup.
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
  };

  return {
    claude,
    api,
    tempDir,
    baseEnv,
    spawnTracked,
    runClaude,
    report,
    reportOutput,
    pluginSetup,
    gitProject,
    mainRequests,
    close,
  };
}
