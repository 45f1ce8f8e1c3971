/**
 * The Home tab has no channel: it shows and accepts only the projects routed to channels the person is a member of
 * (Slack's `users.conversations`), plus those an allow-list names them for. Two routes, a public and a private
 * channel; an outsider in the public one only.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Question } from '../../../src/core/question.js';
import { ACTION_IDS, INBOX_BLOCK_IDS, questionBlockId } from '../../../src/render/slack/ids.js';
import type { SlackCall } from '../../fakes/slack-api.js';
import { FakeSlackApi } from '../../fakes/slack-api.js';
import { isChat } from '../../support/messages.js';
import { spec, uniqueProject } from '../../support/store.js';
import {
  buttonAction,
  type Harness,
  messageAction,
  notesSubmission,
  postedMessage,
  refOf,
  startHarness,
  viewAction,
} from './harness.js';

const PUBLIC = 'CPUBLIC';
const PRIVATE = 'GPRIVATE';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.stop();
});

interface Setup {
  readonly h: Harness;
  readonly onPublic: Question;
  readonly onPrivate: Question;
}

async function twoChannels(privateAllow?: readonly string[]): Promise<Setup> {
  const slack = await new FakeSlackApi().start();
  slack.channelMembers.set(PUBLIC, ['UANA', 'UOUT']);
  slack.channelMembers.set(PRIVATE, ['UANA']);
  const publicProject = uniqueProject('home-public');
  const privateProject = uniqueProject('home-private');
  const h = await startHarness({
    slack,
    routes: [
      { project: publicProject, slack: PUBLIC },
      {
        project: privateProject,
        slack: PRIVATE,
        ...(privateAllow ? { allow: { slackUsers: privateAllow } } : {}),
      },
    ],
  });
  open.push(h);
  const onPublic = await h.store.park(publicProject, spec({ question: 'Which queue should the public API use?' }));
  const onPrivate = await h.store.park(privateProject, spec({ question: 'Which key signs the private releases?' }));
  await vi.waitFor(
    async () => {
      for (const q of [onPublic, onPrivate]) {
        expect((await h.store.get(q.project, q.id))?.messages.filter(isChat)).toHaveLength(1);
      }
    },
    { timeout: 10_000 },
  );
  return { h, onPublic, onPrivate };
}

/** The Home tab as published for `user` after they open it. */
async function openHome(h: Harness, user: string): Promise<{ json: string; metadata: string; send: string }> {
  const before = publishesFor(h, user).length;
  expect((await h.event({ type: 'app_home_opened', user, channel: `D${user}`, tab: 'home' })).status).toBe(200);
  await vi.waitFor(() => expect(publishesFor(h, user).length).toBe(before + 1), { timeout: 10_000 });
  const view = (publishesFor(h, user).at(-1) as SlackCall).body.view as {
    private_metadata: string;
    blocks: { block_id?: string; accessory?: { value?: string } }[];
  };
  // "Send N answers" carries the refs of the ready questions shown.
  const send = view.blocks.find((b) => b.block_id === INBOX_BLOCK_IDS.sendAll)?.accessory?.value ?? '';
  return { json: JSON.stringify(view), metadata: view.private_metadata, send };
}

function publishesFor(h: Harness, user: string): SlackCall[] {
  return h.slack.callsOf('views.publish').filter((c) => c.body.user_id === user);
}

function homeAction(user: string, metadata: string, action: Record<string, unknown>) {
  return viewAction(user, { id: `VHOME${user}`, type: 'home', private_metadata: metadata }, action);
}

/** The inbox's select for `question`, set to the option at `index`. */
function inboxPick(question: Question, index: number) {
  return {
    action_id: ACTION_IDS.inboxPick,
    block_id: questionBlockId(refOf(question), 0),
    type: 'static_select',
    selected_option: { value: String(index) },
  };
}

