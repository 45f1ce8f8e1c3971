/**
 * `ask-later hook`: Claude Code's `UserPromptSubmit` hook (BRIEF "Delivery (the hook)"). It adds the outcomes
 * waiting for this project (answers, dismissals, expiries) to the prompt the person typed, exactly once. Wired as a
 * `PostToolUse` hook it adds blocking questions' outcomes to a tool's result (`ASK_LATER_MIDTURN`; agents whose
 * hooks only run commands, such as Codex). Wired as a `PreToolUse` hook on the agent's own question tools
 * (AskUserQuestion / ExitPlanMode, Codex's request_user_input) it captures those calls instead (`pre-tool-use.ts`).
 *
 * It never blocks or delays the prompt: whatever goes wrong (no store, bad settings, unexpected stdin, a bug), it
 * writes nothing to stdout, one line starting `ask-later hook:` to stderr, and exits 0, all within a hard deadline
 * ({@link DEADLINE_MS}). It never prints question, answer or note text, nor any setting's value.
 *
 * It is paid on every prompt, so this file loads only the stdin check and the config; the store client and the
 * note renderer (`deliver.ts`) are imported only for prompts that carry answers.
 */
import { resolve } from 'node:path';
import { type AgentConfig, type AgentStoreLocation, loadAgentConfig, loadDeadline } from '../../config/agent.js';
import { ConfigError } from '../../config/config-error.js';
import { CorruptRecordError } from '../../store/corrupt-record-error.js';
import { AgentApiError } from '../../store/http/agent-api-error.js';
import { ProjectRefusedError } from '../../store/http/project-refused-error.js';
import { TokenRefusedError } from '../../store/http/token-refused-error.js';
import { SqliteEngineMissingError } from '../../store/sqlite/engine-missing-error.js';
import { StoreUnavailableError } from '../../store/store-unavailable-error.js';
import { Deadline } from './deadline.js';
import { DeadlineError } from './deadline-error.js';
import { clearDue, type DueKind, dueDir, markedDue, readDue } from './due-marker.js';
import { HookIoError } from './hook-io-error.js';
import { carriesAnswers, parsePromptSubmit, postToolUsePayload, preToolUsePayload, readStdin } from './input.js';
import { UnconfirmedDeliveryError } from './unconfirmed-delivery-error.js';

/**
 * The whole run, counted from the process start, ends by then: Claude Code waits for the hook before sending the
 * prompt, and the contract is "within 2 s at the most" with the store down. Node's own start is inside it.
 * `ASK_LATER_HOOK_DEADLINE_MS` sets another (a serve far away over HTTP), under the claim's lease.
 */
export const DEADLINE_MS = 1500;
/**
 * The run's time when a due marker says something waits (due-marker.ts): a busy machine still gets its answers
 * rather than give up at {@link DEADLINE_MS}; bounded under the claim's lease (5 s) with the confirmation's grace.
 */
export const DUE_DEADLINE_MS = 4000;
/** The least time a run gets when it starts late (a caller in a long-lived process, a slow start). */
const MIN_RUN_MS = 500;
/** Connecting to the store may take this long: well under the deadline, so a refused or silent store is reported. */
const CONNECT_TIMEOUT_MS = 700;

/** How long a run that missed its deadline may take to wind down before the process exits regardless. */
const EXIT_GRACE_MS = 100;

type Io = { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };

