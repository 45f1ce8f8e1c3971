/**
 * `ask-later wait`: wakes an idle Claude Code session when an outcome it should not wait for lands (BRIEF
 * "Delivery", the wake path). Claude Code starts it as an async command hook with `asyncRewake` on `SessionStart`
 * and again on `Stop` (after every turn); when it exits with code 2, Claude Code wakes the session and shows the
 * model what it wrote on stderr.
 *
 * It never carries an answer: Claude Code frames whatever a waiter prints as "not a message from the user", so it
 * only says *that* outcomes are ready (`#12 (blocking) was answered on Slack`) and the model reads them through
 * `collect_answers`, where the exactly-once claim happens. If the model does not call it, the outcome waits for
 * the next path (the next tool call or prompt).
 *
 * - Which outcomes wake: `ASK_LATER_WAKE` (blocking, the default: those of blocking questions; all; off).
 * - One waiter per session, and none while it works: a store lease named after the session (two started together:
 *   one gets it; the other exits 0). The holder renews it every time it looks, and gives it up when it ends. A
 *   turn starting takes the lease (`collect_answers` on `UserPromptSubmit`, owner `turn:<prompt id>`): the waiter
 *   armed before finds it lost the lease the next time it looks and ends without waking the session (answers given
 *   during the turn come with its tool calls). The waiter the turn's `Stop` starts gives the turn's lease back
 *   (the same prompt id) and takes it; if another turn has started meanwhile, it cannot, and ends.
 * - A session is not woken twice for the same outcome: the ids it was woken for are kept per session (session.ts).
 * - It waits without polling (Redis: a blocking stream read; the embedded store: its change watch, slowed to
 *   100 ms) and exits 0, quietly, when there is nothing left to wait for (no pending question that could wake it),
 *   when another waiter holds the session, when its session's Claude Code is gone or sends SIGTERM, or after
 *   {@link WAITER_MAX_MS}. A store that stops answering once the waiter has started (serve restarting, a replica
 *   killed, Redis failing over) is asked again with back-off, or as soon as its connection is ready again
 *   (`Store.whenReady`), until it answers or that time is up. Any other
 *   failure is one `ask-later wait:` line on stderr and exit 0: it must never wake a session by mistake.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { type AgentConfig, loadAgentConfig } from '../../config/agent.js';
import { ConfigError } from '../../config/config-error.js';
import { placeOf, type Question } from '../../core/question.js';
import { turnOwner, waiterLease } from '../../core/turns.js';
import { ProjectRefusedError } from '../../store/http/project-refused-error.js';
import { TokenRefusedError } from '../../store/http/token-refused-error.js';
import { openStore } from '../../store/open.js';
import type { AgentStore } from '../../store/port.js';
import { SqliteEngineMissingError } from '../../store/sqlite/engine-missing-error.js';
import { StoreUnavailableError } from '../../store/store-unavailable-error.js';
import { waitToRetry } from '../../store/wait-to-retry.js';
import { loadWoken, saveWoken, sessionStateDir } from '../claude-code/session-file.js';
import { HookIoError } from '../hooks/hook-io-error.js';
import { readStdin } from '../hooks/input.js';

/** The longest a waiter waits; the plugin's hook time-out (24 h) is longer, so Claude Code never has to kill it. */
export const WAITER_MAX_MS = 23 * 60 * 60 * 1000;
/** The session's lease: renewed every half of it, so a waiter that died frees the session within this. */
export const WAITER_LEASE_MS = 60_000;
/** Exit code that makes Claude Code wake the session (`asyncRewake`). */
export const WAKE_EXIT_CODE = 2;
/** Back-off between looks while the store that answered at the start does not (it is then retried until the end). */
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 2000;

type Env = Readonly<Record<string, string | undefined>>;

export interface WaiterIo {
  readonly stdin: NodeJS.ReadableStream;
  readonly stderr: { write(text: string): unknown };
}

