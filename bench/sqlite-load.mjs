/**
 * The embedded store under load: twelve agent processes (bench/sqlite-agent.mjs, each an MCP server's store) parking
 * in bursts on one SQLite file (each agent 10 groups of 4 parallel parks in about a second: twelve × 40 ≈ 480 parks a
 * burst), while a person answers through
 * the web inbox's path: the real `ask-later serve` (startServe from dist/, the bridge and the web inbox) on the same
 * file, `GET /inbox` for a pending question then `POST /api/send`, one after another. Then each agent collects its
 * outcomes (claim + confirm). Prints park p50 / p99 / max (aim p99 ≤ 100 ms), the answers' latency, and checks that
 * nothing was refused and every answer was delivered once.
 *
 *   node bench/sqlite-load.mjs     (npm run bench runs it too; BENCH_ONLY=sqlite for this alone)
 *   BENCH_QUICK=1                  two bursts instead of five
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { startServe } from '../dist/serve/run.js';

const QUICK = process.env.BENCH_QUICK === '1';
export const SQLITE_AIM_P99_MS = 100;
const AGENTS = 12;
/** Each agent's burst: groups of parks made at once (a model's parallel tool calls), and the mean pause between. */
const GROUPS = 10;
const GROUP_SIZE = 4;
const GAP_MS = 100;
const PER_BURST = GROUPS * GROUP_SIZE;

const quiet = { info() {}, warn() {}, error() {}, debug() {}, child: () => quiet };

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/** An agent process, and a way to send it a command and wait for its answer line. */
function startAgent(path, project) {
  const child = spawn(process.execPath, [new URL('./sqlite-agent.mjs', import.meta.url).pathname, path, project], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    async ask(command) {
      child.stdin.write(`${command}\n`);
      const { value, done } = await lines.next();
      if (done) throw new Error(`bench: agent ${project} exited`);
      return JSON.parse(value);
    },
    async stop() {
      child.stdin.end('exit\n');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** The person: the web inbox's path, one answer after another until `until()` says stop. */
async function answerUntil(base, until) {
  const latencies = [];
  const pages = [];
  let refused = 0;
  while (!until()) {
    const asked = performance.now();
    const fragment = await (await fetch(`${base}/inbox`)).text();
    pages.push(performance.now() - asked);
    const ref = /class="card[^"]*is-pending[^"]*"[^>]*data-ref="([^"]+)"/.exec(fragment)?.[1];
    if (ref === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      continue;
    }
    const started = performance.now();
    const response = await fetch(`${base}/api/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ ref, pick: { choices: [0], other: false } }),
    });
    const body = await response.json();
    latencies.push(performance.now() - started);
    if (!body.ok) refused++;
  }
  return { latencies, pages, refused };
}

export async function measureSqliteLoad(options = {}) {
  const bursts = options.bursts ?? (QUICK ? 2 : 5);
  const dir = mkdtempSync(join(tmpdir(), 'al-bench-sqlite-load-'));
  const path = join(dir, 'inbox.db');
  const serve = await startServe(
    { store: { kind: 'sqlite', path }, port: 0, host: '127.0.0.1' },
    {
      logger: quiet,
      sweepMs: 0,
      bridge: { blockMs: 100, retryBaseMs: 10 },
      web: { displayName: 'bench', timeZone: 'UTC' },
    },
  );
  const agents = Array.from({ length: AGENTS }, (_, i) => startAgent(path, `/srv/repos/agent-${i}`));
  const base = `http://127.0.0.1:${serve.port}`;
  try {
    const parks = [];
    let refusedParks = 0;
    const answers = { latencies: [], pages: [], refused: 0 };
    for (let b = 0; b < bursts; b++) {
      let parking = true;
      const person = answerUntil(base, () => !parking);
      const results = await Promise.all(agents.map((agent) => agent.ask(`burst ${GROUPS} ${GROUP_SIZE} ${GAP_MS}`)));
      parking = false;
      const answered = await person;
      for (const result of results) {
        parks.push(...result.latencies);
        refusedParks += result.refused;
      }
      answers.latencies.push(...answered.latencies);
      answers.pages.push(...answered.pages);
      answers.refused += answered.refused;
      await new Promise((resolve) => setTimeout(resolve, 300)); // a pause between bursts
    }
    const delivered = (await Promise.all(agents.map((agent) => agent.ask('collect')))).map((r) => r.delivered);
    const deliveredCount = delivered.reduce((n, ids) => n + ids.length, 0);
    const once = delivered.every((ids) => new Set(ids).size === ids.length);
    const sorted = [...parks].sort((a, b) => a - b);
    const answerSorted = [...answers.latencies].sort((a, b) => a - b);
    const pageSorted = [...answers.pages].sort((a, b) => a - b);
    return {
      agents: AGENTS,
      bursts,
      parks: parks.length,
      refusedParks,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? Number.NaN,
      answers: answers.latencies.length,
      refusedAnswers: answers.refused,
      answerP50: percentile(answerSorted, 50),
      answerP99: percentile(answerSorted, 99),
      pageP50: percentile(pageSorted, 50),
      pageP99: percentile(pageSorted, 99),
      delivered: deliveredCount,
      deliveredOnce: once && deliveredCount === answers.latencies.length - answers.refused,
    };
  } finally {
    await Promise.all(agents.map((agent) => agent.stop().catch(() => undefined)));
    await serve.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function sqliteLoadLines(r) {
  const ms = (v) => `${v.toFixed(1)} ms`;
  return [
    `the embedded store under load: ${r.agents} agent processes parking in bursts on one SQLite file (${r.bursts} bursts of ${r.agents} × ${PER_BURST} parks, each about a second) while a person answers in the web inbox (serve on the same file):`,
    `  park: ${r.parks} parks, ${r.refusedParks} refused; p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, max ${ms(r.max)}   aim p99 ≤ ${SQLITE_AIM_P99_MS} ms: ${r.p99 <= SQLITE_AIM_P99_MS ? 'met' : 'NOT met'}`,
    `  the person in the web inbox: GET /inbox p50 ${ms(r.pageP50)}, p99 ${ms(r.pageP99)}; POST /api/send ${r.answers} answers, ${r.refusedAnswers} refused, p50 ${ms(r.answerP50)}, p99 ${ms(r.answerP99)}`,
    `  delivered to the agents afterwards (claim + confirm): ${r.delivered}, each once: ${r.deliveredOnce ? 'yes' : 'NO'}`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of sqliteLoadLines(await measureSqliteLoad())) console.log(line);
}