describe('the Home tab shows only the channels a person is in', () => {
  it('GIVEN a public and a private route and a person only in the public channel THEN their Home lists only the public question, Send from Home answers only it, and the member sees both', async () => {
    const { h, onPublic, onPrivate } = await twoChannels();

    const outsider = await openHome(h, 'UOUT');
    expect(outsider.json).toContain(refOf(onPublic));
    expect(outsider.json).toContain('Which queue should the public API use?');
    expect(outsider.json).not.toContain(refOf(onPrivate));
    expect(outsider.json).not.toContain('Which key signs the private releases?');

    const member = await openHome(h, 'UANA');
    expect(member.json).toContain(refOf(onPublic));
    expect(member.json).toContain(refOf(onPrivate));

    // "Send N answers" from the outsider's Home: the recommendation of what they see, and nothing else.
    await h.interact(
      homeAction('UOUT', outsider.metadata, {
        action_id: ACTION_IDS.inboxSendAll,
        block_id: INBOX_BLOCK_IDS.sendAll,
        type: 'button',
        value: outsider.send,
      }),
    );
    await vi.waitFor(async () => expect((await h.store.get(onPublic.project, onPublic.id))?.status).toBe('answered'), {
      timeout: 10_000,
    });
    expect((await h.store.get(onPrivate.project, onPrivate.id))?.status).toBe('pending');
    expect(outsider.send).not.toContain(refOf(onPrivate));

    // A forged "Send N answers" naming the private question: refused with the reason, nothing sent.
    await vi.waitFor(
      () => expect(JSON.stringify((publishesFor(h, 'UOUT').at(-1) as SlackCall).body.view)).toContain('Sent 1 answer'),
      { timeout: 10_000 },
    );
    const before = publishesFor(h, 'UOUT').length;
    await h.interact(
      homeAction('UOUT', outsider.metadata, {
        action_id: ACTION_IDS.inboxSendAll,
        block_id: INBOX_BLOCK_IDS.sendAll,
        type: 'button',
        value: refOf(onPrivate),
      }),
    );
    await vi.waitFor(() => expect(publishesFor(h, 'UOUT').length).toBe(before + 1), { timeout: 10_000 });
    expect(JSON.stringify((publishesFor(h, 'UOUT').at(-1) as SlackCall).body.view)).toContain(
      'a channel you are not in',
    );
    expect((await h.store.get(onPrivate.project, onPrivate.id))?.status).toBe('pending');
  });

  it('GIVEN forged Home actions for the private channel’s question THEN each is refused and nothing changes', async () => {
    const { h, onPrivate } = await twoChannels();
    const outsider = await openHome(h, 'UOUT');
    const person = { platform: 'slack' as const, userId: 'UOUT' };
    const publishes = () => publishesFor(h, 'UOUT').length;

    // A pick from Home for the private question: refused, the tab redrawn with the reason, no draft kept.
    const before = publishes();
    await h.interact(homeAction('UOUT', outsider.metadata, inboxPick(onPrivate, 1)));
    await vi.waitFor(() => expect(publishes()).toBe(before + 1), { timeout: 10_000 });
    const redrawn = publishesFor(h, 'UOUT').at(-1) as SlackCall;
    expect(JSON.stringify(redrawn.body.view)).toContain('a channel you are not in');
    expect(await h.store.getDraft(onPrivate.project, onPrivate.id, person)).toBeUndefined();

    // "Add notes" from Home for it: no modal opens.
    await h.interact(
      homeAction('UOUT', outsider.metadata, {
        action_id: ACTION_IDS.inboxNotes,
        block_id: 'b',
        type: 'button',
        value: refOf(onPrivate),
      }),
    );
    await vi.waitFor(() => expect(publishes()).toBe(before + 2), { timeout: 10_000 });
    expect(h.slack.callsOf('views.open')).toEqual([]);

    // A notes modal submission claiming to come from Home: refused in the modal, nothing saved.
    const forgedMetadata = JSON.stringify({
      ref: refOf(onPrivate),
      inbox: { filter: 'all', surface: 'home' },
    });
    const saved = await h.interact(
      notesSubmission('UOUT', { id: 'VFORGED', private_metadata: forgedMetadata }, '1', 'Use the old key.'),
    );
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('a channel you are not in');
    expect(await h.store.getDraft(onPrivate.project, onPrivate.id, person)).toBeUndefined();

    // Send from the private channel's message, as if clicked in the public channel: refused, not routed there.
    const message = postedMessage(h.slack, onPrivate);
    if (!message) throw new Error('the private question was not posted');
    await h.interact(
      messageAction(
        {
          user: 'UOUT',
          responder: h.responder,
          message: { channel: message.channel, ts: message.ts, blocks: message.blocks },
          channel: PUBLIC,
        },
        buttonAction(ACTION_IDS.send, refOf(onPrivate)),
      ),
    );
    await vi.waitFor(() => expect(h.responder.to('UOUT')).toHaveLength(1), { timeout: 10_000 });
    expect(h.responder.to('UOUT')[0]).toContain('not routed to this channel');

    const after = await h.store.get(onPrivate.project, onPrivate.id);
    expect(after?.status).toBe('pending');
    expect(after?.answer).toBeUndefined();
  });

  it('GIVEN the private route’s allow-list names someone outside its channel THEN their Home lists its question and they can answer it', async () => {
    const { h, onPublic, onPrivate } = await twoChannels(['UANA', 'UGRANT']);
    const granted = await openHome(h, 'UGRANT');
    expect(granted.json).toContain(refOf(onPrivate));
    expect(granted.json).not.toContain(refOf(onPublic)); // not in the public channel, and no list names them there

    await h.interact(
      homeAction('UGRANT', granted.metadata, {
        action_id: ACTION_IDS.inboxSendAll,
        block_id: INBOX_BLOCK_IDS.sendAll,
        type: 'button',
        value: granted.send,
      }),
    );
    await vi.waitFor(
      async () => expect((await h.store.get(onPrivate.project, onPrivate.id))?.answer?.by.userId).toBe('UGRANT'),
      { timeout: 10_000 },
    );
    expect((await h.store.get(onPublic.project, onPublic.id))?.status).toBe('pending');
  });
});
