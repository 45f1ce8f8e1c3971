/**
 * The store's two Redis clients against a real redis-server of the test's own: the minimal one (resp-connection.ts)
 * reads replies whole however the socket splits them (a proxy cuts them); node-redis behind the store's connection
 * (node-redis-connection.ts) makes lost connections again, rides out a short outage, bounds a long one in time,
 * classes what means "unavailable", and renews subscriptions.
 */

import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { ErrorReply } from '@redis/client';
import fc from 'fast-check';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisConnection } from '../../src/store/redis/connection.js';
import { connectNodeRedis, nodeRedisUnavailable } from '../../src/store/redis/node-redis-connection.js';
import { connectResp, respUnavailable } from '../../src/store/redis/resp-connection.js';
import { freePort, startTestRedis, type TestRedis } from '../support/redis-server.js';

let redis: TestRedis;
let admin: ReturnType<typeof createClient>;

beforeAll(async () => {
  redis = await startTestRedis();
  admin = createClient({ url: redis.url });
  admin.on('error', () => undefined);
  await admin.connect();
});
afterAll(async () => {
  admin.destroy();
  await redis.stop();
});

/** Drop every client connection but the test's own (as a network fault or a server restart would). */
async function dropConnections(name: string): Promise<number> {
  const list = String(await admin.sendCommand(['CLIENT', 'LIST']));
  const ids = [...list.matchAll(/id=(\d+) .*? name=(\S*) /g)].filter(([, , n]) => n === name).map(([, id]) => id);
  for (const id of ids) await admin.sendCommand(['CLIENT', 'KILL', 'ID', String(id)]);
  return ids.length;
}

/** Resolves when `connection` calls its ready listeners next. */
function nextReady(connection: RedisConnection): Promise<void> {
  return new Promise((resolve) => {
    const stop = connection.onReady(() => {
      stop();
      resolve();
    });
  });
}

/** A reply Redis can send: a bulk string, an integer, a null bulk string or an array of those. */
type Value = string | number | null | Value[];
const value: fc.Arbitrary<Value> = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.integer({ min: -1_000_000, max: 1_000_000 }),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
  ),
})).value;

/**
 * A Lua script that returns `value` as Redis would send it: the structure comes as JSON in ARGV[1] (null, integers,
 * lists, and {"s": k} for the k-th string), the strings as themselves after it, so their bytes never pass through
 * JSON escapes. Redis sends false as a null bulk string, a number as an integer, a table as an array.
 */
const BUILD = `
local function build(v)
  if v == cjson.null then return false end
  if type(v) == 'table' then
    if v.s ~= nil then return ARGV[v.s + 2] end
    local out = {}
    for i, item in ipairs(v) do out[i] = build(item) end
    return out
  end
  return v
end
return build(cjson.decode(ARGV[1]))`;

function evalArgs(v: Value): string[] {
  const strings: string[] = [];
  const shape = (item: Value): unknown => {
    if (typeof item === 'string') return { s: strings.push(item) - 1 };
    return Array.isArray(item) ? item.map(shape) : item;
  };
  const json = JSON.stringify(shape(v));
  return ['EVAL', BUILD, '0', json, ...strings];
}

/**
 * A proxy in front of the test's redis-server that hands its replies on in pieces of the given sizes (one write
 * each, a turn of the event loop apart), so the client reads them cut at every kind of place.
 */
