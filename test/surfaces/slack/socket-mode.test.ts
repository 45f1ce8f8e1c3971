import { afterEach, describe, expect, it } from 'vitest';
import { ACTION_IDS } from '../../../src/render/slack/ids.js';
import { FakeSlackApi } from '../../fakes/slack-api.js';
import { isChat } from '../../support/messages.js';
import { spec, uniqueProject } from '../../support/store.js';
import { FakeSocketMode } from './fake-socket-mode.js';
import { buttonAction, type Harness, messageAction, postedMessage, refOf, startHarness } from './harness.js';

const open: { stop: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.stop();
});

describe('Socket Mode', () => {
  it('GIVEN an app token THEN the app connects over the socket, acks an interactive envelope, and the Send is taken', async () => {
    const slack = await new FakeSlackApi().start();
    const socket = await new FakeSocketMode(slack.url).start();
    open.push(socket);
    const h: Harness = await startHarness({ slack, slackConfig: { appToken: 'xapp-test', apiUrl: socket.url } });
    open.push(h);
    expect(h.serve.mode).toBe('socket');
    await socket.connected;

    const project = uniqueProject();
    const question = await h.store.park(project, spec());
    await expect.poll(async () => (await h.store.get(project, question.id))?.messages.filter(isChat)).toHaveLength(1);
    const message = postedMessage(h.slack, question);
    if (!message) throw new Error('not posted');
    const payload = messageAction(
      {
        user: 'UANA',
        responder: h.responder,
        message: { channel: message.channel, ts: message.ts, blocks: message.blocks },
      },
      buttonAction(ACTION_IDS.send, refOf(question)),
    );
    const ack = await socket.push({ envelope_id: 'env-1', type: 'interactive', payload });
    expect(ack).toMatchObject({ envelope_id: 'env-1' });
    await expect.poll(async () => (await h.store.get(project, question.id))?.status).toBe('answered');
    expect((await h.store.get(project, question.id))?.answer?.by.userId).toBe('UANA');

    // /healthz is served on the HTTP port in Socket Mode too.
    const health = await fetch(`http://127.0.0.1:${h.serve.port}/healthz`);
    expect(health.status).toBe(200);
  });
});