export interface WaiterOptions {
  /** Stops the wait (SIGTERM / SIGINT in the command); the waiter then exits 0. */
  readonly signal?: AbortSignal;
  readonly maxMs?: number;
  readonly leaseMs?: number;
  /** Whether the Claude Code process `pid` still runs (default: `process.kill(pid, 0)`). */
  readonly alive?: (pid: number) => boolean;
  /** Told each time the waiter starts waiting for the next change (tests prove the wait happened). */
  readonly onWait?: () => void;
  /** The store to wait on instead of the one the settings name (left open: its owner closes it). */
  readonly store?: AgentStore;
  /**
   * The back-off while the store is away: `first` doubling to `max` (default 100 ms to 2 s). Tests make it far
   * longer than they wait, to prove the waiter looks again when the store is back, not when a step ends.
   */
  readonly retryMs?: { readonly first: number; readonly max: number };
}

/** What the hook's stdin says (SessionStart, Stop): the session, its directory, the turn that just ended. */
interface HookInput {
  readonly sessionId: string;
  readonly cwd?: string;
  /** `Stop`: the ended turn's prompt id. */
  readonly promptId?: string;
}

function parseInput(text: string): HookInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HookIoError('stdin is not JSON, expected the SessionStart or Stop hook JSON');
  }
  const fields = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const sessionId = fields.session_id;
  if (typeof sessionId !== 'string' || !/^[A-Za-z0-9_-]{1,128}$/.test(sessionId)) {
    throw new HookIoError('the hook JSON has no session_id (letters, digits, - and _)');
  }
  const cwd = typeof fields.cwd === 'string' && fields.cwd.trim() !== '' ? fields.cwd : undefined;
  const promptId =
    fields.hook_event_name === 'Stop' && typeof fields.prompt_id === 'string' ? fields.prompt_id : undefined;
  return { sessionId, ...(cwd !== undefined ? { cwd } : {}), ...(promptId !== undefined ? { promptId } : {}) };
}

/** Run one waiter. Resolves with the exit code: 2 to wake the session, else 0. */
export async function runWaiter(io: WaiterIo, env: Env, cwd: string, options: WaiterOptions = {}): Promise<number> {
  try {
    const input = parseInput(await withTimeout(readStdin(io.stdin), 5000, 'stdin did not end'));
    const config = loadAgentConfig(env, input.cwd === undefined ? cwd : resolve(cwd, input.cwd));
    if (config.wake === 'off') return 0;
    const store = options.store ?? (await openStore(config.store, { pollIntervalMs: 100 }));
    try {
      const woke = await wait(store, config, input, env, options);
      if (woke === undefined) return 0;
      io.stderr.write(`${wakeLine(woke)}\n`);
      return WAKE_EXIT_CODE;
    } finally {
      if (options.store === undefined) await store.close().catch(() => undefined);
    }
  } catch (error) {
    io.stderr.write(
      `ask-later wait: ${explain(error)}; the session is not woken (answers come with the next prompt)\n`,
    );
    return 0;
  }
}

