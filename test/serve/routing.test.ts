import { afterEach, describe, expect, it } from 'vitest';
import { ACTION_IDS } from '../../src/render/slack/ids.js';
import { FakeDiscord } from '../fakes/discord.js';
import { FakeSlackApi } from '../fakes/slack-api.js';
import { questionsCommand, startReplica } from '../ops/support.js';
import { isChat } from '../support/messages.js';
import { openTestStore, spec, uniquePrefix, uniqueProject } from '../support/store.js';
import { buttonAction, messageAction, postedMessage, Responder } from '../surfaces/slack/harness.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const TEAM_DISCORD = '1300000000000000001';

async function routed() {
  const slack = await new FakeSlackApi().start();
  const discord = await new FakeDiscord({ channelId: TEAM_DISCORD }).start();
  const responder = await new Responder().start();
  cleanup.push(
    () => slack.stop(),
    () => discord.stop(),
    () => responder.stop(),
  );
  const prefix = uniquePrefix();
  const root = uniqueProject('routed');
  const replica = await startReplica({
    prefix,
    slack,
    discord,
    routes: [
      { project: `${root}/api`, slack: 'C0API', allow: { slackUsers: ['U0ANA'] } },
      { project: `${root}/team-*/**`, slack: 'C0TEAM', discord: TEAM_DISCORD },
      { project: `${root}/discord-only`, discord: TEAM_DISCORD },
    ],
    // No DISCORD_CHANNEL: projects no route matches stay off Discord.
    noDiscordDefault: true,
    deps: { respond: respondTo },
  });
  const store = await openTestStore({ prefix });
  cleanup.push(
    () => replica.serve.stop(),
    () => store.close(),
  );
  return { slack, discord, responder, replica, store, root };
}

async function respondTo(responseUrl: string, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(responseUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.body?.cancel();
}

describe('serve with a routing table', () => {
  it('GIVEN routes THEN each project is posted to its routed channels only, and unrouted ones to the defaults', async () => {
    const { slack, discord, store, root } = await routed();
    const api = await store.park(`${root}/api`, spec());
    const team = await store.park(`${root}/team-a/web`, spec());
    const onlyDiscord = await store.park(`${root}/discord-only`, spec());
    const other = await store.park(uniqueProject('unrouted'), spec());
    const chatCopies = (q: { project: string; id: number }) =>
      store.get(q.project, q.id).then((now) => now?.messages.filter(isChat).length);
    await expect.poll(() => Promise.all([api, team, onlyDiscord, other].map(chatCopies))).toEqual([1, 2, 1, 1]);
    // Each platform handles events one at a time, in order: once a later question is on both, nothing more of the
    // first four can still arrive.
    const later = await store.park(`${root}/team-a/web`, spec());
    await expect.poll(() => chatCopies(later)).toBe(2);
    const where = async (q: { project: string; id: number }) =>
      ((await store.get(q.project, q.id))?.messages ?? [])
        .filter(isChat)
        .map((m) => `${m.platform}:${m.channel}`)
        .sort();
    expect(await where(api)).toEqual(['slack:C0API']);
    expect(await where(team)).toEqual([`discord:${TEAM_DISCORD}`, 'slack:C0TEAM']);
    expect(await where(onlyDiscord)).toEqual([`discord:${TEAM_DISCORD}`]);
    expect(await where(other)).toEqual(['slack:C0DEFAULT']);
    expect(
      slack
        .callsOf('chat.postMessage')
        .map((c) => c.body.channel)
        .sort(),
    ).toEqual(['C0API', 'C0DEFAULT', 'C0TEAM', 'C0TEAM']);
    expect(discord.creates()).toHaveLength(3);
  });

  it('GIVEN /questions in a routed channel THEN the inbox lists the projects routed there and no other', async () => {
    const { slack, replica, store, root } = await routed();
    const team = await store.park(`${root}/team-b/x`, spec({ question: 'Team question: which queue?' }));
    const api = await store.park(`${root}/api`, spec({ question: 'Api question: which port?' }));
    await expect.poll(async () => (await store.get(team.project, team.id))?.messages.filter(isChat)).toHaveLength(2);
    await expect.poll(async () => (await store.get(api.project, api.id))?.messages.filter(isChat)).toHaveLength(1);
    expect((await replica.command(questionsCommand('C0TEAM', 'U0BOB', 'trig-team'))).status).toBe(200);
    const view = JSON.stringify(
      (await slack.waitFor((c) => c.method === 'views.open' && c.body.trigger_id === 'trig-team')).body.view,
    );
    expect(view).toContain('Team question: which queue?');
    expect(view).not.toContain('Api question: which port?');
  });

  it("GIVEN a route's allow-list THEN only listed people answer its projects; other projects stay open to all", async () => {
    const { slack, responder, replica, store, root } = await routed();
    const api = await store.park(`${root}/api`, spec());
    const team = await store.park(`${root}/team-a/web`, spec());
    await expect.poll(async () => (await store.get(team.project, team.id))?.messages.filter(isChat)).toHaveLength(2);
    await expect.poll(async () => (await store.get(api.project, api.id))?.messages.filter(isChat)).toHaveLength(1);
    const send = (user: string, q: { project: string; id: number }) => {
      const message = postedMessage(slack, q);
      if (!message) throw new Error('not posted');
      return replica.interact(
        messageAction(
          { user, responder, message: { channel: message.channel, ts: message.ts, blocks: message.blocks } },
          buttonAction(
            ACTION_IDS.send,
            `${(message.metadata as { event_payload: { ref: string } }).event_payload.ref}`,
          ),
        ),
      );
    };
    expect((await send('U0BOB', api)).status).toBe(200);
    await expect.poll(() => responder.to('U0BOB')).toHaveLength(1);
    expect(responder.to('U0BOB')[0]).toContain('not allowed');
    expect((await store.get(api.project, api.id))?.status).toBe('pending');

    expect((await send('U0BOB', team)).status).toBe(200);
    await expect.poll(async () => (await store.get(team.project, team.id))?.status).toBe('answered');
    expect((await send('U0ANA', api)).status).toBe(200);
    await expect.poll(async () => (await store.get(api.project, api.id))?.status).toBe('answered');
    expect((await store.get(api.project, api.id))?.answer?.by.userId).toBe('U0ANA');
  });
});
