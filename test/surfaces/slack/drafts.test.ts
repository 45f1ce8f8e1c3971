/**
 * Drafts through the real Bolt app: asking whether a person may act (opening the notes modal) writes nothing, and
 * picks, notes and Sends from two people arriving together all land or are told who answered.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACTION_IDS, NOTES_BLOCK_IDS } from '../../../src/render/slack/ids.js';
import { isChat } from '../../support/messages.js';
import { spec, uniqueProject } from '../../support/store.js';
import {
  buttonAction,
  CHANNEL,
  type Harness,
  messageAction,
  messageState,
  notesSubmission,
  pickerBlockId,
  postedMessage,
  refOf,
  selectAction,
  startHarness,
  viewAction,
} from './harness.js';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.stop();
});

async function harness(): Promise<Harness> {
  const h = await startHarness();
  open.push(h);
  return h;
}

/** Park a question and wait for its Slack message. */
async function parkAndPost(h: Harness) {
  const project = uniqueProject('drafts');
  const question = await h.store.park(project, spec());
  await vi.waitFor(
    async () => expect((await h.store.get(project, question.id))?.messages.filter(isChat)).toHaveLength(1),
    { timeout: 10_000 },
  );
  const message = postedMessage(h.slack, question);
  if (!message) throw new Error('not posted');
  return { question, message: { channel: message.channel, ts: message.ts, blocks: structuredClone(message.blocks) } };
}

type View = {
  private_metadata: string;
  blocks: { block_id?: string; element?: { initial_option?: { value: string } } }[];
};

/** The option the notes modal's picker shows selected. */
function modalPick(view: View): string | undefined {
  return view.blocks.find((block) => block.block_id === NOTES_BLOCK_IDS.pick)?.element?.initial_option?.value;
}

describe('access checks that write nothing', () => {
  it('GIVEN a member opens Add notes from a message and from the /questions inbox on a question they have no draft for THEN the modal shows what they see, and nothing is written until they save', async () => {
    const h = await harness();
    const { question, message } = await parkAndPost(h);
    const ref = refOf(question);
    const ana = { platform: 'slack' as const, userId: 'UANA' };
    const who = { user: 'UANA', responder: h.responder, message };
    const opened = (trigger: string) =>
      h.slack.waitFor((c) => c.method === 'views.open' && c.body.trigger_id === trigger);

    // From the message, select untouched: the recommendation shows, no draft.
    await h.interact(messageAction({ ...who, triggerId: 'trig-1' }, buttonAction(ACTION_IDS.notes, ref)));
    expect(modalPick((await opened('trig-1')).body.view as View)).toBe('0');
    expect(await h.store.getDraft(question.project, question.id, ana)).toBeUndefined();

    // From the message, their select showing SQLite (no pick event yet): the modal shows it, still no draft.
    await h.interact(
      messageAction(
        { ...who, triggerId: 'trig-2' },
        buttonAction(ACTION_IDS.notes, ref),
        messageState(message.blocks, { value: '1' }),
      ),
    );
    const modal = (await opened('trig-2')).body.view as View;
    expect(modalPick(modal)).toBe('1');
    expect(await h.store.getDraft(question.project, question.id, ana)).toBeUndefined();

    // From the /questions inbox: the modal is pushed over it, still no draft.
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
    const inbox = (await opened('trig-inbox')).body.view as View;
    await h.interact(
      viewAction(
        'UANA',
        { id: 'VINBOX', type: 'modal', private_metadata: inbox.private_metadata },
        { action_id: ACTION_IDS.inboxNotes, block_id: 'b', type: 'button', value: ref },
      ),
    );
    await h.slack.waitFor((c) => c.method === 'views.push');
    expect(await h.store.getDraft(question.project, question.id, ana)).toBeUndefined();

    // Saving the message's modal writes what it showed, with the notes.
    const saved = await h.interact(
      notesSubmission('UANA', { id: 'VNOTES', private_metadata: modal.private_metadata }, '1', 'Small data set.'),
    );
    expect(saved.text).toBe('');
    expect(await h.store.getDraft(question.project, question.id, ana)).toMatchObject({
      choices: ['SQLite'],
      other: false,
      notes: 'Small data set.',
    });
  });
});

