/**
 * `ask-later status`: one line for Claude Code's `statusLine` setting, e.g. `ask-later: 2 waiting, 1 blocking ·
 * 1 answered`, for the session's project (line.ts says what it counts).
 *
 * Claude Code runs it on every refresh of its status bar, so it is as cheap as the hook: no zod, one socket (the
 * minimal RESP client: no reconnecting, no second connection), one store call (`countQuestions`). Whatever goes wrong (no store, a store that does not
 * answer, bad settings, unexpected stdin), it prints an empty line, at the latest at its deadline
 * ({@link DEADLINE_MS} from the process start, or `ASK_LATER_STATUS_DEADLINE_MS`), one `ask-later status:` line on
 * stderr saying why, and exits 0. It never prints question text or a setting's value.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type AgentStoreLocation, type Env, loadAgentStoreConfig, loadDeadline } from '../../config/agent.js';
import { ConfigError } from '../../config/config-error.js';
import { projectFromEnvironment } from '../../config/project.js';
import { AgentApiError } from '../../store/http/agent-api-error.js';
import { ProjectRefusedError } from '../../store/http/project-refused-error.js';
import { TokenRefusedError } from '../../store/http/token-refused-error.js';
import { openStore } from '../../store/open.js';
import { SqliteEngineMissingError } from '../../store/sqlite/engine-missing-error.js';
import { StoreUnavailableError } from '../../store/store-unavailable-error.js';
import { Deadline } from '../hooks/deadline.js';
import { DeadlineError } from '../hooks/deadline-error.js';
import { HookIoError } from '../hooks/hook-io-error.js';
import { readStdin } from '../hooks/input.js';
import { parseStatusInput } from './input.js';
import { renderStatusLine, statusFigures } from './line.js';
import { StatusInputError } from './status-input-error.js';

/**
 * The whole run ends by then, counted from the process start: Claude Code refreshes its status bar at most every
 * 300 ms, and a run that takes longer holds back the next one; a store that has not answered by then gets an empty line.
 * `ASK_LATER_STATUS_DEADLINE_MS` sets another (a serve far away over HTTP).
 */
export const DEADLINE_MS = 300;
/**
 * The least time the store gets when the process itself started late (a loaded machine, a caller in a long-lived
 * process): a reachable store answers in a few milliseconds, so a slow start alone should not blank the line.
 */
const MIN_RUN_MS = 100;
/**
 * SQLite blocks the process while it waits for another process's write lock (only while it migrates the file), so
 * the deadline's timer cannot fire meanwhile: that wait stops this long before the deadline.
 */
const SQLITE_MARGIN_MS = 30;
/** How long a run that missed its deadline may take to wind down before the process exits regardless. */
const EXIT_GRACE_MS = 50;

type Io = { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };

export interface StatusOptions {
  /**
   * The run's budget in ms from the call. Default: what is left of {@link DEADLINE_MS} since the process started, but
   * at least {@link MIN_RUN_MS}.
   */
  readonly deadlineMs?: number;
  /**
   * Whether the run is the whole process (default true): then a run that missed its deadline ends the process
   * shortly after, whatever the abandoned step still holds. A caller in a long-lived process passes false.
   */
  readonly ownsProcess?: boolean;
}

/** Print the status line once. Always resolves 0: a status command that fails must not disturb Claude Code. */
export async function runStatus(io: Io, env: Env, cwd: string, options: StatusOptions = {}): Promise<number> {
  // A closed stdout or stderr (EPIPE: Claude Code dropped a run it no longer needs) must not crash the process.
  io.stdout.on('error', ignore);
  io.stderr.on('error', ignore);
  let configured: number | undefined;
  let settingError: unknown;
  try {
    configured = loadDeadline(env, 'ASK_LATER_STATUS_DEADLINE_MS');
  } catch (error) {
    settingError = error;
  }
  const budget = options.deadlineMs ?? Math.max(MIN_RUN_MS, (configured ?? DEADLINE_MS) - performance.now());
  const endsAt = performance.now() + budget;
  const deadline = new Deadline(budget);
  const seen: Seen = {};
  let line = '';
  try {
    if (settingError !== undefined) throw settingError;
    line = await run(io, env, cwd, { deadline, endsAt }, seen);
  } catch (error) {
    io.stderr.write(`ask-later status: ${describe(error, seen)}\n`);
  } finally {
    deadline.clear();
    stopReading(io.stdin);
  }
  io.stdout.write(`${line}\n`);
  if (deadline.expired && options.ownsProcess !== false) exitSoonIfStuck();
  return 0;
}

