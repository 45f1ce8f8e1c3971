/**
 * A Redis Cluster node removed for good while an event consumer's hint subscription sits on it: node-redis moves the
 * subscription to a node still in the cluster, and the hints arrive again (no full pass is due for ten minutes, so
 * only a hint can end the consumer's wait). A cluster of its own, with replicas and a short node time-out: killing a
 * node of the shared one would disturb the files running beside it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openRedisStore } from '../../src/store/redis/redis-store.js';
import { nodeCommand, startTestRedisCluster, type TestRedisCluster } from '../support/redis-cluster.js';
import { spec, uniquePrefix, uniqueProject } from '../support/store.js';

let cluster: TestRedisCluster;
beforeAll(async () => {
  cluster = await startTestRedisCluster(3, { replicas: 1, nodeTimeoutMs: 1000 });
});
afterAll(async () => {
  await cluster?.stop();
});

/** The nodes (by URL) that hold a subscriber of `channel`; nodes that do not answer are left out. */
async function subscribedNodes(channel: string): Promise<string[]> {
  const found: string[] = [];
  for (const url of cluster.nodeUrls) {
    const reply = (await nodeCommand(url, ['PUBSUB', 'NUMSUB', channel]).catch(() => undefined)) as
      | [string, number]
      | undefined;
    if (reply && Number(reply[1]) > 0) found.push(url);
  }
  return found;
}

it('GIVEN the node a hint subscription sits on killed for good THEN the subscription moves and a park still wakes the consumer through its hint', async () => {
  const prefix = uniquePrefix();
  const hints = `${prefix}:hints`;
  const store = await openRedisStore({ url: cluster.url, prefix, eventFullPassMs: 600_000 });
  const project = uniqueProject('gone');
  await store.park(project, spec());
  const consumer = await store.consumer('hinted', 'c1');
  try {
    expect((await consumer.read()).map((e) => [e.type, e.questionId])).toEqual([['parked', 1]]);
    await expect.poll(() => subscribedNodes(hints)).toHaveLength(1);
    const [sitsOn] = await subscribedNodes(hints);
    await cluster.kill(String(sitsOn));

    // Moved to a node still in the cluster (after its replica took over, if it was a master).
    await expect
      .poll(async () => (await subscribedNodes(hints)).filter((url) => url !== sitsOn), { timeout: 30_000 })
      .toHaveLength(1);
    const waiting = consumer.read({ blockMs: 60_000 });
    await expect
      .poll(
        async () => {
          try {
            return (await store.park(project, spec())).id > 0;
          } catch {
            return false; // the cluster may still be electing the dead master's replica
          }
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    expect((await waiting).map((e) => e.type)).toContain('parked');
  } finally {
    await consumer.close();
    await store.close();
  }
});
