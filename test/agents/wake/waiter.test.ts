/**
 * `ask-later wait`, the waiter that wakes an idle Claude Code session: in-process against the tests' Redis and the
 * embedded store, and as the built command (exit codes, stderr, SIGTERM).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { runWaiter, WAKE_EXIT_CODE, type WaiterOptions, wakeLine } from '../../../src/agents/wake/run.js';
import type { RedisConnection } from '../../../src/store/redis/connection.js';
import { connectNodeRedis } from '../../../src/store/redis/node-redis-connection.js';
import type { RedisStore } from '../../../src/store/redis/redis-store.js';
import type { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { StoreUnavailableError } from '../../../src/store/store-unavailable-error.js';
import { freshHome } from '../../support/home.js';
import {
  openSqliteTestStore,
  openTestStore,
  person,
  spec,
  sqliteTestDir,
  uniquePrefix,
  uniqueProject,
} from '../../support/store.js';

const prefix = uniquePrefix();
let store: RedisStore;
beforeAll(async () => {
  store = await openTestStore({ prefix });
});
afterAll(async () => {
  await store.close();
});

let sessions = 0;
function session(): string {
  return `session-${process.pid}-${++sessions}-${Date.now()}`;
}

function envFor(project: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    REDIS_URL: inject('redisUrl'),
    ASK_LATER_REDIS_PREFIX: prefix,
    ASK_LATER_PROJECT: project,
    HOME: freshHome(),
    ...extra,
  };
}

interface Run {
  readonly done: Promise<number>;
  readonly stderr: () => string;
  /** Resolves once the waiter is waiting for a change (it checked and found nothing to wake for). */
  readonly waiting: Promise<void>;
  readonly stop: AbortController;
}

function startWaiter(
  env: Record<string, string>,
  sessionId: string,
  options: Partial<WaiterOptions> = {},
  input: Record<string, unknown> = { hook_event_name: 'Stop' },
): Run {
  let stderr = '';
  let waited: () => void = () => undefined;
  const waiting = new Promise<void>((resolve) => {
    waited = resolve;
  });
  const stop = new AbortController();
  const stdin = Readable.from([JSON.stringify({ session_id: sessionId, cwd: '/tmp', ...input })]);
  const write = (text: string) => {
    stderr += text;
  };
  const done = runWaiter({ stdin, stderr: { write } }, env, '/tmp', {
    signal: stop.signal,
    onWait: waited,
    ...options,
  });
  return { done, stderr: () => stderr, waiting, stop };
}

const answer = (project: string, id: number, platform: 'slack' | 'discord' | 'web' = 'slack') =>
  store.answer(project, id, { choices: ['SQLite'], other: false, notes: 'n' }, person('U1', platform));

