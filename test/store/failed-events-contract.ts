import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store, StoreEvent } from '../../src/store/port.js';
import { spec, testClock, uniqueProject } from '../support/store.js';
import type { ContractStoreOptions } from './store-contract.js';

/**
 * Failed events (what the bridge records when a platform keeps refusing, and `ask-later retry-failed` hands back):
 * the same for every adapter. Each run gets a fresh store of its own, so counts start at zero.
 */
export function failedEventsContract(openStore: (options: ContractStoreOptions) => Promise<Store>): void {
  const clock = testClock();
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ now: clock.now });
  });
  afterAll(async () => {
    await store.close();
  });

  async function events(project: string, count: number): Promise<StoreEvent[]> {
    for (let i = 0; i < count; i++) await store.park(project, spec());
    const consumer = await store.consumer(`reader-${project}`, 'r');
    const read = await consumer.read({ count: 100 });
    await consumer.close();
    return read.filter((event) => event.project === project);
  }

  describe('failed events', () => {
    it('GIVEN events two groups gave up on THEN each group counts its own, newest first in the sample, with code and attempts only', async () => {
      const project = uniqueProject('failed');
      const [one, two, three] = await events(project, 3);
      if (!one || !two || !three) throw new Error('three events expected');
      expect(await store.failedEvents()).toEqual([]);
      await store.recordFailedEvent('bridge:slack', one, { attempts: 5, error: 'channel_not_found' });
      clock.advance(1);
      await store.recordFailedEvent('bridge:slack', two, { attempts: 5, error: 'HTTP 403 (50001)' });
      clock.advance(1);
      await store.recordFailedEvent('bridge:discord', three, { attempts: 3, error: 'HTTPError' });
      // The same event failing again replaces its record.
      clock.advance(1);
      await store.recordFailedEvent('bridge:slack', one, { attempts: 10, error: 'channel_not_found' });

      const failed = await store.failedEvents({ sample: 5 });
      expect(failed.map((g) => [g.group, g.count])).toEqual([
        ['bridge:discord', 1],
        ['bridge:slack', 2],
      ]);
      const slack = failed.find((g) => g.group === 'bridge:slack');
      expect(slack?.sample.map((f) => [f.event.questionId, f.attempts, f.error])).toEqual([
        [one.questionId, 10, 'channel_not_found'],
        [two.questionId, 5, 'HTTP 403 (50001)'],
      ]);
      expect(slack?.sample[0]?.event).toEqual(one);
    });

    it('GIVEN a replay of one group THEN its events are handed back once, to one taker, and the other group keeps its records', async () => {
      const project = uniqueProject('replay');
      const [one, two, three] = await events(project, 3);
      if (!one || !two || !three) throw new Error('three events expected');
      const group = `bridge:slack-${project}`;
      const other = `bridge:discord-${project}`;
      await store.recordFailedEvent(group, one, { attempts: 5, error: 'ratelimited' });
      await store.recordFailedEvent(group, two, { attempts: 5, error: 'ratelimited' });
      await store.recordFailedEvent(other, three, { attempts: 5, error: 'HTTP 500' });
      expect(await store.takeReplayedEvents(group, 10)).toEqual([]); // nothing handed back yet

      expect(await store.replayFailedEvents(group)).toBe(2);
      expect((await store.failedEvents()).map((g) => g.group)).not.toContain(group);
      const [first, second] = await Promise.all([
        store.takeReplayedEvents(group, 1),
        store.takeReplayedEvents(group, 1),
      ]);
      const taken = [...(first ?? []), ...(second ?? [])];
      expect(taken.map((f) => f.event.questionId).sort()).toEqual([one.questionId, two.questionId].sort());
      expect(taken.every((f) => f.group === group && f.error === 'ratelimited' && f.attempts === 5)).toBe(true);
      expect(await store.takeReplayedEvents(group, 10)).toEqual([]);

      // Replaying every group hands the other one back too (with whatever other tests left failed).
      const left = (await store.failedEvents()).reduce((sum, g) => sum + g.count, 0);
      expect(left).toBeGreaterThanOrEqual(1);
      expect(await store.replayFailedEvents()).toBe(left);
      expect((await store.takeReplayedEvents(other, 10)).map((f) => f.event)).toEqual([three]);
      expect(await store.replayFailedEvents()).toBe(0);
    });

    it('GIVEN an error text with odd characters THEN only a short plain code is kept', async () => {
      const project = uniqueProject('code');
      const [event] = await events(project, 1);
      if (!event) throw new Error('an event expected');
      const group = `g-${project}`;
      await store.recordFailedEvent(group, event, { attempts: 1, error: `Which <b>database</b>?\n${'x'.repeat(500)}` });
      const [kept] = (await store.failedEvents()).filter((g) => g.group === group);
      const error = kept?.sample[0]?.error ?? '';
      expect(error.length).toBeLessThanOrEqual(80);
      expect(error).not.toMatch(/[<>?\n]/);
    });
  });

  describe('surface faults', () => {
    it('GIVEN refusals of a platform and of channels THEN they are listed by group, the platform-wide one first, with code, fix and time; the same key again replaces it', async () => {
      const group = `bridge:slack-${uniqueProject('faults')}`;
      await store.recordSurfaceFault({ group, channel: 'C2', error: 'not_in_channel', fix: 'invite the app' });
      clock.advance(5);
      await store.recordSurfaceFault({ group, error: 'token_revoked', fix: 'reinstall the app' });
      await store.recordSurfaceFault({ group, channel: 'C1', error: 'is_archived', fix: 'unarchive it' });
      clock.advance(5);
      await store.recordSurfaceFault({ group, channel: 'C2', error: 'channel_not_found', fix: 'check the id' });
      const mine = (await store.surfaceFaults()).filter((fault) => fault.group === group);
      expect(mine).toEqual([
        { group, error: 'token_revoked', fix: 'reinstall the app', since: clock.now() - 5 },
        { group, channel: 'C1', error: 'is_archived', fix: 'unarchive it', since: clock.now() - 5 },
        { group, channel: 'C2', error: 'channel_not_found', fix: 'check the id', since: clock.now() },
      ]);
    });

    it('GIVEN a post that succeeded on one channel THEN its fault and the platform-wide one are cleared, another channel’s and another group’s stay', async () => {
      const group = `bridge:discord-${uniqueProject('clear')}`;
      const other = `bridge:slack-${uniqueProject('clear')}`;
      await store.recordSurfaceFault({ group, error: 'HTTP 401 (0)', fix: 'set the token' });
      await store.recordSurfaceFault({ group, channel: '111', error: 'HTTP 403 (50001)', fix: 'let the bot in' });
      await store.recordSurfaceFault({ group, channel: '222', error: 'HTTP 404 (10003)', fix: 'check the id' });
      await store.recordSurfaceFault({ group: other, error: 'invalid_auth', fix: 'set the token' });
      await store.clearSurfaceFaults(group, ['111']);
      const left = (await store.surfaceFaults()).filter((fault) => fault.group === group || fault.group === other);
      expect(left.map((fault) => [fault.group, fault.channel ?? '-'])).toEqual([
        [group, '222'],
        [other, '-'],
      ]);
      await store.clearSurfaceFaults(group, ['222']);
      await store.clearSurfaceFaults(other, []);
      expect((await store.surfaceFaults()).filter((f) => f.group === group || f.group === other)).toEqual([]);
    });

    it('GIVEN a code and a fix with odd characters THEN a short plain code and a one-line fix are kept', async () => {
      const group = `g-${uniqueProject('odd')}`;
      await store.recordSurfaceFault({
        group,
        error: `<b>x</b>\n${'y'.repeat(300)}`,
        fix: `line one\nline two${'z'.repeat(500)}`,
      });
      const [kept] = (await store.surfaceFaults()).filter((fault) => fault.group === group);
      expect(kept?.error.length).toBeLessThanOrEqual(80);
      expect(kept?.error).not.toMatch(/[<>\n]/);
      expect(kept?.fix.startsWith('line one line two')).toBe(true);
      expect(kept?.fix.length).toBeLessThanOrEqual(300);
    });
  });

  describe('readiness', () => {
    it('GIVEN a store whose connections are all up THEN whenReady answers ready at once, even with a long time-out', async () => {
      await store.ping();
      expect(await store.whenReady({ timeoutMs: 600_000 })).toBe('ready');
    });
  });
}
