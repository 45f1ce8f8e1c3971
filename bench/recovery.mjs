/**
 * Recovery after a Redis outage: a whole `serve` (built code from dist/: the bridge, the web inbox's tail, metrics,
 * the sweep; default back-off, whose step grows to 30 s) posts to a local fake Slack Web API; the bench kills its
 * private redis-server (SIGKILL), waits out the outage, starts it again on the same port and files (AOF, fsync
 * always), and parks a question the moment Redis answers again, another 3 s later. It prints, per outage, how long
 * after Redis answered each question reached Slack, and serve's log lines during the outage. Aim: ≤ 1 s.
 *
 *   node bench/recovery.mjs              outages of 10 s and 60 s
 *   BENCH_OUTAGES=5,20 node bench/…      other outages, in seconds
 *
 * Never touches the server on 6379.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { formatQuestionRef } from '../dist/core/question-ref.js';
import { startServe } from '../dist/serve/run.js';
import { openRedisStore } from '../dist/store/redis/redis-store.js';
import { freePort } from './redis.mjs';

const OUTAGES_S = (process.env.BENCH_OUTAGES ?? '10,60').split(',').map(Number);
const QUESTION = {
  context: 'We are migrating the **billing** service.',
  question: 'Which database should billing use?',
  impact: 'Decides the migration scripts.',
  isBlocking: false,
  options: [{ label: 'Postgres' }, { label: 'SQLite' }],
  multiSelect: false,
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function ping(port) {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let answered = false;
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      answered = data.toString().startsWith('+PONG');
      socket.destroy();
    });
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(answered));
  });
}

/** A private redis-server that can be killed and started again on the same port and directory. */
async function startRedis() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'ask-later-bench-recovery-'));
  let child;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes'].concat([
        '--appendfsync',
        'always',
      ]),
      { stdio: 'ignore' },
    );
    for (let i = 0; !(await ping(port)); i++) {
      if (i > 400) throw new Error('redis-server did not answer');
      await sleep(5);
    }
    return performance.now();
  };
  const kill = async () => {
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
  };
  process.once('exit', () => {
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  await start();
  return { url: `redis://127.0.0.1:${port}`, start, kill };
}

/** The Web API's `chat.postMessage` answered and timed by question ref; anything else `{ok: true}`. */
async function startFakeSlack() {
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
        const ref = JSON.parse(body.metadata ?? '{}').event_payload?.ref;
        answer = { ok: true, channel: body.channel, ts: `${++ts}.000100` };
        if (ref) waiters.get(ref)?.(performance.now());
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/api/`,
    posted: (ref) => new Promise((resolve) => waiters.set(ref, resolve)),
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Park through a connection of its own (an agent's), trying until Redis takes it. */
async function park(url, prefix, project) {
  for (;;) {
    try {
      const store = await openRedisStore({ url, prefix, connection: 'minimal' });
      try {
        return await store.park(project, QUESTION);
      } finally {
        await store.close();
      }
    } catch {
      await sleep(5);
    }
  }
}

const redis = await startRedis();
const slack = await startFakeSlack();
const prefix = `bench-recovery-${randomUUID().slice(0, 8)}`;
const lines = [];
const logger = {
  info: (fields, message) => lines.push({ level: 'info', message, platform: fields.platform, at: performance.now() }),
  warn: (_fields, message) => lines.push({ level: 'warn', message, at: performance.now() }),
  error: (_fields, message) => lines.push({ level: 'error', message, at: performance.now() }),
};
const serve = await startServe(
  {
    store: { kind: 'redis', url: redis.url, prefix },
    port: 0,
    host: '127.0.0.1',
    routes: [],
    slack: {
      botToken: 'xoxb-bench',
      signingSecret: 'bench-signing-secret',
      channel: 'CBENCH',
      apiUrl: slack.url,
      allowedUsers: [],
    },
  },
  { logger, botId: 'B1', botUserId: 'U1' },
);
const project = `/bench/recovery-${randomUUID()}`;
const first = await park(redis.url, prefix, project);
await slack.posted(formatQuestionRef(project, first.id));
// Let the bridge finish with it (the post recorded, the event acknowledged) before the first outage.
while (!lines.some((line) => line.message === 'bridge: event handled' && line.platform === 'slack')) await sleep(10);

console.log('Recovery after a Redis outage (serve with default back-off; aim: posted ≤ 1000 ms after Redis is back)');
for (const seconds of OUTAGES_S) {
  await sleep(1000); // the last question's event acknowledged: the outage starts with nothing in hand
  const from = lines.length;
  await redis.kill();
  await sleep(seconds * 1000);
  const back = await redis.start();
  const at = await park(redis.url, prefix, project);
  const atReturn = (await slack.posted(formatQuestionRef(project, at.id))) - back;
  await sleep(Math.max(0, back + 3000 - performance.now()));
  const parked = performance.now();
  const later = await park(redis.url, prefix, project);
  const afterPark = (await slack.posted(formatQuestionRef(project, later.id))) - parked;
  const logged = lines.slice(from).filter((line) => !line.message.startsWith('bridge: event handled'));
  console.log(
    `  ${String(seconds).padStart(3)} s outage: parked at return → posted ${atReturn.toFixed(0)} ms after Redis answered; ` +
      `parked 3 s later → posted ${afterPark.toFixed(0)} ms after its park; ${logged.length} log lines ` +
      `(${logged.filter((line) => line.level !== 'info').length} warnings)`,
  );
  for (const line of logged) console.log(`      ${line.level.padEnd(5)} ${line.message}`);
}
await serve.stop();
await slack.stop();
process.exit(0);
