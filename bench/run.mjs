/**
 * `npm run bench`: throughput of the Redis store's hot paths (park, answer, claim + confirm) against a private
 * redis-server, each beside `redis-benchmark -t set` on the same server as a ratio of medians over three rounds. Aim:
 * every ratio ≥ 0.25.
 * Then 10,000 pending questions over 200 projects and two serve replicas (bench/scale.mjs): `/questions`, the Home
 * tab and the web inbox page ≤ 200 ms, the page ≤ 1 MB, Redis memory ≤ 2 KB a question.
 *
 *   BENCH_QUICK=1       small counts (smoke test; the whole run takes a few seconds)
 *   BENCH_REDIS_URL     use this server instead of starting one (never the one on port 6379); keys under a fresh
 *                       random prefix are removed at the end
 *   BENCH_ONLY=cluster  only the Redis Cluster part (a private three-master cluster: store throughput, the hook's and
 *                       the status line's cost on it)
 *   BENCH_ONLY=claude   only the part inside the real Claude Code (prompt cost with and without the plugin, wake)
 *   BENCH_ONLY=store    only the store's throughput on one server (the three ratios)
 *   BENCH_ONLY=decided  only the "already decided" check at park time in a project of 10,000 decisions
 *
 * Each phase keeps a fixed number of operations in flight on one store connection, like redis-benchmark's 50
 * clients. Exit code 0 when the run completed, whether or not an aim was met; non-zero on errors.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openRedisStore } from '../dist/store/redis/redis-store.js';
import { openSqliteStore } from '../dist/store/sqlite/sqlite-store.js';
import { CLAUDE_AIMS, measureClaude } from './claude.mjs';
import { startBenchCluster } from './cluster.mjs';
import { measureDecided } from './decided.mjs';
import { measureHook, median } from './hook.mjs';
import { measureCodexHook, measureServeStart } from './hook-cost.mjs';
import { measurePromptHook } from './prompt-hook.mjs';
import { startBenchRedis } from './redis.mjs';
import { measureScale, scaleLines } from './scale.mjs';
import { measureSlackPost } from './slack.mjs';
import { measureStatus } from './status.mjs';
import { measureWake } from './wake.mjs';

const QUICK = process.env.BENCH_QUICK === '1';
const AIM = 0.25;
const CONCURRENCY = 50;
/** Rounds of the one-server store phases, each side's median taken (see main). */
const ROUNDS = QUICK ? 1 : 3;
const PROJECTS = 100;
const COUNTS = QUICK
  ? { baselineRequests: 20_000, parks: 2_000, answers: 2_000, claims: 1_000, warmup: 200, wakes: 20 }
  : { baselineRequests: 100_000, parks: 20_000, answers: 10_000, claims: 20_000, warmup: 2_000, wakes: 200 };
const CLAIM_OPTIONS = { budget: 8000, leaseMs: 30_000 };

/** The sample question of test/support/store.ts. */
const SPEC = {
  context: 'We are migrating the **billing** service.',
  question: 'Which database should billing use?',
  impact: 'Decides the migration scripts.',
  isBlocking: false,
  options: [{ label: 'Postgres', description: 'What the team knows' }, { label: 'SQLite' }],
  recommended: ['Postgres'],
  multiSelect: false,
};
const SELECTION = { choices: ['Postgres'], other: false };
const PERSON = { platform: 'slack', userId: 'U1', displayName: 'Person U1' };

