/**
 * Delivery exactly once across hook processes, and the hook never blocking the prompt. The tests run one after
 * another (one file), so the concurrent runs do not skew the time bounds.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openRedisStore, type RedisStore } from '../../src/store/redis/redis-store.js';
import { scripts } from '../../src/store/redis/scripts.js';
import { freePort } from '../support/redis-server.js';
import { uniquePrefix, uniqueProject } from '../support/store.js';
import { startHoldingProxy } from './holding-proxy.js';
import { answered, answeredIds, hookEnv, noteOf, payload, range, runHookCli, startHook, statuses } from './support.js';

const LEASE_MS = 5000;
const prefix = uniquePrefix();
let store: RedisStore;

beforeAll(async () => {
  store = await openRedisStore({ url: inject('redisUrl'), prefix });
});
afterAll(async () => {
  await store.close();
});

function envFor(project: string, url = inject('redisUrl')): Record<string, string> {
  return hookEnv({ REDIS_URL: url, ASK_LATER_REDIS_PREFIX: prefix, ASK_LATER_PROJECT: project });
}

/** The confirm script, as EVALSHA or (after NOSCRIPT) as EVAL with its source. */
function isConfirm(args: readonly string[]): boolean {
  const [name, script] = args;
  const command = name?.toUpperCase();
  return (
    (command === 'EVALSHA' && script === scripts.confirm.sha) ||
    (command === 'EVAL' && script === scripts.confirm.source)
  );
}

async function until(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('ask-later hook: exactly once', () => {
  it('GIVEN 10 answers and 20 hooks started at the same moment THEN each answer is in exactly one note and all are delivered', async () => {
    const project = uniqueProject('race');
    await answered(store, project, 10);
    const hooks = Array.from({ length: 20 }, () => startHook(envFor(project)));
    const stdin = payload({ source: 'user' });
    for (const hook of hooks) hook.send(stdin);
    const runs = await Promise.all(hooks.map((hook) => hook.done));

    // On a small machine 20 Node processes at once can push some (on 2 cores: all) past the hook's deadline: those
    // must write nothing (the prompt goes on) and say so on stderr; whatever they claimed comes back after the lease.
    for (const run of runs) {
      expect(run.code).toBe(0);
      if (run.stderr !== '') expect(run).toMatchObject({ stdout: '', stderr: expect.stringMatching(/within .* s;/) });
    }
    const carried = runs.filter((run) => run.stdout !== '').flatMap((run) => answeredIds(noteOf(run.stdout)));
    expect(new Set(carried).size).toBe(carried.length);
    const late = range(1, 10).filter((id) => !carried.includes(id));
    expect(await statuses(store, project, carried)).toEqual(carried.map(() => 'delivered'));
    expect(await statuses(store, project, late)).toEqual(late.map(() => 'answered'));
    if (late.length > 0) {
      await new Promise((resolve) => setTimeout(resolve, LEASE_MS));
      const next = await runHookCli(envFor(project), stdin);
      expect(answeredIds(noteOf(next.stdout))).toEqual(late);
    }
    expect(new Set(await statuses(store, project, range(1, 10)))).toEqual(new Set(['delivered']));
  }, 20_000);

  it('GIVEN 10 answers and 5 hooks started at the same moment THEN one of them carries all 10 and no other carries any', async () => {
    const project = uniqueProject('race-5');
    await answered(store, project, 10);
    const hooks = Array.from({ length: 5 }, () => startHook(envFor(project)));
    for (const hook of hooks) hook.send(payload());
    const runs = await Promise.all(hooks.map((hook) => hook.done));

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
      await until(() => hook.stdout().endsWith('}}'), 'the hook wrote its note');
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
        await runHookCli(envFor(uniqueProject('silent'), `redis://${credentials}127.0.0.1:${port}`), payload()),
      );
      // The connection's own time-out (handshake included) or, failing that, the hook's deadline.
      expect(stderr).toMatch(/connection timed out|did not answer within/);
      expect(stderr).not.toContain('pa55w0rd');
    } finally {
      silent.close();
      // The hook's socket was reset when it exited; nothing else holds the server.
    }
  });

  it('GIVEN stdin that is never closed THEN the hook gives up within 2 s', async () => {
    const hook = startHook(envFor(uniqueProject('open-stdin')));
    hook.child.stdin.write('{"prompt": "still typ');
    const stderr = expectQuickWarning(await hook.done);
    expect(stderr).toMatch(/stdin did not end within/);
    hook.child.stdin.destroy();
  });
});
