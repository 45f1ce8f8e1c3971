import { afterEach, describe, expect, it } from 'vitest';
import { ACTION_IDS, INBOX_BLOCK_IDS, questionBlockId } from '../../../src/render/slack/ids.js';
import type { SlackCall } from '../../fakes/slack-api.js';
import { isChat } from '../../support/messages.js';
import { spec, uniqueProject } from '../../support/store.js';
import { CHANNEL, type Harness, notesSubmission, refOf, startHarness, viewAction } from './harness.js';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.stop();
});

type View = {
  type: string;
  private_metadata: string;
  blocks: {
    type: string;
    block_id?: string;
    text?: { text: string };
    elements?: unknown[];
    accessory?: { text: { text: string }; value: string };
  }[];
};

function viewOf(call: SlackCall): View {
  return call.body.view as View;
}

function filterLabels(view: View): string[] {
  const block = view.blocks.find((b) => b.block_id === INBOX_BLOCK_IDS.filter);
  const select = block?.elements?.[0] as { options: { text: { text: string } }[] };
  return select.options.map((o) => o.text.text);
}

function sendButton(view: View): string | undefined {
  return view.blocks.find((b) => b.block_id === INBOX_BLOCK_IDS.sendAll)?.accessory?.text.text;
}

/** What "Send N answers" carries: the refs of the ready questions the page shows. */
function sendValue(view: View): string {
  return view.blocks.find((b) => b.block_id === INBOX_BLOCK_IDS.sendAll)?.accessory?.value ?? '';
}

/**
 * Four pending questions in one project routed to the channel: #1 blocking, recommended (ready as shown);
 * #2 can wait, no recommendation (pick one); #3 can wait, recommended (ready); #4 blocking, Other without a note.
 */
async function fourQuestions(h: Harness) {
  const project = uniqueProject('inbox');
  const q1 = await h.store.park(project, spec({ isBlocking: true }));
  const { recommended: _none, ...noRecommendation } = spec();
  const q2 = await h.store.park(project, noRecommendation);
  const q3 = await h.store.park(project, spec());
  const q4 = await h.store.park(project, spec({ isBlocking: true }));
  await h.store.saveDraft(
    project,
    q4.id,
    { platform: 'slack', userId: 'UANA' },
    { pick: { choices: [], other: true } },
  );
  await expect
    .poll(async () => (await h.store.list(project)).map((q) => q.messages.filter(isChat).length))
    .toEqual([1, 1, 1, 1]);
  return { project, q1, q2, q3, q4 };
}

async function openInbox(h: Harness): Promise<{ view: View; call: SlackCall }> {
  const trigger = `trig-${Math.random()}`;
  const answer = await h.command({
    command: '/questions',
    text: '',
    team_id: 'T1',
    channel_id: CHANNEL,
    user_id: 'UANA',
    user_name: 'ana',
    trigger_id: trigger,
    response_url: `${h.responder.url}/r/UANA`,
    api_app_id: 'A1',
    token: 'verification-token',
  });
  expect(answer.status).toBe(200);
  const call = await h.slack.waitFor((c) => c.method === 'views.open' && c.body.trigger_id === trigger);
  return { view: viewOf(call), call };
}