/** Run `work(0..count-1)` with `concurrency` calls in flight; resolves with the elapsed milliseconds. */
async function concurrently(count, concurrency, work) {
  let next = 0;
  const worker = async () => {
    while (next < count) await work(next++);
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return performance.now() - started;
}

function check(condition, message) {
  if (!condition) throw new Error(`bench: ${message}`);
}

/** The server to measure: `BENCH_REDIS_URL`, or a private one started here. */
async function server() {
  const given = process.env.BENCH_REDIS_URL;
  if (!given) return { ...(await startBenchRedis()), external: false };
  const url = new URL(given);
  const port = Number(url.port || 6379);
  if (port === 6379) {
    throw new Error(
      'BENCH_REDIS_URL points at port 6379; the benchmark never touches that server. Unset it to use a private one.',
    );
  }
  return {
    url: given,
    host: url.hostname,
    port,
    username: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    tls: url.protocol === 'rediss:',
    appendfsync: undefined,
    external: true,
    stop: async () => undefined,
  };
}

/** `redis-benchmark -t set` requests per second on the same server. */
function redisBenchmarkSet(target, requests) {
  const args = ['-h', target.host, '-p', String(target.port), '-t', 'set', '-n', String(requests), '-q'];
  if (target.username) args.push('--user', target.username);
  if (target.password) args.push('-a', target.password);
  if (target.tls) args.push('--tls');
  return new Promise((resolve, reject) => {
    const child = spawn('redis-benchmark', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    child.once('error', (error) => reject(new Error(`redis-benchmark could not be started: ${error.message}`)));
    child.once('close', (code) => {
      const matches = [...out.matchAll(/SET: ([\d.]+) requests per second/g)];
      const rps = Number(matches.at(-1)?.[1]);
      if (code !== 0 || !Number.isFinite(rps) || rps <= 0) {
        reject(new Error(`redis-benchmark failed (exit ${code}): ${out.replace(/\r/g, '\n').trim().slice(-500)}`));
      } else {
        resolve(rps);
      }
    });
  });
}

function project(prefix, i) {
  return `/tmp/ask-later-bench/${prefix}-${i}`;
}

/** Park `count` questions across `projects` projects; resolves with their [project, id] pairs. */
async function parkMany(store, name, count, projects) {
  const parked = new Array(count);
  await concurrently(count, CONCURRENCY, async (i) => {
    const p = project(name, i % projects);
    const q = await store.park(p, SPEC);
    parked[i] = [p, q.id];
  });
  return parked;
}

/** Answer each parked question once; resolves with the elapsed milliseconds. */
function answerMany(store, parked) {
  return concurrently(parked.length, CONCURRENCY, async (i) => {
    const [p, id] = parked[i];
    const result = await store.answer(p, id, SELECTION, PERSON);
    check(result.kind === 'won', `answer ${p}#${id} gave ${result.kind}, expected won`);
  });
}

/** One claim per project (each has exactly one answer waiting); resolves with the claims and the elapsed ms. */
async function claimEach(store, projects) {
  const claims = new Array(projects.length);
  const ms = await concurrently(projects.length, CONCURRENCY, async (i) => {
    claims[i] = await store.claimUndelivered(projects[i], CLAIM_OPTIONS);
    check(
      claims[i].questions.length === 1,
      `claim in ${projects[i]} carried ${claims[i].questions.length}, expected 1`,
    );
  });
  return { claims, ms };
}

/** Confirm each claim; resolves with the elapsed milliseconds. */
function confirmEach(store, projects, claims) {
  return concurrently(projects.length, CONCURRENCY, async (i) => {
    const confirmed = await store.confirmClaim(projects[i], claims[i]);
    check(confirmed.length === 1, `confirm in ${projects[i]} confirmed ${confirmed.length}, expected 1`);
  });
}

/** Prepare `count` projects with one answered question each (the realistic outbox: a few outcomes waiting). */
async function answeredOnePerProject(store, name, count) {
  const parked = await parkMany(store, name, count, count);
  await answerMany(store, parked);
  return parked.map(([p]) => p);
}

/** One run of the store phases; `space` starts its projects' names (each round of a run has projects of its own). */
async function measure(store, openBridge, space = '') {
  const w = COUNTS.warmup;
  // Warm up: JIT, script cache (first EVALSHA falls back to EVAL), connection.
  await answerMany(store, await parkMany(store, `${space}warm`, w, PROJECTS));
  const warm = await answeredOnePerProject(store, `${space}warm-claim`, Math.max(50, w / 4));
  await confirmEach(store, warm, (await claimEach(store, warm)).claims);

  const results = [];

  const parkMs = await concurrently(COUNTS.parks, CONCURRENCY, async (i) => {
    await store.park(project(`${space}park`, i % PROJECTS), SPEC);
  });
  results.push({
    name: 'park',
    what: `${COUNTS.parks} parks over ${PROJECTS} projects`,
    ops: (COUNTS.parks / parkMs) * 1000,
  });

  // Answers come from the bridge, which read each question when it posted it: a store of its own that has read
  // them (untimed), as in production, where the MCP server parks and the bridge answers.
  const bridge = await openBridge();
  try {
    const pending = await parkMany(store, `${space}answer`, COUNTS.answers, PROJECTS);
    await concurrently(pending.length, CONCURRENCY, (i) => bridge.get(...pending[i]));
    const answerMs = await answerMany(bridge, pending);
    results.push({
      name: 'answer',
      what: `${COUNTS.answers} pending over ${PROJECTS} projects, each answered once by a store that had read it (the bridge posted it)`,
      ops: (COUNTS.answers / answerMs) * 1000,
    });
    const cold = await parkMany(store, `${space}answer-cold`, COUNTS.answers, PROJECTS);
    const fresh = await openBridge();
    try {
      const coldMs = await answerMany(fresh, cold);
      results.push({
        name: 'answer, cold',
        what: `the same by a store that never read them (one extra read each); shown for information, no aim`,
        ops: (COUNTS.answers / coldMs) * 1000,
        informational: true,
      });
    } finally {
      await fresh.close();
    }
  } finally {
    await bridge.close();
  }

  const waiting = await answeredOnePerProject(store, `${space}claim`, COUNTS.claims);
  const { claims, ms: claimMs } = await claimEach(store, waiting);
  const confirmMs = await confirmEach(store, waiting, claims);
  results.push({
    name: 'claim',
    what: `${COUNTS.claims} projects with 1 answer waiting, each claimed (budget ${CLAIM_OPTIONS.budget}); for information, no aim`,
    ops: (COUNTS.claims / claimMs) * 1000,
    informational: true,
  });
  results.push({
    name: 'confirm',
    what: 'each of those claims confirmed (its answer marked delivered); for information, no aim',
    ops: (COUNTS.claims / confirmMs) * 1000,
    informational: true,
  });
  results.push({
    name: 'claim+confirm',
    what: 'one whole delivery (what a hook does per prompt), from the two timings above',
    ops: (COUNTS.claims / (claimMs + confirmMs)) * 1000,
  });
  return results;
}

async function removeKeys(url, prefix) {
  const { createClient } = await import('redis');
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    let cursor = '0';
    do {
      const [nextCursor, keys] = await client.sendCommand(['SCAN', cursor, 'MATCH', `${prefix}:*`, 'COUNT', '1000']);
      cursor = String(nextCursor);
      if (keys.length > 0) await client.sendCommand(['UNLINK', ...keys]);
    } while (cursor !== '0');
  } finally {
    client.destroy();
  }
}

async function serverVersion(url) {
  const { createClient } = await import('redis');
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const info = String(await client.sendCommand(['INFO', 'server']));
    return /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
  } finally {
    client.destroy();
  }
}

