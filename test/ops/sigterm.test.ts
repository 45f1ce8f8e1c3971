import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { ACTION_IDS } from '../../src/render/slack/ids.js';
import { runServe } from '../../src/serve/run.js';
import type { Store } from '../../src/store/port.js';
import { FakeSlackApi, interactionBody, postSigned } from '../fakes/slack-api.js';
import { isChat } from '../support/messages.js';
import { freePort } from '../support/redis-server.js';
import { openTestStore, spec, uniquePrefix, uniqueProject } from '../support/store.js';
import {
  buttonAction,
  messageAction,
  pickerBlockId,
  postedMessage,
  RecordingLogger,
  Responder,
  selectAction,
  TEST_RETRY,
} from '../surfaces/slack/harness.js';
import { OPS_SECRET, sleep } from './support.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** The store with every answer and draft write held back `ms` (work in flight when SIGTERM arrives), counted. */
function slowWrites(store: Store, ms: number): { store: Store; started: () => number } {
  let started = 0;
  const slow = new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name, target) as unknown;
      if (typeof value !== 'function') return value;
      if (name === 'answer' || name === 'saveDraft') {
        return async (...args: unknown[]) => {
          started += 1;
          await sleep(ms);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  return { store: slow, started: () => started };
}

describe('SIGTERM', () => {
  it('GIVEN 10 Sends and drafts being stored as SIGTERM arrives and 20 more after it THEN the 10 are acknowledged with 200 and stored before exit 0, and the 20 are refused and change nothing', async () => {
    const slack = await new FakeSlackApi().start();
    const responder = await new Responder().start();
    cleanup.push(
      () => slack.stop(),
      () => responder.stop(),
    );
    const prefix = uniquePrefix();
    const store = await openTestStore({ prefix });
    cleanup.push(() => store.close());
    const port = await freePort();
    const lines: string[] = [];
    const signals = new EventEmitter();
    const env = {
      REDIS_URL: inject('redisUrl'),
      ASK_LATER_REDIS_PREFIX: prefix,
      SLACK_BOT_TOKEN: 'xoxb-ops',
      SLACK_SIGNING_SECRET: OPS_SECRET,
      SLACK_CHANNEL: 'C0OPS',
      SLACK_API_URL: slack.url,
      PORT: String(port),
    };
    const writes = slowWrites(store, 300);
    const running = runServe(
      env,
      { stderr: { write: (text: string) => lines.push(text) }, signals },
      {
        logger: new RecordingLogger(),
        store: writes.store,
        retryConfig: TEST_RETRY,
        bridge: { blockMs: 50, retryBaseMs: 10 },
        sweepMs: 0,
      },
    );
    await expect.poll(() => lines[0]).toContain('web inbox at http://127.0.0.1:');

    const project = uniqueProject('sigterm');
    const questions = [];
    for (let i = 0; i < 30; i++) questions.push(await store.park(project, spec()));
    await expect
      .poll(async () => (await store.list(project)).map((q) => q.messages.filter(isChat).length))
      .toEqual(questions.map(() => 1));

    const endpoint = `http://127.0.0.1:${port}/slack/events`;
    const requests = questions.map((question, i) => {
      const posted = postedMessage(slack, question);
      if (!posted) throw new Error('not posted');
      const who = {
        user: `U0P${String(i).padStart(2, '0')}`,
        responder,
        message: { channel: posted.channel, ts: posted.ts, blocks: posted.blocks },
      };
      const ref = (posted.metadata as { event_payload: { ref: string } }).event_payload.ref;
      const action = i % 2 === 0 ? buttonAction(ACTION_IDS.send, ref) : selectAction(pickerBlockId(posted.blocks), '1');
      const kind = i % 2 === 0 ? ('send' as const) : ('draft' as const);
      return { question, user: who.user, kind, payload: messageAction(who, action) };
    });

    // The first 10 are in the store's hands (held there 300 ms) when SIGTERM lands; the other 20 come after it.
    const post = (request: (typeof requests)[number]) =>
      postSigned(endpoint, interactionBody(request.payload), 'application/x-www-form-urlencoded', {
        secret: OPS_SECRET,
      }).catch(() => undefined);
    const before = requests.slice(0, 10).map(post);
    await expect.poll(writes.started).toBe(10);
    signals.emit('SIGTERM');
    const after = requests.slice(10).map(post);
    const results = await Promise.all([...before, ...after]);
    expect(await running).toBe(0);

    // Checked right after exit: what was acknowledged is stored, what came after SIGTERM was refused (503, or the
    // port already closed) and changed nothing.
    expect(results.map((result) => (result?.status === 200 ? 'acknowledged' : 'refused'))).toEqual([
      ...Array(10).fill('acknowledged'),
      ...Array(20).fill('refused'),
    ]);
    const stored = await Promise.all(
      requests.map(async (request) =>
        request.kind === 'send'
          ? (await store.get(project, request.question.id))?.answer?.by.userId === request.user
          : (await store.getDraft(project, request.question.id, { platform: 'slack', userId: request.user }))
              ?.choices[0] === 'SQLite',
      ),
    );
    expect(stored).toEqual([...Array(10).fill(true), ...Array(20).fill(false)]);
    expect(await store.list(project, { status: ['answered'] })).toHaveLength(5);
  });
});
