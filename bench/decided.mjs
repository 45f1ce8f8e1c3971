/**
 * The "already decided" check at park time (`similarDecisions`, what `ask_later` runs before it parks) in a project
 * holding 10,000 decisions, on Redis and on the embedded store: p50 and p99 of one check, for new questions that
 * repeat a decision in other words and for new ones, and the CPU this process spent on one (p99; Redis's own is
 * apart). Aim: p99 ≤ 5 ms on both.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const SUBJECTS = [
  'database',
  'queue',
  'cache',
  'region',
  'currency',
  'retention',
  'logging',
  'timezone',
  'framework',
  'registry',
  'font',
  'backup',
  'provider',
  'format',
  'library',
  'limit',
  'timeout',
  'schedule',
  'policy',
  'version',
];
const SERVICES = Array.from({ length: 120 }, (_, i) => `service${i}`);
const AREAS = [
  'billing',
  'search',
  'checkout',
  'payments',
  'shipping',
  'accounts',
  'reports',
  'exports',
  'emails',
  'admin',
  'mobile',
  'warehouse',
];
const OPTIONS = [
  'Postgres',
  'Redis',
  'Kafka',
  'SQS',
  'EUR',
  'UTC',
  'Fastify',
  'GHCR',
  'Inter',
  'Daily',
  'Stripe',
  'JSON',
  'Vitest',
  '100',
  '30s',
  'Hourly',
  'Strict',
  'v2',
];

/** A deterministic question: the n-th of the project. */
function decision(n) {
  const subject = SUBJECTS[n % SUBJECTS.length];
  const service = SERVICES[Math.floor(n / SUBJECTS.length) % SERVICES.length];
  const area = AREAS[n % AREAS.length];
  return {
    context: 'Bench.',
    question: `Which ${subject} should ${service} use for ${area}?`,
    impact: 'Bench.',
    isBlocking: false,
    options: [{ label: OPTIONS[n % OPTIONS.length] }, { label: OPTIONS[(n + 5) % OPTIONS.length] }],
    recommended: [OPTIONS[n % OPTIONS.length]],
    multiSelect: false,
  };
}

const PERSON = { platform: 'slack', userId: 'U1', displayName: 'Bench' };

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;
}

async function fill(store, project, count) {
  const batch = 200;
  for (let start = 0; start < count; start += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, count - start) }, async (_, i) => {
        const parked = await store.park(project, decision(start + i));
        await store.answer(project, parked.id, { choices: [parked.options[0].label], other: false }, PERSON);
      }),
    );
  }
}

async function measure(store, project, runs) {
  // Warm once (a project answered before its index is indexed on its first check: not what a park pays after).
  await store.similarDecisions(project, [{ question: 'Warm up?', options: [] }]);
  const times = [];
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    const n = (i * 37) % 10_000;
    const item =
      i % 2 === 0
        ? {
            question: `What ${SUBJECTS[n % SUBJECTS.length]} does ${SERVICES[Math.floor(n / SUBJECTS.length) % SERVICES.length]} use for ${AREAS[n % AREAS.length]}?`,
            options: [{ label: 'Postgres' }],
          }
        : { question: `Should the onboarding tour number ${i} be skippable?`, options: [{ label: 'Yes' }] };
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    await store.similarDecisions(project, [item]);
    const used = process.cpuUsage(cpuBefore);
    times.push(performance.now() - started);
    cpu.push((used.user + used.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  // The CPU this process spent (not Redis's): what the check costs here, apart from waiting on a busy machine.
  return { p50: percentile(times, 50), p99: percentile(times, 99), cpuP99: percentile(cpu, 99) };
}

/** Measure on a Redis at `url` (keys under `prefix`) and on a fresh embedded store; returns the figures. */
export async function measureDecided({ openRedis, openSqlite, decisions, runs }) {
  const results = {};
  const redis = await openRedis();
  try {
    const project = `bench-decided-${process.pid}`;
    await fill(redis, project, decisions);
    results.redis = await measure(redis, project, runs);
  } finally {
    await redis.close();
  }
  const dir = mkdtempSync(join(tmpdir(), 'ask-later-bench-decided-'));
  const sqlite = await openSqlite(join(dir, 'inbox.db'));
  try {
    const project = `bench-decided-${process.pid}`;
    await fill(sqlite, project, decisions);
    results.sqlite = await measure(sqlite, project, runs);
  } finally {
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}
