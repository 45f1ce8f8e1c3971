import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/port.js';
import { openSqliteTestStore, openTestStore, testClock } from '../support/store.js';

const open: Store[] = [];
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
});

describe.each([
  ['Redis', false],
  ['SQLite', true],
])('named leases and ping on %s', (_name, sqlite) => {
  it('GIVEN two owners THEN one holds the lease, renews it, gives it up, and the other takes it after', async () => {
    const clock = testClock();
    const store = sqlite ? await openSqliteTestStore({ now: clock.now }) : await openTestStore();
    open.push(store);
    expect(await store.acquireLease('sweep', 'a', 200)).toBe(true);
    expect(await store.acquireLease('sweep', 'b', 200)).toBe(false);
    expect(await store.acquireLease('sweep', 'a', 200)).toBe(true); // renewed
    expect(await store.acquireLease('other', 'b', 200)).toBe(true); // leases are per name
    await store.releaseLease('sweep', 'b'); // not b's: nothing happens
    expect(await store.acquireLease('sweep', 'b', 200)).toBe(false);
    await store.releaseLease('sweep', 'a');
    expect(await store.acquireLease('sweep', 'b', 200)).toBe(true);
    expect(await store.acquireLease('sweep', 'a', 200)).toBe(false);
  });

  it('GIVEN a holder WHEN another owner seizes the lease THEN the holder can neither renew nor release it; the seizer can', async () => {
    const clock = testClock();
    const store = sqlite ? await openSqliteTestStore({ now: clock.now }) : await openTestStore();
    open.push(store);
    expect(await store.acquireLease('waiter:s1', 'waiter', 60_000)).toBe(true);
    await store.seizeLease('waiter:s1', 'turn', 60_000);
    expect(await store.acquireLease('waiter:s1', 'waiter', 60_000)).toBe(false);
    await store.releaseLease('waiter:s1', 'waiter'); // not the holder's any more: nothing happens
    expect(await store.acquireLease('waiter:s1', 'other', 60_000)).toBe(false);
    await store.releaseLease('waiter:s1', 'turn');
    expect(await store.acquireLease('waiter:s1', 'waiter', 60_000)).toBe(true);
    await store.seizeLease('free', 'turn', 60_000); // a free one is simply taken
    expect(await store.acquireLease('free', 'x', 60_000)).toBe(false);
  });

  it('GIVEN a holder that stops renewing THEN the lease lapses and another owner takes it', async () => {
    const clock = testClock();
    const store = sqlite ? await openSqliteTestStore({ now: clock.now }) : await openTestStore();
    open.push(store);
    expect(await store.acquireLease('sweep', 'a', 100)).toBe(true);
    expect(await store.acquireLease('sweep', 'b', 100)).toBe(false);
    // Redis measures the lease itself (PX), on its own clock: b asks until it lapses. SQLite uses the store's clock.
    if (sqlite) clock.advance(101);
    await expect.poll(() => store.acquireLease('sweep', 'b', 100)).toBe(true);
    expect(await store.acquireLease('sweep', 'a', 100)).toBe(false);
  });

  it('GIVEN an open store THEN ping answers; a closed one THEN it fails', async () => {
    const store = sqlite ? await openSqliteTestStore() : await openTestStore();
    await expect(store.ping()).resolves.toBeUndefined();
    await store.close();
    await expect(store.ping()).rejects.toThrow();
  });
});
