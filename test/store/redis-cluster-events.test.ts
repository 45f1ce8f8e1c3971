/**
 * Event consumers on a Redis Cluster: each project's stream read by a command of its own, woken by the hint the
 * store publishes after each transition, with a periodic full pass for hints that never came.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { EventConsumer } from '../../src/store/port.js';
import { ProjectKeys } from '../../src/store/redis/keys.js';
import { connectNodeRedis } from '../../src/store/redis/node-redis-connection.js';
import type { RedisStore } from '../../src/store/redis/redis-store.js';
import { nodeCommand } from '../support/redis-cluster.js';
import { openTestStore, spec, uniquePrefix, uniqueProject } from '../support/store.js';

const open: (RedisStore | EventConsumer)[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

/** Subscribers of `channel` over every master (a cluster hands each PUBLISH to every node). */
async function subscribers(channel: string): Promise<number> {
  let count = 0;
  for (const url of inject('redisClusterNodes')) {
    const reply = (await nodeCommand(url, ['PUBSUB', 'NUMSUB', channel])) as [string, number];
    count += Number(reply[1]);
  }
  return count;
}

describe.each(['node-redis', 'minimal'] as const)('event consumers on a Redis Cluster over %s', (connection) => {
  it('GIVEN a consumer waiting and no full pass due for ten minutes THEN a park wakes it through its hint', async () => {
    const prefix = uniquePrefix();
    const store = await openTestStore({ url: inject('redisClusterUrl'), prefix, connection, eventFullPassMs: 600_000 });
    open.push(store);
    const project = uniqueProject();
    await store.park(project, spec());
    const consumer = await store.consumer('hinted', 'c1');
    open.push(consumer);
    expect((await consumer.read()).map((e) => [e.type, e.questionId])).toEqual([['parked', 1]]);
    await expect.poll(() => subscribers(`${prefix}:hints`)).toBe(1);

    // Longer than the test may run: only the hint can end this wait with the event.
    const waiting = consumer.read({ blockMs: 60_000 });
    await store.park(project, spec());
    expect((await waiting).map((e) => [e.type, e.questionId])).toEqual([['parked', 2]]);
  });

  it('GIVEN an event that came with no hint THEN the periodic full pass hands it out', async () => {
    const prefix = uniquePrefix();
    const store = await openTestStore({ url: inject('redisClusterUrl'), prefix, connection, eventFullPassMs: 100 });
    open.push(store);
    const project = uniqueProject();
    await store.park(project, spec());
    const consumer = await store.consumer('unhinted', 'c1');
    open.push(consumer);
    expect(await consumer.read()).toHaveLength(1);

    // Written straight into the stream, as if its hint were lost.
    const raw = await connectNodeRedis(inject('redisClusterUrl'), { connectTimeoutMs: 2000 });
    const stream = new ProjectKeys(prefix, project).events;
    await raw.sendCommand(['XADD', stream, '*', 'type', 'answered', 'project', project, 'id', '1', 'at', '1']);
    raw.close();
    expect((await consumer.read({ blockMs: 60_000 })).map((e) => [e.type, e.questionId])).toEqual([['answered', 1]]);
  });
});