describe('the inbox (/questions and the Home tab)', () => {
  it('GIVEN four questions WHEN /questions runs THEN the modal opens with the filter counts and "Send N" counting what shows ready', async () => {
    const h = await startHarness();
    open.push(h);
    await fourQuestions(h);
    const { view } = await openInbox(h);
    expect(view.type).toBe('modal');
    expect(filterLabels(view)).toEqual(['All (4)', 'Blocking (2)', 'Non-blocking (2)']);
    expect(sendButton(view)).toBe('Send 2 answers');
    expect(JSON.parse(view.private_metadata)).toEqual({ filter: 'all', channel: CHANNEL });
  });

  it('GIVEN the Non-blocking filter WHEN "Send N answers" THEN only the ready answers in that filter are sent, and the inbox is redrawn with a summary', async () => {
    const h = await startHarness();
    open.push(h);
    const { project, q1, q2, q3, q4 } = await fourQuestions(h);
    const { view } = await openInbox(h);
    const modal = {
      id: 'VINBOX',
      type: 'modal' as const,
      private_metadata: view.private_metadata,
      callback_id: 'al_inbox',
    };

    await h.interact(
      viewAction('UANA', modal, {
        action_id: ACTION_IDS.inboxFilter,
        block_id: INBOX_BLOCK_IDS.filter,
        type: 'static_select',
        selected_option: { value: 'non-blocking' },
      }),
    );
    const filtered = viewOf(await h.slack.waitFor((c) => c.method === 'views.update' && c.body.view_id === 'VINBOX'));
    expect(sendButton(filtered)).toBe('Send 1 answer');
    expect(JSON.parse(filtered.private_metadata)).toMatchObject({ filter: 'non-blocking', channel: CHANNEL });

    await h.interact(
      viewAction(
        'UANA',
        { ...modal, private_metadata: filtered.private_metadata },
        {
          action_id: ACTION_IDS.inboxSendAll,
          block_id: INBOX_BLOCK_IDS.sendAll,
          type: 'button',
          value: sendValue(filtered),
        },
      ),
    );
    await expect.poll(async () => (await h.store.get(project, q3.id))?.status).toBe('answered');
    const after = viewOf(
      await h.slack.waitFor(
        (c) => c.method === 'views.update' && JSON.stringify(c.body.view).includes('Sent 1 answer'),
      ),
    );
    expect(JSON.stringify(after)).toContain(`#${q3.id}`);
    expect((await h.store.get(project, q3.id))?.answer).toMatchObject({
      choices: ['Postgres'],
      by: { userId: 'UANA' },
    });
    for (const q of [q1, q2, q4]) expect((await h.store.get(project, q.id))?.status).toBe('pending');
    expect(filterLabels(after)).toEqual(['All (3)', 'Blocking (2)', 'Non-blocking (1)']);
  });

  it('GIVEN a pick in the inbox THEN the draft is kept and the inbox redrawn with the new ready count', async () => {
    const h = await startHarness();
    open.push(h);
    const { project, q2 } = await fourQuestions(h);
    const { view } = await openInbox(h);
    await h.interact(
      viewAction(
        'UANA',
        { id: 'VINBOX', type: 'modal', private_metadata: view.private_metadata },
        {
          action_id: ACTION_IDS.inboxPick,
          block_id: questionBlockId(refOf(q2), 0),
          type: 'static_select',
          selected_option: { value: '1' },
        },
      ),
    );
    const redrawn = viewOf(await h.slack.waitFor((c) => c.method === 'views.update' && c.body.view_id === 'VINBOX'));
    expect(sendButton(redrawn)).toBe('Send 3 answers');
    expect(await h.store.getDraft(project, q2.id, { platform: 'slack', userId: 'UANA' })).toMatchObject({
      choices: ['SQLite'],
    });
  });

  it('GIVEN the Home tab WHEN opened THEN the inbox is published; notes from it open a modal and Save republishes the tab', async () => {
    const h = await startHarness();
    open.push(h);
    const { project, q4 } = await fourQuestions(h);
    const opened = await h.event({ type: 'app_home_opened', user: 'UANA', channel: 'DHOME', tab: 'home' });
    expect(opened.status).toBe(200);
    const published = await h.slack.waitFor((c) => c.method === 'views.publish' && c.body.user_id === 'UANA');
    const home = viewOf(published);
    expect(home.type).toBe('home');
    expect(filterLabels(home)).toEqual(['All (4)', 'Blocking (2)', 'Non-blocking (2)']);
    expect(sendButton(home)).toBe('Send 2 answers');

    // "Add notes" on #4 (Other, no note yet): a modal of its own, then Save with a note makes it ready.
    await h.interact(
      viewAction(
        'UANA',
        { id: 'VHOME', type: 'home', private_metadata: home.private_metadata },
        {
          action_id: ACTION_IDS.inboxNotes,
          block_id: 'b',
          type: 'button',
          value: refOf(q4),
        },
      ),
    );
    const modal = viewOf(await h.slack.waitFor((c) => c.method === 'views.open'));
    const saved = await h.interact(
      notesSubmission('UANA', { id: 'VN', private_metadata: modal.private_metadata }, 'other', 'Use the queue.'),
    );
    expect(saved.text).toBe('');
    await expect.poll(() => h.slack.callsOf('views.publish')).toHaveLength(2);
    const again = viewOf(h.slack.callsOf('views.publish')[1] as SlackCall);
    expect(sendButton(again)).toBe('Send 3 answers');
    expect(await h.store.getDraft(project, q4.id, { platform: 'slack', userId: 'UANA' })).toMatchObject({
      other: true,
      notes: 'Use the queue.',
    });

    // "Send 3 answers" from the Home tab (place: every project routed on Slack).
    await h.interact(
      viewAction(
        'UANA',
        { id: 'VHOME', type: 'home', private_metadata: again.private_metadata },
        {
          action_id: ACTION_IDS.inboxSendAll,
          block_id: INBOX_BLOCK_IDS.sendAll,
          type: 'button',
          value: sendValue(again),
        },
      ),
    );
    await expect.poll(() => h.store.list(project, { status: ['answered'] })).toHaveLength(3);
    expect((await h.store.get(project, q4.id))?.answer).toMatchObject({ other: true, notes: 'Use the queue.' });
  });

  it('GIVEN a user outside SLACK_ALLOWED_USERS WHEN they press "Send N answers" THEN nothing is sent and the inbox says why', async () => {
    const h = await startHarness({ allowedUsers: ['UANA'] });
    open.push(h);
    const { project, q1, q3 } = await fourQuestions(h);
    const metadata = JSON.stringify({ filter: 'all', channel: CHANNEL });
    await h.interact(
      viewAction(
        'UEVE',
        { id: 'VINBOX', type: 'modal', private_metadata: metadata },
        {
          action_id: ACTION_IDS.inboxSendAll,
          block_id: INBOX_BLOCK_IDS.sendAll,
          type: 'button',
          value: `${refOf(q1)} ${refOf(q3)}`,
        },
      ),
    );
    const redrawn = await h.slack.waitFor((c) => c.method === 'views.update');
    expect(JSON.stringify(redrawn.body.view)).toContain('not allowed');
    expect(await h.store.list(project, { status: ['answered'] })).toEqual([]);
  });
});

