/**
 * A Redis Cluster slot migrated by hand while an agent parks, a person answers and the hook claims in the project
 * it holds: nothing is lost. The test has a cluster of its own (moving a slot of the shared one would disturb the
 * files running beside it). The slot's keys move a few at a time (CLUSTER SETSLOT IMPORTING / MIGRATING,
 * GETKEYSINSLOT + MIGRATE … KEYS), so for a while they are split across two masters: single-key reads meet ASK,
 * multi-key scripts TRYAGAIN, scripts over records an index names a record on the other node; then the slot is
 * given to its new master on every node and the old one answers MOVED.
 */
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectTag } from '../../src/core/question-ref.js';
import type { EventConsumer, StoreEvent } from '../../src/store/port.js';
import { ProjectKeys } from '../../src/store/redis/keys.js';
import { openRedisStore, type RedisStore } from '../../src/store/redis/redis-store.js';
import { keySlot } from '../../src/store/redis/slot.js';
import { StoreUnavailableError } from '../../src/store/store-unavailable-error.js';
import { clusterReady, nodeCommand, startTestRedisCluster, type TestRedisCluster } from '../support/redis-cluster.js';
import { person, spec, uniquePrefix, uniqueProject } from '../support/store.js';

let cluster: TestRedisCluster;
beforeAll(async () => {
  cluster = await startTestRedisCluster();
});
afterAll(async () => {
  await cluster?.stop();
});

/** A count from `INFO <section>` of one node: `<field>:…<key>=N`, 0 when the line is absent. */
async function infoCount(url: string, section: string, field: string, key: string): Promise<number> {
  const info = String(await nodeCommand(url, ['INFO', section]));
  const line = info.split(/\r?\n/).find((l) => l.startsWith(`${field}:`));
  const match = line ? new RegExp(`${key}=(\\d+)`).exec(line) : null;
  return match ? Number(match[1]) : 0;
}

/** The master serving `slot`, by URL, from CLUSTER SLOTS as `url`'s node sees it. */
async function ownerOf(url: string, slot: number): Promise<string> {
  const reply = (await nodeCommand(url, ['CLUSTER', 'SLOTS'])) as [number, number, [string, number]][];
  const range = reply.find(([start, end]) => start <= slot && slot <= end);
  if (!range) throw new Error(`slot ${slot} has no master`);
  return `redis://${range[2][0]}:${range[2][1]}`;
}

/** `ASKING` then `args` on one connection to `url`: a look at a key of a slot it is importing. */
async function asking(url: string, args: readonly string[]): Promise<unknown> {
  const client = createClient({ url }) as RedisClientType;
  client.on('error', () => undefined);
  await client.connect();
  try {
    const asked = client.sendCommand(['ASKING']);
    const reply = client.sendCommand([...args]);
    await asked;
    return await reply;
  } finally {
    client.destroy();
  }
}

/** The slot of `project`'s keys under `prefix`, its master now and another master to move it to, with their ids. */
async function plan(prefix: string, project: string) {
  const slot = keySlot(`${prefix}:{${projectTag(project)}}:meta`);
  const source = await ownerOf(cluster.url, slot);
  const target = cluster.nodeUrls.find((url) => url !== source) ?? '';
  const sourceId = String(await nodeCommand(source, ['CLUSTER', 'MYID']));
  const targetId = String(await nodeCommand(target, ['CLUSTER', 'MYID']));
  return { slot, source, target, sourceId, targetId };
}

/** Give `slot` to `targetId` on every master, and wait until every node agrees. */
async function settle(slot: number, target: string, targetId: string): Promise<void> {
  for (const url of [target, ...cluster.nodeUrls.filter((u) => u !== target)]) {
    await nodeCommand(url, ['CLUSTER', 'SETSLOT', String(slot), 'NODE', targetId]);
  }
  await expect
    .poll(async () => (await Promise.all(cluster.nodeUrls.map((u) => ownerOf(u, slot)))).every((o) => o === target))
    .toBe(true);
}

