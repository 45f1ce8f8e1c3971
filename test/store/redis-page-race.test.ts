/**
 * A page of the pending view on Redis reads each project's index (and its counts) first and the records after. A
 * proxy between the store and the test's redis-server holds the record read back until another store has answered
 * that question: the page leaves it out, and its counts are those after the answer.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ProjectKeys } from '../../src/store/redis/keys.js';
import { openRedisStore, type RedisStore } from '../../src/store/redis/redis-store.js';
import { person, spec, uniquePrefix, uniqueProject } from '../support/store.js';

const prefix = uniquePrefix();
const project = uniqueProject();
let direct: RedisStore;
let proxy: Server;
/** Run before the first command naming `key` is passed on (once); then cleared. */
let hold: { key: string; before: () => Promise<void> } | undefined;

beforeAll(async () => {
  const upstream = new URL(inject('redisUrl'));
  proxy = createServer((client: Socket) => {
    const server = createConnection({ host: upstream.hostname, port: Number(upstream.port) });
    server.on('data', (chunk) => client.write(chunk));
    server.on('close', () => client.destroy());
    server.on('error', () => client.destroy());
    client.on('error', () => server.destroy());
    client.on('close', () => server.destroy());
    // Passed on in order: a held chunk holds back the ones after it.
    let passing = Promise.resolve();
    client.on('data', (chunk) => {
      const held = hold !== undefined && chunk.includes(hold.key) ? hold : undefined;
      if (held) hold = undefined;
      passing = passing.then(async () => {
        if (held) await held.before();
        server.write(chunk);
      });
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  direct = await openRedisStore({ url: inject('redisUrl'), prefix });
});
afterAll(async () => {
  await direct.close();
  await new Promise((resolve) => proxy.close(resolve));
});

describe('a page of the pending view while a question on it is answered', () => {
  it('GIVEN a question answered between the index read and the record read THEN the page leaves it out and counts it answered', async () => {
    const address = proxy.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const proxied = await openRedisStore({ url: `redis://127.0.0.1:${port}`, prefix });
    try {
      await direct.park(project, spec({ question: 'Which database should billing use?' }));
      await direct.park(project, spec({ question: 'Which queue should billing use?', isBlocking: true }));
      let answered = false;
      hold = {
        key: new ProjectKeys(prefix, project).question(2),
        before: async () => {
          answered = (await direct.answer(project, 2, { choices: ['SQLite'], other: false }, person())).kind === 'won';
        },
      };
      const page = await proxied.pageAcross([project], { view: 'pending', limit: 10 });
      expect(answered).toBe(true);
      expect(page.questions.map((question) => question.id)).toEqual([1]);
      expect(page.counts?.get(project)).toEqual({ blocking: 0, canWait: 1, closed: 1, answered: 1 });
    } finally {
      await proxied.close();
    }
  });
});
