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
}
