import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/port.js';
import { openSqliteTestStore, openTestStore, testClock } from '../support/store.js';

const open: Store[] = [];
afterEach(async () => {
  for (const store of open.splice(0)) await store.close();
});

// Taking, renewing, releasing and seizing a lease is the agent-side store contract's (agent-store-contract.ts).
describe.each([
  ['Redis', false],
  ['SQLite', true],
])('named leases and ping on %s', (_name, sqlite) => {
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