describe('two people at once', () => {
  it('GIVEN 100 concurrent picks, notes and Sends from two people on one question THEN one answer wins, every refusal names who answered, and no draft outlives the answer', async () => {
    const h = await harness();
    const { question, message } = await parkAndPost(h);
    const ref = refOf(question);
    const users = ['UANA', 'UBOB'];
    // Each person's notes modal, opened once (which writes nothing) for the metadata its submissions carry.
    const metadata = new Map<string, string>();
    for (const user of users) {
      const trigger = `trig-${user}`;
      await h.interact(
        messageAction(
          { user, responder: h.responder, message, triggerId: trigger },
          buttonAction(ACTION_IDS.notes, ref),
        ),
      );
      const opened = await h.slack.waitFor((c) => c.method === 'views.open' && c.body.trigger_id === trigger);
      metadata.set(user, (opened.body.view as View).private_metadata);
    }

    // Per person: 24 picks of SQLite, 25 notes, one Send; interleaved, all posted at once.
    type Sent = { user: string; kind: 'pick' | 'notes' | 'send'; payload: unknown };
    const plan: Sent[] = [];
    for (let i = 0; i < 50; i++) {
      for (const user of users) {
        const click = { user, responder: h.responder, message };
        if (i === 25) {
          plan.push({ user, kind: 'send', payload: messageAction(click, buttonAction(ACTION_IDS.send, ref)) });
        } else if (i % 2 === 0) {
          const view = { id: `V${user}`, private_metadata: metadata.get(user) };
          plan.push({ user, kind: 'notes', payload: notesSubmission(user, view, '1', `secret-notes ${user} ${i}`) });
        } else {
          const pick = messageAction(click, selectAction(pickerBlockId(message.blocks), '1'));
          plan.push({ user, kind: 'pick', payload: pick });
        }
      }
    }
    expect(plan).toHaveLength(100);
    const handled = () =>
      h.logger.lines.filter((l) => l.message === 'slack: interaction handled' && l.fields.where === 'block_actions')
        .length;
    const replies = await Promise.all(plan.map((step) => h.interact(step.payload)));
    expect(replies.every((reply) => reply.status === 200)).toBe(true);
    // Block actions are acked first and handled after: wait until the two opens, every pick and Send were handled.
    const blockActions = users.length + plan.filter((step) => step.kind !== 'notes').length;
    await vi.waitFor(() => expect(handled()).toBe(blockActions), { timeout: 20_000 });

    // One answer wins.
    const answered = await h.store.get(question.project, question.id);
    expect(answered?.status).toBe('answered');
    const winner = answered?.answer?.by.userId ?? '';
    const loser = users.find((user) => user !== winner) ?? '';
    expect(users).toContain(winner);
    const told = `already answered by name-${winner.toLowerCase()} on Slack`;

    // The other Send, and every pick that came after the answer, were told who answered (in place, ephemeral).
    expect(h.responder.to(loser).length).toBeGreaterThanOrEqual(1);
    for (const user of users) {
      for (const text of h.responder.to(user)) expect(text).toContain(told);
    }
    // Every notes submission was saved (the modal closes) or answered with who answered on the notes field.
    for (const [i, step] of plan.entries()) {
      if (step.kind !== 'notes') continue;
      expect(replies[i]?.text).toMatch(new RegExp(`^$|${told}`));
    }
    // Drafts end with the answer; none was written after it. Logs carry no notes.
    for (const user of users) {
      expect(
        await h.store.getDraft(question.project, question.id, { platform: 'slack', userId: user }),
      ).toBeUndefined();
    }
    expect(h.logger.text()).not.toContain('secret-notes');
  });
});
