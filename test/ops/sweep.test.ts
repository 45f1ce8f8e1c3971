import { afterEach, describe, expect, it } from 'vitest';
import { FakeSlackApi } from '../fakes/slack-api.js';
import { openTestStore, spec, testClock, uniquePrefix, uniqueProject } from '../support/store.js';
import { type Replica, sleep, startReplica } from './support.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300 && !check(); i++) await sleep(50);
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

const sweeps = (replica: Replica) => replica.logger.lines.filter((line) => line.message === 'serve: swept').length;

describe('the expiry and retention sweep across replicas', () => {
  it('GIVEN two serves against one Redis THEN the sweep runs in one only; when it stops, the other takes over', async () => {
    const slack = await new FakeSlackApi().start();
    cleanup.push(() => slack.stop());
    const prefix = uniquePrefix();
    // Periods long against scheduling hiccups on a busy machine: the lease (two periods) must not lapse by accident.
    const period = 300;
    const a = await startReplica({ prefix, slack, deps: { sweepMs: period, replica: 'replica-a' } });
    cleanup.push(() => a.serve.stop());
    await sleep(period / 2); // out of phase, so both ask in every period
    const b = await startReplica({ prefix, slack, deps: { sweepMs: period, replica: 'replica-b' } });
    cleanup.push(() => b.serve.stop());

    // Wait (no timing assertion) until one replica has swept four times; the other must not have swept at all.
    await until(() => sweeps(a) + sweeps(b) >= 4, 'four sweeps');
    const [first, second] = sweeps(a) > 0 ? [a, b] : [b, a];
    expect(sweeps(second)).toBe(0);

    // A clean stop gives the lease up: the other replica takes the sweep over.
    await first.serve.stop();
    await until(() => sweeps(second) >= 2, 'the other replica sweeps');
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
    const end = Date.now() + 5000;
    while ((await store.get(project, question.id))?.status !== 'expired' && Date.now() < end) await sleep(20);
    expect((await store.get(project, question.id))?.status).toBe('expired');
    expect(replica.logger.lines.some((l) => l.message === 'serve: swept' && l.fields.expired === 1)).toBe(true);
  });
});