describe('a slot migrated while questions are parked, answered and claimed', () => {
  it('GIVEN the project’s keys split across two masters for a while THEN every question, answer, claim and event is kept, once', async () => {
    const prefix = uniquePrefix();
    const project = uniqueProject('moving');
    const { slot, source, target, sourceId, targetId } = await plan(prefix, project);
    const asksBefore = await infoCount(target, 'commandstats', 'cmdstat_asking', 'calls');
    const tryAgainBefore =
      (await infoCount(source, 'errorstats', 'errorstat_TRYAGAIN', 'count')) +
      (await infoCount(target, 'errorstats', 'errorstat_TRYAGAIN', 'count'));

    // The agent's side on node-redis (mcp), the hook's on the minimal one; the consumer on its own store.
    const agent: RedisStore = await openRedisStore({ url: cluster.url, prefix });
    const hook: RedisStore = await openRedisStore({ url: cluster.url, prefix, connection: 'minimal' });
    const chat: RedisStore = await openRedisStore({ url: cluster.url, prefix });
    const consumer: EventConsumer = await chat.consumer('audit', 'c1');

    /** A call the cluster asked to try again (SlotMovingError, nothing written) is made again, as a caller would. */
    let triedAgain = 0;
    async function settled<T>(work: () => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        try {
          return await work();
        } catch (error) {
          const moving = error instanceof StoreUnavailableError && (error.cause as Error)?.name === 'SlotMovingError';
          if (!moving || attempt >= 10) throw error;
          triedAgain++;
        }
      }
    }

    const parked: number[] = [];
    const answerResults = new Map<number, string>();
    const confirmedBy = new Map<number, number>();
    let claims = 0;
    let releases = 0;
    const seen: StoreEvent[] = [];
    let stop = false;

    for (let i = 0; i < 40; i++) parked.push((await agent.park(project, spec({ question: `Q${i}?` }))).id);
    const first = parked[0] ?? 0;
    // Blocked in XREAD on the project's stream while it moves; woken by its answer after the move.
    const waiting = agent.waitWhilePending(project, first, { timeoutMs: 60_000 });
    waiting.catch(() => undefined); // awaited below; a failure must not go unhandled meanwhile

    const reading: Promise<void> = (async () => {
      let idle = 0;
      while (!stop || idle < 2) {
        const events = await consumer.read({ blockMs: 200, count: 50 });
        idle = events.length === 0 ? idle + 1 : 0;
        seen.push(...events);
        await consumer.ack(events);
      }
    })();
    // The inbox's view, read again and again: single-key reads, which meet ASK for keys already moved.
    let listed = 0;
    const listing = (async () => {
      while (!stop) {
        await settled(() => chat.list(project));
        listed++;
      }
    })();
    const parking = (async () => {
      while (!stop) parked.push((await settled(() => agent.park(project, spec({ question: 'More?' })))).id);
    })();
    const answering = (async () => {
      while (!stop) {
        const next = parked.find((id) => id !== first && !answerResults.has(id));
        if (next !== undefined) {
          const result = await settled(() =>
            chat.answer(project, next, { choices: ['Postgres'], other: false }, person()),
          );
          answerResults.set(next, result.kind);
        }
        const claim = await settled(() => hook.claimUndelivered(project, { budget: 50_000, leaseMs: 60_000 }));
        if (claim.questions.length === 0) continue; // every turn waits on the servers: no busy loop
        claims++;
        if (claims % 3 === 0) {
          await settled(() => hook.releaseClaim(project, claim));
          releases++;
        } else {
          for (const id of await settled(() => hook.confirmClaim(project, claim))) {
            confirmedBy.set(id, (confirmedBy.get(id) ?? 0) + 1);
          }
        }
      }
    })();

    // The migration, by hand, in batches of three keys, with a pause so the split lasts.
    await expect.poll(() => answerResults.size).toBeGreaterThanOrEqual(5);
    await nodeCommand(target, ['CLUSTER', 'SETSLOT', String(slot), 'IMPORTING', sourceId]);
    await nodeCommand(source, ['CLUSTER', 'SETSLOT', String(slot), 'MIGRATING', targetId]);
    const [targetHost, targetPort] = new URL(target).host.split(':');
    let split = false;
    for (;;) {
      const keys = (await nodeCommand(source, ['CLUSTER', 'GETKEYSINSLOT', String(slot), '3'])) as string[];
      if (keys.length === 0) break;
      await nodeCommand(source, ['MIGRATE', String(targetHost), String(targetPort), '', '0', '5000', 'KEYS', ...keys]);
      const left = Number(await nodeCommand(source, ['CLUSTER', 'COUNTKEYSINSLOT', String(slot)]));
      const arrived = Number(await nodeCommand(target, ['CLUSTER', 'COUNTKEYSINSLOT', String(slot)]));
      if (left > 0 && arrived > 0) split = true;
      // Let the inbox read the project at least once in this state before the next batch moves.
      const listings = listed;
      await expect.poll(() => listed).toBeGreaterThan(listings);
    }
    await settle(slot, target, targetId);
    expect(await clusterReady(cluster.nodeUrls)).toBe(true);

    // A while longer on the new master (the old one now answers MOVED), then everything left is delivered.
    const movedAt = parked.length;
    await expect.poll(() => parked.length).toBeGreaterThan(movedAt + 20);
    stop = true;
    await Promise.all([parking, answering, listing]);
    const last = await hook.claimUndelivered(project, { budget: 1_000_000, leaseMs: 60_000 });
    for (const id of await hook.confirmClaim(project, last)) confirmedBy.set(id, (confirmedBy.get(id) ?? 0) + 1);
    await chat.answer(project, first, { choices: ['SQLite'], other: false }, person('U2'));
    expect((await waiting)?.status).toBe('answered');
    await reading;

    // The slot moved, its keys were split across both masters for a while, and the cluster said ASK and TRYAGAIN.
    expect(await ownerOf(cluster.url, slot)).toBe(target);
    expect(Number(await nodeCommand(source, ['CLUSTER', 'COUNTKEYSINSLOT', String(slot)]))).toBe(0);
    expect(split).toBe(true);
    expect(await infoCount(target, 'commandstats', 'cmdstat_asking', 'calls')).toBeGreaterThan(asksBefore);
    const tryAgainAfter =
      (await infoCount(source, 'errorstats', 'errorstat_TRYAGAIN', 'count')) +
      (await infoCount(target, 'errorstats', 'errorstat_TRYAGAIN', 'count'));
    expect(tryAgainAfter).toBeGreaterThan(tryAgainBefore);

    // Every parked question exists, under its own id.
    expect(new Set(parked).size).toBe(parked.length);
    const stored = await agent.list(project);
    expect(stored.map((q) => q.id).sort((a, b) => a - b)).toEqual([...parked].sort((a, b) => a - b));
    // Every answer was recorded once: each call won, and the stored answer is that one.
    expect([...answerResults.values()].every((kind) => kind === 'won')).toBe(true);
    for (const id of answerResults.keys()) {
      const question = stored.find((q) => q.id === id);
      expect(question, `#${id}`).toMatchObject({ answer: { choices: ['Postgres'] } });
    }
    // Every claim was confirmed or given back: every answer reached the agent once, no lease is left.
    expect(releases).toBeGreaterThan(0);
    expect([...confirmedBy.keys()].sort((a, b) => a - b)).toEqual([...answerResults.keys()].sort((a, b) => a - b));
    expect([...confirmedBy.values()].every((n) => n === 1)).toBe(true);
    for (const id of answerResults.keys()) expect(stored.find((q) => q.id === id)?.status, `#${id}`).toBe('delivered');
    expect(stored.filter((q) => q.status === 'pending').map((q) => q.id)).toEqual(
      parked.filter((id) => id !== first && !answerResults.has(id)),
    );
    // The consumer group saw every event, once.
    const kinds = (type: string) =>
      seen
        .filter((e) => e.type === type)
        .map((e) => e.questionId)
        .sort((a, b) => a - b);
    expect(kinds('parked')).toEqual([...parked].sort((a, b) => a - b));
    expect(kinds('answered')).toEqual([...answerResults.keys(), first].sort((a, b) => a - b));
    expect(kinds('delivered')).toEqual([...confirmedBy.keys()].sort((a, b) => a - b));
    expect(new Set(seen.map((e) => e.eventId)).size).toBe(seen.length);

    console.info(
      `migration: ${parked.length} parked, ${answerResults.size} answered, ${claims} claims (${releases} given back), ` +
        `${listed} listings, ${triedAgain} calls tried again by the caller`,
    );
    await consumer.close();
    for (const store of [agent, hook, chat]) await store.close();
  });

  it('GIVEN the outbox moved and its records not yet THEN a claim takes nothing, drops nothing, and takes them all once the slot settled', async () => {
    const prefix = uniquePrefix();
    const project = uniqueProject('split');
    const { slot, source, target, sourceId, targetId } = await plan(prefix, project);
    const hook = await openRedisStore({ url: cluster.url, prefix, connection: 'minimal' });
    const chat = await openRedisStore({ url: cluster.url, prefix });
    for (const id of [1, 2]) {
      await chat.park(project, spec());
      await chat.answer(project, id, { choices: ['Postgres'], other: false }, person());
    }
    const keys = new ProjectKeys(prefix, project);

    await nodeCommand(target, ['CLUSTER', 'SETSLOT', String(slot), 'IMPORTING', sourceId]);
    await nodeCommand(source, ['CLUSTER', 'SETSLOT', String(slot), 'MIGRATING', targetId]);
    const [host, port] = new URL(target).host.split(':');
    await nodeCommand(source, ['MIGRATE', String(host), String(port), keys.outbox, '0', '5000']);

    // The claim runs where the outbox now is (ASK), meets records still on the source: nothing taken or dropped.
    const claim = hook.claimUndelivered(project, { budget: 50_000, leaseMs: 60_000 });
    // SLOT_MOVING from the script itself (its error names the key the script ran on), not a router retry.
    await expect(claim).rejects.toMatchObject({
      name: 'StoreUnavailableError',
      cause: { name: 'SlotMovingError', message: expect.stringContaining(keys.outbox) },
    });
    expect(Number(await asking(target, ['ZCARD', keys.outbox]))).toBe(2);
    expect(await nodeCommand(source, ['HGET', keys.question(1), 'claim'])).toBeNull();

    for (;;) {
      const left = (await nodeCommand(source, ['CLUSTER', 'GETKEYSINSLOT', String(slot), '10'])) as string[];
      if (left.length === 0) break;
      await nodeCommand(source, ['MIGRATE', String(host), String(port), '', '0', '5000', 'KEYS', ...left]);
    }
    await settle(slot, target, targetId);
    const settled = await hook.claimUndelivered(project, { budget: 50_000, leaseMs: 60_000 });
    expect(settled.questions.map((q) => q.id)).toEqual([1, 2]);
    expect(await hook.confirmClaim(project, settled)).toEqual([1, 2]);
    for (const store of [hook, chat]) await store.close();
  });

  it('GIVEN a watch blocked on the project’s stream WHEN the slot moves to another master THEN it follows and wakes on the next change', async () => {
    const prefix = uniquePrefix();
    const project = uniqueProject('watched');
    const { slot, source, target, sourceId, targetId } = await plan(prefix, project);
    const agent = await openRedisStore({ url: cluster.url, prefix, connection: 'minimal' });
    const chat = await openRedisStore({ url: cluster.url, prefix });
    await chat.park(project, spec());
    const watch = await agent.watch(project);
    const changed = watch.changed({ timeoutMs: 60_000 });
    const blockedReads = async (url: string) =>
      String(await nodeCommand(url, ['CLIENT', 'LIST']))
        .split('\n')
        .filter((line) => / flags=\S*b\S* /.test(line) && line.includes(' cmd=xread ')).length;
    await expect.poll(() => blockedReads(source)).toBe(1);

    await nodeCommand(target, ['CLUSTER', 'SETSLOT', String(slot), 'IMPORTING', sourceId]);
    await nodeCommand(source, ['CLUSTER', 'SETSLOT', String(slot), 'MIGRATING', targetId]);
    const [host, port] = new URL(target).host.split(':');
    const keys = (await nodeCommand(source, ['CLUSTER', 'GETKEYSINSLOT', String(slot), '100'])) as string[];
    await nodeCommand(source, ['MIGRATE', String(host), String(port), '', '0', '5000', 'KEYS', ...keys]);
    await settle(slot, target, targetId);
    // The old master turned the blocked read away (MOVED); the watch now waits on the new one.
    await expect.poll(() => blockedReads(target)).toBe(1);
    expect(await blockedReads(source)).toBe(0);

    await chat.park(project, spec());
    expect(await changed).toBe(true);
    await watch.close();
    for (const store of [agent, chat]) await store.close();
  });
});
