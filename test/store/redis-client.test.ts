/**
 * The store's own Redis client (resp-connection.ts, reconnecting-connection.ts, pooled-connection.ts) against a real
 * redis-server of the test's own: replies read whole however the socket splits them (a proxy cuts them),
 * connections lost and made again, subscriptions renewed, and a pool that keeps working while one of its connections
 * is away.
 */

import { createConnection, createServer, type Server, type Socket } from 'node:net';
import fc from 'fast-check';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisConnection } from '../../src/store/redis/connection.js';
import { toStoreError } from '../../src/store/redis/context.js';
import { connectPool } from '../../src/store/redis/pooled-connection.js';
import { connectReconnecting } from '../../src/store/redis/reconnecting-connection.js';
import { connectResp } from '../../src/store/redis/resp-connection.js';
import { StoreUnavailableError } from '../../src/store/store-unavailable-error.js';
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

describe('the reconnecting client', () => {
  it('GIVEN no server on the port THEN the first connection fails at once, as the store being unavailable', async () => {
    const port = await freePort();
    const error = await connectReconnecting(`redis://127.0.0.1:${port}`, 1000).catch((e: unknown) => e);
    expect(toStoreError(error)).toBeInstanceOf(StoreUnavailableError);
  });

  it('GIVEN its connection dropped THEN it makes a new one by itself, says so, and commands work again', async () => {
    const connection = await connectReconnecting(redis.url, 1000);
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
    expect(toStoreError(await connection.sendCommand(['PING']).catch((e: unknown) => e))).toBeInstanceOf(
      StoreUnavailableError,
    );
  });

  it('GIVEN the server killed and started again THEN the client reconnects by itself and says so', async () => {
    const connection = await connectReconnecting(redis.url, 1000);
    try {
      const ready = nextReady(connection);
      await redis.kill();
      const failed = await connection.sendCommand(['PING']).catch((e: unknown) => e);
      expect(toStoreError(failed)).toBeInstanceOf(StoreUnavailableError);
      expect(connection.isReady).toBe(false);
      await redis.start();
      await ready;
      expect(await connection.sendCommand(['PING'])).toBe('PONG');
    } finally {
      connection.close();
      if (!admin.isReady) await new Promise((resolve) => admin.once('ready', resolve));
    }
  });

  it('GIVEN the server started again and still loading its data THEN what it refuses meanwhile is the store being unavailable, and the client is ready only once it takes commands', async () => {
    // Two thousand writes in the server's AOF, each loaded a millisecond late: it refuses commands for seconds.
    await admin.sendCommand(['EVAL', "for i = 1, 2000 do redis.call('SET', 'loading:' .. i, 'x') end", '0']);
    const connection = await connectReconnecting(redis.url, 1000);
    try {
      const ready = nextReady(connection);
      await redis.kill();
      const starting = redis.start({ loadDelayUs: 1000 });
      // A connection of its own, made as soon as the server listens, is refused while the data loads.
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
      expect(String(refused)).toMatch(/^ErrorReply: LOADING /);
      expect(toStoreError(refused)).toBeInstanceOf(StoreUnavailableError);
      // The client's own connection comes back only once the server answers.
      await ready;
      expect(await connection.sendCommand(['GET', 'loading:2000'])).toBe('x');
      await starting;
    } finally {
      connection.close();
      if (!admin.isReady) await new Promise((resolve) => admin.once('ready', resolve));
      await admin.sendCommand(['EVAL', "for i = 1, 2000 do redis.call('DEL', 'loading:' .. i) end", '0']);
    }
  });

  it('GIVEN a subscription whose connection is dropped THEN it subscribes again, says so, and hears what comes after', async () => {
    const connection = await connectReconnecting(redis.url, 1000);
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

describe('a pool of connections', () => {
  it('GIVEN two connections THEN commands go to both, and with one dropped the other takes them until it is back', async () => {
    const pool = await connectPool(2, () => connectReconnecting(redis.url, 1000));
    try {
      await pool.sendCommand(['CLIENT', 'SETNAME', 'pool-test']);
      await pool.sendCommand(['CLIENT', 'SETNAME', 'pool-test']);
      const list = String(await admin.sendCommand(['CLIENT', 'LIST']));
      expect([...list.matchAll(/name=pool-test /g)]).toHaveLength(2);

      const ready = nextReady(pool);
      const list2 = String(await admin.sendCommand(['CLIENT', 'LIST']));
      const first = /id=(\d+) .*? name=pool-test /.exec(list2)?.[1];
      await admin.sendCommand(['CLIENT', 'KILL', 'ID', String(first)]);
      // Whether or not the pool has noticed yet, every command either succeeds on the live member or fails as
      // unavailable (one that was in flight on the dropped one); none is lost without a word.
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          pool.sendCommand(['PING']).then(
            (reply) => reply,
            (error: unknown) => toStoreError(error),
          ),
        ),
      );
      const answeredOrUnavailable = (result: unknown) => result === 'PONG' || result instanceof StoreUnavailableError;
      expect(results.filter((result) => !answeredOrUnavailable(result))).toEqual([]);
      await ready;
      expect(pool.isReady).toBe(true);
      const again = await Promise.all(Array.from({ length: 10 }, () => pool.sendCommand(['PING'])));
      expect(again).toEqual(Array.from({ length: 10 }, () => 'PONG'));
    } finally {
      pool.close();
    }
    expect(pool.isOpen).toBe(false);
  });

  it('GIVEN a server that refuses connections THEN opening the pool fails and leaves no connection open', async () => {
    let opened = 0;
    const error = await connectPool(3, async () => {
      opened++;
      if (opened === 2) throw new Error('ECONNREFUSED');
      return connectReconnecting(redis.url, 1000);
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(opened).toBe(3);
    await expect
      .poll(
        async () =>
          String(await admin.sendCommand(['CLIENT', 'LIST']))
            .trim()
            .split('\n').length,
      )
      .toBe(1);
  });
});
