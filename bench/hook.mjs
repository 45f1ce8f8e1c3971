/**
 * Cost of the `UserPromptSubmit` hook, paid before every prompt: wall time of one hook process (spawn to exit, a
 * valid payload on stdin) with nothing to deliver and with 10 answers to deliver, each against `node -e 0` on the
 * same machine as a ratio of medians. Aims: ≤ 1.3× with nothing to deliver, ≤ 1.5× with 10 answers.
 *
 * The three kinds of run are interleaved (baseline, empty, deliver, baseline, …) so that drift in the machine's
 * load hits them alike. Before each delivering run, 10 questions are parked and answered through `store`
 * (untimed). The first rounds warm the disk cache and are not counted.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

export const HOOK_AIMS = { empty: 1.3, deliver: 1.5 };

const CLI = new URL('../dist/cli.js', import.meta.url).pathname;
const WARMUP = 3;
const ANSWERS = 10;

const SPEC = {
  context: 'Bench.',
  question: 'Which one?',
  impact: 'None.',
  isBlocking: false,
  options: [{ label: 'A' }, { label: 'B' }],
  multiSelect: false,
};
const SELECTION = { choices: ['A'], other: false, notes: 'Bench notes.' };
const PERSON = { platform: 'slack', userId: 'U1', displayName: 'Bench' };

function payload(project) {
  return JSON.stringify({
    session_id: 'bench',
    transcript_path: '/tmp/ask-later-bench/transcript.jsonl',
    cwd: project,
    prompt_id: randomUUID(),
    permission_mode: 'default',
    hook_event_name: 'UserPromptSubmit',
    prompt: 'Go on.',
    source: 'user',
  });
}

/** Spawn `command`, write `stdin`, resolve with the wall time and what it printed. */
function timed(command, env, stdin) {
  const [file, ...args] = command;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
    });
    child.stdin.on('error', () => undefined);
    child.once('error', reject);
    child.once('close', (code) => resolve({ ms: performance.now() - started, code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** The middle value (the mean of the middle two of an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function check(condition, message) {
  if (!condition) throw new Error(`bench hook: ${message}`);
}

/**
 * Measure the hook. `store` is an open store (used to set up answers) that the hook reaches through `storeEnv`
 * (Redis: `{REDIS_URL, ASK_LATER_REDIS_PREFIX}`; the embedded store: `{ASK_LATER_DB}`); `command` is the hook to
 * time (default: `node dist/cli.js hook`; e.g. `[process.execPath, 'plugin/dist/hook.cjs']`).
 * Resolves with medians in ms and the ratios to `node -e 0`.
 */
export async function measureHook({ store, storeEnv, command = [process.execPath, CLI, 'hook'], runs = 20 }) {
  const project = `/tmp/ask-later-bench/hook-${randomUUID()}`;
  const env = { PATH: process.env.PATH ?? '', ...storeEnv, ASK_LATER_PROJECT: project };
  const stdin = payload(project);
  const baselineCommand = [process.execPath, '-e', '0'];
  const samples = { baseline: [], empty: [], deliver: [] };

  for (let round = 0; round < WARMUP + runs; round++) {
    const baseline = await timed(baselineCommand, env, '');

    const empty = await timed(command, env, stdin);
    check(
      empty.code === 0 && empty.stdout === '' && empty.stderr === '',
      `a run with nothing to deliver printed ${JSON.stringify(empty.stdout || empty.stderr).slice(0, 200)}`,
    );

    for (let i = 0; i < ANSWERS; i++) {
      const parked = await store.park(project, SPEC);
      const answered = await store.answer(project, parked.id, SELECTION, PERSON);
      check(answered.kind === 'won', `answering #${parked.id} gave ${answered.kind}`);
    }
    const deliver = await timed(command, env, stdin);
    check(deliver.code === 0 && deliver.stderr === '', `a delivering run wrote to stderr: ${deliver.stderr.trim()}`);
    const note = JSON.parse(deliver.stdout).hookSpecificOutput.additionalContext;
    const carried = note.match(/^### #\d+ answered$/gm)?.length ?? 0;
    check(carried === ANSWERS, `a delivering run carried ${carried} answers, expected ${ANSWERS}`);

    if (round >= WARMUP) {
      samples.baseline.push(baseline.ms);
      samples.empty.push(empty.ms);
      samples.deliver.push(deliver.ms);
    }
  }

  const baselineMs = median(samples.baseline);
  const emptyMs = median(samples.empty);
  const deliverMs = median(samples.deliver);
  return {
    runs,
    command: command.map((part) => part.replace(process.execPath, 'node')).join(' '),
    baselineMs,
    emptyMs,
    deliverMs,
    emptyRatio: emptyMs / baselineMs,
    deliverRatio: deliverMs / baselineMs,
    aims: HOOK_AIMS,
    met: { empty: emptyMs / baselineMs <= HOOK_AIMS.empty, deliver: deliverMs / baselineMs <= HOOK_AIMS.deliver },
  };
}
