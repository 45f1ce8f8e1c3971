/**
 * A set of questions through the real Bolt app (signed requests) and the fake Slack Web API: picked member by
 * member, notes per option on a multi-select, Other with notes, Send refused until every member is ready, then the
 * review modal whose submit sends; the store holds one answer for the set; every copy shows it; the agent gets it
 * once, as one entry. And the inbox (`/questions`, the Home tab) counting a set once.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { SetSpec, SingleSpec } from '../../../src/core/question.js';
import { ACTION_IDS, INBOX_BLOCK_IDS, NOTES_BLOCK_IDS, questionBlockId } from '../../../src/render/slack/ids.js';
import { assertSlackMessage } from '../../../src/render/slack/limits.js';
import type { SlackMessage } from '../../../src/render/slack/types.js';
import { hookEnv, noteOf, payload, runHookCli } from '../../agents/hooks/support.js';
import { isChat } from '../../support/messages.js';
import { setSpec, spec, uniquePrefix, uniqueProject } from '../../support/store.js';
import {
  buttonAction,
  CHANNEL,
  type Harness,
  memberButtonAction,
  messageAction,
  messageState,
  multiSelectAction,
  notesSubmission,
  pickerBlockId,
  postedMessage,
  postOf,
  refOf,
  reviewSubmission,
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

/** Park a question (a set by default) and wait for its Slack message. */
async function parkAndPost(h: Harness, parked: SetSpec | SingleSpec = setSpec(), project = uniqueProject('sets')) {
  const question = await h.store.park(project, parked);
  await expect.poll(async () => (await h.store.get(project, question.id))?.messages.filter(isChat)).toHaveLength(1);
  const message = postedMessage(h.slack, question);
  if (!message) throw new Error('not posted');
  return { question, message: { channel: message.channel, ts: message.ts, blocks: structuredClone(message.blocks) } };
}

const text = (value: unknown) => JSON.stringify(value);

