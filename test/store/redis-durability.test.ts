import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRedisStore } from '../../src/store/redis/redis-store.js';
import { StoreUnavailableError } from '../../src/store/store-unavailable-error.js';
import { freePort, startTestRedis, type TestRedis } from '../support/redis-server.js';
import { person, spec, uniquePrefix, uniqueProject } from '../support/store.js';

let redis: TestRedis;

beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis.stop();
});

describe('durability', () => {
  it('GIVEN Redis killed and restarted (AOF on) between operations THEN nothing stored is lost and work goes on', async () => {
    const prefix = uniquePrefix();
    const project = uniqueProject();
    const before = await openRedisStore({ url: redis.url, prefix });
    await before.park(project, spec({ isBlocking: true, ticket: '#3528' }));
    await before.park(project, spec());
    await before.park(project, spec());
    await before.answer(project, 1, { choices: ['SQLite'], other: false, notes: 'tiny' }, person('UA'));
    await before.saveDraft(project, 2, { platform: 'discord', userId: '7' }, { pick: { choices: [], other: true } });
    await before.recordMessage(project, 2, { platform: 'slack', channel: 'C1', messageId: '1.2' });
    await before.dismiss(project, 3, person('UB'));
    const snapshot = await before.list(project);
    await before.close();

    await redis.kill(); // no clean shutdown: only what AOF already holds survives
    await redis.start();

    const after = await openRedisStore({ url: redis.url, prefix });
    try {
      expect(await after.list(project)).toEqual(snapshot);
      expect(await after.getDraft(project, 2, { platform: 'discord', userId: '7' })).toMatchObject({ other: true });
      expect((await after.park(project, spec())).id).toBe(4);
      const claim = await after.claimUndelivered(project, { budget: 9000, leaseMs: 30_000 });
      expect(claim.questions.map((q) => q.id)).toEqual([1, 3]);
    } finally {
      await after.close();
    }
  });

  it('GIVEN a store that was connected THEN calls, tails and consumers fail as unavailable while Redis is down and work once it is back', async () => {
    const prefix = uniquePrefix();
    const project = uniqueProject();
    const store = await openRedisStore({ url: redis.url, prefix });
    try {
      await store.park(project, spec());
      await redis.kill();
      await expect(store.get(project, 1)).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.park(project, spec())).rejects.toBeInstanceOf(StoreUnavailableError);
      // What needs a connection of its own fails too, instead of waiting inside a connect for Redis to come back
      // (a caller backing off, or a serve stopping, must never be stuck there).
      await expect(store.tail()).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.consumer('bridge:web', 'c1')).rejects.toBeInstanceOf(StoreUnavailableError);
      await redis.start();
      // It reconnects on its own, with back-off.
      await expect
        .poll(() =>
          store.get(project, 1).then(
            (q) => q?.status,
            (error: unknown) => (error instanceof StoreUnavailableError ? 'unavailable' : error),
          ),
        )
        .toBe('pending');
      expect((await store.park(project, spec())).id).toBe(2);
    } finally {
      await store.close();
    }
  });

  it('GIVEN no Redis at the URL THEN opening the store fails at once as unavailable', async () => {
    const port = await freePort();
    const error = await openRedisStore({ url: `redis://127.0.0.1:${port}`, connectTimeoutMs: 500 }).catch((e) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(String(error.message)).not.toContain(String(port));
  });
});
