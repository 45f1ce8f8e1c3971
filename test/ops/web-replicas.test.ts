import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { formatQuestionRef } from '../../src/core/question-ref.js';
import { createRedisUser } from '../support/redis-user.js';
import { openTestStore, person, spec, uniquePrefix, uniqueProject } from '../support/store.js';
import { startReplica } from './support.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** The web inbox's event stream on a replica: everything it sent so far. */
function openEvents(port: number): Promise<{ text: () => string; close: () => void }> {
  return new Promise((resolve, reject) => {
    let text = '';
    const req = httpRequest(
      { host: '127.0.0.1', port, path: '/events', headers: { host: `127.0.0.1:${port}` } },
      (res) => {
        res.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('error', () => undefined);
        resolve({ text: () => text, close: () => req.destroy() });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const notices = (text: string, ref: string) => text.split(`data: ${ref}\n\n`).length - 1;

describe('web inbox on several replicas', () => {
  it('GIVEN two replicas where only one bridge handles events THEN the pages on both hear every park and every answer', async () => {
    const prefix = uniquePrefix();
    const store = await openTestStore({ prefix });
    const storeA = await openTestStore({ prefix });
    // B's Redis user may not read consumer groups: its bridge (and metrics) get nothing, its tail reads as usual.
    const userB = await createRedisUser(inject('redisUrl'), ['-xreadgroup']);
    const storeB = await openTestStore({ prefix, url: userB.url });
    cleanup.push(
      () => userB.remove(),
      () => store.close(),
      () => storeA.close(),
      () => storeB.close(),
    );
    const a = await startReplica({ prefix, deps: { store: storeA, replica: 'web-a' } });
    cleanup.push(() => a.serve.stop());
    const b = await startReplica({ prefix, deps: { store: storeB, replica: 'web-b' } });
    cleanup.push(() => b.serve.stop());
    const pageA = await openEvents(a.serve.port);
    const pageB = await openEvents(b.serve.port);
    cleanup.push(async () => {
      pageA.close();
      pageB.close();
    });
    await expect.poll(() => pageA.text() + pageB.text()).toMatch(/: connected[\s\S]*: connected/);

    const project = uniqueProject('web-replicas');
    const refs: string[] = [];
    for (let i = 0; i < 10; i++) refs.push(formatQuestionRef(project, (await store.park(project, spec())).id));
    for (const page of [pageA, pageB]) {
      await expect.poll(() => refs.filter((ref) => notices(page.text(), ref) >= 1).length).toBe(10);
    }
    for (let id = 1; id <= 10; id++) {
      await store.answer(project, id, { choices: ['SQLite'], other: false }, person());
    }
    for (const page of [pageA, pageB]) {
      await expect.poll(() => refs.filter((ref) => notices(page.text(), ref) >= 2).length).toBe(10);
    }
    // Only A's bridge posted: every question has exactly one web copy, recorded by A.
    const copies = await Promise.all(refs.map(async (_, i) => (await store.get(project, i + 1))?.messages ?? []));
    expect(copies.map((messages) => messages.filter((m) => m.platform === 'web').length)).toEqual(Array(10).fill(1));
  });
});
