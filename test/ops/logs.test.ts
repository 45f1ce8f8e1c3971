import { pino } from 'pino';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { Logger } from '../../src/core/logger.js';
import { ACTION_IDS } from '../../src/render/slack/ids.js';
import { hookEnv, noteOf, payload, runHookCli } from '../agents/hooks/support.js';
import { FakeDiscord } from '../fakes/discord.js';
import { FakeSlackApi } from '../fakes/slack-api.js';
import { isChat } from '../support/messages.js';
import { openTestStore, uniquePrefix, uniqueProject } from '../support/store.js';
import { ids, member } from '../surfaces/discord/harness.js';
import { buttonAction, messageAction, notesSubmission, postedMessage, Responder } from '../surfaces/slack/harness.js';
import { startReplica } from './support.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** Every field a person or an agent writes, and every secret, each a text that must never reach a log line. */
const S = {
  context: 'SNTLcontextXq1 with **markdown**',
  question: 'SNTLquestionXq2 which one?',
  impact: 'SNTLimpactXq3 decides it',
  optionA: 'SNTLoptionAXq4',
  optionADescription: 'SNTLoptiondescXq5',
  optionB: 'SNTLoptionBXq6',
  ticket: 'SNTLticketXq7',
  slackNotes: 'SNTLslacknotesXq8 some reasons',
  discordNotes: 'SNTLdiscordnotesXq9 other reasons',
  slackName: 'SNTLslacknameXr1',
  discordName: 'SNTLdiscordnameXr2',
  slackToken: 'xoxb-SNTLslacktokenXr3',
  signingSecret: 'SNTLsigningsecretXr4',
  discordToken: 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.SNTLdc.SNTLdiscordtokenXr5abcdef',
} as const;

function sentinelSpec(question: string) {
  return {
    context: S.context,
    question,
    impact: S.impact,
    isBlocking: true,
    options: [{ label: S.optionA, description: S.optionADescription }, { label: S.optionB }],
    recommended: [S.optionA],
    multiSelect: false,
    ticket: S.ticket,
  };
}

async function respondTo(responseUrl: string, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(responseUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.body?.cancel();
}

describe('what serve logs', () => {
  it('GIVEN park, draft, answer on Slack and Discord, and delivery through the hook, all with sentinel texts and tokens THEN no log line carries any of them', async () => {
    const lines: string[] = [];
    const logger: Logger = pino({ base: { pid: process.pid } }, { write: (line: string) => lines.push(line) });
    const slack = await new FakeSlackApi().start();
    const discord = await new FakeDiscord({ token: S.discordToken }).start();
    const responder = await new Responder().start();
    cleanup.push(
      () => slack.stop(),
      () => discord.stop(),
      () => responder.stop(),
    );
    const prefix = uniquePrefix();
    const store = await openTestStore({ prefix });
    cleanup.push(() => store.close());
    const replica = await startReplica({
      prefix,
      slack,
      discord,
      signingSecret: S.signingSecret,
      slackConfig: { botToken: S.slackToken, channel: 'C0LOGS' },
      deps: { logger, respond: respondTo, sweepMs: 50 },
    });
    cleanup.push(() => replica.serve.stop());

    // Park (what the MCP tool does), two questions of one project.
    const project = uniqueProject('logs');
    const onSlack = await store.park(project, sentinelSpec(`${S.question} (Slack)`));
    const onDiscord = await store.park(project, sentinelSpec(`${S.question} (Discord)`));
    await expect
      .poll(async () => (await store.list(project)).map((q) => q.messages.filter(isChat).length))
      .toEqual([2, 2]);

    // Slack: notes modal (draft with notes), then Send.
    const posted = postedMessage(slack, onSlack);
    if (!posted) throw new Error('not posted');
    const ref = (posted.metadata as { event_payload: { ref: string } }).event_payload.ref;
    const slackUser = { id: 'U0LOG', username: S.slackName, name: S.slackName, team_id: 'T1' };
    const who = {
      user: 'U0LOG',
      responder,
      message: { channel: posted.channel, ts: posted.ts, blocks: posted.blocks },
    };
    const withName = (p: Record<string, unknown>) => ({ ...p, user: slackUser });
    await replica.interact(
      withName(messageAction({ ...who, triggerId: 'trig-log' }, buttonAction(ACTION_IDS.notes, ref))),
    );
    const opened = await slack.waitFor((c) => c.method === 'views.open' && c.body.trigger_id === 'trig-log');
    const modal = opened.body.view as { private_metadata: string };
    expect(
      (
        await replica.interact({
          ...notesSubmission('U0LOG', { id: 'VLOG', private_metadata: modal.private_metadata }, '0', S.slackNotes),
          user: slackUser,
        })
      ).status,
    ).toBe(200);
    await expect
      .poll(async () => (await store.getDraft(project, onSlack.id, { platform: 'slack', userId: 'U0LOG' }))?.notes)
      .toBe(S.slackNotes);
    await replica.interact(withName(messageAction(who, buttonAction(ACTION_IDS.send, ref))));
    await expect.poll(async () => (await store.get(project, onSlack.id))?.status).toBe('answered');
    expect((await store.get(project, onSlack.id))?.answer?.by.displayName).toBe(S.slackName);

    // Discord: pick, notes modal, Send.
    const discordRef = (await store.get(project, onDiscord.id))?.messages.find((m) => m.platform === 'discord');
    if (!discordRef) throw new Error('not on Discord');
    const person = member('2000000000000000009', { nick: S.discordName, globalName: S.discordName });
    const id = ids(onDiscord);
    await discord.waitForResponse(discord.select(person, id.pick, ['1'], discord.messagePayload(discordRef.messageId)));
    await discord.waitForResponse(
      discord.submitModal(
        person,
        id.notesModal,
        { choice: ['1'], notes: S.discordNotes },
        discord.messagePayload(discordRef.messageId),
      ),
    );
    await discord.waitForResponse(discord.click(person, id.send, discord.messagePayload(discordRef.messageId)));
    await expect.poll(async () => (await store.get(project, onDiscord.id))?.status).toBe('answered');
    expect(await store.get(project, onDiscord.id)).toMatchObject({ answer: { notes: S.discordNotes } });

    // Deliver through the real hook.
    const run = await runHookCli(
      hookEnv({ REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix, ASK_LATER_PROJECT: project }),
      payload(),
    );
    expect(run.code).toBe(0);
    const note = noteOf(run.stdout);
    expect(note).toContain(S.slackNotes);
    expect(note).toContain(S.discordNotes);
    await expect
      .poll(() =>
        lines.filter((line) => line.includes('"event":"delivered"') && line.includes('bridge: event handled')),
      )
      .toHaveLength(6);
    await replica.serve.stop();

    expect(lines.length).toBeGreaterThan(10);
    const all = lines.join('');
    // Every sentinel carries the marker SNTL, so a text cut short or a token's middle part is caught too.
    for (const [name, text] of Object.entries(S)) {
      expect(text, name).toContain('SNTL');
      expect(all.includes(text), `${name} in a log line`).toBe(false);
    }
    expect(all).not.toContain('SNTL');
    for (const line of lines) {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      expect(typeof parsed.msg).toBe('string');
      expect(typeof parsed.time).toBe('number');
    }
  }, 60_000);
});