/** Run the hook once. Always resolves 0: a hook that fails must not block the prompt. */
export async function runHook(io: Io, env: Readonly<Record<string, string | undefined>>, cwd: string): Promise<number> {
  // A closed stdout or stderr (EPIPE) must not crash the process; write callbacks report it where it matters.
  io.stdout.on('error', ignore);
  io.stderr.on('error', ignore);
  let configured: number | undefined;
  let settingError: unknown;
  try {
    configured = loadDeadline(env, 'ASK_LATER_HOOK_DEADLINE_MS');
  } catch (error) {
    settingError = error;
  }
  const budget = Math.max(configured ?? DEADLINE_MS, markedDue(env, cwd) ? DUE_DEADLINE_MS : 0);
  const deadline = new Deadline(Math.max(MIN_RUN_MS, budget - performance.now()));
  const seen: Seen = {};
  try {
    if (settingError !== undefined) throw settingError;
    await run(io, env, cwd, deadline, seen);
  } catch (error) {
    io.stderr.write(`ask-later hook: ${explain(error, seen)}\n`);
  } finally {
    deadline.clear();
    stopReading(io.stdin);
  }
  if (deadline.expired) exitSoonIfStuck();
  return 0;
}

/**
 * After the deadline, the abandoned step may still hold a socket or a pending write nobody can close yet. Exit
 * anyway, shortly, if the process is still alive then (the timer is unref'd, so a process with nothing left running
 * ends before it fires).
 */
function exitSoonIfStuck(): void {
  setTimeout(() => process.exit(0), EXIT_GRACE_MS).unref();
}

/** What the run learnt before it failed, for the stderr line. */
interface Seen {
  store?: AgentStoreLocation['kind'];
}

async function run(
  io: Io,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  deadline: Deadline,
  seen: Seen,
) {
  const text = await deadline.race(readStdin(io.stdin), 'stdin did not end');
  stopReading(io.stdin);
  const preToolUse = preToolUsePayload(text);
  if (preToolUse !== undefined) {
    // Claude Code's own question tools (AskUserQuestion, ExitPlanMode): bounded on their own, not by the prompt's
    // deadline (a wait:<seconds> capture holds the call that long).
    deadline.clear();
    const { capturePreToolUse } = await import('./pre-tool-use.js');
    await capturePreToolUse(preToolUse, env, cwd, (output) => writeOut(io, output));
    return;
  }
  const toolCall = postToolUsePayload(text);
  if (toolCall !== undefined) {
    // Wired as a PostToolUse hook (agents whose hooks only run commands: Codex): the tool's result carries the
    // outcomes ASK_LATER_MIDTURN names, in the main agent only (a subagent's context is thrown away).
    if (toolCall.agentId !== '') return;
    const config = loadAgentConfig(env, toolCall.cwd === undefined ? cwd : resolve(cwd, toolCall.cwd));
    if (config.midturn === 'off') return;
    const blockingOnly = config.midturn === 'blocking';
    await deliver(io, env, cwd, config, deadline, seen, { event: 'PostToolUse', blockingOnly });
    return;
  }
  const input = parsePromptSubmit(text);
  if (!carriesAnswers(input)) return;

  // The project comes from the session's directory when Claude Code names it (the hook may run elsewhere).
  const config = loadAgentConfig(env, input.cwd === undefined ? cwd : resolve(cwd, input.cwd));
  await deliver(io, env, cwd, config, deadline, seen, { event: 'UserPromptSubmit' });
}

/**
 * Deliver, and clear the due markers (due-marker.ts) this run has emptied: those of the kinds it carries, read
 * before it looked at the store, so an outcome landing meanwhile keeps its marker.
 */
async function deliver(
  io: Io,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  config: AgentConfig,
  deadline: Deadline,
  seen: Seen,
  what: { event: 'UserPromptSubmit' | 'PostToolUse'; blockingOnly?: boolean },
): Promise<void> {
  seen.store = config.store.kind;
  const dir = dueDir(env, cwd);
  const kinds: DueKind[] = what.blockingOnly === true ? ['blocking'] : ['any', 'blocking'];
  const tokens = dir === undefined ? [] : kinds.map((kind) => [kind, readDue(dir, kind)] as const);
  const { deliverWaitingOutcomes } = await deadline.race(import('./deliver.js'), 'the hook did not load');
  const drained = await deliverWaitingOutcomes({
    config,
    deadline,
    connectTimeoutMs: CONNECT_TIMEOUT_MS,
    write: (output) => writeOut(io, output),
    ...what,
  });
  if (drained && dir !== undefined) for (const [kind, token] of tokens) clearDue(dir, kind, token);
}

