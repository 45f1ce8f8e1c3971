/**
 * Delivery exactly once across hook processes, and the hook never blocking the prompt. The tests run one after
 * another (one file), so the concurrent runs do not skew the time bounds. Concurrency is made, not hoped for: a
 * proxy between the hooks and Redis lines their claims up so that they reach Redis together.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { openRedisStore, type RedisStore } from '../../../src/store/redis/redis-store.js';
import { scripts } from '../../../src/store/redis/scripts.js';
import { freePort } from '../../support/redis-server.js';
import { uniquePrefix, uniqueProject } from '../../support/store.js';
import { startHoldingProxy } from './holding-proxy.js';
import {
  answered,
  answeredIds,
  type HookRun,
  hookEnv,
  noteOf,
  payload,
  range,
  runHookCli,
  startHook,
  statuses,
} from './support.js';

const LEASE_MS = 5000;
const prefix = uniquePrefix();
let store: RedisStore;

beforeAll(async () => {
  store = await openRedisStore({ url: inject('redisUrl'), prefix });
});
afterAll(async () => {
  await store.close();
});

function envFor(project: string, url = inject('redisUrl'), extra: Record<string, string> = {}): Record<string, string> {
  return hookEnv({ REDIS_URL: url, ASK_LATER_REDIS_PREFIX: prefix, ASK_LATER_PROJECT: project, ...extra });
}

/** The hook's own deadline, the default's, for the checks of the deadline itself. */
const REAL_DEADLINE = { ASK_LATER_HOOK_DEADLINE_MS: '' };

/** A call of `script`, as EVALSHA or (after NOSCRIPT) as EVAL with its source. */
function isCall(script: { readonly sha: string; readonly source: string }, args: readonly string[]): boolean {
  const [name, body] = args;
  const command = name?.toUpperCase();
  return (command === 'EVALSHA' && body === script.sha) || (command === 'EVAL' && body === script.source);
}
const isClaim = (args: readonly string[]) => isCall(scripts.claim, args);
const isConfirm = (args: readonly string[]) => isCall(scripts.confirm, args);

/** Load the claim script, so that held EVALSHA claims run as they are released (no NOSCRIPT round trip). */
async function loadClaimScript(): Promise<void> {
  const raw = createClient({ url: inject('redisUrl') });
  await raw.connect();
  await raw.sendCommand(['SCRIPT', 'LOAD', scripts.claim.source]);
  raw.destroy();
}

/** Notes of about 2,560 characters: three fit in one delivery note (9,000), a fourth does not. */
const longNote = (i: number) => `Notes for answer ${i}: ${'lorem ipsum '.repeat(210)}`.slice(0, 2500);

/**
 * Start `count` hooks on `project` through a proxy that holds each one's claim back until all `count` claims have
 * arrived, then lets them reach Redis together: every claim runs while the others' are in flight, none of them
 * confirmed yet. Resolves with every run.
 */
async function hooksClaimingTogether(project: string, count: number): Promise<HookRun[]> {
  await loadClaimScript();
  const proxy = await startHoldingProxy(inject('redisUrl'), isClaim);
  try {
    const hooks = range(1, count).map(() => startHook(envFor(project, proxy.url)));
    for (const hook of hooks) hook.send(payload({ source: 'user' }));
    // Within the hooks' deadline (1.5 s from their start): a hook that gave up first fails this wait.
    await vi.waitFor(() => expect(proxy.holding).toBe(count), { timeout: 1500, interval: 10 });
    expect(proxy.commands.filter((command) => command === 'EVALSHA')).toHaveLength(count);
    proxy.release();
    return await Promise.all(hooks.map((hook) => hook.done));
  } finally {
    await proxy.close();
  }
}