async function splittingProxy(cuts: readonly number[]): Promise<{ server: Server; url: string }> {
  const server = createServer((client: Socket) => {
    const upstream = createConnection({ host: '127.0.0.1', port: redis.port });
    client.setNoDelay(true);
    client.pipe(upstream);
    let sending = Promise.resolve();
    upstream.on('data', (chunk: Buffer) => {
      sending = sending.then(async () => {
        let at = 0;
        for (const cut of [...cuts, chunk.length]) {
          if (at >= chunk.length) break;
          client.write(chunk.subarray(at, at + cut));
          at += cut;
          await new Promise((resolve) => setImmediate(resolve));
        }
      });
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, url: `redis://127.0.0.1:${port}` };
}

describe('the minimal RESP client', () => {
  it('GIVEN replies of any shape split at any bytes THEN each command gets its own reply, whole and in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(value, { minLength: 1, maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: 7 }), { maxLength: 60 }),
        async (replies, cuts) => {
          const { server, url } = await splittingProxy(cuts);
          const connection = await connectResp(url, { connectTimeoutMs: 1000 });
          try {
            const got = await Promise.all(replies.map((reply) => connection.sendCommand(evalArgs(reply))));
            expect(got).toEqual(replies);
          } finally {
            connection.close();
            server.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('GIVEN a command of many arguments and a reply of many values THEN both cross whole (one write, one read pass)', async () => {
    const connection = await connectResp(redis.url, { connectTimeoutMs: 1000 });
    try {
      const fields = Array.from({ length: 3000 }, (_, i) => [`f${i}`, `välue ${i} ${'x'.repeat(i % 200)}`]).flat();
      expect(await connection.sendCommand(['HSET', 'client-test:many', ...fields])).toBe(3000);
      const names = Array.from({ length: 3000 }, (_, i) => `f${i}`);
      const got = (await connection.sendCommand(['HMGET', 'client-test:many', ...names, 'absent'])) as unknown[];
      expect(got).toHaveLength(3001);
      expect(got.slice(0, 3000)).toEqual(fields.filter((_, i) => i % 2 === 1));
      expect(got[3000]).toBeNull();
      await expect(connection.sendCommand(['NOSUCHCOMMAND'])).rejects.toThrow(/unknown command/);
      expect(await connection.sendCommand(['PING'])).toBe('PONG');
    } finally {
      connection.close();
    }
  });
});

describe('node-redis behind the store', () => {
  it('GIVEN no server on the port THEN the first connection fails at once, as the store being unavailable', async () => {
    const port = await freePort();
    const error = await connectNodeRedis(`redis://127.0.0.1:${port}`, { connectTimeoutMs: 1000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(nodeRedisUnavailable(error)).toBe(true);
  });

  it('GIVEN its connection dropped THEN it makes a new one by itself, says so, and commands work again', async () => {
    const connection = await connectNodeRedis(redis.url, { connectTimeoutMs: 1000 });
    try {
      await connection.sendCommand(['CLIENT', 'SETNAME', 'reconnect-test']);
      const ready = nextReady(connection);
      expect(await dropConnections('reconnect-test')).toBe(1);
      await ready;
      expect(connection.isReady).toBe(true);
      expect(await connection.sendCommand(['PING'])).toBe('PONG');
    } finally {
      connection.close();
    }
    expect(connection.isOpen).toBe(false);
    expect(connection.unavailable(await connection.sendCommand(['PING']).catch((e: unknown) => e))).toBe(true);
  });

  it('GIVEN the server killed and started again THEN a command given meanwhile waits and completes once it is back', async () => {
    const connection = await connectNodeRedis(redis.url, { connectTimeoutMs: 1000 });
    try {
      const ready = nextReady(connection);
      await redis.kill();
      await expect.poll(() => connection.isReady).toBe(false);
      const given = connection.sendCommand(['SET', 'client-test:during-outage', 'kept']);
      await redis.start();
      await ready;
      expect(await given).toBe('OK');
      expect(await connection.sendCommand(['GET', 'client-test:during-outage'])).toBe('kept');
    } finally {
      connection.close();
      if (!admin.isReady) await new Promise((resolve) => admin.once('ready', resolve));
    }
  });

  it('GIVEN the server away for longer than the command time-out THEN the command fails as the store being unavailable', async () => {
    const connection = await connectNodeRedis(redis.url, { connectTimeoutMs: 1000, commandTimeoutMs: 200 });
    try {
      const ready = nextReady(connection);
      await redis.kill();
      await expect.poll(() => connection.isReady).toBe(false);
      const failed = await connection.sendCommand(['PING']).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(Error);
      expect(connection.unavailable(failed)).toBe(true);
      await redis.start();
      await ready;
      expect(await connection.sendCommand(['PING'])).toBe('PONG');
    } finally {
      connection.close();
      if (!admin.isReady) await new Promise((resolve) => admin.once('ready', resolve));
    }
  });

  it('GIVEN the server started again and still loading its data THEN the minimal client is refused (unavailable) and node-redis waits until the command runs', async () => {
    // Two thousand writes in the server's AOF, each loaded a millisecond late: it refuses commands for seconds.
    await admin.sendCommand(['EVAL', "for i = 1, 2000 do redis.call('SET', 'loading:' .. i, 'x') end", '0']);
    const connection = await connectNodeRedis(redis.url, { connectTimeoutMs: 1000 });
    try {
      await redis.kill();
      const starting = redis.start({ loadDelayUs: 1000 });
      // A minimal connection of its own, made as soon as the server listens, is refused while the data loads.
      let refused: unknown;
      while (refused === undefined) {
        const early = await connectResp(redis.url, { connectTimeoutMs: 1000 }).catch(() => undefined);
        if (early === undefined) continue;
        refused = await early.sendCommand(['GET', 'loading:1']).then(
          () => 'answered',
          (error: unknown) => error,
        );
        early.close();
      }
      expect(String(refused)).toMatch(/^RedisErrorReply: LOADING /);
      expect(respUnavailable(refused)).toBe(true);
      // node-redis's connection: a command given while the data loads is asked again until it runs (within its
      // time-out); a LOADING that outlasts it is the store being unavailable.
      expect(await connection.sendCommand(['GET', 'loading:2000'])).toBe('x');
      expect(connection.unavailable(new ErrorReply('LOADING Redis is loading the dataset in memory'))).toBe(true);
      await starting;
    } finally {
      connection.close();
      if (!admin.isReady) await new Promise((resolve) => admin.once('ready', resolve));
      await admin.sendCommand(['EVAL', "for i = 1, 2000 do redis.call('DEL', 'loading:' .. i) end", '0']);
    }
  });

  it('GIVEN a reply error that is not about the server being away THEN it is not "unavailable"', async () => {
    const connection = await connectNodeRedis(redis.url, { connectTimeoutMs: 1000 });
    try {
      const error = await connection.sendCommand(['NOSUCHCOMMAND']).catch((e: unknown) => e);
      expect(String(error)).toMatch(/unknown command/);
      expect(connection.unavailable(error)).toBe(false);
    } finally {
      connection.close();
    }
  });

  it('GIVEN a blocking read longer than the command time-out THEN it waits its whole block, on a connection of its own', async () => {
    const connection = await connectNodeRedis(redis.url, { connectTimeoutMs: 1000, commandTimeoutMs: 100 });
    const blocking = await connection.duplicate();
    try {
      const read = blocking.sendCommand(['XREAD', 'BLOCK', '60000', 'STREAMS', 'client-test:stream', '$']);
      // The other connection takes commands meanwhile, and what it adds ends the read.
      expect(await connection.sendCommand(['PING'])).toBe('PONG');
      await connection.sendCommand(['XADD', 'client-test:stream', '*', 'f', 'v']);
      const reply = (await read) as [string, [string, string[]][]][];
      expect(reply[0]?.[0]).toBe('client-test:stream');
    } finally {
      blocking.close();
      connection.close();
    }
  });

  it('GIVEN a subscription whose connection is dropped THEN it subscribes again, says so, and hears what comes after', async () => {
    const connection = await connectNodeRedis(redis.url, { connectTimeoutMs: 1000 });
    const heard: string[] = [];
    let readies = 0;
    let renewed: () => void = () => undefined;
    const subscription = await connection.subscribe('client-test:hints', {
      onMessage: (message) => heard.push(message),
      onReady: () => {
        readies++;
        renewed();
      },
    });
    try {
      expect(readies).toBe(1);
      await admin.sendCommand(['PUBLISH', 'client-test:hints', 'one']);
      await expect.poll(() => heard).toEqual(['one']);
      const again = new Promise<void>((resolve) => {
        renewed = resolve;
      });
      const list = String(await admin.sendCommand(['CLIENT', 'LIST', 'TYPE', 'pubsub']));
      for (const [, id] of list.matchAll(/id=(\d+) /g)) await admin.sendCommand(['CLIENT', 'KILL', 'ID', String(id)]);
      await again;
      expect(readies).toBe(2);
      expect(subscription.isOpen).toBe(true);
      await admin.sendCommand(['PUBLISH', 'client-test:hints', 'two']);
      await expect.poll(() => heard).toEqual(['one', 'two']);
    } finally {
      subscription.close();
      connection.close();
    }
    expect(subscription.isOpen).toBe(false);
  });
});
