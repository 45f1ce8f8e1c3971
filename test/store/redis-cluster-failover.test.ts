/**
 * A Redis Cluster master dying: its replica takes over, and a store that was open keeps working without being
 * reopened (the router reads the slot map again from the other nodes). A cluster of its own, with replicas and a
 * short node time-out, since killing a master of the shared one would disturb the files running beside it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectTag } from '../../src/core/question-ref.js';
import { openRedisStore } from '../../src/store/redis/redis-store.js';
import { keySlot } from '../../src/store/redis/slot.js';
import { StoreUnavailableError } from '../../src/store/store-unavailable-error.js';
import { nodeCommand, startTestRedisCluster, type TestRedisCluster } from '../support/redis-cluster.js';
import { person, spec, uniquePrefix, uniqueProject } from '../support/store.js';

let cluster: TestRedisCluster;
beforeAll(async () => {
  cluster = await startTestRedisCluster(3, { replicas: 1, nodeTimeoutMs: 1000 });
});
afterAll(async () => {
  await cluster?.stop();
});

/** The master serving `slot`, by URL, as the node at `url` sees it. */
async function ownerOf(url: string, slot: number): Promise<string> {
  const reply = (await nodeCommand(url, ['CLUSTER', 'SLOTS'])) as [number, number, [string, number]][];
  const range = reply.find(([start, end]) => start <= slot && slot <= end);
  return range ? `redis://${range[2][0]}:${range[2][1]}` : '';
}

/** A node that still answers (an earlier run may have killed the first), to name in REDIS_URL. */
async function liveNode(): Promise<string> {
  for (const url of cluster.nodeUrls) {
    if (await nodeCommand(url, ['PING']).catch(() => undefined)) return url;
  }
  throw new Error('no node answers');
}

/** A node other than `not` that still answers. */
async function liveNodeBut(not: string): Promise<string> {
  for (const url of cluster.nodeUrls) {
    if (url !== not && (await nodeCommand(url, ['PING']).catch(() => undefined))) return url;
  }
  throw new Error('no other node answers');
}

async function hasReplica(master: string): Promise<boolean> {
  return String(await nodeCommand(master, ['INFO', 'replication'])).includes('connected_slaves:1');
}

describe.each(['node-redis', 'minimal'] as const)('a master dying, over %s', (connection) => {
  it('GIVEN the master of a project’s slot killed THEN once its replica took over the same store reads and writes again', async () => {
    const prefix = uniquePrefix();
    const seed = await liveNode();
    // A project on a master that still has its replica (an earlier run may have used one up).
    let project = uniqueProject('failover');
    let slot = keySlot(`${prefix}:{${projectTag(project)}}:meta`);
    while (!(await hasReplica(await ownerOf(seed, slot)))) {
      project = uniqueProject('failover');
      slot = keySlot(`${prefix}:{${projectTag(project)}}:meta`);
    }
    const store = await openRedisStore({ url: seed, prefix, connection });
    const chat = await openRedisStore({ url: seed, prefix });
    await store.park(project, spec());
    await chat.answer(project, 1, { choices: ['Postgres'], other: false }, person());
    const master = await ownerOf(seed, slot);
    // The replica has everything written so far before its master dies.
    expect(Number(await nodeCommand(master, ['WAIT', '1', '5000']))).toBe(1);
    await cluster.kill(master);

    const survivor = seed === master ? await liveNodeBut(master) : seed;
    await expect.poll(() => ownerOf(survivor, slot), { timeout: 20_000 }).not.toBe(master);
    // Calls fail as unavailable while the cluster elects the replica, then work on the same store.
    await expect
      .poll(
        async () => {
          try {
            return (await store.get(project, 1))?.status;
          } catch (error) {
            if (error instanceof StoreUnavailableError) return 'unavailable';
            throw error;
          }
        },
        { timeout: 20_000 },
      )
      .toBe('answered');
    expect((await store.park(project, spec())).id).toBe(2);
    const claim = await store.claimUndelivered(project, { budget: 50_000, leaseMs: 60_000 });
    expect(claim.questions.map((q) => q.id)).toEqual([1]);
    expect(await store.confirmClaim(project, claim)).toEqual([1]);
    await store.close();
    await chat.close();
  });
});
