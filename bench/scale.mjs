/**
 * 10,000 questions: 10,000 pending questions over 200 projects in one private redis-server, and three `ask-later
 * serve` replicas (the real `startServe` from dist/: Bolt in HTTP mode, the bridge, the web inbox) against it. The
 * bench times, alternating between the replicas:
 *   - `/questions` on Slack: a signed slash command to a replica's `/slack/events`, until the local fake Web API
 *     receives its `views.open` (Bolt's round trip, the inbox read and rendered, the Web API call);
 *   - the Home tab: a signed `app_home_opened` event, until the fake receives its `views.publish`;
 *   - the web inbox page: `GET /` until the whole body arrived, and its size;
 * and Redis memory per question: `INFO memory` `used_memory` after the questions were parked (records, view indexes,
 * event streams), less before, over the number of questions; and again once the replicas' bridges posted them all
 * (each record then also holds its Slack and web message references). Aims: each view ≤ 200 ms (median), the page
 * ≤ 1 MB, ≤ 2 KB per question.
 *
 *   node bench/scale.mjs           starts its own redis-server (never the one on 6379) and prints the figures
 *   BENCH_QUICK=1                  1,000 questions over 20 projects (a smoke test)
 *   BENCH_SCALE=100000             that many questions over one project per 100 (100,000 over 1,000), the views
 *                                  timed while the bridges are still busy posting them (the figures then say so);
 *                                  memory is given as parked only
 *   import { measureScale }        from bench/run.mjs
 *
 * Beside each view: what it cost in Redis commands, counted by a proxy in front of a third replica's store
 * (bench/command-counter.mjs; pipelined commands are counted one by one). The views are timed on that replica too,
 * and its bridge posts like the others', so a count is the smallest over the runs (posting adds, never takes away).
 *
 * Every project is routed to one Slack channel, so `/questions` there and the Home tab of a member of it cover all
 * 200 projects: the widest inbox a channel can have. The fake Web API is a few lines here (the test fake is
 * TypeScript and not built).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { startServe } from '../dist/serve/run.js';
import { openRedisStore } from '../dist/store/redis/redis-store.js';
import { startCommandCounter } from './command-counter.mjs';
import { startBenchRedis } from './redis.mjs';

const QUICK = process.env.BENCH_QUICK === '1';
const SCALE = process.env.BENCH_SCALE === undefined ? undefined : Number(process.env.BENCH_SCALE);
if (SCALE !== undefined && !(Number.isInteger(SCALE) && SCALE >= 100)) {
  throw new Error(`BENCH_SCALE must be a whole number of questions, 100 or more; got ${process.env.BENCH_SCALE}`);
}
const SECRET = 'bench-signing-secret';
const CHANNEL = 'CBENCH';
export const SCALE_AIMS = { viewMs: 200, pageBytes: 1024 * 1024, bytesPerQuestion: 2048 };

/** A realistic question: a paragraph of context and impact, three options with descriptions. */
function question(n, isBlocking) {
  return {
    context:
      'We are migrating the **billing** service off the monolith. The old tables hold ten years of invoices, and ' +
      `the new service needs its own store before the March cut-over (step ${n}).`,
    question: `Which database should the billing service use (${n})?`,
    impact: 'Decides the migration scripts, the backup plan and who is on call for the new store.',
    isBlocking,
    options: [
      { label: 'Postgres', description: 'What the team knows; managed by the platform team' },
      { label: 'SQLite', description: 'One file next to the service' },
      { label: 'Keep the monolith tables' },
    ],
    recommended: ['Postgres'],
    multiSelect: false,
    ticket: `BILL-${n}`,
  };
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** The fake Slack Web API: answers what serve calls, and times `views.open` (by trigger) and `views.publish`. */
async function startFakeSlack() {
  const waiters = new Map();
  let posts = 0;
  let ts = 1_700_000_000;
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const method = (request.url ?? '').replace(/^\/api\//, '').split('?')[0];
      const body = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const at = performance.now();
      let answer = { ok: true };
      if (method === 'chat.postMessage') {
        posts += 1;
        answer = { ok: true, channel: body.channel, ts: `${++ts}.000100` };
      } else if (method === 'users.conversations') {
        answer = { ok: true, channels: [{ id: CHANNEL }], response_metadata: { next_cursor: '' } };
      } else if (method === 'auth.test') {
        answer = { ok: true, user_id: 'UBOT', bot_id: 'BBOT', team_id: 'T1' };
      } else if (method === 'views.open' || method === 'views.publish') {
        const key = method === 'views.open' ? body.trigger_id : `home:${body.user_id}`;
        const size = (body.view ?? '').length;
        waiters.get(key)?.({ at, size });
        waiters.delete(key);
        answer = { ok: true, view: { id: `V${ts}` } };
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/api/`,
    posts: () => posts,
    /** Resolves with {at, size} when the call keyed `key` arrives. */
    expect(key) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`bench: no ${key} within 30 s`)), 30_000);
        waiters.set(key, (arrival) => {
          clearTimeout(timer);
          resolve(arrival);
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

function signed(body, contentType) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac('sha256', SECRET).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return {
    method: 'POST',
    headers: { 'content-type': contentType, 'x-slack-request-timestamp': timestamp, 'x-slack-signature': signature },
    body,
  };
}

async function usedMemory(url) {
  const { connectResp } = await import('../dist/store/redis/resp-connection.js');
  const connection = await connectResp(url, { connectTimeoutMs: 2000 });
  try {
    const info = String(await connection.sendCommand(['INFO', 'memory']));
    return Number(/used_memory:(\d+)/.exec(info)?.[1]);
  } finally {
    connection.close();
  }
}

/** A quiet logger: the bench prints figures only. */
const quiet = { info() {}, warn() {}, error() {} };

async function startReplica(url, slackUrl, name) {
  return startServe(
    {
      store: { kind: 'redis', url, prefix: 'al' },
      port: 0,
      host: '127.0.0.1',
      slack: { botToken: 'xoxb-bench', signingSecret: SECRET, channel: CHANNEL, apiUrl: slackUrl, allowedUsers: [] },
    },
    {
      logger: quiet,
      retryConfig: { retries: 0 },
      bridge: { blockMs: 100, retryBaseMs: 10 },
      sweepMs: 0,
      replica: name,
      botId: 'BBOT',
      botUserId: 'UBOT',
      web: { displayName: 'bench', timeZone: 'UTC' },
    },
  );
}

/**
 * Run `work(i)` `runs` times after `warmup` unmeasured runs, on the replicas in turn (`i % count`); the median and
 * p95 of what it returned (ms), and the fewest Redis commands a run on the counted replica (`counted(i)`) cost.
 */
async function timed(runs, warmup, work, counter, counted) {
  for (let i = 0; i < warmup; i++) await work(i);
  const samples = [];
  let commands = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const before = counter.commands();
    samples.push(await work(warmup + i));
    if (counted(warmup + i)) commands = Math.min(commands, counter.commands() - before);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), p95: percentile(sorted, 95), runs, commands };
}

/**
 * Seed, then measure. `url`: a server of its own is started when not given (a fresh one, so the memory delta is
 * the questions' alone).
 */
export async function measureScale(options = {}) {
  const questions = options.questions ?? SCALE ?? (QUICK ? 1_000 : 10_000);
  const projectCount = options.projects ?? (SCALE === undefined ? (QUICK ? 20 : 200) : Math.ceil(SCALE / 100));
  const busy = options.busy ?? SCALE !== undefined;
  const runs = options.runs ?? (QUICK ? 6 : 21);
  const redis = await startBenchRedis();
  const slack = await startFakeSlack();
  const counter = await startCommandCounter(new URL(redis.url).port);
  const replicas = [];
  try {
    const store = await openRedisStore({ url: redis.url, prefix: 'al' });
    const before = await usedMemory(redis.url);
    const projects = Array.from({ length: projectCount }, (_, i) => `/srv/repos/team-${i % 10}/service-${i}`);
    const seedStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < questions) {
          const n = next++;
          await store.park(projects[n % projectCount], question(n, n % 4 === 0));
        }
      }),
    );
    const parkedMs = performance.now() - seedStarted;
    const parked = await usedMemory(redis.url);
    await store.close();
    // Then the replicas start: their bridges post every question (to Slack and the web inbox) and record where.
    const postStarted = performance.now();
    // The third replica's store goes through the counting proxy.
    replicas.push(
      await startReplica(redis.url, slack.url, 'bench-a'),
      await startReplica(redis.url, slack.url, 'bench-b'),
      await startReplica(counter.url, slack.url, 'bench-c'),
    );
    let postedMs;
    let posted;
    if (busy) {
      // Measured while the bridges post: wait only until they are well under way.
      while (slack.posts() < Math.min(questions, 1000)) await new Promise((resolve) => setTimeout(resolve, 100));
    } else {
      while (slack.posts() < questions) await new Promise((resolve) => setTimeout(resolve, 200));
      postedMs = performance.now() - postStarted;
      await new Promise((resolve) => setTimeout(resolve, 1000)); // the last message references land, events are acked
      posted = await usedMemory(redis.url);
    }
    const postsBefore = slack.posts();

    const count = replicas.length;
    const counted = (i) => i % count === count - 1;
    const endpoint = (i) => `http://127.0.0.1:${replicas[i % count].port}/slack/events`;
    const slash = await timed(
      runs,
      3,
      async (i) => {
        const trigger = `trig-${randomUUID()}`;
        const arrival = slack.expect(trigger);
        const body = new URLSearchParams({
          command: '/questions',
          text: '',
          team_id: 'T1',
          channel_id: CHANNEL,
          user_id: 'UBENCH',
          user_name: 'bench',
          trigger_id: trigger,
          response_url: 'http://127.0.0.1:9/unused',
          api_app_id: 'A1',
          token: 'verification-token',
        }).toString();
        const started = performance.now();
        const response = await fetch(endpoint(i), signed(body, 'application/x-www-form-urlencoded'));
        if (response.status !== 200) throw new Error(`bench: /questions answered ${response.status}`);
        return (await arrival).at - started;
      },
      counter,
      counted,
    );
    const home = await timed(
      runs,
      3,
      async (i) => {
        const user = `UHOME${i}`;
        const arrival = slack.expect(`home:${user}`);
        const body = JSON.stringify({
          token: 't',
          team_id: 'T1',
          api_app_id: 'A1',
          type: 'event_callback',
          event_id: `Ev${randomUUID()}`,
          event_time: Math.floor(Date.now() / 1000),
          event: { type: 'app_home_opened', user, channel: `D${user}`, tab: 'home' },
        });
        const started = performance.now();
        const response = await fetch(endpoint(i), signed(body, 'application/json'));
        if (response.status !== 200) throw new Error(`bench: app_home_opened answered ${response.status}`);
        return (await arrival).at - started;
      },
      counter,
      counted,
    );
    let pageBytes = 0;
    const web = await timed(
      runs,
      3,
      async (i) => {
        const started = performance.now();
        const response = await fetch(`http://127.0.0.1:${replicas[i % count].port}/`);
        const text = await response.text();
        if (response.status !== 200) throw new Error(`bench: the web inbox answered ${response.status}`);
        pageBytes = Math.max(pageBytes, Buffer.byteLength(text));
        return performance.now() - started;
      },
      counter,
      counted,
    );
    return {
      questions,
      projects: projectCount,
      parkedMs,
      postedMs,
      // Busy: how many the bridges posted while the views were timed (a rate, to show they were at work).
      postedDuring: slack.posts() - postsBefore,
      slash,
      home,
      web,
      pageBytes,
      bytesPerQuestion: (parked - before) / questions,
      bytesPerPostedQuestion: posted === undefined ? undefined : (posted - before) / questions,
    };
  } finally {
    for (const replica of replicas) await replica.stop();
    await counter.stop();
    await slack.stop();
    await redis.stop();
  }
}

/** The figures as lines, each with whether its aim is met. */
export function scaleLines(result) {
  const mark = (ok) => (ok ? 'aim met' : 'AIM MISSED');
  const ms = (v) => `${v.toFixed(0)} ms`;
  const view = (name, t) =>
    `  ${name.padEnd(34)} median ${ms(t.median).padStart(7)}, p95 ${ms(t.p95).padStart(7)} (${t.runs} runs), ${String(t.commands).padStart(5)} Redis commands   aim ≤ ${SCALE_AIMS.viewMs} ms: ${mark(t.median <= SCALE_AIMS.viewMs)}`;
  const replicas =
    result.postedMs === undefined
      ? `then three serve replicas on the same redis-server, timed while their bridges were posting them (${result.postedDuring.toLocaleString('en')} posted meanwhile)`
      : `then three serve replicas on the same redis-server (their bridges posted them all in ${(result.postedMs / 1000).toFixed(1)} s)`;
  return [
    `${result.questions.toLocaleString('en')} pending questions over ${result.projects.toLocaleString('en')} projects (parked in ${(result.parkedMs / 1000).toFixed(1)} s), ${replicas}:`,
    view('/questions (Slack, Bolt round trip)', result.slash),
    view('Home tab (Slack, Bolt round trip)', result.home),
    view('web inbox page (GET /)', result.web),
    `  ${'web inbox page size'.padEnd(34)} ${(result.pageBytes / 1024).toFixed(0)} KB   aim ≤ 1 MB: ${mark(result.pageBytes <= SCALE_AIMS.pageBytes)}`,
    `  ${'Redis memory per question, parked'.padEnd(34)} ${(result.bytesPerQuestion / 1024).toFixed(2)} KB (used_memory delta / questions: records, indexes, events)   aim ≤ 2 KB: ${mark(result.bytesPerQuestion <= SCALE_AIMS.bytesPerQuestion)}`,
    ...(result.bytesPerPostedQuestion === undefined
      ? []
      : [
          `  ${'  … and posted'.padEnd(34)} ${(result.bytesPerPostedQuestion / 1024).toFixed(2)} KB (with each question's Slack and web message references and the replicas' consumer groups)   aim ≤ 2 KB: ${mark(result.bytesPerPostedQuestion <= SCALE_AIMS.bytesPerQuestion)}`,
        ]),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await measureScale();
  for (const line of scaleLines(result)) console.log(line);
}
