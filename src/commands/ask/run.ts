/**
 * `ask-later ask` and `ask-later get`: the `ask_later` tool for scripts and jobs. The question is validated by core's
 * `parseAskInput` (the tool's own rules and refusals) and parked in the agent side's store: the embedded file, Redis,
 * or serve's agent API with a token (`ASK_LATER_URL` + `ASK_LATER_TOKEN`), in the project `--project` names (else
 * the one the working directory is in, as for an agent). An outcome reaches the script once: it is claimed for
 * this question only, printed, and then confirmed, like every delivery path (a run killed in between leaves the
 * claim to lapse, and a later `get` prints it).
 *
 * Never logs a question's or answer's text: it prints the answer to the script that asked, on stdout.
 */
import { readFileSync } from 'node:fs';
import { loadAgentStoreConfig } from '../../config/agent.js';
import { ConfigError } from '../../config/config-error.js';
import { projectFromEnvironment } from '../../config/project.js';
import { formatRefusal, parseAskInput } from '../../core/ask-input.js';
import { deliveryEntriesBudget } from '../../core/delivery-note.js';
import { WAIT_MAX_SECONDS } from '../../core/limits.js';
import { AgentApiError } from '../../store/http/agent-api-error.js';
import { ProjectRefusedError } from '../../store/http/project-refused-error.js';
import { TokenRefusedError } from '../../store/http/token-refused-error.js';
import { openStore } from '../../store/open.js';
import type { AgentStore } from '../../store/port.js';
import { SqliteEngineMissingError } from '../../store/sqlite/engine-missing-error.js';
import { StoreUnavailableError } from '../../store/store-unavailable-error.js';
import { ASK_USAGE, EXIT, parseAskArgs, parseGetArgs } from './args.js';
import { answerLines, closedWithout, jsonLine } from './outcome.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface AskIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

export interface AskOptions {
  /** Ends a `--wait` early (the process is stopped): the question stays parked, its id is printed. */
  readonly signal?: AbortSignal;
}

/** How long the claim of one outcome holds it while it is printed. */
const CLAIM_LEASE_MS = 10_000;

/** One line for what went wrong opening or using the store; never a URL or a secret. */
function failureText(error: unknown): string {
  if (error instanceof ConfigError || error instanceof SqliteEngineMissingError) return error.message;
  if (error instanceof StoreUnavailableError) return 'the inbox (its store) is unreachable';
  if (error instanceof TokenRefusedError) return `serve refused the token: ${error.message}`;
  if (error instanceof ProjectRefusedError) return `serve refused the project: ${error.message}`;
  if (error instanceof AgentApiError) return `serve refused: ${error.message}`;
  return `failed unexpectedly (${error instanceof Error ? error.name : typeof error})`;
}

/** The refusal of core's rules, on one line. */
function refusalLine(reasons: readonly string[]): string {
  const [head, ...lines] = formatRefusal(reasons).split('\n');
  return `${head?.replace(/ Fix these and call again:$/, '')} ${lines.map((line) => line.replace(/^- /, '')).join('; ')}`;
}

async function withStore(
  command: string,
  env: Env,
  cwd: string,
  project: string | undefined,
  io: AskIo,
  work: (store: AgentStore, project: string) => Promise<number>,
): Promise<number> {
  let store: AgentStore | undefined;
  try {
    const location = loadAgentStoreConfig(env).store;
    const named = project === undefined ? env : { ...env, ASK_LATER_PROJECT: project };
    const resolved = projectFromEnvironment(named, cwd);
    store = await openStore(location);
    return await work(store, resolved);
  } catch (error) {
    io.stderr.write(`ask-later ${command}: ${failureText(error)}\n`);
    return EXIT.failed;
  } finally {
    await store?.close().catch(() => undefined);
  }
}

/**
 * Waits up to `waitSeconds` for the question's outcome, then reports it: printed and collected (0), closed without
 * an answer (4), still waiting (3, the id printed), or collected before (5).
 */
