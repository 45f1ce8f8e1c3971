import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { ACTION_IDS } from '../../src/blocks/slack/ids.js';
import { runServe } from '../../src/serve/run.js';
import type { Store } from '../../src/store/port.js';
import {
  buttonAction,
  messageAction,
  pickerBlockId,
  postedMessage,
  RecordingLogger,
  Responder,
  selectAction,
  TEST_RETRY,
  until,
} from '../bot/slack/harness.js';
import { FakeSlackApi, interactionBody, postSigned } from '../fakes/slack-api.js';
import { isChat } from '../support/messages.js';
import { freePort } from '../support/redis-server.js';
import { openTestStore, spec, uniquePrefix, uniqueProject } from '../support/store.js';
import { OPS_SECRET, sleep } from './support.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** The store with every answer and draft write held back `ms`: work that is in flight when SIGTERM arrives. */
function slowWrites(store: Store, ms: number): Store {
  return new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name, target) as unknown;
      if (typeof value !== 'function') return value;
      if (name === 'answer' || name === 'saveDraft') {
        return async (...args: unknown[]) => {
          await sleep(ms);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}

describe('SIGTERM', () => {
  it('GIVEN 30 Sends and drafts arriving as SIGTERM does THEN every interaction acknowledged with 200 is stored before exit 0', async () => {
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
    const running = runServe(
      env,
      { stderr: { write: (text: string) => lines.push(text) }, signals },
      {
        logger: new RecordingLogger(),
        store: slowWrites(store, 300),
        retryConfig: TEST_RETRY,
        bridge: { blockMs: 50, retryBaseMs: 10 },
        sweepMs: 0,
      },
    );
    await until(() => lines.length > 0, 'ready');
    expect(lines[0]).toContain('web inbox at http://127.0.0.1:');

    const project = uniqueProject('sigterm');
    const questions = [];
    for (let i = 0; i < 30; i++) questions.push(await store.park(project, spec()));
    await until(
      async () => (await store.list(project)).every((q) => q.messages.filter(isChat).length === 1),
      'all posted',
    );

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

    // Fire them in a stream; SIGTERM lands in the middle of it.
    const sent: Promise<{ status: number } | undefined>[] = [];
    for (const [i, request] of requests.entries()) {
      if (i === 10) signals.emit('SIGTERM');
      sent.push(
        postSigned(endpoint, interactionBody(request.payload), 'application/x-www-form-urlencoded', {
          secret: OPS_SECRET,
        }).catch(() => undefined),
      );
      await sleep(2);
    }
    const results = await Promise.all(sent);
    expect(await running).toBe(0);

    // Checked right after exit: nothing acknowledged was left unfinished.
    const acked = requests.filter((_, i) => results[i]?.status === 200);
    expect(acked.length).toBeGreaterThan(0);
    for (const request of acked) {
      if (request.kind === 'send') {
        const now = await store.get(project, request.question.id);
        expect(now?.status, `#${request.question.id}`).toBe('answered');
        expect(now?.answer?.by.userId).toBe(request.user);
      } else {
        const draft = await store.getDraft(project, request.question.id, { platform: 'slack', userId: request.user });
        expect(draft?.choices, `#${request.question.id}`).toEqual(['SQLite']);
      }
    }
    // What was refused (the server had closed) changed nothing.
    for (const [i, request] of requests.entries()) {
      if (results[i]?.status === 200 || request.kind !== 'send') continue;
      expect((await store.get(project, request.question.id))?.status).toBe('pending');
    }
  });
});
