import { afterEach, describe, expect, it } from 'vitest';
import { renderQuestionMessage } from '../../../src/render/slack/question-message.js';
import { SlackSurface } from '../../../src/surfaces/slack/surface.js';
import { createWebClient } from '../../../src/surfaces/slack/web.js';
import { FakeSlackApi } from '../../fakes/slack-api.js';
import { isChat } from '../../support/messages.js';
import { openTestStore, setSpec, spec, uniquePrefix, uniqueProject } from '../../support/store.js';
import { CHANNEL, type Harness, postedMessage, refOf, startHarness, TEST_RETRY } from './harness.js';

const open: { stop: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.stop();
});

describe('SlackSurface', () => {
  it('GIVEN Slack answering 429 with Retry-After, then 500 THEN the post is retried and made once, and nothing is lost', async () => {
    const slack = await new FakeSlackApi().start();
    slack.fail('chat.postMessage', { status: 429, retryAfter: 1 }, { status: 500 });
    const h: Harness = await startHarness({ slack });
    open.push(h);
    const project = uniqueProject();
    const question = await h.store.park(project, spec());
    await expect
      .poll(async () => (await h.store.get(project, question.id))?.messages.filter(isChat), { timeout: 15_000 })
      .toHaveLength(1);
    expect(h.slack.callsOf('chat.postMessage')).toHaveLength(3);
    expect(h.slack.messages).toHaveLength(1);
    const recorded = await h.store.get(project, question.id);
    expect(recorded?.messages.filter(isChat)).toEqual([
      { platform: 'slack', channel: CHANNEL, messageId: h.slack.messages[0]?.ts },
    ]);
    // Later transitions still reach the one message.
    await h.store.cancel(project, question.id);
    await h.slack.waitFor((c) => c.method === 'chat.update' && JSON.stringify(c.body.blocks).includes('Withdrawn'));
  });

  it('GIVEN the bridge died after Slack took the post but before recording it THEN a restarted bridge finds the message by its metadata and does not post again', async () => {
    const slack = await new FakeSlackApi().start();
    const prefix = uniquePrefix();
    const project = uniqueProject();
    // The dead bridge: read the parked event, posted the message, died before recording it and acking the event.
    const store = await openTestStore({ prefix });
    const dead = await store.consumer('bridge:slack', 'dead');
    await dead.read({ blockMs: 0 });
    const question = await store.park(project, spec());
    expect(await dead.read({ blockMs: 0 })).toHaveLength(1);
    await dead.close();
    const client = createWebClient({ token: 'xoxb-test', apiUrl: slack.url, retryConfig: { retries: 0 } });
    const earlier = renderQuestionMessage(question, { revision: 1 });
    const posted = await client.chat.postMessage({
      channel: CHANNEL,
      text: earlier.text,
      blocks: earlier.blocks as never,
      metadata: earlier.metadata as never,
    });
    // Other traffic in the channel in between.
    await client.chat.postMessage({ channel: CHANNEL, text: 'unrelated' });
    await store.close();

    const h = await startHarness({
      slack,
      prefix,
      deps: { bridge: { blockMs: 50, retryBaseMs: 10, reclaimIdleMs: 200 } },
    });
    open.push(h);
    await expect
      .poll(async () => (await h.store.get(project, question.id))?.messages.filter(isChat), { timeout: 10_000 })
      .toHaveLength(1);
    expect((await h.store.get(project, question.id))?.messages.filter(isChat)[0]?.messageId).toBe(posted.ts);
    expect(h.slack.callsOf('conversations.history').length).toBeGreaterThanOrEqual(1);
    expect(h.slack.callsOf('conversations.history')[0]?.body).toMatchObject({
      channel: CHANNEL,
      include_all_metadata: 'true',
    });
    expect(h.slack.callsOf('chat.postMessage')).toHaveLength(2); // the dead bridge's and the unrelated one
  });

  it('GIVEN Slack refusing a message as msg_blocks_too_long THEN it is posted without the Markdown blocks and Context/Impact follow in the thread', async () => {
    const slack = await new FakeSlackApi().start();
    open.push(slack);
    slack.fail('chat.postMessage', { status: 200, error: 'msg_blocks_too_long' });
    const surface = new SlackSurface({
      client: createWebClient({ token: 'xoxb-test', apiUrl: slack.url, retryConfig: TEST_RETRY }),
      channel: CHANNEL,
    });
    const store = await openTestStore();
    open.push({ stop: () => store.close() });
    const question = await store.park(uniqueProject(), spec());
    const ref = await surface.post(question, CHANNEL, { maybePostedBefore: false });
    const message = postedMessage(slack, question);
    expect(ref.messageId).toBe(message?.ts);
    const types = (message?.blocks as { type: string }[]).map((b) => b.type);
    expect(types).not.toContain('markdown');
    expect(JSON.stringify(message?.blocks)).toContain('Context and Impact are in the thread');
    const thread = slack.callsOf('chat.postMessage').at(-1);
    expect(thread?.body).toMatchObject({ channel: CHANNEL, thread_ts: message?.ts });
    expect(String(thread?.body.markdown_text)).toContain(question.context);
    expect(String(thread?.body.markdown_text)).toContain(question.impact);

    // A redraw Slack finds too long goes out without them too; a deleted message is left alone.
    slack.fail('chat.update', { status: 200, error: 'msg_blocks_too_long' });
    await surface.update(question, ref);
    expect(slack.callsOf('chat.update')).toHaveLength(2);
    slack.fail('chat.update', { status: 200, error: 'message_not_found' });
    await expect(surface.update(question, ref)).resolves.toBeUndefined();
    expect(refOf(question)).toBe((message?.metadata as { event_payload: { ref: string } }).event_payload.ref);
  });

  it('GIVEN Slack refusing a set as msg_blocks_too_long THEN it is posted with every member and picker, and the set’s and members’ Context/Impact follow in the thread', async () => {
    const slack = await new FakeSlackApi().start();
    open.push(slack);
    slack.fail('chat.postMessage', { status: 200, error: 'msg_blocks_too_long' });
    const surface = new SlackSurface({
      client: createWebClient({ token: 'xoxb-test', apiUrl: slack.url, retryConfig: TEST_RETRY }),
      channel: CHANNEL,
    });
    const store = await openTestStore();
    open.push({ stop: () => store.close() });
    const question = await store.park(uniqueProject(), setSpec());
    await surface.post(question, CHANNEL, { maybePostedBefore: false });
    const message = postedMessage(slack, question);
    const blocks = message?.blocks as { type: string; block_id?: string }[];
    expect(blocks.map((b) => b.type)).not.toContain('markdown');
    expect(blocks.filter((b) => b.block_id?.startsWith('al_q:'))).toHaveLength(3);
    const thread = String(slack.callsOf('chat.postMessage').at(-1)?.body.markdown_text);
    expect(thread).toContain(`### Context\n\n${question.context}`);
    expect(thread).toContain(`### #${question.id}.2 Caches\n\n#### Context\n\nBilling reads prices on every request.`);
    expect(thread).toContain(`### #${question.id}.3 Naming\n\n#### Impact\n\nThe name goes into every dashboard.`);
    expect(thread).not.toContain(`#${question.id}.1 Database`);
  });

  it('GIVEN a first post THEN history is not read; GIVEN a retry with no earlier copy THEN it posts', async () => {
    const slack = await new FakeSlackApi().start();
    open.push(slack);
    const surface = new SlackSurface({
      client: createWebClient({ token: 'xoxb-test', apiUrl: slack.url, retryConfig: TEST_RETRY }),
      channel: CHANNEL,
    });
    expect(surface.channelsFor('/any/project')).toEqual([CHANNEL]);
    const store = await openTestStore();
    open.push({ stop: () => store.close() });
    const first = await store.park(uniqueProject(), spec());
    await surface.post(first, CHANNEL, { maybePostedBefore: false });
    expect(slack.callsOf('conversations.history')).toEqual([]);
    const second = await store.park(uniqueProject(), spec());
    await surface.post(second, CHANNEL, { maybePostedBefore: true });
    expect(slack.callsOf('conversations.history')).toHaveLength(1);
    expect(slack.messages).toHaveLength(2);
  });
});