describe('a set of questions on Slack, end to end', () => {
  it('GIVEN a set of three WHEN a person picks member by member, adds notes per option and to Other THEN Send is refused until all are ready, then reviewed and sent once as one answer, every copy and the agent get it', async () => {
    const prefix = uniquePrefix();
    const h = await harness({ prefix });
    const { question, message } = await parkAndPost(h);
    const ref = refOf(question);
    const ana = { platform: 'slack' as const, userId: 'UANA' };
    const post = postOf(h.slack, question);
    expect(() => assertSlackMessage(post?.body as unknown as SlackMessage)).not.toThrow();
    // One message: a picker per member (the member in its block id) and one Send.
    const pickers = (post?.body.blocks as { block_id?: string }[]).filter((b) => b.block_id?.startsWith('al_q:'));
    expect(pickers.map((b) => b.block_id?.split(':').at(-1))).toEqual(['0', '1', '2']);
    let shown = message.blocks;
    const latest = () => h.slack.messages.find((m) => m.ts === message.ts)?.blocks;
    const who = (triggerId?: string) => ({
      user: 'UANA',
      responder: h.responder,
      message: { ...message, blocks: shown },
      ...(triggerId === undefined ? {} : { triggerId }),
    });
    const redrawn = async (needle: string) => {
      const call = await h.slack.waitFor(
        (c) => c.method === 'chat.update' && c.body.ts === message.ts && text(c.body.blocks).includes(needle),
      );
      shown = call.body.blocks;
    };

    // 1. Send at once: Database and Caches show their recommendations, Naming has none: refused in place.
    await h.interact(messageAction(who(), buttonAction(ACTION_IDS.send, ref)));
    await expect.poll(() => h.responder.to('UANA')).toHaveLength(1);
    expect(h.responder.to('UANA')[0]).toContain('Naming needs a pick');
    expect(h.responder.replies[0]?.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });

    // 2. Caches (a multi-select): pick Redis and None; the draft is kept for that member and the message redrawn.
    await h.interact(messageAction(who(), multiSelectAction(pickerBlockId(shown, 1), ['0', '2'])));
    await expect
      .poll(async () => (await h.store.getDraft(question.project, question.id, ana, 1))?.choices)
      .toEqual(['Redis', 'None']);
    await redrawn('Add notes');
    expect(pickerBlockId(shown, 1)).toMatch(/:1$/);

    // 3. Caches' notes: the modal names the member and offers a notes field per picked option.
    await h.interact(
      messageAction(who('trig-caches'), memberButtonAction(ACTION_IDS.notes, ref, pickerBlockId(shown, 1))),
    );
    const cachesModal = (await h.slack.waitFor((c) => c.method === 'views.open' && c.body.trigger_id === 'trig-caches'))
      .body.view as { private_metadata: string; title: { text: string }; blocks: { block_id?: string }[] };
    expect(cachesModal.title.text).toBe(`Notes for #${question.id}.2`);
    expect(cachesModal.blocks.map((b) => b.block_id).filter((id) => id?.startsWith('al_notes_opt'))).toEqual([
      'al_notes_opt:0',
      'al_notes_opt:2',
    ]);
    const savedCaches = await h.interact(
      notesSubmission(
        'UANA',
        { id: 'VCACHES', private_metadata: cachesModal.private_metadata },
        ['0', '2'],
        'For now.',
        {
          0: 'The shared cluster.',
          2: 'Nothing in-process.',
        },
      ),
    );
    expect(savedCaches.text).toBe('');
    expect(await h.store.getDraft(question.project, question.id, ana, 1)).toMatchObject({
      choices: ['Redis', 'None'],
      notes: 'For now.',
      choiceNotes: [
        { choice: 'Redis', notes: 'The shared cluster.' },
        { choice: 'None', notes: 'Nothing in-process.' },
      ],
    });
    await redrawn('notes on 2 options');

    // 4. Naming: Other without a note yet — Send says which member needs what.
    await h.interact(messageAction(who(), selectAction(pickerBlockId(shown, 2), 'other')));
    await redrawn('needs a note');
    await h.interact(messageAction(who(), buttonAction(ACTION_IDS.send, ref)));
    await expect.poll(() => h.responder.to('UANA')).toHaveLength(2);
    expect(h.responder.to('UANA')[1]).toContain('Naming needs a note (Other)');
    expect((await h.store.get(question.project, question.id))?.status).toBe('pending');

    // 5. Naming's notes: Other with a note makes it ready.
    await h.interact(
      messageAction(who('trig-naming'), memberButtonAction(ACTION_IDS.notes, ref, pickerBlockId(shown, 2))),
    );
    const namingModal = (await h.slack.waitFor((c) => c.method === 'views.open' && c.body.trigger_id === 'trig-naming'))
      .body.view as { private_metadata: string; blocks: { block_id?: string; optional?: boolean }[] };
    expect(namingModal.blocks.find((b) => b.block_id === NOTES_BLOCK_IDS.notes)?.optional).toBe(false);
    const refusedEmpty = await h.interact(
      notesSubmission('UANA', { id: 'VNAMING', private_metadata: namingModal.private_metadata }, 'other', ''),
    );
    expect(JSON.parse(refusedEmpty.text)).toMatchObject({ response_action: 'errors' });
    const savedNaming = await h.interact(
      notesSubmission('UANA', { id: 'VNAMING', private_metadata: namingModal.private_metadata }, 'other', 'Invoices.'),
    );
    expect(savedNaming.text).toBe('');
    await redrawn('Invoices.');

    // 6. Send: every member ready → the review modal opens on the click's trigger, listing each topic's answer.
    expect(h.slack.callsOf('views.open').map((c) => c.body.trigger_id)).toEqual(['trig-caches', 'trig-naming']);
    await h.interact(messageAction(who('trig-send'), buttonAction(ACTION_IDS.send, ref)));
    const review = (await h.slack.waitFor((c) => c.method === 'views.open' && c.body.trigger_id === 'trig-send')).body
      .view as { callback_id: string; private_metadata: string; blocks: unknown[] };
    expect(review.callback_id).toBe('al_review');
    const reviewText = text(review.blocks);
    for (const line of [
      '*Database*\\n*Answer:* Postgres',
      '*Caches*\\n*Answer:* Redis, None',
      '*Notes on Redis:*\\n>>> The shared cluster.',
      '*Naming*\\n*Answer:* Other',
      '*Notes:*\\n>>> Invoices.',
    ]) {
      expect(reviewText).toContain(line);
    }
    expect(h.responder.to('UANA')).toHaveLength(2);
    expect((await h.store.get(question.project, question.id))?.status).toBe('pending');

    // 7. The review's submit sends: one answer for the set, each member's selection nested.
    const sent = await h.interact(
      reviewSubmission('UANA', { id: 'VREVIEW', private_metadata: review.private_metadata }),
    );
    expect(sent.status).toBe(200);
    expect(sent.text).toBe('');
    const answered = await h.store.get(question.project, question.id);
    expect(answered?.status).toBe('answered');
    expect(answered?.answer).toEqual({
      members: [
        { choices: ['Postgres'], other: false },
        {
          choices: ['Redis', 'None'],
          other: false,
          notes: 'For now.',
          choiceNotes: [
            { choice: 'Redis', notes: 'The shared cluster.' },
            { choice: 'None', notes: 'Nothing in-process.' },
          ],
        },
        { choices: [], other: true, notes: 'Invoices.' },
      ],
      by: { platform: 'slack', userId: 'UANA', displayName: 'name-uana' },
      at: expect.any(Number),
    });

    // 8. Every copy shows each member's answer, its notes per option and notes.
    await redrawn('Answered by name-uana');
    const final = text(latest());
    for (const line of ['Answer:* Redis, None', 'Notes on Redis:*\\n>>> The shared cluster.', 'Answer:* Other']) {
      expect(final).toContain(line);
    }
    expect(final).not.toContain(ACTION_IDS.send);

    // 9. A second submit of the same review is told who answered, in the modal.
    const again = await h.interact(
      reviewSubmission('UBOB', { id: 'VREVIEW2', private_metadata: review.private_metadata }),
    );
    expect(text(JSON.parse(again.text))).toContain('already answered by name-uana');
    expect((await h.store.get(question.project, question.id))?.answer).toMatchObject({ by: { userId: 'UANA' } });

    // 10. The agent gets it once, as one entry with the answers under their topics; the message says delivered.
    const env = hookEnv({
      REDIS_URL: inject('redisUrl'),
      ASK_LATER_REDIS_PREFIX: prefix,
      ASK_LATER_PROJECT: question.project,
    });
    const drained = await runHookCli(env, payload());
    expect(drained.code).toBe(0);
    const note = noteOf(drained.stdout);
    expect(note.match(/^### #/gm)).toHaveLength(1);
    expect(note).toContain(`#### #${question.id}.2 Caches`);
    expect(note).toContain('- Notes on Redis:');
    expect(note).toContain('> Invoices.');
    expect((await runHookCli(env, payload())).stdout.trim()).toBe('');
    await redrawn('Delivered to the agent');
    expect(h.slack.callsOf('chat.postMessage')).toHaveLength(1);

    // Logs: ids and timings only.
    for (const secret of ['The shared cluster', 'Invoices', 'billing', 'xoxb-test', SECRET]) {
      expect(h.logger.text()).not.toContain(secret);
    }
  });

  it('GIVEN a review open WHEN its notes change in another window THEN its submit shows the new review instead of sending', async () => {
    const h = await harness();
    const { question, message } = await parkAndPost(h);
    const ref = refOf(question);
    const ana = { platform: 'slack' as const, userId: 'UANA' };
    await h.store.saveDraft(question.project, question.id, ana, {
      member: 2,
      pick: { choices: ['ledger'], other: false },
    });
    const state = messageState(message.blocks);
    // What the viewer sees for Naming: ledger (their draft), not the empty select of the first draw.
    const namingBlock = pickerBlockId(message.blocks, 2);
    state[namingBlock] = { [ACTION_IDS.pick]: { type: 'static_select', selected_option: { value: '1' } } };
    await h.interact(
      messageAction(
        { user: 'UANA', responder: h.responder, message, triggerId: 'trig-review' },
        buttonAction(ACTION_IDS.send, ref),
        state,
      ),
    );
    const review = (await h.slack.waitFor((c) => c.method === 'views.open' && c.body.trigger_id === 'trig-review')).body
      .view as { private_metadata: string };
    await h.store.saveDraft(question.project, question.id, ana, { member: 0, notes: 'Changed my mind on notes.' });
    const submitted = await h.interact(
      reviewSubmission('UANA', { id: 'VR', private_metadata: review.private_metadata }),
    );
    const ack = JSON.parse(submitted.text) as { response_action: string; view: { callback_id: string } };
    expect(ack.response_action).toBe('update');
    expect(ack.view.callback_id).toBe('al_review');
    expect(text(ack.view)).toContain('Changed my mind on notes.');
    expect((await h.store.get(question.project, question.id))?.status).toBe('pending');
  });
});

describe('a set in the inbox', () => {
  it('GIVEN a set and a single question WHEN /questions, a member pick, the Home tab and Send N THEN the set counts once, only when every member is ready, and is sent whole', async () => {
    const h = await harness();
    const project = uniqueProject('set-inbox');
    const set = await h.store.park(project, setSpec());
    const single = await h.store.park(project, spec());
    await expect
      .poll(async () => (await h.store.list(project)).map((q) => q.messages.filter(isChat).length))
      .toEqual([1, 1]);

    // /questions: two entries; the set shows 2 of 3 ready, so Send counts the single question only.
    await h.command({
      command: '/questions',
      text: '',
      team_id: 'T1',
      channel_id: CHANNEL,
      user_id: 'UANA',
      user_name: 'ana',
      trigger_id: 'trig-inbox',
      response_url: `${h.responder.url}/r/UANA`,
      api_app_id: 'A1',
      token: 'verification-token',
    });
    type View = {
      private_metadata: string;
      blocks: { block_id?: string; accessory?: { text: { text: string }; value: string } }[];
    };
    const sendOf = (view: View) => view.blocks.find((b) => b.block_id === INBOX_BLOCK_IDS.sendAll)?.accessory;
    const inbox = (await h.slack.waitFor((c) => c.method === 'views.open' && c.body.trigger_id === 'trig-inbox')).body
      .view as View;
    expect(text(inbox)).toContain('All (2)');
    expect(text(inbox)).toContain('2 of 3 ready');
    expect(sendOf(inbox)?.text.text).toBe('Send 1 answer');

    // Pick Naming's "ledger" in the inbox (the member's block): the set is ready, Send counts it once.
    await h.interact(
      viewAction(
        'UANA',
        { id: 'VINBOX', type: 'modal', private_metadata: inbox.private_metadata },
        {
          action_id: ACTION_IDS.inboxPick,
          block_id: questionBlockId(refOf(set), 0, 2),
          type: 'static_select',
          selected_option: { value: '1' },
        },
      ),
    );
    const redrawn = (await h.slack.waitFor((c) => c.method === 'views.update' && c.body.view_id === 'VINBOX')).body
      .view as View;
    expect(text(redrawn)).toContain('3 of 3 ready');
    expect(sendOf(redrawn)?.text.text).toBe('Send 2 answers');
    expect(sendOf(redrawn)?.value.split(' ').sort()).toEqual([refOf(set), refOf(single)].sort());

    // The Home tab agrees; its Send N sends the set whole and the single question.
    await h.event({ type: 'app_home_opened', user: 'UANA', channel: 'DHOME', tab: 'home' });
    const home = (await h.slack.waitFor((c) => c.method === 'views.publish' && c.body.user_id === 'UANA')).body
      .view as View;
    expect(sendOf(home)?.text.text).toBe('Send 2 answers');
    await h.interact(
      viewAction(
        'UANA',
        { id: 'VHOME', type: 'home', private_metadata: home.private_metadata },
        {
          action_id: ACTION_IDS.inboxSendAll,
          block_id: INBOX_BLOCK_IDS.sendAll,
          type: 'button',
          value: sendOf(home)?.value ?? '',
        },
      ),
    );
    await expect.poll(() => h.store.list(project, { status: ['answered'] })).toHaveLength(2);
    expect((await h.store.get(project, set.id))?.answer).toMatchObject({
      members: [
        { choices: ['Postgres'], other: false },
        { choices: ['Redis', 'In-process'], other: false },
        { choices: ['ledger'], other: false },
      ],
    });
    const summary = await h.slack.waitFor(
      (c) => c.method === 'views.publish' && text(c.body.view).includes('Sent 2 answers'),
    );
    expect(text(summary.body.view)).toContain(`#${set.id}`);
  });
});