describe('ask-later hook: exactly once', () => {
  it('GIVEN 12 answers whose notes fit three to a note and 5 hooks whose claims reach Redis together THEN 4 of them carry 3 answers each, every answer exactly once, and all are delivered', async () => {
    const project = uniqueProject('race');
    await answered(store, project, 12, longNote);
    const runs = await hooksClaimingTogether(project, 5);

    for (const run of runs) expect(run).toMatchObject({ code: 0, stderr: '' });
    const notes = runs.filter((run) => run.stdout !== '').map((run) => answeredIds(noteOf(run.stdout)));
    // Each claim took what the claims before it had not leased: four hooks delivered, the fifth found nothing left.
    expect(notes.map((ids) => ids.length)).toEqual([3, 3, 3, 3]);
    expect(runs.filter((run) => run.stdout === '')).toHaveLength(1);
    expect(notes.flat().sort((a, b) => a - b)).toEqual(range(1, 12));
    expect(await statuses(store, project, range(1, 12))).toEqual(range(1, 12).map(() => 'delivered'));
  });

  it('GIVEN 10 answers and 5 hooks whose claims reach Redis together THEN one of them carries all 10 and no other carries any', async () => {
    const project = uniqueProject('race-5');
    await answered(store, project, 10);
    const runs = await hooksClaimingTogether(project, 5);

    for (const run of runs) expect(run).toMatchObject({ code: 0, stderr: '' });
    const notes = runs.filter((run) => run.stdout !== '').map((run) => answeredIds(noteOf(run.stdout)));
    expect(notes).toEqual([range(1, 10)]);
    expect(new Set(await statuses(store, project, range(1, 10)))).toEqual(new Set(['delivered']));
  });

  it('GIVEN a hook killed after writing its note but before confirming THEN its answers wait out the lease and the next hook after it delivers them once', async () => {
    const project = uniqueProject('killed');
    await answered(store, project, 3);
    const proxy = await startHoldingProxy(inject('redisUrl'), isConfirm);
    try {
      const hook = startHook(envFor(project, proxy.url));
      hook.send(payload());
      await proxy.held;
      await expect.poll(() => hook.stdout()).toMatch(/\}\}$/);
      const written = Date.now();
      hook.child.kill('SIGKILL');
      const killed = await hook.done;
      expect(killed.signal).toBe('SIGKILL');
      expect(answeredIds(noteOf(killed.stdout))).toEqual([1, 2, 3]);
      expect(proxy.commands).toContain('EVALSHA');

      // Claimed, never confirmed: not delivered, and leased, so a prompt within the lease does not carry them.
      expect(await statuses(store, project, [1, 2, 3])).toEqual(['answered', 'answered', 'answered']);
      const withinLease = await runHookCli(envFor(project), payload());
      expect(Date.now() - written).toBeLessThan(LEASE_MS);
      expect(withinLease).toMatchObject({ code: 0, stdout: '', stderr: '' });

      // The lease is timed by the store's clock, here the real one: wait it out (the claim was before `written`).
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, written + LEASE_MS + 100 - Date.now())));
      const afterLease = await runHookCli(envFor(project), payload());
      expect(afterLease).toMatchObject({ code: 0, stderr: '' });
      expect(answeredIds(noteOf(afterLease.stdout))).toEqual([1, 2, 3]);
      expect(await statuses(store, project, [1, 2, 3])).toEqual(['delivered', 'delivered', 'delivered']);
      expect((await runHookCli(envFor(project), payload())).stdout).toBe('');
    } finally {
      await proxy.close();
    }
  }, 20_000);
});