async function collect(
  command: string,
  store: AgentStore,
  project: string,
  id: number,
  waitSeconds: number,
  json: boolean,
  io: AskIo,
  options: AskOptions,
): Promise<number> {
  let question = await store.get(project, id);
  if (question === undefined) {
    io.stderr.write(`ask-later ${command}: there is no question #${id} in this project\n`);
    return EXIT.failed;
  }
  if (question.status === 'pending' && waitSeconds > 0) {
    const timeoutMs = Math.min(waitSeconds, WAIT_MAX_SECONDS) * 1000;
    question =
      (await store.waitWhilePending(project, id, { timeoutMs, ...(options.signal && { signal: options.signal }) })) ??
      question;
  }
  if (question.status === 'pending') {
    io.stdout.write(json ? jsonLine(question) : `${id}\n`);
    return EXIT.pending;
  }
  if (question.status === 'cancelled') {
    io.stderr.write(`ask-later ${command}: ${closedWithout(question)}\n`);
    return EXIT.unanswered;
  }
  const claim = await store.claimUndelivered(project, {
    budget: deliveryEntriesBudget(),
    leaseMs: CLAIM_LEASE_MS,
    questionId: id,
    via: 'tool-result',
  });
  const claimed = claim.questions.find((each) => each.id === id);
  if (claimed === undefined) {
    if (claim.questions.length > 0) await store.releaseClaim(project, claim);
    io.stderr.write(`ask-later ${command}: #${id}'s outcome was already collected\n`);
    return EXIT.collected;
  }
  try {
    if (json) io.stdout.write(jsonLine(claimed));
    else if (claimed.status === 'answered') io.stdout.write(answerLines(claimed));
    if (claimed.status !== 'answered') io.stderr.write(`ask-later ${command}: ${closedWithout(claimed)}\n`);
  } catch (error) {
    await store.releaseClaim(project, claim);
    throw error;
  }
  await store.confirmClaim(project, claim, [id]);
  return claimed.status === 'answered' ? EXIT.answered : EXIT.unanswered;
}

/** `ask-later ask …`: park a question, print its id, or with `--wait` its answer when it comes in time. */
export async function runAsk(
  env: Env,
  cwd: string,
  args: readonly string[],
  io: AskIo,
  options: AskOptions = {},
): Promise<number> {
  const parsed = parseAskArgs(args);
  if (!parsed.ok) {
    io.stderr.write(`ask-later ask: ${parsed.error} (see ask-later ask --help)\n`);
    return EXIT.usage;
  }
  if (parsed.command.kind === 'help') {
    io.stdout.write(`${ASK_USAGE}\n`);
    return 0;
  }
  const command = parsed.command;
  let input = command.input;
  if (command.contextFile !== undefined) {
    try {
      input = { ...input, context: readFileSync(command.contextFile, 'utf8') };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      io.stderr.write(`ask-later ask: --context-file could not be read (${code})\n`);
      return EXIT.usage;
    }
  }
  const valid = parseAskInput(input);
  if (!valid.ok) {
    io.stderr.write(`ask-later ask: ${refusalLine(valid.reasons)}\n`);
    return EXIT.failed;
  }
  const { waitSeconds = 0, askAgain: _again, ...spec } = valid.value;
  return withStore('ask', env, cwd, command.project, io, async (store, project) => {
    const parked = await store.park(project, spec);
    if (waitSeconds === 0) {
      io.stdout.write(command.json ? jsonLine(parked) : `${parked.id}\n`);
      return EXIT.answered;
    }
    return collect('ask', store, project, parked.id, waitSeconds, command.json, io, options);
  });
}

/** `ask-later get <id> [--wait S]`: collect a question's outcome, once. */
export async function runGet(
  env: Env,
  cwd: string,
  args: readonly string[],
  io: AskIo,
  options: AskOptions = {},
): Promise<number> {
  const parsed = parseGetArgs(args);
  if (!parsed.ok) {
    io.stderr.write(`ask-later get: ${parsed.error} (see ask-later get --help)\n`);
    return EXIT.usage;
  }
  if (parsed.command.kind === 'help') {
    io.stdout.write(`${ASK_USAGE}\n`);
    return 0;
  }
  const command = parsed.command;
  if (command.waitSeconds !== undefined && command.waitSeconds > WAIT_MAX_SECONDS) {
    io.stderr.write(`ask-later get: --wait takes at most ${WAIT_MAX_SECONDS} seconds, got ${command.waitSeconds}\n`);
    return EXIT.usage;
  }
  return withStore('get', env, cwd, command.project, io, (store, project) =>
    collect('get', store, project, command.id, command.waitSeconds ?? 0, command.json, io, options),
  );
}
