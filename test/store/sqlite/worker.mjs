// A separate process on the embedded store, for the multi-process tests (sqlite-processes.test.ts). It runs the
// built store (dist/, `npm run build`), so every process is a real Node process with its own SQLite connection.
//
//   node worker.mjs '<json: {path, op, project, count?, id?, name?, engine?}>'  (engine: node:sqlite | better-sqlite3)
//
// Protocol: opens the store and prints `ready`; waits for a line on stdin (so the test starts every worker at the
// same moment); runs the operation; prints one JSON line with the result and exits.
//   park     parks `count` questions in `project`                       → {ids}
//   claim    claims with a budget of 1 (one outcome each), confirms it   → {claimed, confirmed}
//   answer   answers question `id` as user `name`                       → {kind, by}
//   read     reads question `id`                                         → {status, by, question}
//   timing   opens the store and claims once, timed, without waiting     → {importMs, openMs, claimMs}
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';

const job = JSON.parse(process.argv[2] ?? '{}');
const started = performance.now();
const { openSqliteStore } = await import('../../../dist/store/sqlite/sqlite-store.js');
const imported = performance.now();
const store = await openSqliteStore({ path: job.path, ...(job.engine ? { engine: job.engine } : {}) });
const opened = performance.now();

const spec = {
  context: 'Worker context',
  question: 'Which one?',
  impact: 'Worker impact',
  isBlocking: false,
  options: [{ label: 'A' }, { label: 'B' }],
  multiSelect: false,
};

async function run() {
  switch (job.op) {
    case 'park': {
      const ids = [];
      for (let i = 0; i < job.count; i++) ids.push((await store.park(job.project, spec)).id);
      return { ids };
    }
    case 'claim': {
      const claim = await store.claimUndelivered(job.project, { budget: 1, leaseMs: 30_000 });
      const confirmed = await store.confirmClaim(job.project, claim);
      return { claimed: claim.questions.map((q) => q.id), confirmed };
    }
    case 'read': {
      const question = await store.get(job.project, job.id);
      return { status: question?.status, by: question?.answer?.by.userId, question: question?.question };
    }
    case 'answer': {
      const by = { platform: 'slack', userId: job.name, displayName: job.name };
      const result = await store.answer(job.project, job.id, { choices: ['A'], other: false }, by);
      return { kind: result.kind, by: 'question' in result ? result.question.answer?.by.userId : undefined };
    }
    default:
      throw new Error(`unknown op ${job.op}`);
  }
}

if (job.op === 'timing') {
  const before = performance.now();
  await store.claimUndelivered(job.project, { budget: 9000, leaseMs: 5000 });
  const claimMs = performance.now() - before;
  process.stdout.write(`${JSON.stringify({ importMs: imported - started, openMs: opened - imported, claimMs })}\n`);
} else {
  process.stdout.write('ready\n');
  const lines = createInterface({ input: process.stdin });
  await new Promise((resolve) => lines.once('line', resolve));
  lines.close();
  process.stdout.write(`${JSON.stringify(await run())}\n`);
}
await store.close();
