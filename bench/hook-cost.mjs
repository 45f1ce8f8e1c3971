/**
 * What a hook costs when nothing is due (issue 37): Codex's prompt hook exactly as `ask-later setup codex` writes
 * it, with a live watcher and no marker, against `true`, interleaved; and `ask-later serve` from start to the
 * address printed with no platform configured. Figures only, never asserted.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { hookCommand } from '../dist/agents/codex/wiring.js';
import { dueDir, registerWatcher } from '../dist/agents/hooks/due-marker.js';

const cli = new URL('../dist/cli.js', import.meta.url).pathname;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function timeSh(command, cwd, env) {
  const started = performance.now();
  // `true` ends without reading stdin, which leaves the writer an EPIPE: not a failure here.
  const result = spawnSync('sh', ['-c', command], { cwd, env, input: '{"hook_event_name":"UserPromptSubmit"}' });
  if (result.status !== 0) throw new Error(`bench: the hook exited ${result.status}`);
  return performance.now() - started;
}

/** Codex's prompt hook, nothing due, a watcher alive (this process), vs `true`: medians of `runs`, interleaved. */
export function measureCodexHook(runs = 30) {
  const home = mkdtempSync(join(tmpdir(), 'ask-later-bench-home-'));
  const cwd = mkdtempSync(join(tmpdir(), 'ask-later-bench-cwd-'));
  const env = { PATH: process.env.PATH, HOME: home, PWD: cwd };
  const unregister = registerWatcher(dueDir(env, cwd));
  const command = hookCommand({ node: process.execPath, cli }, 'any');
  const hook = [];
  const baseline = [];
  try {
    for (let i = 0; i < runs; i++) {
      hook.push(timeSh(command, cwd, env));
      baseline.push(timeSh('true', cwd, env));
    }
  } finally {
    unregister();
    rmSync(home, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  }
  return { runs, hookMs: median(hook), trueMs: median(baseline), overMs: median(hook) - median(baseline) };
}

/** `ask-later serve` (embedded store, no platform) until it prints the address: median of `runs`. */
export async function measureServeStart(runs = 10) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const home = mkdtempSync(join(tmpdir(), 'ask-later-bench-home-'));
    const started = performance.now();
    const child = spawn(process.execPath, [cli, 'serve'], {
      env: { PATH: process.env.PATH, HOME: home, PORT: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await new Promise((resolve, reject) => {
      child.stderr.setEncoding('utf8').on('data', (chunk) => {
        if (chunk.includes('web inbox at')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`bench: serve exited ${code} before its address`)));
    });
    samples.push(performance.now() - started);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    rmSync(home, { recursive: true, force: true });
  }
  // The floor on this machine now: Node starting and ending with nothing to do.
  const node = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    node.push(performance.now() - started);
  }
  return { runs, medianMs: median(samples), nodeMs: median(node) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const hook = measureCodexHook(Number(process.env.BENCH_HOOK_RUNS ?? 30));
  console.log(
    `codex hook, nothing due (median of ${hook.runs}, interleaved): ${hook.hookMs.toFixed(1)} ms vs true ${hook.trueMs.toFixed(1)} ms (+${hook.overMs.toFixed(1)} ms; aim ≤ +10)`,
  );
  const serve = await measureServeStart(Number(process.env.BENCH_SERVE_RUNS ?? 10));
  console.log(
    `npm start → address, no platform (median of ${serve.runs}): ${serve.medianMs.toFixed(0)} ms (aim ≤ 1000)`,
  );
}