describe('the inbox a page at a time', () => {
  it('GIVEN 40 questions WHEN Next and then Previous THEN the modal shows the 9 after the first 31 and then the first 31 again, with the counts of all 40', async () => {
    const h = await startHarness();
    open.push(h);
    const project = uniqueProject('many');
    const ids: number[] = [];
    for (let n = 0; n < 40; n += 1) ids.push((await h.store.park(project, spec({ isBlocking: n < 5 }))).id);
    await expect.poll(async () => (await h.store.list(project)).every((q) => q.messages.some(isChat))).toBe(true);
    const { view } = await openInbox(h);
    const refsOf = (v: View) =>
      v.blocks.flatMap((b) => (b.block_id?.startsWith('al_q:') ? [b.block_id.split(':')[1] ?? ''] : []));
    const firstRefs = refsOf(view);
    expect(firstRefs).toHaveLength(31);
    expect(firstRefs.slice(0, 5)).toEqual(ids.slice(0, 5).map((id) => refOf({ project, id })));
    expect(filterLabels(view)).toEqual(['All (40)', 'Blocking (5)', 'Non-blocking (35)']);
    const nextButton = (v: View) =>
      v.blocks.find((b) => b.block_id === INBOX_BLOCK_IDS.nextPage)?.elements?.[0] as { value: string } | undefined;
    expect(nextButton(view)?.value).toBe(`next:${firstRefs.at(-1)}`);

    const modal = { id: 'VINBOX', type: 'modal' as const, callback_id: 'al_inbox' };
    await h.interact(
      viewAction(
        'UANA',
        { ...modal, private_metadata: view.private_metadata },
        {
          action_id: ACTION_IDS.inboxPage,
          block_id: INBOX_BLOCK_IDS.nextPage,
          type: 'button',
          value: nextButton(view)?.value ?? '',
        },
      ),
    );
    const second = viewOf(await h.slack.waitFor((c) => c.method === 'views.update' && c.body.view_id === 'VINBOX'));
    expect(refsOf(second)).toEqual(ids.slice(31).map((id) => refOf({ project, id })));
    expect(JSON.stringify(second)).toContain('questions 32–40 of 40');
    expect(nextButton(second)).toBeUndefined();
    expect(JSON.parse(second.private_metadata)).toEqual({
      filter: 'all',
      after: firstRefs.at(-1),
      back: [''],
      channel: CHANNEL,
    });

    await h.interact(
      viewAction(
        'UANA',
        { ...modal, private_metadata: second.private_metadata },
        {
          action_id: ACTION_IDS.inboxPage,
          block_id: INBOX_BLOCK_IDS.previousPage,
          type: 'button',
          value: 'previous',
        },
      ),
    );
    await expect.poll(() => h.slack.callsOf('views.update').length).toBe(2);
    const back = viewOf(h.slack.callsOf('views.update')[1] as SlackCall);
    expect(refsOf(back)).toEqual(firstRefs);
    expect(JSON.parse(back.private_metadata)).toEqual({ filter: 'all', channel: CHANNEL });
  });
});