/** Wait for outcomes to wake the session for; undefined when the waiter should end without waking it. */
async function wait(
  store: AgentStore,
  config: AgentConfig,
  input: HookInput,
  env: Env,
  options: WaiterOptions,
): Promise<Question[] | undefined> {
  const { sessionId } = input;
  const leaseMs = options.leaseMs ?? WAITER_LEASE_MS;
  const lease = waiterLease(sessionId);
  const owner = `${process.pid}-${randomUUID()}`;
  // The turn that just ended gives the session back (a newer turn's lease has another owner and stays).
  if (input.promptId !== undefined) await store.releaseLease(lease, turnOwner(input.promptId));
  if (!(await store.acquireLease(lease, owner, leaseMs))) return undefined; // a turn or another waiter holds it
  const stateDir = sessionStateDir(env);
  const blockingOnly = config.wake === 'blocking';
  const claudePid = Number(env.CLAUDE_PID);
  const alive = options.alive ?? isAlive;
  const sessionGone = () => Number.isInteger(claudePid) && claudePid > 1 && !alive(claudePid);
  const deadline = Date.now() + (options.maxMs ?? WAITER_MAX_MS);
  const watch = await store.watch(config.project);
  const retryFirstMs = options.retryMs?.first ?? RETRY_FIRST_MS;
  const retryMaxMs = options.retryMs?.max ?? RETRY_MAX_MS;
  let backoff = retryFirstMs;
  try {
    for (;;) {
      if (options.signal?.aborted) return undefined;
      try {
        // Every look starts by renewing the lease: lost means a turn started (or the lease lapsed and was taken).
        if (!(await store.acquireLease(lease, owner, leaseMs))) return undefined;
        const renewed = Date.now();
        // What is pending first, then what waits: an answer landing between the two reads is then among the
        // outcomes (the other order would see it in neither, and end without waking the session for it).
        const pending = await store.list(config.project, {
          status: ['pending'],
          ...(blockingOnly ? { blocking: true } : {}),
        });
        const woken = loadWoken(stateDir, sessionId, config.project);
        const due = (await store.waitingOutcomes(config.project, { blockingOnly })).filter((q) => !woken.has(q.id));
        if (due.length > 0) {
          saveWoken(stateDir, sessionId, config.project, [...woken, ...due.map((q) => q.id)]);
          return due;
        }
        // Nothing pending that could wake it: end now (Claude Code waits for a running async hook before it exits).
        if (pending.length === 0) return undefined;
        if (sessionGone()) return undefined;
        const now = Date.now();
        if (now >= deadline) return undefined;
        const timeoutMs = Math.min(deadline - now, leaseMs / 2 - (now - renewed));
        options.onWait?.();
        await watch.changed({ timeoutMs, ...(options.signal ? { signal: options.signal } : {}) });
        backoff = retryFirstMs;
      } catch (error) {
        // The store went away after the waiter started (serve restarting, a replica killed, Redis failing over):
        // look again once it is back, rather than leave the session idle on an answer given meanwhile.
        if (!(error instanceof StoreUnavailableError) || options.signal?.aborted) throw error;
        if (sessionGone()) return undefined;
        const left = deadline - Date.now();
        if (left <= 0) throw error;
        // The back-off step, or less: the moment the store's connection is ready again.
        await waitToRetry(store, Math.min(backoff, left), options.signal);
        backoff = Math.min(backoff * 2, retryMaxMs);
      }
    }
  } finally {
    await watch.close().catch(() => undefined);
    await store.releaseLease(lease, owner).catch(() => undefined);
  }
}

/** The line the model reads after the plugin's `rewakeMessage`: which outcomes, where, and what to call. */
export function wakeLine(outcomes: readonly Question[]): string {
  const parts = outcomes.slice(0, 5).map((q) => {
    const kind = q.isBlocking ? ' (blocking)' : '';
    if (q.status === 'answered' && q.answer) return `#${q.id}${kind} was answered ${placeOf(q.answer.by)}`;
    if (q.status === 'dismissed') return `#${q.id}${kind} was dismissed without an answer`;
    return `#${q.id}${kind} expired unanswered`;
  });
  const more = outcomes.length > 5 ? ` (and ${outcomes.length - 5} more)` : '';
  return `${parts.join('; ')}${more}. Call the collect_answers tool to read ${outcomes.length === 1 ? 'it' : 'them'}.`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new HookIoError(what)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** The reason, never a secret or a text: the class of failure. */
function explain(error: unknown): string {
  if (
    error instanceof HookIoError ||
    error instanceof ConfigError ||
    error instanceof SqliteEngineMissingError ||
    error instanceof TokenRefusedError ||
    error instanceof ProjectRefusedError
  ) {
    return error.message;
  }
  if (error instanceof StoreUnavailableError) return 'the inbox (its store) is unreachable';
  if (!(error instanceof Error)) return `unexpected ${typeof error}`;
  const code = (error as { code?: unknown }).code;
  const detail = typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? ` (${code})` : '';
  return `unexpected ${error.constructor.name || error.name}${detail}`;
}
