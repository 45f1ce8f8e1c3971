/**
 * The cluster router (src/store/redis/cluster-connection.ts) and the slot function: the slot of a key checked
 * against a real cluster's CLUSTER KEYSLOT; MOVED, ASK, TRYAGAIN and a node going away driven by fake nodes on port
 * 0, over both per-node clients.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { connectRedis, type NodeConnector } from '../../src/store/redis/cluster-connection.js';
import { connectReconnecting } from '../../src/store/redis/reconnecting-connection.js';
import { connectResp } from '../../src/store/redis/resp-connection.js';
import { keySlot } from '../../src/store/redis/slot.js';
import { clusterSlots, type FakeNode, resp, startFakeNode } from '../support/fake-resp.js';
import { nodeCommand } from '../support/redis-cluster.js';

describe('the hash slot of a key', () => {
  const keys = [
    '123456789',
    'al:projects',
    'al:{Zx1abcDEF_-0123}:q:17',
    'al:{failed}:groups',
    'al-test-1a2b3c4d:lease:sweep',
    '{user1000}.following',
    'foo{}{bar}',
    'foo{{bar}}zap',
    'foo{bar}{zap}',
    '{}',
    '}{',
    '',
    'prefix:{projet-été}:meta',
    'x'.repeat(300),
  ];

  it('GIVEN keys with and without hash tags THEN the slot is the one the cluster computes', async () => {
    const url = inject('redisClusterUrl');
    for (const key of keys) {
      expect(keySlot(key), JSON.stringify(key)).toBe(Number(await nodeCommand(url, ['CLUSTER', 'KEYSLOT', key])));
    }
  });

  it('GIVEN the reference input THEN CRC16/XMODEM of "123456789" (0x31C3) modulo 16384', () => {
    expect(keySlot('123456789')).toBe(0x31c3 % 16384);
  });
});

const clients: readonly { readonly name: string; readonly connect: NodeConnector }[] = [
  { name: 'the reconnecting client', connect: (url) => connectReconnecting(url, 1000) },
  { name: 'the minimal RESP client', connect: (url) => connectResp(url, { connectTimeoutMs: 1000 }) },
];

describe.each(clients)('the cluster router over $name', ({ connect }) => {
  const nodes: FakeNode[] = [];
  const closers: (() => void)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) close();
    for (const node of nodes.splice(0)) await node.close();
  });

  const key = 'al:{tag}:q:1';
  const slot = keySlot(key);
  const commandsOf = (node: FakeNode, name: string) => node.received.filter((c) => c.args[0] === name);

  async function node(answer: Parameters<typeof startFakeNode>[0]): Promise<FakeNode> {
    const started = await startFakeNode(answer);
    nodes.push(started);
    return started;
  }

  async function router(seed: FakeNode) {
    const routed = await connectRedis(`redis://127.0.0.1:${seed.port}`, connect);
    closers.push(() => routed.close());
    return routed;
  }

  it('GIVEN a server with cluster support disabled THEN it is used as one server', async () => {
    const single = await node((args) =>
      args[0] === 'CLUSTER' ? resp.error('ERR This instance has cluster support disabled') : resp.bulk('one'),
    );
    const connection = await router(single);
    expect(connection.isCluster).toBe(false);
    expect(await connection.sendCommand(['GET', key])).toBe('one');
  });

  it('GIVEN a user without the right to CLUSTER SLOTS THEN it is used as one server', async () => {
    const single = await node((args) =>
      args[0] === 'CLUSTER'
        ? resp.error("NOPERM User u has no permissions to run the 'cluster|slots' command")
        : resp.bulk('one'),
    );
    expect((await router(single)).isCluster).toBe(false);
  });

  it('GIVEN a server or proxy that does not know CLUSTER THEN it is used as one server', async () => {
    const single = await node((args) =>
      args[0] === 'CLUSTER' ? resp.error("ERR unknown command 'CLUSTER', with args beginning with: 'SLOTS'") : resp.ok,
    );
    expect((await router(single)).isCluster).toBe(false);
  });

  it('GIVEN a cluster node THEN each command goes to the master of its slot, keyless ones to any', async () => {
    let b: FakeNode | undefined;
    const a = await node((args) => {
      if (args[0] === 'CLUSTER')
        return clusterSlots([
          [0, slot - 1, a.port],
          [slot, 16383, b?.port ?? 0],
        ]);
      return args[0] === 'PING' ? '+PONG\r\n' : resp.bulk('from a');
    });
    b = await node((args) => resp.bulk(`${args[0]} from b`));
    const connection = await router(a);
    expect(connection.isCluster).toBe(true);
    expect(await connection.sendCommand(['HGET', key, 'status'])).toBe('HGET from b');
    expect(await connection.sendCommand(['EVALSHA', 'abc', '2', key, 'al:{tag}:outbox', 'x'])).toBe('EVALSHA from b');
    expect(await connection.sendCommand(['PING'])).toBe('PONG');
    expect(commandsOf(a, 'HGET')).toEqual([]);
  });

  it('GIVEN MOVED THEN the command goes to the new owner, the map is read again from it, and later commands go there', async () => {
    let b: FakeNode | undefined;
    const a = await node((args) => {
      if (args[0] === 'CLUSTER') return clusterSlots([[0, 16383, a.port]]);
      return resp.error(`MOVED ${slot} 127.0.0.1:${b?.port}`);
    });
    b = await node((args) => (args[0] === 'CLUSTER' ? clusterSlots([[0, 16383, b?.port ?? 0]]) : resp.bulk('from b')));
    const connection = await router(a);
    expect(await connection.sendCommand(['GET', key])).toBe('from b');
    await expect.poll(() => commandsOf(b, 'CLUSTER').length).toBe(1);
    expect(await connection.sendCommand(['HGETALL', 'al:{other}:meta'])).toBe('from b');
    expect(commandsOf(a, 'GET')).toHaveLength(1);
    expect(commandsOf(a, 'HGETALL')).toHaveLength(0);
    expect(commandsOf(a, 'CLUSTER')).toHaveLength(1);
  });

  it('GIVEN ASK THEN ASKING and the command go to the target, and the next command to the owner again', async () => {
    let b: FakeNode | undefined;
    const a = await node((args) => {
      if (args[0] === 'CLUSTER') return clusterSlots([[0, 16383, a.port]]);
      return args[1] === key ? resp.error(`ASK ${slot} 127.0.0.1:${b?.port}`) : resp.bulk('from a');
    });
    b = await node((_args, asking) => (asking ? resp.bulk('from b') : resp.error(`MOVED ${slot} ${a.address}`)));
    const connection = await router(a);
    expect(await connection.sendCommand(['HGETALL', key])).toBe('from b');
    expect(b.received).toEqual([{ args: ['HGETALL', key], asking: true }]);
    expect(await connection.sendCommand(['HGETALL', 'al:{tag}:d:1'])).toBe('from a');
    expect(commandsOf(a, 'CLUSTER')).toHaveLength(1);
  });

  it('GIVEN TRYAGAIN twice THEN the command is sent a third time and its reply returned', async () => {
    let tries = 0;
    const a = await node((args) => {
      if (args[0] === 'CLUSTER') return clusterSlots([[0, 16383, a.port]]);
      tries++;
      return tries <= 2 ? resp.error('TRYAGAIN Multiple keys request during rehashing of slot') : resp.integer(7);
    });
    const connection = await router(a);
    expect(await connection.sendCommand(['EVALSHA', 'abc', '2', key, 'al:{tag}:outbox'])).toBe(7);
    expect(tries).toBe(3);
  });

  it('GIVEN a script stopped at a key of a migrating slot THEN it is sent again (it wrote nothing)', async () => {
    let tries = 0;
    const a = await node((args) => {
      if (args[0] === 'CLUSTER') return clusterSlots([[0, 16383, a.port]]);
      tries++;
      return tries === 1
        ? resp.error(
            'ERR Script attempted to access a non local key in a cluster node script: abc, on @user_script:15.',
          )
        : resp.integer(1);
    });
    expect(await (await router(a)).sendCommand(['EVALSHA', 'abc', '1', key])).toBe(1);
  });

  it('GIVEN TRYAGAIN every time THEN the router gives up with SlotMovingError, a bounded number of attempts', async () => {
    const a = await node((args) =>
      args[0] === 'CLUSTER' ? clusterSlots([[0, 16383, a.port]]) : resp.error('TRYAGAIN Multiple keys request'),
    );
    const connection = await router(a);
    await expect(connection.sendCommand(['EVALSHA', 'abc', '1', key])).rejects.toMatchObject({
      name: 'SlotMovingError',
    });
    expect(commandsOf(a, 'EVALSHA')).toHaveLength(16);
  });

  it('GIVEN the slot’s master gone THEN the map is read from another master and the command goes to the new owner', async () => {
    const gone = await startFakeNode(() => undefined);
    const gonePort = gone.port;
    await gone.close();
    let failedOver = false;
    const a = await node((args) => {
      if (args[0] !== 'CLUSTER') return resp.bulk('from a');
      const reply = clusterSlots(
        failedOver
          ? [[0, 16383, a.port]]
          : [
              [0, slot - 1, a.port],
              [slot, 16383, gonePort],
            ],
      );
      failedOver = true;
      return reply;
    });
    const connection = await router(a);
    expect(await connection.sendCommand(['GET', key])).toBe('from a');
  });

  it('GIVEN commands the table does not route THEN a programming error, nothing sent', async () => {
    const a = await node((args) => (args[0] === 'CLUSTER' ? clusterSlots([[0, 16383, a.port]]) : resp.ok));
    const connection = await router(a);
    await expect(connection.sendCommand(['KEYS', '*'])).rejects.toMatchObject({ name: 'UnroutableCommandError' });
    await expect(connection.sendCommand(['EVALSHA', 'abc', '0', 'x'])).rejects.toMatchObject({
      name: 'UnroutableCommandError',
    });
    await expect(connection.sendCommand(['EVALSHA', 'abc', '2', 'al:{a}:x', 'al:{b}:x'])).rejects.toMatchObject({
      name: 'UnroutableCommandError',
    });
    expect(a.received.map((c) => c.args[0])).toEqual(['CLUSTER']);
  });

  it('GIVEN a cluster URL naming a database other than 0 THEN it is refused, saying why', async () => {
    const a = await node((args) => (args[0] === 'CLUSTER' ? clusterSlots([[0, 16383, a.port]]) : resp.ok));
    await expect(connectRedis(`redis://127.0.0.1:${a.port}/2`, connect)).rejects.toThrow(/database 0.*got \/2/);
  });
});