interface Budget {
  readonly deadline: Deadline;
  /** `performance.now()` at the deadline. */
  readonly endsAt: number;
}

/** What the run learnt before it failed, for the stderr line. */
interface Seen {
  store?: AgentStoreLocation['kind'];
}

async function run(io: Io, env: Env, cwd: string, { deadline, endsAt }: Budget, seen: Seen): Promise<string> {
  // Run by hand in a terminal, nobody will ever end stdin: the working directory is the session's then.
  const tty = (io.stdin as { isTTY?: boolean }).isTTY === true;
  const input = tty ? {} : parseStatusInput(await deadline.race(readStdin(io.stdin), 'stdin did not end'));
  stopReading(io.stdin);

  const { store: location } = loadAgentStoreConfig(env);
  seen.store = location.kind;
  // The project as the agent side resolves it, with Claude Code's project directory in CLAUDE_PROJECT_DIR's place.
  const project = projectFromEnvironment(
    input.projectDir === undefined ? env : { ...env, CLAUDE_PROJECT_DIR: input.projectDir },
    input.currentDir === undefined ? cwd : resolve(cwd, input.currentDir),
  );
  // No file yet: nothing was ever parked on this machine. Opening would create it, on every refresh until then.
  if (location.kind === 'sqlite' && !existsSync(location.path)) {
    return renderStatusLine({ waiting: 0, blocking: 0, answered: 0 });
  }

  const left = () => Math.max(1, Math.floor(endsAt - performance.now()));
  const opening = openStore(location, {
    // The bare RESP client: one socket, no reconnecting, for a command that lives a moment.
    connection: 'minimal',
    connectTimeoutMs: left(),
    busyTimeoutMs: Math.max(1, left() - SQLITE_MARGIN_MS),
  });
  // If the deadline comes while connecting, close the store the moment the connection is made.
  deadline.onExpire(() => {
    opening.then((store) => store.close()).catch(() => undefined);
  });
  const store = await deadline.race(opening, 'the inbox did not answer');
  try {
    const counts = await deadline.race(store.countQuestions(project), 'the inbox did not answer');
    return renderStatusLine(statusFigures(counts));
  } finally {
    await store.close().catch(() => undefined);
  }
}

/** The stderr line after `ask-later status: `: what is wrong, never a secret, a path's content or a text. */
function describe(error: unknown, seen: Seen): string {
  if (error instanceof DeadlineError) {
    return `${error.message} (${Math.round(performance.now())} ms after the process started)`;
  }
  if (
    error instanceof StatusInputError ||
    error instanceof HookIoError ||
    error instanceof ConfigError ||
    error instanceof SqliteEngineMissingError ||
    error instanceof TokenRefusedError ||
    error instanceof ProjectRefusedError
  ) {
    return error.message;
  }
  if (error instanceof AgentApiError) return `serve refused the call (${error.code})`;
  if (error instanceof StoreUnavailableError) {
    const why = errorCode(error.cause);
    const store =
      seen.store === 'sqlite'
        ? 'the embedded store'
        : seen.store === 'http'
          ? 'serve at ASK_LATER_URL'
          : 'Redis at REDIS_URL';
    return `the inbox (${store}) is unreachable${why === undefined ? '' : ` (${why})`}`;
  }
  const why = errorCode(error);
  if (!(error instanceof Error)) return `unexpected ${typeof error}`;
  return `unexpected ${error.constructor.name || error.name}${why === undefined ? '' : ` (${why})`}`;
}

/**
 * A failure's code: a system error code (ECONNREFUSED, SQLITE_BUSY), the leading word of a Redis error reply
 * (WRONGPASS, NOPERM), or the class of a time-out; never the message, which may carry a path or a text.
 */
function errorCode(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code)) return code;
  if (error.name === 'RedisErrorReply') return /^([A-Z][A-Z_]{2,30})\b/.exec(error.message)?.[1];
  if (error.name === 'ConnectTimeout') return 'connection timed out';
  return undefined;
}

/** After the deadline, the abandoned step may still hold a socket: exit shortly if the process is still alive then. */
function exitSoonIfStuck(): void {
  setTimeout(() => process.exit(0), EXIT_GRACE_MS).unref();
}

/** Stop reading stdin so it does not keep the process alive. */
function stopReading(stdin: NodeJS.ReadableStream): void {
  stdin.pause();
  const destroy = (stdin as { destroy?: () => void }).destroy;
  if (typeof destroy === 'function') destroy.call(stdin);
}

function ignore(): void {}
