import { afterEach, describe, expect, inject, it } from 'vitest';
import { ACTION_IDS, NOTES_BLOCK_IDS } from '../../../src/render/slack/ids.js';
import { assertSlackMessage } from '../../../src/render/slack/limits.js';
import type { SlackMessage } from '../../../src/render/slack/types.js';
import { hookEnv, noteOf, payload, runHookCli } from '../../agents/hooks/support.js';
import { isChat } from '../../support/messages.js';
import { person, spec, uniquePrefix, uniqueProject } from '../../support/store.js';
import {
  buttonAction,
  CHANNEL,
  type Harness,
  messageAction,
  messageState,
  notesSubmission,
  pickerBlockId,
  postedMessage,
  postOf,
  refOf,
  SECRET,
  selectAction,
  startHarness,
  viewAction,
} from './harness.js';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.stop();
});

async function harness(options: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  const h = await startHarness(options);
  open.push(h);
  return h;
}

/** Park a question and wait for its Slack message; returns both. */
async function parkAndPost(h: Harness, overrides: Parameters<typeof spec>[0] = {}, project = uniqueProject()) {
  const question = await h.store.park(project, spec(overrides));
  await expect.poll(async () => (await h.store.get(project, question.id))?.messages.filter(isChat)).toHaveLength(1);
  const message = postedMessage(h.slack, question);
  if (!message) throw new Error('not posted');
  // A copy: the fake redraws its own record on chat.update.
  return { question, message: { channel: message.channel, ts: message.ts, blocks: structuredClone(message.blocks) } };
}

function blocksText(blocks: unknown): string {
  return JSON.stringify(blocks);
}

