/**
 * Cost of `ask-later status`, which Claude Code runs on every refresh of its status bar: wall time of one process
 * (spawn to exit, the status line JSON on stdin) against `node -e 0` on the same machine, as a ratio of medians.
 * Aim: ≤ 1.3×.
 *
 * The project is a directory with a `.git` (the status resolves it from the stdin's `workspace.project_dir`, as in
 * Claude Code) holding 2 pending questions (1 blocking) and 1 answer waiting, set up once through `store`. Runs are
 * interleaved with the baseline (baseline, status, baseline, …) so that drift in the machine's load hits both alike;
 * the first rounds warm the disk cache and are not counted. A run that printed an empty line (it missed its 300 ms
 * deadline) still counts with its time, and the count of such runs is reported.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

export const STATUS_AIM = 1.3;

const CLI = new URL('../dist/cli.js', import.meta.url).pathname;
const WARMUP = 3;
const EXPECTED = 'ask-later: 2 waiting, 1 blocking · 1 answered → ask-later inbox\n';

const spec = (isBlocking) => ({
  context: 'Bench.',
  question: 'Which one?',
  impact: 'None.',
  isBlocking,
  options: [{ label: 'A' }, { label: 'B' }],
  multiSelect: false,
});
const PERSON = { platform: 'slack', userId: 'U1', displayName: 'Bench' };

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

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function check(condition, message) {
  if (!condition) throw new Error(`bench status: ${message}`);
}

/** Claude Code's status line JSON for a session in `dir`. */
function payload(dir) {
  return JSON.stringify({
    hook_event_name: 'Status',
    session_id: 'bench',
    transcript_path: join(dir, 'transcript.jsonl'),
    cwd: dir,
    model: { id: 'claude-opus-4-1', display_name: 'Opus' },
    workspace: { current_dir: dir, project_dir: dir },
    version: '2.1.332',
    output_style: { name: 'default' },
    cost: { total_cost_usd: 0.01, total_duration_ms: 1000, total_lines_added: 0, total_lines_removed: 0 },
  });
}

/**
 * Measure the status command. `store` is an open store (used to set up the questions) that the command reaches
 * through `storeEnv` (Redis: `{REDIS_URL, ASK_LATER_REDIS_PREFIX}`; the embedded store: `{ASK_LATER_DB}`); `command`
 * is what to time (default `node dist/cli.js status`; e.g. `[process.execPath, 'plugin/dist/status.cjs']`).
 * Resolves with medians in ms, the ratio to `node -e 0`, and how many runs printed an empty line.
 */
export async function measureStatus({ store, storeEnv, command = [process.execPath, CLI, 'status'], runs = 20 }) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'al-bench-status-')));
  try {
    mkdirSync(join(dir, '.git'));
    await store.park(dir, spec(true));
    await store.park(dir, spec(false));
    const answered = await store.park(dir, spec(false));
    const result = await store.answer(dir, answered.id, { choices: ['A'], other: false }, PERSON);
    check(result.kind === 'won', `answering #${answered.id} gave ${result.kind}`);

    const env = { PATH: process.env.PATH ?? '', HOME: dir, ...storeEnv };
    const stdin = payload(dir);
    const baselineCommand = [process.execPath, '-e', '0'];
    const samples = { baseline: [], status: [] };
    let blank = 0;
    for (let round = 0; round < WARMUP + runs; round++) {
      const baseline = await timed(baselineCommand, env, '');
      const status = await timed(command, env, stdin);
      const missed = status.stdout === '\n' && /^ask-later status: [^\n]+ within [\d.]+ s\b/.test(status.stderr);
      check(
        status.code === 0 && (missed || (status.stdout === EXPECTED && status.stderr === '')),
        `a run printed ${JSON.stringify(status.stdout).slice(0, 120)} (stderr ${JSON.stringify(status.stderr).slice(0, 200)}), expected ${JSON.stringify(EXPECTED)}`,
      );
      if (round >= WARMUP) {
        samples.baseline.push(baseline.ms);
        samples.status.push(status.ms);
        if (missed) blank += 1;
      }
    }
    const baselineMs = median(samples.baseline);
    const statusMs = median(samples.status);
    return {
      runs,
      command: command.map((part) => part.replace(process.execPath, 'node')).join(' '),
      baselineMs,
      statusMs,
      ratio: statusMs / baselineMs,
      blank,
      aim: STATUS_AIM,
      met: statusMs / baselineMs <= STATUS_AIM,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
