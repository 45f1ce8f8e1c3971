/**
 * Park → Slack post latency: with the bridge and the Slack surface running (built code from dist/), the bench parks
 * questions one at a time and times from the start of the park call to the moment a local fake Web API receives
 * the question's `chat.postMessage`. Aim: p50 ≤ 100 ms.
 *
 *   node bench/slack.mjs            starts a private redis-server (never the one on 6379) and prints p50/p99
 *   import { measureSlackPost }     from another bench, with its own server and store
 *
 * The fake is a few lines here (the test fake is TypeScript and not built): it answers `chat.postMessage` like
 * Slack (`{ok, channel, ts}`) and notes when each question's post arrived, by the ref in its metadata.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { formatQuestionRef } from '../dist/core/question-ref.js';
import { Bridge } from '../dist/serve/bridge/bridge.js';
import { openRedisStore } from '../dist/store/redis/redis-store.js';
import { SlackSurface } from '../dist/surfaces/slack/surface.js';
import { createWebClient } from '../dist/surfaces/slack/web.js';

const QUESTION = {
  context: 'We are migrating the **billing** service.',
  question: 'Which database should billing use?',
  impact: 'Decides the migration scripts.',
  isBlocking: false,
  options: [{ label: 'Postgres', description: 'What the team knows' }, { label: 'SQLite' }],
  recommended: ['Postgres'],
  multiSelect: false,
};

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** A minimal Slack Web API: `chat.postMessage` answered and timed; anything else `{ok: true}`. */
async function startFakeSlack() {
  const arrivals = new Map();
  const waiters = new Map();
  let ts = 1_700_000_000;
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const method = (request.url ?? '').replace(/^\/api\//, '').split('?')[0];
      const body = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      let answer = { ok: true };
      if (method === 'chat.postMessage') {
        const at = performance.now();
        const ref = JSON.parse(body.metadata ?? '{}').event_payload?.ref;
        answer = { ok: true, channel: body.channel, ts: `${++ts}.000100` };
        if (ref) {
          arrivals.set(ref, at);
          waiters.get(ref)?.(at);
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/api/`,
    /** Resolves with the arrival time of the post for `ref`. */
    arrival(ref) {
      const seen = arrivals.get(ref);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`bench: no post for ${ref} within 10 s`)), 10_000);
        waiters.set(ref, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      });
    },
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Park `runs` questions (after 10 unmeasured ones) and time each park → `chat.postMessage` at the fake.
 * `store` parks (the agent's side); the bridge opens a store of its own, as `serve` does.
 */
export async function measureSlackPost({ url, prefix, store, runs = 200 }) {
  const slack = await startFakeSlack();
  const bridgeStore = await openRedisStore({ url, prefix });
  const surface = new SlackSurface({
    client: createWebClient({ token: 'xoxb-bench', apiUrl: slack.url, retryConfig: { retries: 0 } }),
    channel: 'CBENCH',
  });
  const bridge = new Bridge({
    store: bridgeStore,
    surfaces: [surface],
    consumerName: `bench-${randomUUID().slice(0, 8)}`,
    group: `bench-${randomUUID().slice(0, 8)}`,
    blockMs: 1000,
  });
  await bridge.start();
  const project = `/tmp/ask-later-bench/slack-${randomUUID()}`;
  const samples = [];
  try {
    for (let i = 0; i < runs + 10; i++) {
      const started = performance.now();
      const question = await store.park(project, QUESTION);
      const arrived = await slack.arrival(formatQuestionRef(project, question.id));
      if (i >= 10) samples.push(arrived - started);
    }
  } finally {
    await bridge.stop();
    await bridgeStore.close();
    await slack.stop();
  }
  samples.sort((a, b) => a - b);
  return { runs, p50: percentile(samples, 50), p99: percentile(samples, 99), max: samples.at(-1) };
}

const ms = (value) => `${value.toFixed(1)} ms`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startBenchRedis } = await import('./redis.mjs');
  const redis = await startBenchRedis();
  const prefix = `bench-${randomUUID().slice(0, 8)}`;
  const store = await openRedisStore({ url: redis.url, prefix });
  try {
    const result = await measureSlackPost({
      url: redis.url,
      prefix,
      store,
      runs: Number(process.env.BENCH_RUNS ?? 200),
    });
    console.log(`Slack post latency (${result.runs} questions, park → chat.postMessage at a local fake Web API)`);
    console.log(
      `  p50 ${ms(result.p50)}, p99 ${ms(result.p99)}, max ${ms(result.max)}; aim p50 ≤ 100 ms: ${result.p50 <= 100 ? 'met' : 'NOT met'}`,
    );
  } finally {
    await store.close();
    await redis.stop();
  }
}