describe('Slack end to end', () => {
  it('GIVEN a parked question WHEN a person picks, adds notes and sends THEN the store holds the answer, the message shows it, then shows it delivered', async () => {
    const prefix = uniquePrefix();
    const h = await harness({ prefix });
    const { question, message } = await parkAndPost(h);
    const post = postOf(h.slack, question);
    expect(post?.body.channel).toBe(CHANNEL);
    expect(() => assertSlackMessage(post?.body as unknown as SlackMessage)).not.toThrow();
    expect(post?.body.metadata).toEqual({
      event_type: 'ask_later_question',
      event_payload: { ref: refOf(question), project: question.project, id: question.id },
    });
    const ref = refOf(question);
    const who = { user: 'UANA', responder: h.responder, message };

    // Pick SQLite (option 1): the draft is kept and the message is redrawn showing it.
    const picked = await h.interact(messageAction(who, selectAction(pickerBlockId(message.blocks), '1')));
    expect(picked.status).toBe(200);
    await expect
      .poll(
        async () =>
          (await h.store.getDraft(question.project, question.id, { platform: 'slack', userId: 'UANA' }))?.choices,
      )
      .toEqual(['SQLite']);
    const redraw = await h.slack.waitFor(
      (c) => c.method === 'chat.update' && blocksText(c.body.blocks).includes('SQLite'),
    );
    expect(redraw.body.ts).toBe(message.ts);
    expect(pickerBlockId(redraw.body.blocks)).not.toBe(pickerBlockId(message.blocks));

    // "Add notes" opens the modal at once, on the click's trigger.
    const current = { ...message, blocks: redraw.body.blocks };
    await h.interact(
      messageAction({ ...who, message: current, triggerId: 'trig-notes' }, buttonAction(ACTION_IDS.notes, ref)),
    );
    const opened = await h.slack.waitFor((c) => c.method === 'views.open' && c.body.trigger_id === 'trig-notes');
    const modal = opened.body.view as { private_metadata: string; callback_id: string };
    expect(modal.callback_id).toBe('al_notes');

    // Save notes: the modal closes (empty ack), the draft carries them.
    const saved = await h.interact(
      notesSubmission('UANA', { id: 'VNOTES', private_metadata: modal.private_metadata }, '1', 'Small data set.'),
    );
    expect(saved.status).toBe(200);
    expect(saved.text).toBe('');
    const draft = await h.store.getDraft(question.project, question.id, { platform: 'slack', userId: 'UANA' });
    expect(draft).toMatchObject({ choices: ['SQLite'], other: false, notes: 'Small data set.' });
    await h.slack.waitFor((c) => c.method === 'chat.update' && blocksText(c.body.blocks).includes('Small data set.'));

    // Send what the message shows.
    const latest = h.slack.messages.find((m) => m.ts === message.ts);
    await h.interact(
      messageAction({ ...who, message: { ...message, blocks: latest?.blocks } }, buttonAction(ACTION_IDS.send, ref)),
    );
    await expect.poll(async () => (await h.store.get(question.project, question.id))?.status).toBe('answered');
    const answered = await h.store.get(question.project, question.id);
    expect(answered?.answer).toMatchObject({
      choices: ['SQLite'],
      other: false,
      notes: 'Small data set.',
      by: { platform: 'slack', userId: 'UANA', displayName: 'name-uana' },
    });
    await h.slack.waitFor(
      (c) =>
        c.method === 'chat.update' && c.body.ts === message.ts && blocksText(c.body.blocks).includes('Answered by'),
    );
    expect(h.responder.to('UANA')).toEqual([]);

    // The next prompt: the real hook (built CLI) drains it → the message shows "delivered".
    const drained = await runHookCli(
      hookEnv({ REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix, ASK_LATER_PROJECT: question.project }),
      payload(),
    );
    expect(drained.code).toBe(0);
    expect(noteOf(drained.stdout)).toContain('> Small data set.');
    expect((await h.store.get(question.project, question.id))?.status).toBe('delivered');
    await h.slack.waitFor(
      (c) =>
        c.method === 'chat.update' &&
        c.body.ts === message.ts &&
        blocksText(c.body.blocks).includes('Delivered to the agent'),
    );
    expect(h.slack.callsOf('chat.postMessage')).toHaveLength(1);

    // Logs: ids and timings, never the question, option labels' texts from the agent, or notes.
    const logs = h.logger.text();
    for (const secret of ['Which database', 'billing', 'Small data set', 'xoxb-test', SECRET]) {
      expect(logs).not.toContain(secret);
    }
  });

  it('GIVEN Other picked in the notes modal without a note THEN the submission is answered with an error on the notes field and nothing is sent', async () => {
    const h = await harness();
    const { question, message } = await parkAndPost(h);
    const ref = refOf(question);
    await h.interact(
      messageAction(
        { user: 'UANA', responder: h.responder, message, triggerId: 'trig-1' },
        buttonAction(ACTION_IDS.notes, ref),
      ),
    );
    const opened = await h.slack.waitFor((c) => c.method === 'views.open');
    const metadata = (opened.body.view as { private_metadata: string }).private_metadata;

    // Picking Other inside the modal redraws it with the notes required.
    await h.interact(
      viewAction(
        'UANA',
        { id: 'VNOTES', type: 'modal', private_metadata: metadata, callback_id: 'al_notes' },
        {
          action_id: ACTION_IDS.notesPick,
          block_id: NOTES_BLOCK_IDS.pick,
          type: 'static_select',
          selected_option: { value: 'other' },
        },
      ),
    );
    const updated = await h.slack.waitFor((c) => c.method === 'views.update' && c.body.view_id === 'VNOTES');
    const notesBlock = (updated.body.view as { blocks: { block_id?: string; optional?: boolean }[] }).blocks.find(
      (b) => b.block_id === NOTES_BLOCK_IDS.notes,
    );
    expect(notesBlock?.optional).toBe(false);

    const refused = await h.interact(
      notesSubmission('UANA', { id: 'VNOTES', private_metadata: metadata }, 'other', null),
    );
    expect(refused.status).toBe(200);
    expect(JSON.parse(refused.text)).toEqual({
      response_action: 'errors',
      errors: { [NOTES_BLOCK_IDS.notes]: expect.stringContaining('needs a note') },
    });
    expect((await h.store.get(question.project, question.id))?.status).toBe('pending');

    // Send now refuses too ("needs a note"), in place and to that person only.
    const latest = h.slack.messages.find((m) => m.ts === message.ts);
    await h.interact(
      messageAction(
        { user: 'UANA', responder: h.responder, message: { ...message, blocks: latest?.blocks } },
        buttonAction(ACTION_IDS.send, ref),
        messageState(latest?.blocks, { value: 'other' }),
      ),
    );
    await expect.poll(() => h.responder.to('UANA')).toHaveLength(1);
    expect(h.responder.to('UANA')[0]).toContain('needs a note');
    expect(h.responder.replies[0]?.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect((await h.store.get(question.project, question.id))?.status).toBe('pending');
  });

  it('GIVEN two Sends at once THEN one answer is kept and the other person is told who answered', async () => {
    const h = await harness();
    const { question, message } = await parkAndPost(h);
    const ref = refOf(question);
    const [a, b] = await Promise.all([
      h.interact(messageAction({ user: 'UANA', responder: h.responder, message }, buttonAction(ACTION_IDS.send, ref))),
      h.interact(messageAction({ user: 'UBOB', responder: h.responder, message }, buttonAction(ACTION_IDS.send, ref))),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    await expect.poll(() => h.responder.replies).toHaveLength(1);
    const answered = await h.store.get(question.project, question.id);
    const winner = answered?.answer?.by.userId;
    const loser = winner === 'UANA' ? 'UBOB' : 'UANA';
    expect(h.responder.to(loser)[0]).toContain(`already answered by name-${winner?.toLowerCase()}`);
    expect(answered?.answer).toMatchObject({ choices: ['Postgres'] });
  });

  it('GIVEN a user outside SLACK_ALLOWED_USERS THEN every interaction is refused in place and nothing changes', async () => {
    const h = await harness({ allowedUsers: ['UANA'] });
    const { question, message } = await parkAndPost(h);
    const ref = refOf(question);
    const eve = { user: 'UEVE', responder: h.responder, message };
    await h.interact(messageAction(eve, selectAction(pickerBlockId(message.blocks), '1')));
    await h.interact(messageAction(eve, buttonAction(ACTION_IDS.send, ref)));
    await h.interact(messageAction(eve, buttonAction(ACTION_IDS.remove, ref)));
    await h.interact(messageAction({ ...eve, triggerId: 'trig-eve' }, buttonAction(ACTION_IDS.notes, ref)));
    await expect.poll(() => h.responder.to('UEVE')).toHaveLength(4);
    for (const text of h.responder.to('UEVE')) expect(text).toContain('not allowed');
    expect((await h.store.get(question.project, question.id))?.status).toBe('pending');
    expect(
      await h.store.getDraft(question.project, question.id, { platform: 'slack', userId: 'UEVE' }),
    ).toBeUndefined();
    expect(h.slack.callsOf('views.open')).toEqual([]);
    expect(h.slack.callsOf('chat.update')).toEqual([]);
  });

  it('GIVEN a click in another channel than the question is routed to THEN it is refused in place and nothing changes', async () => {
    const h = await harness();
    const { question, message } = await parkAndPost(h);
    await h.interact(
      messageAction(
        { user: 'UANA', responder: h.responder, message, channel: 'COTHER' },
        buttonAction(ACTION_IDS.send, refOf(question)),
      ),
    );
    await expect.poll(() => h.responder.to('UANA')).toHaveLength(1);
    expect(h.responder.to('UANA')[0]).toContain('not routed to this channel');
    expect((await h.store.get(question.project, question.id))?.status).toBe('pending');
  });

  it('GIVEN Remove THEN the question is dismissed by that person and the message says so', async () => {
    const h = await harness();
    const { question, message } = await parkAndPost(h);
    await h.interact(
      messageAction(
        { user: 'UANA', responder: h.responder, message },
        buttonAction(ACTION_IDS.remove, refOf(question)),
      ),
    );
    await expect.poll(async () => (await h.store.get(question.project, question.id))?.status).toBe('dismissed');
    await h.slack.waitFor((c) => c.method === 'chat.update' && blocksText(c.body.blocks).includes('Dismissed'));
    // A later Send is told it was dismissed.
    await h.interact(
      messageAction({ user: 'UBOB', responder: h.responder, message }, buttonAction(ACTION_IDS.send, refOf(question))),
    );
    await expect.poll(() => h.responder.to('UBOB')).toHaveLength(1);
    expect(h.responder.to('UBOB')[0]).toContain('dismissed by name-uana');
  });

  it('GIVEN a withdrawn question THEN a Send is told it was withdrawn by the agent', async () => {
    const h = await harness();
    const { question, message } = await parkAndPost(h);
    await h.store.cancel(question.project, question.id);
    await h.interact(
      messageAction({ user: 'UANA', responder: h.responder, message }, buttonAction(ACTION_IDS.send, refOf(question))),
    );
    await expect.poll(() => h.responder.to('UANA')).toHaveLength(1);
    expect(h.responder.to('UANA')[0]).toContain('withdrawn by the agent');
  });

  it('GIVEN a forged signature or a stale timestamp THEN 401 and nothing changes', async () => {
    const h = await harness();
    const { question, message } = await parkAndPost(h);
    const payload = messageAction(
      { user: 'UANA', responder: h.responder, message },
      buttonAction(ACTION_IDS.send, refOf(question)),
    );
    const forged = await h.interact(payload, { signature: `v0=${'0'.repeat(64)}` });
    const stale = await h.interact(payload, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 });
    const wrongSecret = await h.interact(payload, { secret: 'not-the-secret' });
    expect([forged.status, stale.status, wrongSecret.status]).toEqual([401, 401, 401]);
    expect((await h.store.get(question.project, question.id))?.status).toBe('pending');
    // A signed Send after them is taken: none of the refused ones answered first, and none was told anything.
    const signed = messageAction(
      { user: 'UBOB', responder: h.responder, message },
      buttonAction(ACTION_IDS.send, refOf(question)),
    );
    expect((await h.interact(signed)).status).toBe(200);
    await expect.poll(async () => (await h.store.get(question.project, question.id))?.answer?.by.userId).toBe('UBOB');
    expect(h.responder.replies).toEqual([]);
  });

  it('GIVEN bad payloads (no ref, unknown action, garbage) THEN each is acked, logged with ids only, and nothing changes', async () => {
    const h = await harness();
    const { question, message } = await parkAndPost(h);
    const who = { user: 'UANA', responder: h.responder, message };
    const results = await Promise.all([
      h.interact(messageAction(who, { action_id: ACTION_IDS.send, block_id: 'b', type: 'button', value: 'nope' })),
      h.interact(
        messageAction(who, { action_id: 'al_unknown', block_id: 'b', type: 'button', value: refOf(question) }),
      ),
      h.interact({ ...messageAction(who, buttonAction(ACTION_IDS.send, refOf(question))), user: { name: 'no id' } }),
      h.interact(notesSubmission('UANA', { id: 'VX', private_metadata: 'garbage' }, null, 'secret note text')),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    await expect.poll(() => h.logger.lines.filter((l) => l.level === 'warn').length).toBeGreaterThanOrEqual(3);
    expect((await h.store.get(question.project, question.id))?.status).toBe('pending');
    expect(h.logger.text()).not.toContain('secret note text');
    expect(h.logger.lines.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('GIVEN the store answered elsewhere first THEN the message shows the answer even when a pick redraw races it', async () => {
    const h = await harness();
    const { question, message } = await parkAndPost(h);
    await h.store.answer(question.project, question.id, { choices: ['Postgres'], other: false }, person('UZED'));
    await h.interact(
      messageAction(
        { user: 'UANA', responder: h.responder, message },
        selectAction(pickerBlockId(message.blocks), '1'),
      ),
    );
    await expect.poll(() => h.responder.to('UANA')).toHaveLength(1);
    expect(h.responder.to('UANA')[0]).toContain('already answered by Person UZED');
    await expect
      .poll(() => blocksText(h.slack.messages.find((m) => m.ts === message.ts)?.blocks))
      .toContain('Answered by');
  });

  it('GIVEN a multi-select question WHEN a person picks two options and sends THEN both are the answer', async () => {
    const h = await harness();
    const { question, message } = await parkAndPost(h, { multiSelect: true });
    const ref = refOf(question);
    const picked = [{ value: '0' }, { value: '1' }];
    await h.interact(
      messageAction(
        { user: 'UANA', responder: h.responder, message },
        {
          action_id: ACTION_IDS.pick,
          block_id: pickerBlockId(message.blocks),
          type: 'multi_static_select',
          selected_options: picked,
        },
      ),
    );
    const redraw = await h.slack.waitFor((c) => c.method === 'chat.update');
    await h.interact(
      messageAction(
        { user: 'UANA', responder: h.responder, message: { ...message, blocks: redraw.body.blocks } },
        buttonAction(ACTION_IDS.send, ref),
      ),
    );
    await expect.poll(async () => (await h.store.get(question.project, question.id))?.status).toBe('answered');
    expect((await h.store.get(question.project, question.id))?.answer).toMatchObject({
      choices: ['Postgres', 'SQLite'],
    });
  });
});