/** Write the hook's output; resolves once flushed. */
function writeOut(io: Io, output: string): Promise<void> {
  return new Promise<void>((done, fail) => {
    io.stdout.write(output, (error) => {
      if (error) fail(new HookIoError('stdout could not be written (closed by Claude Code?)'));
      else done();
    });
  });
}

/** The stderr line after `ask-later hook: `: what is wrong, and what becomes of the answers. Never a secret or text. */
function explain(error: unknown, seen: Seen): string {
  const waiting = 'answers wait for the next prompt';
  if (error instanceof UnconfirmedDeliveryError) {
    return `${error.message} (${describe(error.cause, seen)}); they may come again with a prompt after 5 s`;
  }
  return `${describe(error, seen)}; ${waiting}`;
}

function describe(error: unknown, seen: Seen): string {
  if (
    error instanceof HookIoError ||
    error instanceof ConfigError ||
    error instanceof DeadlineError ||
    error instanceof SqliteEngineMissingError ||
    error instanceof TokenRefusedError ||
    error instanceof ProjectRefusedError
  ) {
    return error.message;
  }
  if (error instanceof AgentApiError) return `serve refused the call (${error.code})`;
  if (error instanceof StoreUnavailableError) {
    const why = connectionDetail(error.cause);
    const store = storeName(seen.store);
    return `the inbox (${store}) is unreachable${why === undefined ? '' : ` (${why})`}`;
  }
  if (error instanceof CorruptRecordError) {
    return `stored question ${error.record} is unreadable`;
  }
  const reply = redisErrorCode(error);
  if (reply !== undefined) return `Redis refused a command (${reply})`;
  if (!(error instanceof Error)) return `unexpected ${typeof error}`;
  // The class and a system error code (ENOENT, …) say enough; the message could carry a path or a text.
  const code = (error as { code?: unknown }).code;
  const detail = typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? ` (${code})` : '';
  return `unexpected ${error.constructor.name || error.name}${detail}`;
}

/** Where the inbox was looked for, as the stderr line names it. */
function storeName(kind: AgentStoreLocation['kind'] | undefined): string {
  if (kind === 'sqlite') return 'the embedded store';
  if (kind === 'http') return 'serve at ASK_LATER_URL';
  return 'Redis at REDIS_URL';
}

/** A connection failure's code (ECONNREFUSED, a Redis error code such as WRONGPASS, a time-out), never its text. */
function connectionDetail(cause: unknown): string | undefined {
  if (!(cause instanceof Error)) return undefined;
  const code = (cause as { code?: unknown }).code;
  if (typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code)) return code;
  if (isNamed(cause, /^ConnectionTimeoutError$/)) return 'connection timed out';
  return redisErrorCode(cause) ?? (cause.name || undefined);
}

/** The leading upper-case word of a Redis error reply (`WRONGPASS`, `NOPERM`, `LOADING`); the rest may say more. */
function redisErrorCode(error: unknown): string | undefined {
  if (!(error instanceof Error) || !isNamed(error, /^ErrorReply$/)) return undefined;
  return /^([A-Z][A-Z_]{2,30})\b/.exec(error.message)?.[1];
}

/** An error by its `name` (the store's clients set it) or its class name. */
function isNamed(error: Error, name: RegExp): boolean {
  return name.test(error.name) || name.test(error.constructor.name);
}

/** Stop reading stdin so it does not keep the process alive (Claude Code closes it; a terminal would not). */
function stopReading(stdin: NodeJS.ReadableStream): void {
  stdin.pause();
  const destroy = (stdin as { destroy?: () => void }).destroy;
  if (typeof destroy === 'function') destroy.call(stdin);
}

function ignore(): void {}