/** The tests' store with its read of what waits replaced: a store for `WaiterOptions.store`. */
function withWaitingOutcomes(waitingOutcomes: RedisStore['waitingOutcomes']): RedisStore {
  return new Proxy(store, {
    get(target, name) {
      if (name === 'waitingOutcomes') return waitingOutcomes;
      const value = Reflect.get(target, name, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('the waiter', () => {
  it('GIVEN a pending blocking question WHEN it is answered while the waiter waits THEN it exits 2 saying which and to call collect_answers', async () => {
    const project = uniqueProject();
    await store.park(project, spec({ isBlocking: true }));
    const run = startWaiter(envFor(project), session());
    await run.waiting; // blocked on the store before the answer came
    await answer(project, 1);
    expect(await run.done).toBe(WAKE_EXIT_CODE);
    expect(run.stderr()).toBe('#1 (blocking) was answered on Slack. Call the collect_answers tool to read it.\n');
    // It only looked: the answer is still there for collect_answers to claim.
    expect((await store.waitingOutcomes(project)).map((q) => q.id)).toEqual([1]);
  });

  it('GIVEN the answer landing between the waiter’s looks (after it read what waits, before it read what is pending) THEN it still wakes the session', async () => {
    const project = uniqueProject();
    await store.park(project, spec({ isBlocking: true }));
    let answered = false;
    // The store as the waiter sees it: the first time it reads what waits, the person answers right after the read.
    const racing = withWaitingOutcomes(async (...args) => {
      const waiting = await store.waitingOutcomes(...args);
      if (!answered) {
        answered = true;
        await answer(project, 1);
      }
      return waiting;
    });
    const run = startWaiter(envFor(project), session(), { store: racing });
    expect(await run.done).toBe(WAKE_EXIT_CODE);
    expect(answered).toBe(true);
    expect(run.stderr()).toBe('#1 (blocking) was answered on Slack. Call the collect_answers tool to read it.\n');
  });

  it('GIVEN the store unreachable for a while after the waiter started, the answer given meanwhile THEN it looks again once the store is back and wakes the session', async () => {
    const project = uniqueProject();
    await store.park(project, spec({ isBlocking: true }));
    let outage = 0;
    // The store as the waiter sees it: once the waiter waits, its next two reads of what waits find it unreachable
    // (and the person answers during the first of them).
    const failing = withWaitingOutcomes(async (...args) => {
      if (waited && outage < 2) {
        outage += 1;
        if (outage === 1) await answer(project, 1);
        throw new StoreUnavailableError({ cause: new Error('ECONNREFUSED') });
      }
      return store.waitingOutcomes(...args);
    });
    let waited = false;
    const run = startWaiter(envFor(project), session(), { store: failing });
    await run.waiting;
    waited = true;
    await store.park(project, spec({ isBlocking: true })); // a change, so the waiter looks again
    expect(await run.done).toBe(WAKE_EXIT_CODE);
    expect(outage).toBe(2);
    expect(run.stderr()).toBe('#1 (blocking) was answered on Slack. Call the collect_answers tool to read it.\n');
  });

  it('GIVEN nothing pending THEN it exits 0 at once and says nothing', async () => {
    const run = startWaiter(envFor(uniqueProject()), session());
    expect(await run.done).toBe(0);
    expect(run.stderr()).toBe('');
  });

  it('GIVEN only a non-blocking question pending THEN it does not wait (its answer comes with the next prompt); with ASK_LATER_WAKE=all it waits and wakes for it', async () => {
    const project = uniqueProject();
    await store.park(project, spec({ isBlocking: false }));
    expect(await startWaiter(envFor(project), session()).done).toBe(0);

    const all = startWaiter(envFor(project, { ASK_LATER_WAKE: 'all' }), session());
    await all.waiting;
    await answer(project, 1, 'discord');
    expect(await all.done).toBe(WAKE_EXIT_CODE);
    expect(all.stderr()).toBe('#1 was answered on Discord. Call the collect_answers tool to read it.\n');
  });

  it('GIVEN an answer a non-blocking question got while waiting on a blocking one THEN it keeps waiting, and wakes only for the blocking one', async () => {
    const project = uniqueProject();
    await store.park(project, spec({ isBlocking: false }));
    await store.park(project, spec({ isBlocking: true }));
    const run = startWaiter(envFor(project), session());
    let waits = 0;
    const counted = startWaiter(envFor(project), session(), {
      onWait: () => {
        waits++;
      },
    });
    await run.waiting;
    await vi.waitFor(() => expect(waits).toBe(1));
    await answer(project, 1);
    await vi.waitFor(() => expect(waits).toBe(2)); // it looked again and went back to waiting
    await answer(project, 2, 'web');
    expect(await run.done).toBe(WAKE_EXIT_CODE);
    expect(await counted.done).toBe(WAKE_EXIT_CODE);
    expect(run.stderr()).toBe(
      '#2 (blocking) was answered on the web inbox. Call the collect_answers tool to read it.\n',
    );
  });

  it('GIVEN outcomes already waiting THEN it wakes at once; a waiter re-armed for the same session is not woken for them again', async () => {
    const project = uniqueProject();
    await store.park(project, spec({ isBlocking: true }));
    await store.park(project, spec({ isBlocking: true }));
    await store.park(project, spec({ isBlocking: true }));
    await answer(project, 1);
    await store.dismiss(project, 2, person('U2'));
    const env = envFor(project);
    const id = session();
    const first = startWaiter(env, id);
    expect(await first.done).toBe(WAKE_EXIT_CODE);
    expect(first.stderr()).toBe(
      '#1 (blocking) was answered on Slack; #2 (blocking) was dismissed without an answer. Call the collect_answers tool to read them.\n',
    );
    // The model did not collect them; the Stop hook re-arms: it waits for something new instead.
    const again = startWaiter(env, id);
    await again.waiting;
    await answer(project, 3);
    expect(await again.done).toBe(WAKE_EXIT_CODE);
    expect(again.stderr()).toBe('#3 (blocking) was answered on Slack. Call the collect_answers tool to read it.\n');
    // Another session is woken for all of them: the memory is per session.
    const other = startWaiter(env, session());
    expect(await other.done).toBe(WAKE_EXIT_CODE);
    expect(other.stderr()).toContain('#1 (blocking)');
  });

  it('GIVEN two waiters started together for one session THEN one waits and the other exits 0 at once; the one waiting wakes', async () => {
    const project = uniqueProject();
    await store.park(project, spec({ isBlocking: true }));
    const id = session();
    const env = envFor(project);
    const a = startWaiter(env, id);
    const b = startWaiter(env, id);
    const first = await Promise.race([a.done.then(() => 'a'), b.done.then(() => 'b')]);
    const loser = first === 'a' ? a : b;
    const holder = first === 'a' ? b : a;
    expect(await loser.done).toBe(0);
    expect(loser.stderr()).toBe('');
    await holder.waiting;
    await answer(project, 1);
    expect(await holder.done).toBe(WAKE_EXIT_CODE);
  });

  it('GIVEN SIGTERM (the session ends) THEN it exits 0 and frees the session for the next waiter at once', async () => {
    const project = uniqueProject();
    await store.park(project, spec({ isBlocking: true }));
    const id = session();
    const env = envFor(project);
    const run = startWaiter(env, id);
    await run.waiting;
    run.stop.abort();
    expect(await run.done).toBe(0);
    const next = startWaiter(env, id);
    await next.waiting; // it got the session's lease: not refused as a second waiter
    next.stop.abort();
    expect(await next.done).toBe(0);
  });

  it('GIVEN a turn starts while the waiter waits THEN an answer given during the turn does not wake the session; the turn’s Stop arms a waiter that wakes for what is left', async () => {
    const project = uniqueProject();
    await store.park(project, spec({ isBlocking: true }));
    await store.park(project, spec({ isBlocking: true }));
    const id = session();
    const env = envFor(project);
    const idle = startWaiter(env, id);
    await idle.waiting;
    // The person types: collect_answers (UserPromptSubmit) takes the session for the turn.
    await store.seizeLease(`waiter:${id}`, 'turn:prompt-1', 60 * 60 * 1000);
    await answer(project, 1); // given mid-turn: the tool-call path's to deliver
    expect(await idle.done).toBe(0);
    expect(idle.stderr()).toBe('');
    // The turn ends with #1 still waiting (no tool call took it): the Stop waiter takes the session back and wakes.
    const afterTurn = startWaiter(env, id, {}, { hook_event_name: 'Stop', prompt_id: 'prompt-1' });
    expect(await afterTurn.done).toBe(WAKE_EXIT_CODE);
    expect(afterTurn.stderr()).toContain('#1 (blocking) was answered');
  });

  it('GIVEN a Stop waiter that starts late, after the next turn began THEN it leaves the session to that turn', async () => {
    const project = uniqueProject();
    await store.park(project, spec({ isBlocking: true }));
    const id = session();
    await store.seizeLease(`waiter:${id}`, 'turn:prompt-2', 60 * 60 * 1000); // the next turn already runs
    const late = startWaiter(envFor(project), id, {}, { hook_event_name: 'Stop', prompt_id: 'prompt-1' });
    expect(await late.done).toBe(0);
    expect(await store.acquireLease(`waiter:${id}`, 'someone', 1000)).toBe(false); // still the turn's
  });

  it('GIVEN the session’s Claude Code is gone THEN it exits 0 instead of waiting', async () => {
    const project = uniqueProject();
    await store.park(project, spec({ isBlocking: true }));
    const run = startWaiter(envFor(project, { CLAUDE_PID: '4242' }), session(), { alive: () => false });
    expect(await run.done).toBe(0);
  });

  it('GIVEN a lease shorter than the wait THEN the waiter renews it and still wakes', async () => {
    const project = uniqueProject();
    await store.park(project, spec({ isBlocking: true }));
    let waits = 0;
    const run = startWaiter(envFor(project), session(), {
      leaseMs: 200,
      onWait: () => {
        waits++;
      },
    });
    await vi.waitFor(() => expect(waits).toBeGreaterThanOrEqual(4), { timeout: 10_000 }); // woke up to renew several times
    await answer(project, 1);
    expect(await run.done).toBe(WAKE_EXIT_CODE);
  });

  it.each([
    [{ ASK_LATER_WAKE: 'off' }, ''],
    [{ ASK_LATER_WAKE: 'sometimes' }, 'ask-later wait: ASK_LATER_WAKE must be blocking, all or off, got "sometimes"'],
  ])('GIVEN %j THEN it exits 0 without waiting', async (extra, line) => {
    const project = uniqueProject();
    await store.park(project, spec({ isBlocking: true }));
    const run = startWaiter(envFor(project, extra), session());
    expect(await run.done).toBe(0);
    expect(run.stderr().split('\n')[0]).toBe(
      line === '' ? '' : `${line}; the session is not woken (answers come with the next prompt)`,
    );
  });

  it.each([
    ['not JSON', 'nope', 'stdin is not JSON'],
    ['no session', JSON.stringify({ hook_event_name: 'Stop' }), 'no session_id'],
    ['a session id with a slash', JSON.stringify({ session_id: '../x' }), 'no session_id'],
  ])('GIVEN stdin %s THEN one stderr line and exit 0', async (_what, input, reason) => {
    let stderr = '';
    const write = (text: string) => {
      stderr += text;
    };
    const code = await runWaiter({ stdin: Readable.from([input]), stderr: { write } }, envFor(uniqueProject()), '/tmp');
    expect(code).toBe(0);
    expect(stderr).toContain(reason);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });

  it('GIVEN the Redis unreachable THEN one stderr line and exit 0', async () => {
    const run = startWaiter(envFor(uniqueProject(), { REDIS_URL: 'redis://127.0.0.1:1' }), session());
    expect(await run.done).toBe(0);
    expect(run.stderr()).toBe(
      'ask-later wait: the inbox (its store) is unreachable; the session is not woken (answers come with the next prompt)\n',
    );
  });
});

describe('the waiter on the embedded store', () => {
  let local: SqliteStore;
  let path: string;
  beforeAll(async () => {
    path = join(sqliteTestDir(), 'inbox.db');
    local = await openSqliteTestStore({ path });
  });
  afterAll(async () => {
    await local.close();
  });

  it('GIVEN a pending blocking question WHEN another process answers it THEN the waiter wakes', async () => {
    const project = uniqueProject();
    await local.park(project, spec({ isBlocking: true }));
    const env = { ASK_LATER_DB: path, ASK_LATER_PROJECT: project, HOME: freshHome() };
    const run = startWaiter(env, session());
    await run.waiting;
    await local.answer(project, 1, { choices: ['SQLite'], other: false }, person('U1', 'web'));
    expect(await run.done).toBe(WAKE_EXIT_CODE);
  });
});

describe('`ask-later wait`, the command', () => {
  const cli = new URL('../../../dist/cli.js', import.meta.url).pathname;
  // Raw commands, routed by slot when the server is a Redis Cluster.
  let raw: RedisConnection;
  beforeAll(async () => {
    raw = await connectNodeRedis(inject('redisUrl'), { connectTimeoutMs: 2000 });
  });
  afterAll(() => {
    raw.close();
  });

  /** Whether a waiter holds the session (looked at without taking the lease). */
  async function held(sessionId: string): Promise<boolean> {
    return Number(await raw.sendCommand(['EXISTS', `${prefix}:lease:waiter:${sessionId}`])) === 1;
  }

  function spawnWaiter(env: Record<string, string>, sessionId: string) {
    const child = spawn(process.execPath, [cli, 'wait'], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdin.end(JSON.stringify({ session_id: sessionId, hook_event_name: 'SessionStart', source: 'startup' }));
    const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    return { child, closed, out: () => ({ stdout, stderr }) };
  }

  it('GIVEN a blocking question answered THEN the process exits 2 with the line on stderr and nothing on stdout; its session file remembers it', async () => {
    const project = uniqueProject();
    await store.park(project, spec({ isBlocking: true }));
    const home = freshHome();
    const id = session();
    const run = spawnWaiter({ ...envFor(project), HOME: home }, id);
    await vi.waitFor(async () => expect(await held(id)).toBe(true), { timeout: 15_000 });
    await answer(project, 1);
    expect(await run.closed).toBe(WAKE_EXIT_CODE);
    expect(run.out()).toEqual({
      stdout: '',
      stderr: '#1 (blocking) was answered on Slack. Call the collect_answers tool to read it.\n',
    });
    const file = join(home, '.local', 'state', 'ask-later', 'sessions', `${id}.json`);
    expect(existsSync(file)).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ woken: { [project]: [1] } });
  }, 30_000);

  it('GIVEN SIGTERM while it waits THEN it exits 0 and frees the session', async () => {
    const project = uniqueProject();
    await store.park(project, spec({ isBlocking: true }));
    const id = session();
    const run = spawnWaiter(envFor(project), id);
    await vi.waitFor(async () => expect(await held(id)).toBe(true), { timeout: 15_000 });
    run.child.kill('SIGTERM');
    expect(await run.closed).toBe(0);
    expect(await held(id)).toBe(false);
  }, 30_000);
});

describe('wakeLine', () => {
  it('GIVEN more than five outcomes THEN it names five and counts the rest', async () => {
    const project = uniqueProject();
    for (let i = 0; i < 7; i++) {
      await store.park(project, spec({ isBlocking: true }));
      await answer(project, i + 1);
    }
    const line = wakeLine(await store.waitingOutcomes(project));
    expect(line).toMatch(
      /^#1 \(blocking\) was answered on Slack; .*#5 \(blocking\) was answered on Slack \(and 2 more\)\. Call the collect_answers tool to read them\.$/,
    );
  });
});