describe('ask-later hook: never blocks the prompt', () => {
  /** Nothing on stdout, one `ask-later hook:` line on stderr, exit 0, well within the 2 s contract. */
  function expectQuickWarning(run: { code: number | null; stdout: string; stderr: string; ms: number }): string {
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^ask-later hook: [^\n]+; answers wait for the next prompt\n$/);
    expect(run.ms).toBeLessThan(2000);
    return run.stderr;
  }

  it('GIVEN REDIS_URL pointing at a port where nothing listens THEN one stderr line, exit 0, within 2 s, and no password in it', async () => {
    const port = await freePort();
    const url = `redis://ask:pa55w0rd-secret@127.0.0.1:${port}`;
    const stderr = expectQuickWarning(await runHookCli(envFor(uniqueProject('down'), url), payload()));
    expect(stderr).toMatch(/unreachable \(ECONNREFUSED\)/);
    expect(stderr).not.toContain('pa55w0rd');
    expect(stderr).not.toContain(String(port));
  });

  it('GIVEN ASK_LATER_DB that is not absolute THEN one stderr line naming it, exit 0, within 2 s', async () => {
    const env = hookEnv({ ASK_LATER_PROJECT: uniqueProject('unset'), ASK_LATER_DB: 'inbox.db' });
    const stderr = expectQuickWarning(await runHookCli(env, payload()));
    expect(stderr).toMatch(/ASK_LATER_DB must be an absolute path/);
  });

  it('GIVEN an embedded store that cannot be opened THEN one stderr line naming the embedded store, exit 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'al-hook-'));
    writeFileSync(join(dir, 'not-a-dir'), '');
    const env = hookEnv({ ASK_LATER_PROJECT: uniqueProject('nodb'), ASK_LATER_DB: join(dir, 'not-a-dir', 'inbox.db') });
    const stderr = expectQuickWarning(await runHookCli(env, payload()));
    expect(stderr).toMatch(/the inbox \(the embedded store\) is unreachable/);
    rmSync(dir, { recursive: true, force: true });
  });

  it('GIVEN REDIS_URL that is not a redis URL THEN one stderr line naming it, without its value', async () => {
    const env = hookEnv({
      REDIS_URL: 'https://user:pa55w0rd@example.invalid',
      ASK_LATER_PROJECT: uniqueProject('bad'),
    });
    const stderr = expectQuickWarning(await runHookCli(env, payload()));
    expect(stderr).toMatch(/REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(stderr).not.toContain('pa55w0rd');
  });

  it.each([
    ['', 'its first command hangs'],
    ['ask:pa55w0rd@', 'the connection handshake (AUTH) hangs'],
  ])('GIVEN a server that accepts connections and never answers (%s: %s) THEN the hook gives up within 2 s', async (credentials) => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const stderr = expectQuickWarning(
        await runHookCli(
          envFor(uniqueProject('silent'), `redis://${credentials}127.0.0.1:${port}`, REAL_DEADLINE),
          payload(),
        ),
      );
      // The connection's own time-out (handshake included) or, failing that, the hook's deadline.
      expect(stderr).toMatch(/connection timed out|did not answer within/);
      expect(stderr).not.toContain('pa55w0rd');
    } finally {
      silent.close();
      // The hook's socket was reset when it exited; nothing else holds the server.
    }
  });

  it('GIVEN ASK_LATER_HOOK_DEADLINE_MS=3000 and stdin that is never closed THEN the hook holds on that long from its start, then gives up', async () => {
    const hook = startHook(
      envFor(uniqueProject('open-stdin'), inject('redisUrl'), { ASK_LATER_HOOK_DEADLINE_MS: '3000' }),
    );
    hook.child.stdin.write('{"prompt": "still typ');
    const run = await hook.done;
    expect([run.code, run.stdout]).toEqual([0, '']);
    expect(run.stderr).toMatch(
      /^ask-later hook: stdin did not end within [\d.]+ s; answers wait for the next prompt\n$/,
    );
    // It cannot end earlier: nothing else would end it (its run is timed from the spawn, before the process start).
    expect(run.ms).toBeGreaterThanOrEqual(3000);
    hook.child.stdin.destroy();
  });

  it.each([
    '100',
    '5000',
    'soon',
    ' 2e3',
  ])('GIVEN ASK_LATER_HOOK_DEADLINE_MS=%j THEN one stderr line saying what it takes, nothing delivered', async (value) => {
    const project = uniqueProject('bad-deadline');
    await answered(store, project, 1);
    const run = await runHookCli(envFor(project, inject('redisUrl'), { ASK_LATER_HOOK_DEADLINE_MS: value }), payload());
    expect(run).toMatchObject({
      code: 0,
      stdout: '',
      stderr: `ask-later hook: ASK_LATER_HOOK_DEADLINE_MS must be a whole number of milliseconds from 500 to 4000, got ${JSON.stringify(value.trim())}; answers wait for the next prompt\n`,
    });
    expect((await store.get(project, 1))?.status).toBe('answered');
  });

  it('GIVEN stdin that is never closed THEN the hook gives up within 2 s', async () => {
    const hook = startHook(envFor(uniqueProject('open-stdin'), inject('redisUrl'), REAL_DEADLINE));
    hook.child.stdin.write('{"prompt": "still typ');
    const stderr = expectQuickWarning(await hook.done);
    expect(stderr).toMatch(/stdin did not end within/);
    hook.child.stdin.destroy();
  });
});
