/**
 * Runs the built `ask-later hook` (dist/cli.js; `npm run build` first) as Claude Code does: a child process fed
 * the UserPromptSubmit JSON on stdin. Also sets up answered questions and reads the notes back.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { expect } from 'vitest';
import { DEADLINE_SETTINGS } from '../../../src/config/agent.js';
import type { Question } from '../../../src/core/question.js';
import type { Store } from '../../../src/store/port.js';
import { testHome } from '../../support/home.js';
import { person, spec } from '../../support/store.js';

export const cli = new URL('../../../dist/cli.js', import.meta.url).pathname;

export interface HookRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Wall time from spawn to exit. */
  readonly ms: number;
}

export interface StartedHook {
  readonly child: ChildProcessWithoutNullStreams;
  /** What the hook has written to stdout so far. */
  stdout(): string;
  /** Write `stdin` and close it. */
  send(stdin: string): void;
  readonly done: Promise<HookRun>;
}

/**
 * The environment Claude Code would give the hook: PATH, HOME (the tests' own) and the given variables only, with
 * the hook's longest deadline: what these runs check is what the hook does, not how fast a busy machine lets it (the
 * checks of the deadline itself pass `ASK_LATER_HOOK_DEADLINE_MS: ''`, the default's).
 */
export function hookEnv(vars: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: testHome(),
    ASK_LATER_HOOK_DEADLINE_MS: String(DEADLINE_SETTINGS.ASK_LATER_HOOK_DEADLINE_MS.max),
  };
  for (const [name, value] of Object.entries(vars)) if (value !== undefined) env[name] = value;
  return env;
}

export interface HookOptions {
  readonly cwd?: string;
  /** What node runs (default this repository's `dist/cli.js hook`; e.g. a plugin bundle's `hook.cjs`, another copy's CLI). */
  readonly args?: readonly string[];
}

/** Start the hook; it waits for stdin until `send`. */
export function startHook(env: Record<string, string>, options: HookOptions = {}): StartedHook {
  const started = performance.now();
  const args = options.args ?? [cli, 'hook'];
  const child = spawn(process.execPath, args, { env, cwd: options.cwd ?? process.cwd(), stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  // The hook stops reading an oversized or endless stdin; the rest of our write then fails with EPIPE.
  child.stdin.on('error', () => undefined);
  const done = new Promise<HookRun>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr, ms: performance.now() - started }));
  });
  return {
    child,
    stdout: () => stdout,
    send: (stdin) => child.stdin.end(stdin),
    done,
  };
}

/** Run the hook to its end with `stdin`. */
export function runHookCli(env: Record<string, string>, stdin: string, options: HookOptions = {}) {
  const hook = startHook(env, options);
  hook.send(stdin);
  return hook.done;
}

/** A UserPromptSubmit payload as Claude Code sends it; `source` only when given. */
export function payload(fields: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: 'session-1',
    transcript_path: '/tmp/ask-later-test/transcript.jsonl',
    cwd: process.cwd(),
    prompt_id: 'prompt-1',
    permission_mode: 'default',
    hook_event_name: 'UserPromptSubmit',
    prompt: 'Please go on with the migration.',
    ...fields,
  });
}

/** Park `count` questions in `project` and answer each (notes from `notes(i)` when given). Returns them answered. */
export async function answered(
  store: Store,
  project: string,
  count: number,
  notes?: (index: number) => string,
): Promise<Question[]> {
  const questions: Question[] = [];
  for (let i = 0; i < count; i++) {
    const parked = await store.park(project, spec({ question: `Which database should service ${i} use?` }));
    const note = notes?.(i);
    const result = await store.answer(
      project,
      parked.id,
      { choices: ['Postgres'], other: false, ...(note === undefined ? {} : { notes: note }) },
      person(),
    );
    if (result.kind !== 'won') throw new Error(`answering #${parked.id} gave ${result.kind}`);
    questions.push(result.question);
  }
  return questions;
}

/** The additionalContext of a hook's stdout, checking the output's shape on the way. */
export function noteOf(stdout: string): string {
  const output = JSON.parse(stdout) as {
    hookSpecificOutput?: { hookEventName?: unknown; additionalContext?: unknown };
  };
  expect(Object.keys(output)).toEqual(['hookSpecificOutput']);
  expect(output.hookSpecificOutput?.hookEventName).toBe('UserPromptSubmit');
  const context = output.hookSpecificOutput?.additionalContext;
  expect(typeof context).toBe('string');
  return context as string;
}

/** The ids of the `### #N answered` entries of a note. */
export function answeredIds(note: string): number[] {
  return [...note.matchAll(/^### #(\d+) answered$/gm)].map((match) => Number(match[1]));
}

/** The count of the note's "N more answer(s) wait" line; 0 without one. */
export function waitingCount(note: string): number {
  const match = /^(\d+) more answers? waits?; /m.exec(note);
  return match ? Number(match[1]) : 0;
}

/** Statuses of questions 1..count of a project. */
export async function statuses(store: Store, project: string, ids: readonly number[]): Promise<string[]> {
  return Promise.all(ids.map(async (id) => (await store.get(project, id))?.status ?? 'missing'));
}

export function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
