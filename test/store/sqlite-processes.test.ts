/**
 * The embedded store's guarantees across processes: the MCP server, the hook and `serve` are separate processes on
 * one file. Each worker is a real Node process (sqlite/worker.mjs, on the built store in dist/) started at the same
 * moment as the others.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeSqlite } from '../../src/store/sqlite/driver.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { openSqliteTestStore, person, spec, sqliteTestDir, uniqueProject } from '../support/store.js';

const worker = fileURLToPath(new URL('./sqlite/worker.mjs', import.meta.url));
const built = fileURLToPath(new URL('../../dist/store/sqlite/sqlite-store.js', import.meta.url));

interface Worker {
  readonly ready: Promise<void>;
  readonly result: Promise<Record<string, unknown>>;
  go(): void;
}

function startWorker(job: Record<string, unknown>): Worker {
  const child: ChildProcess = spawn(process.execPath, [worker, JSON.stringify(job)], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const received: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else received.push(line);
  });
  const exited = new Promise<void>((resolve, reject) => {
    // 'close', not 'exit': 'exit' can come before the last stdout line has been read.
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`worker exited ${code}: ${stderr}`))));
  });
  const nextLine = () =>
    Promise.race([
      new Promise<string>((resolve) => {
        const line = received.shift();
        if (line !== undefined) resolve(line);
        else waiting.push(resolve);
      }),
      exited.then(() => Promise.reject(new Error(`worker ended early: ${stderr}`))),
    ]);
  const ready = nextLine().then((line) => {
    if (line !== 'ready') throw new Error(`worker said ${line}: ${stderr}`);
  });
  const result = ready.then(async () => {
    const line = await nextLine();
    await exited;
    return JSON.parse(line) as Record<string, unknown>;
  });
  result.catch(() => undefined);
  return { ready, result, go: () => child.stdin?.end('go\n') };
}

/** Start every worker, wait until all have opened the store, then let them go at once. */
async function race(jobs: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  const workers = jobs.map(startWorker);
  await Promise.all(workers.map((w) => w.ready));
  for (const w of workers) w.go();
  return Promise.all(workers.map((w) => w.result));
}

let dir: string;
let path: string;
let store: SqliteStore;

beforeAll(async () => {
  if (!existsSync(built)) throw new Error('The multi-process tests run the built store: run `npm run build` first');
  dir = sqliteTestDir();
  path = join(dir, 'inbox.db');
  store = await openSqliteTestStore({ path });
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SQLite store across processes', () => {
  it('GIVEN 4 processes parking 25 questions each at once THEN 100 distinct ids 1..100', async () => {
    const project = uniqueProject();
    const results = await race(Array.from({ length: 4 }, () => ({ path, op: 'park', project, count: 25 })));
    const ids = results.flatMap((r) => r.ids as number[]).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(await store.list(project)).toHaveLength(100);
  });

  it('GIVEN 4 processes opening a file nobody created yet THEN it is created and migrated once, and all of them park', async () => {
    const fresh = join(dir, 'fresh', 'inbox.db');
    const project = uniqueProject();
    const results = await race(Array.from({ length: 4 }, () => ({ path: fresh, op: 'park', project, count: 5 })));
    expect(results.flatMap((r) => r.ids as number[]).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });

  it('GIVEN 20 processes claiming at once over 10 answers THEN each answer is in exactly one claim, confirmed once', async () => {
    const project = uniqueProject();
    for (let i = 0; i < 10; i++) {
      const q = await store.park(project, spec());
      await store.answer(project, q.id, { choices: ['SQLite'], other: false }, person());
    }
    const results = await race(Array.from({ length: 20 }, () => ({ path, op: 'claim', project })));
    const claimed = results.flatMap((r) => r.claimed as number[]).sort((a, b) => a - b);
    const confirmed = results.flatMap((r) => r.confirmed as number[]).sort((a, b) => a - b);
    const all = Array.from({ length: 10 }, (_, i) => i + 1);
    expect(claimed).toEqual(all);
    expect(confirmed).toEqual(all);
    expect((await store.list(project, { status: ['delivered'] })).map((q) => q.id)).toEqual(all);
  });

  it('GIVEN 2 processes answering one question at once THEN one wins and the other is told who answered', async () => {
    const project = uniqueProject();
    await store.park(project, spec({ options: [{ label: 'A' }, { label: 'B' }], recommended: ['A'] }));
    const results = await race(['first', 'second'].map((name) => ({ path, op: 'answer', project, id: 1, name })));
    const kinds = results.map((r) => r.kind).sort();
    expect(kinds).toEqual(['already-answered', 'won']);
    const winner = results.find((r) => r.kind === 'won')?.by;
    expect(results.find((r) => r.kind === 'already-answered')?.by).toBe(winner);
    expect((await store.get(project, 1))?.answer?.by.userId).toBe(winner);
  });

  it('GIVEN a wait in this process THEN an answer from another process ends it within the poll interval', async () => {
    const project = uniqueProject();
    await store.park(project, spec({ options: [{ label: 'A' }], recommended: ['A'] }));
    // The first look is synchronous (better-sqlite3): when the call returns, it has seen #1 pending and waits on
    // the file's changes. The answering process is only started after that, so the answer can only wake it.
    const waiting = store.waitWhilePending(project, 1, { timeoutMs: 20_000 });
    const [answered] = await race([{ path, op: 'answer', project, id: 1, name: 'remote' }]);
    expect(answered?.kind).toBe('won');
    const started = Date.now();
    expect((await waiting)?.answer?.by.userId).toBe('remote');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('GIVEN a consumer blocking in this process THEN a park by another process wakes it', async () => {
    const consumer = await store.consumer(`group-${uniqueProject('g').slice(-8)}`, 'c');
    await consumer.ack(await consumer.read({ count: 10_000 }));
    const woken = consumer.read({ blockMs: 20_000 });
    const project = uniqueProject();
    await race([{ path, op: 'park', project, count: 1 }]);
    expect((await woken).map((e) => [e.type, e.project])).toEqual([['parked', project]]);
    await consumer.close();
  });

  // Two SQLite libraries in one process do not see each other's file locks (SQLite's own warning about linking it
  // twice): each engine gets a process of its own, as the MCP server on Node 24 and `serve` on Node 20 would.
  it.runIf(nodeSqlite() !== undefined).each([
    ['node:sqlite', 'better-sqlite3'],
    ['better-sqlite3', 'node:sqlite'],
  ] as const)(
    'GIVEN %s in this process holding the file open and %s in another THEN each reads and answers what the other wrote',
    async (here, there) => {
      const file = join(dir, `${here}-${there}.db`.replace(':', '-'));
      const local = await openSqliteStore({ path: file, engine: here });
      try {
        const project = uniqueProject('engines');
        const parked = await local.park(
          project,
          spec({ options: [{ label: 'A' }, { label: 'B' }], question: 'Which engine?' }),
        );
        const [read] = await race([{ path: file, op: 'read', project, id: parked.id, engine: there }]);
        expect(read).toEqual({ status: 'pending', question: 'Which engine?' });
        const [answered] = await race([
          { path: file, op: 'answer', project, id: parked.id, name: there, engine: there },
        ]);
        expect(answered).toEqual({ kind: 'won', by: there });
        expect((await local.get(project, parked.id))?.answer?.by.userId).toBe(there);
        const [parkedThere] = await race([{ path: file, op: 'park', project, count: 2, engine: there }]);
        expect(parkedThere?.ids).toEqual([2, 3]);
        expect((await local.list(project)).map((q) => q.id).sort()).toEqual([1, 2, 3]);
      } finally {
        await local.close();
      }
    },
  );
});
