/**
 * The minimal client's cluster routing (src/store/redis/one-hop-cluster.ts: one hop of MOVED or ASK) and the slot
 * function: the slot of a key checked against a real cluster's CLUSTER KEYSLOT; MOVED, ASK, TRYAGAIN and a node
 * going away driven by fake nodes on port 0. node-redis routes for the long-running processes (the cluster tier).
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { connectMinimal } from '../../src/store/redis/one-hop-cluster.js';
import { keySlot } from '../../src/store/redis/slot.js';
import { clusterInfo, type FakeNode, resp, startFakeNode } from '../support/fake-resp.js';
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

describe('the minimal client on a Redis Cluster: one hop', () => {
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

  async function connect(seed: FakeNode) {
    const routed = await connectMinimal(`redis://127.0.0.1:${seed.port}`, 1000);
    closers.push(() => routed.close());
    return routed;
  }

  it('GIVEN a server with cluster support disabled THEN it is used as one server', async () => {
    const single = await node((args) => (args[0] === 'INFO' ? clusterInfo(false) : resp.bulk('one')));
    const connection = await connect(single);
    expect(connection.isCluster).toBe(false);
    expect(await connection.sendCommand(['GET', key])).toBe('one');
  });

  it('GIVEN a user without the right to INFO THEN it is used as one server', async () => {
    const single = await node((args) =>
      args[0] === 'INFO' ? resp.error("NOPERM User u has no permissions to run the 'info' command") : resp.bulk('one'),
    );
    const connection = await connect(single);
    expect(connection.isCluster).toBe(false);
    expect(await connection.sendCommand(['GET', key])).toBe('one');
  });

  it('GIVEN MOVED THEN the command goes to the node it names, and later commands of that slot go there at once', async () => {
    let b: FakeNode | undefined;
    const a = await node((args) => {
      if (args[0] === 'INFO') return clusterInfo(true);
      return args[1] === key || args[1] === 'al:{tag}:d:1'
        ? resp.error(`MOVED ${slot} 127.0.0.1:${b?.port}`)
        : resp.bulk('from a');
    });
    b = await node((args) => resp.bulk(`${args[0]} from b`));
    const connection = await connect(a);
    expect(connection.isCluster).toBe(true);
    expect(await connection.sendCommand(['GET', key])).toBe('GET from b');
    expect(await connection.sendCommand(['HGETALL', 'al:{tag}:d:1'])).toBe('HGETALL from b');
    expect(await connection.sendCommand(['HGETALL', 'al:{other}:meta'])).toBe('from a');
    expect(commandsOf(a, 'GET')).toHaveLength(1);
    expect(commandsOf(a, 'HGETALL').map((c) => c.args[1])).toEqual(['al:{other}:meta']);
    expect(b.received.map((c) => c.args[0])).toEqual(['GET', 'HGETALL']);
  });

  it('GIVEN ASK THEN ASKING and the command go to the target, and the next command to the seed again', async () => {
    let b: FakeNode | undefined;
    const a = await node((args) => {
      if (args[0] === 'INFO') return clusterInfo(true);
      return args[1] === key ? resp.error(`ASK ${slot} 127.0.0.1:${b?.port}`) : resp.bulk('from a');
    });
    b = await node((_args, asking) => (asking ? resp.bulk('from b') : resp.error(`MOVED ${slot} ${a.address}`)));
    const connection = await connect(a);
    expect(await connection.sendCommand(['HGETALL', key])).toBe('from b');
    expect(b.received).toEqual([{ args: ['HGETALL', key], asking: true }]);
    expect(await connection.sendCommand(['HGETALL', 'al:{tag}:d:1'])).toBe('from a');
  });

  it('GIVEN a second redirection THEN it is not followed at once: the command starts again from the node it named', async () => {
    let b: FakeNode | undefined;
    let c: FakeNode | undefined;
    const a = await node((args) =>
      args[0] === 'INFO' ? clusterInfo(true) : resp.error(`MOVED ${slot} 127.0.0.1:${b?.port}`),
    );
    b = await node(() => resp.error(`MOVED ${slot} 127.0.0.1:${c?.port}`));
    c = await node(() => resp.bulk('from c'));
    const connection = await connect(a);
    expect(await connection.sendCommand(['GET', key])).toBe('from c');
    expect([commandsOf(a, 'GET'), commandsOf(b, 'GET'), commandsOf(c, 'GET')].map((l) => l.length)).toEqual([1, 1, 1]);
  });

  it('GIVEN TRYAGAIN twice THEN the command is sent a third time and its reply returned', async () => {
    let tries = 0;
    const a = await node((args) => {
      if (args[0] === 'INFO') return clusterInfo(true);
      tries++;
      return tries <= 2 ? resp.error('TRYAGAIN Multiple keys request during rehashing of slot') : resp.integer(7);
    });
    const connection = await connect(a);
    expect(await connection.sendCommand(['EVALSHA', 'abc', '2', key, 'al:{tag}:outbox'])).toBe(7);
    expect(tries).toBe(3);
  });

  it('GIVEN a script stopped at a key of a migrating slot THEN it is sent again (it wrote nothing)', async () => {
    let tries = 0;
    const a = await node((args) => {
      if (args[0] === 'INFO') return clusterInfo(true);
      tries++;
      return tries === 1
        ? resp.error(
            'ERR Script attempted to access a non local key in a cluster node script: abc, on @user_script:15.',
          )
        : resp.integer(1);
    });
    expect(await (await connect(a)).sendCommand(['EVALSHA', 'abc', '1', key])).toBe(1);
  });

  it('GIVEN TRYAGAIN every time THEN it gives up with SlotMovingError, a bounded number of attempts', async () => {
    const a = await node((args) =>
      args[0] === 'INFO' ? clusterInfo(true) : resp.error('TRYAGAIN Multiple keys request'),
    );
    const connection = await connect(a);
    await expect(connection.sendCommand(['EVALSHA', 'abc', '1', key])).rejects.toMatchObject({
      name: 'SlotMovingError',
    });
    expect(commandsOf(a, 'EVALSHA')).toHaveLength(16);
  });

  it('GIVEN the node a MOVED named gone THEN the command fails as unavailable, and the next goes to the seed again', async () => {
    const gone = await startFakeNode(() => resp.bulk('from gone'));
    const gonePort = gone.port;
    let moved = false;
    const a = await node((args) => {
      if (args[0] === 'INFO') return clusterInfo(true);
      if (moved) return resp.bulk('from a');
      moved = true;
      return resp.error(`MOVED ${slot} 127.0.0.1:${gonePort}`);
    });
    const connection = await connect(a);
    expect(await connection.sendCommand(['GET', key])).toBe('from gone');
    await gone.close();
    const failed = await connection.sendCommand(['GET', key]).catch((e: unknown) => e);
    expect(connection.unavailable(failed)).toBe(true);
    expect(await connection.sendCommand(['GET', key])).toBe('from a');
  });

  it('GIVEN commands the table does not route THEN a programming error, nothing sent', async () => {
    const a = await node((args) => (args[0] === 'INFO' ? clusterInfo(true) : resp.ok));
    const connection = await connect(a);
    await expect(connection.sendCommand(['KEYS', '*'])).rejects.toMatchObject({ name: 'UnroutableCommandError' });
    await expect(connection.sendCommand(['EVALSHA', 'abc', '0', 'x'])).rejects.toMatchObject({
      name: 'UnroutableCommandError',
    });
    await expect(connection.sendCommand(['EVALSHA', 'abc', '2', 'al:{a}:x', 'al:{b}:x'])).rejects.toMatchObject({
      name: 'UnroutableCommandError',
    });
    expect(a.received.map((c) => c.args[0])).toEqual(['INFO']);
  });

  it('GIVEN a cluster URL naming a database other than 0 THEN it is refused, saying why', async () => {
    const a = await node((args) => (args[0] === 'INFO' ? clusterInfo(true) : resp.ok));
    await expect(connectMinimal(`redis://127.0.0.1:${a.port}/2`, 1000)).rejects.toThrow(/database 0.*got \/2/);
  });
});
