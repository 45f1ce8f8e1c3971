import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/port.js';
import { FakeSlackApi } from '../fakes/slack-api.js';
import { openTestStore, spec, testClock, uniquePrefix, uniqueProject } from '../support/store.js';
import { type Replica, startReplica } from './support.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const sweeps = (replica: Replica) => replica.logger.lines.filter((line) => line.message === 'serve: swept').length;

/** `store` counting the `sweep` lease requests it refused: a replica that asked and was told another holds it. */
function countingRefusals(store: Store): { store: Store; refused: () => number } {
  let refused = 0;
  const counting = new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name, target) as unknown;
      if (typeof value !== 'function') return value;
      if (name !== 'acquireLease') return (value as (...a: unknown[]) => unknown).bind(target);
      return async (...args: unknown[]) => {
        const held = (await (value as (...a: unknown[]) => Promise<boolean>).apply(target, args)) === true;
        if (!held && args[0] === 'sweep') refused += 1;
        return held;
      };
    },
  });
  return { store: counting, refused: () => refused };
}

describe('the expiry and retention sweep across replicas', () => {
  it('GIVEN two serves against one Redis THEN the sweep runs in one only; when it stops, the other takes over', async () => {
    const slack = await new FakeSlackApi().start();
    cleanup.push(() => slack.stop());
    const prefix = uniquePrefix();
    // Periods long against scheduling hiccups on a busy machine: the lease (two periods) must not lapse by accident.
    const period = 300;
    const a = await startReplica({ prefix, slack, deps: { sweepMs: period, replica: 'replica-a' } });
    cleanup.push(() => a.serve.stop());
    // A sweeps at start, so it holds the lease before B asks.
    await expect.poll(() => sweeps(a)).toBe(1);
    const storeB = await openTestStore({ prefix });
    cleanup.push(() => storeB.close());
    const b = countingRefusals(storeB);
    const replicaB = await startReplica({
      prefix,
      slack,
      deps: { store: b.store, sweepMs: period, replica: 'replica-b' },
    });
    cleanup.push(() => replicaB.serve.stop());

    // B asks at start and in every period, and is refused each time while A renews the lease and sweeps.
    await expect.poll(() => b.refused()).toBeGreaterThanOrEqual(3);
    expect(sweeps(replicaB)).toBe(0);
    expect(sweeps(a)).toBeGreaterThanOrEqual(2);

    // A clean stop gives the lease up: the other replica takes the sweep over.
    await a.serve.stop();
    await expect.poll(() => sweeps(replicaB)).toBeGreaterThanOrEqual(2);
  });

  it('GIVEN the lease holder THEN its sweep expires due questions', async () => {
    const slack = await new FakeSlackApi().start();
    cleanup.push(() => slack.stop());
    const prefix = uniquePrefix();
    const clock = testClock(Date.now());
    const store = await openTestStore({ prefix, now: clock.now });
    cleanup.push(() => store.close());
    const replica = await startReplica({ prefix, slack, deps: { store, sweepMs: 50 } });
    cleanup.push(() => replica.serve.stop());
    const project = uniqueProject('sweep');
    const question = await store.park(project, spec({ expiresInSeconds: 60 }));
    clock.advance(61_000);
    await expect.poll(async () => (await store.get(project, question.id))?.status).toBe('expired');
    // The sweep logs once its whole run is done (expiry, reminders, retention): wait for the line.
    await expect
      .poll(() => replica.logger.lines.some((l) => l.message === 'serve: swept' && l.fields.expired === 1))
      .toBe(true);
  });
});