/** A ratio as printed: two decimals, rounded down (0.249 is not 0.25). */
function ratioText(ratio) {
  return (Math.floor(ratio * 100) / 100).toFixed(2);
}

function fmt(n) {
  return Math.round(n).toLocaleString('en-US');
}

function table(rows) {
  const header = ['operation', 'ops/s', 'redis-benchmark SET ops/s', 'ratio', `aim ≥ ${AIM}`];
  const all = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...all.map((r) => r[c].length)));
  const line = (r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const HOOK_COMMANDS = [undefined, [process.execPath, new URL('../plugin/dist/hook.cjs', import.meta.url).pathname]];

const ms = (n) => `${n.toFixed(1)} ms`;

const STATUS_COMMANDS = [undefined, [process.execPath, new URL('../plugin/dist/status.cjs', import.meta.url).pathname]];

/** `ask-later status` (Claude Code's statusLine, run on every refresh) against node -e 0 (bench/status.mjs). */
async function printStatus(store, storeEnv, command) {
  const status = await measureStatus({ store, storeEnv, runs: QUICK ? 5 : 20, ...(command ? { command } : {}) });
  const blank = status.blank === 0 ? '' : `; ${status.blank} of ${status.runs} runs printed an empty line (deadline)`;
  console.log(
    `  ${status.command} (${status.runs} runs each): node -e 0 ${ms(status.baselineMs)}, status ${ms(status.statusMs)} = ` +
      `${status.ratio.toFixed(2)}× (aim ≤ ${status.aim}×: ${status.met ? 'met' : 'NOT met'})${blank}`,
  );
}

async function printHook(store, storeEnv, command) {
  const hook = await measureHook({ store, storeEnv, runs: QUICK ? 5 : 20, ...(command ? { command } : {}) });
  const verdict = (ok) => (ok ? 'met' : 'NOT met');
  console.log(`  ${hook.command} (${hook.runs} runs each): node -e 0 ${ms(hook.baselineMs)}`);
  console.log(
    `    nothing to deliver ${ms(hook.emptyMs)} = ${hook.emptyRatio.toFixed(2)}× (aim ≤ ${hook.aims.empty}×: ${verdict(hook.met.empty)}); ` +
      `10 answers ${ms(hook.deliverMs)} = ${hook.deliverRatio.toFixed(2)}× (aim ≤ ${hook.aims.deliver}×: ${verdict(hook.met.deliver)})`,
  );
}

/**
 * The embedded store (one SQLite file, as on a machine without Redis): the same operations in ops/s, and the hook's
 * cost against it. No aims of their own: printed for comparison with the Redis figures above.
 */
async function benchEmbeddedStore() {
  const dir = mkdtempSync(join(tmpdir(), 'al-bench-sqlite-'));
  const path = join(dir, 'inbox.db');
  const store = await openSqliteStore({ path });
  try {
    console.log(`the embedded store (SQLite, WAL, a file in ${tmpdir()}); for information, no aims:`);
    const results = await measure(store, () => openSqliteStore({ path }));
    const width = Math.max(...results.map((r) => r.name.length));
    for (const r of results) console.log(`  ${r.name.padEnd(width)}  ${fmt(r.ops).padStart(8)} ops/s`);
    const wake = await measureWake({ storeEnv: { ASK_LATER_DB: path }, store, runs: COUNTS.wakes });
    console.log(
      `wake latency of a waiting ask_later on it (another process answers; the waiter polls the file every 25 ms): ` +
        `p50 ${ms(wake.p50)}, p99 ${ms(wake.p99)}, max ${ms(wake.max)}`,
    );
    console.log('cost of the hook on the embedded store:');
    for (const command of HOOK_COMMANDS) await printHook(store, { ASK_LATER_DB: path }, command);
    const { defaultEngine } = await import('../dist/store/sqlite/driver.js');
    console.log(
      `cost of \`ask-later status\` on the embedded store (SQLite engine: ${defaultEngine().engine}, loaded by every run):`,
    );
    for (const command of STATUS_COMMANDS) await printStatus(store, { ASK_LATER_DB: path }, command);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The same store phases, and the hook's and the status line's cost, on a private three-master Redis Cluster (every
 * command routed to its slot's master; the hook and the status line detect the cluster and route too). No aims of
 * their own: printed beside the one-server figures, whose aims they are read against.
 */
async function benchCluster() {
  const cluster = await startBenchCluster();
  const prefix = `al-bench-${randomUUID().slice(0, 8)}`;
  const open = () => openRedisStore({ url: cluster.url, prefix });
  const store = await open();
  try {
    console.log(
      `on a Redis Cluster (${cluster.masters} masters on this machine, AOF on, never rewritten; REDIS_URL names one of them); ` +
        'for comparison with the one-server figures, no aims of its own:',
    );
    const results = await measure(store, open);
    const width = Math.max(...results.map((r) => r.name.length));
    for (const r of results) console.log(`  ${r.name.padEnd(width)}  ${fmt(r.ops).padStart(8)} ops/s`);
    const storeEnv = { REDIS_URL: cluster.url, ASK_LATER_REDIS_PREFIX: prefix };
    console.log('cost of the hook on the cluster:');
    for (const command of HOOK_COMMANDS) await printHook(store, storeEnv, command);
    console.log('cost of `ask-later status` on the cluster:');
    for (const command of STATUS_COMMANDS) await printStatus(store, storeEnv, command);
  } finally {
    await store.close();
    await cluster.stop();
  }
}

/** Prompt and wake latency inside the real Claude Code (bench/claude.mjs), in a namespace of its own. */
async function benchClaude(url, prefix) {
  const store = await openRedisStore({ url, prefix });
  const { createClient } = await import('redis');
  const raw = createClient({ url });
  await raw.connect();
  try {
    // A waiter (not a turn) holds the session's lease: see src/core/turns.ts.
    const waiterWaiting = async (sessionId) => {
      if (sessionId === undefined) return false;
      const owner = await raw.sendCommand(['GET', `${prefix}:lease:waiter:${sessionId}`]);
      return typeof owner === 'string' && !owner.startsWith('turn');
    };
    const rounds = QUICK ? 6 : 40;
    const result = await measureClaude({ redisUrl: url, prefix, store, rounds, wakes: QUICK ? 3 : 12, waiterWaiting });
    if (result.skipped) {
      console.log(`inside Claude Code: skipped, ${result.skipped}`);
      return;
    }
    const p = result.promptMs;
    const ratio = (value) => (value / p.none).toFixed(2);
    const own = await measurePromptHook(store, QUICK ? 200 : 1000);
    console.log(`inside Claude Code 2.1.332 (headless stream-json sessions, fake model; medians of ${rounds}):`);
    console.log(
      `  prompt written → model request: none ${ms(p.none)}; plugin (mcp_tool hook) ${ms(p.plugin)} = ${ratio(p.plugin)}×; ` +
        `any mcp_tool hook (a tool answering {} at once) ${ms(p.floor)} = ${ratio(p.floor)}×; ` +
        `command hook ${ms(p['command hook'])} = ${ratio(p['command hook'])}×`,
    );
    console.log(
      `  aim plugin ≤ ${CLAUDE_AIMS.promptRatio}×: ${p.plugin / p.none <= CLAUDE_AIMS.promptRatio ? 'met' : 'NOT met'}`,
    );
    console.log(
      `  of which ask-later's own part (collect_answers for a typed prompt, nothing due, Redis, in process): p50 ${ms(own.p50)}, p99 ${ms(own.p99)}`,
    );
    console.log(
      `  blocking answer stored → woken model request (${result.wakes} wakes): p50 ${ms(result.wakeP50Ms)}, p90 ${ms(result.wakeP90Ms)}; ` +
        `aim p50 ≤ ${CLAUDE_AIMS.wakeP50Ms} ms: ${result.wakeP50Ms <= CLAUDE_AIMS.wakeP50Ms ? 'met' : 'NOT met'}`,
    );
  } finally {
    await raw.close();
    await store.close();
  }
}

/** The "already decided" check at park time (bench/decided.mjs): p50 and p99, aim p99 ≤ 5 ms on both stores. */
async function benchDecided(url) {
  const decisions = QUICK ? 2_000 : 10_000;
  const result = await measureDecided({
    openRedis: () => openRedisStore({ url, prefix: `al-bench-${randomUUID().slice(0, 8)}` }),
    openSqlite: (path) => openSqliteStore({ path }),
    decisions,
    runs: QUICK ? 200 : 1000,
  });
  const load = `load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`;
  console.log(`"already decided" check at park time, ${decisions} decisions in the project (${load}):`);
  for (const [name, figures] of Object.entries(result)) {
    console.log(
      `  ${name}: p50 ${ms(figures.p50)}, p99 ${ms(figures.p99)} (this process's CPU p99 ${ms(figures.cpuP99)}); aim p99 ≤ 5 ms: ${figures.p99 <= 5 ? 'met' : 'NOT met'}`,
    );
  }
}

async function main() {
  if (process.env.BENCH_ONLY === 'cluster') {
    await benchCluster();
    return;
  }
  const target = await server();
  if (process.env.BENCH_ONLY === 'decided') {
    try {
      await benchDecided(target.url);
    } finally {
      await target.stop?.();
    }
    return;
  }
  if (process.env.BENCH_ONLY === 'claude') {
    try {
      await benchClaude(target.url, `al-bench-${randomUUID().slice(0, 8)}`);
    } finally {
      await target.stop?.();
    }
    return;
  }
  const prefix = `al-bench-${randomUUID().slice(0, 8)}`;
  let store;
  try {
    const cores = cpus();
    const version = await serverVersion(target.url);
    console.log(`ask-later store benchmark${QUICK ? ' (BENCH_QUICK: small counts, rough numbers)' : ''}`);
    console.log(`node ${process.version}; redis-server ${version}`);
    console.log(
      `numbers are from this machine: ${cores.length} cores (${cores[0]?.model.trim() ?? 'unknown CPU'}); ` +
        'node, redis-server and redis-benchmark share them',
    );
    console.log(
      target.external
        ? `server: BENCH_REDIS_URL (${target.host}:${target.port}), persistence as configured there`
        : `server: private redis-server on 127.0.0.1:${target.port}, AOF on (appendfsync ${target.appendfsync}, never rewritten), no RDB`,
    );
    console.log(
      `load: ${CONCURRENCY} operations in flight on one store connection; redis-benchmark: ${CONCURRENCY} clients, ` +
        `${COUNTS.baselineRequests} SETs`,
    );
    console.log('');

    // Both sides sampled alike on a machine whose speed moves from minute to minute: the store phases run ROUNDS
    // times, redis-benchmark before each round and after the last; each side's median makes the ratio.
    store = await openRedisStore({ url: target.url, prefix });
    const sets = [];
    const rounds = [];
    for (let round = 1; round <= ROUNDS; round++) {
      sets.push(await redisBenchmarkSet(target, COUNTS.baselineRequests));
      rounds.push(await measure(store, () => openRedisStore({ url: target.url, prefix }), `r${round}-`));
    }
    sets.push(await redisBenchmarkSet(target, COUNTS.baselineRequests));
    const baseline = median(sets);
    const results = (rounds[0] ?? []).map((first, i) => ({
      ...first,
      each: rounds.map((round) => round[i].ops),
      ops: median(rounds.map((round) => round[i].ops)),
    }));

    const rows = results.map((r) => {
      const ratio = r.ops / baseline;
      return [
        r.name,
        fmt(r.ops),
        fmt(baseline),
        ratioText(ratio),
        r.informational ? '—' : ratio >= AIM ? 'met' : 'NOT met',
      ];
    });
    console.log(table(rows));
    console.log('');
    for (const r of results) console.log(`  ${r.name}: ${r.what}`);
    const aimed = results.filter((r) => !r.informational);
    const missed = aimed.filter((r) => r.ops / baseline < AIM).length;
    console.log('');
    console.log(`${ROUNDS === 1 ? 'one round' : `medians of ${ROUNDS} rounds`}; each round's ops/s and ratio:`);
    for (const r of results) {
      console.log(`  ${r.name}: ${r.each.map((ops) => `${fmt(ops)} (${ratioText(ops / baseline)})`).join(', ')}`);
    }
    console.log(`redis-benchmark -t set: ${sets.map(fmt).join(', ')} ops/s (before each round, then after)`);
    console.log(missed === 0 ? 'every aim met' : `${missed} of ${aimed.length} aims NOT met`);
    if (process.env.BENCH_ONLY === 'store') return;

    console.log('');
    const wake = await measureWake({
      storeEnv: { REDIS_URL: target.url, ASK_LATER_REDIS_PREFIX: prefix },
      store,
      runs: COUNTS.wakes,
    });
    console.log(`wake latency of a waiting ask_later (built binary over stdio, ${wake.runs} runs):`);
    console.log(
      `  answer call started → tool result at the client: p50 ${ms(wake.p50)}, p99 ${ms(wake.p99)}, max ${ms(wake.max)}`,
    );
    console.log(`  aim p99 ≤ 50 ms: ${wake.p99 <= 50 ? 'met' : 'NOT met'}`);

    console.log('');
    // A namespace of its own: a new consumer group starts from every stream's first event, and the store phases
    // above left thousands of parked questions that a bridge would otherwise post first.
    const slackPrefix = `${prefix}-slack`;
    const slackStore = await openRedisStore({ url: target.url, prefix: slackPrefix });
    const post = await measureSlackPost({
      url: target.url,
      prefix: slackPrefix,
      store: slackStore,
      runs: QUICK ? 20 : 200,
    }).finally(() => slackStore.close());
    console.log(`question parked → chat.postMessage at a local fake Slack, bridge running (${post.runs} questions):`);
    console.log(
      `  p50 ${ms(post.p50)}, p99 ${ms(post.p99)}, max ${ms(post.max)}; aim p50 ≤ 100 ms: ${post.p50 <= 100 ? 'met' : 'NOT met'}`,
    );

    console.log('');
    // A redis-server of its own, so that its memory figure is the questions' alone.
    for (const line of scaleLines(await measureScale())) console.log(line);

    console.log('');
    console.log('cost of the UserPromptSubmit hook (wall time per process, medians, interleaved with node -e 0):');
    const redisEnv = { REDIS_URL: target.url, ASK_LATER_REDIS_PREFIX: prefix };
    for (const command of HOOK_COMMANDS) await printHook(store, redisEnv, command);

    console.log('');
    const codex = measureCodexHook(QUICK ? 5 : 30);
    console.log(
      `Codex's prompt hook as setup writes it, nothing due, a watcher alive (medians of ${codex.runs}, interleaved): ` +
        `${ms(codex.hookMs)} vs true ${ms(codex.trueMs)}: +${ms(codex.overMs)} (aim ≤ +10 ms)`,
    );
    const serve = await measureServeStart(QUICK ? 3 : 10);
    console.log(
      `npm start → the address printed, no platform configured (median of ${serve.runs}): ${serve.medianMs.toFixed(0)} ms ` +
        `(aim ≤ 1000 ms; node -e 0 here: ${serve.nodeMs.toFixed(0)} ms)`,
    );

    console.log('');
    console.log(
      "cost of `ask-later status`, Claude Code's statusLine (wall time per process, medians, interleaved with node -e 0):",
    );
    for (const command of STATUS_COMMANDS) await printStatus(store, redisEnv, command);

    console.log('');
    await benchClaude(target.url, `${prefix}-claude`);

    console.log('');
    await benchEmbeddedStore();

    console.log('');
    await benchCluster();
  } finally {
    await store?.close();
    if (target.external) {
      await removeKeys(target.url, prefix).catch(() => undefined);
      await removeKeys(target.url, `${prefix}-slack`).catch(() => undefined);
      await removeKeys(target.url, `${prefix}-claude`).catch(() => undefined);
    }
    await target.stop();
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

main().catch((error) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
