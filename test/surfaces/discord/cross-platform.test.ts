import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Question } from '../../../src/core/question.js';
import { ACTION_IDS } from '../../../src/render/slack/ids.js';
import { isChat } from '../../support/messages.js';
import { spec, uniqueProject } from '../../support/store.js';
import { buttonAction, messageAction, postedMessage } from '../slack/harness.js';
import { type DiscordHarness, ids, member, refOf, startDiscordHarness, textOf } from './harness.js';

const open: DiscordHarness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.stop();
});

describe('Slack and Discord together', () => {
  it('GIVEN a project routed to both THEN one question is posted on both; 50 Sends at once across both keep one answer, both messages show it, and every loser is told who answered and where', async () => {
    const h = await startDiscordHarness({ withSlack: true });
    open.push(h);
    const slack = h.slack;
    const responder = h.responder;
    if (!slack || !responder) throw new Error('harness without Slack');
    expect(h.serve.mode).toBe('http');
    expect(h.serve.discord).toBe(true);

    const project = uniqueProject();
    const question = await h.store.park(project, spec());
    await expect.poll(async () => (await h.store.get(project, question.id))?.messages.filter(isChat)).toHaveLength(2);
    expect(slack.callsOf('chat.postMessage')).toHaveLength(1);
    expect(h.discord.creates()).toHaveLength(1);
    const refs = ((await h.store.get(project, question.id))?.messages ?? []).filter(isChat);
    expect(refs.map((m) => m.platform).sort()).toEqual(['discord', 'slack']);
    const discordMessageId = refs.find((m) => m.platform === 'discord')?.messageId ?? '';
    const slackMessage = postedMessage(slack, question);
    if (!slackMessage) throw new Error('not posted on Slack');

    const slackUsers = Array.from({ length: 25 }, (_, i) => `UP${String(i).padStart(2, '0')}`);
    const discordUsers = Array.from({ length: 25 }, (_, i) => `40000000000000000${String(i).padStart(2, '0')}`);
    const discordMessage = h.discord.messagePayload(discordMessageId);
    const interactionIds: string[] = [];
    const slackPosts: Promise<{ status: number }>[] = [];
    for (let i = 0; i < 25; i++) {
      slackPosts.push(
        h.slackInteract(
          messageAction(
            {
              user: slackUsers[i] ?? '',
              responder,
              message: { channel: slackMessage.channel, ts: slackMessage.ts, blocks: slackMessage.blocks },
            },
            buttonAction(ACTION_IDS.send, refOf(question)),
          ),
        ),
      );
      const userId = discordUsers[i] ?? '';
      interactionIds.push(h.discord.click(member(userId, { nick: `D${i}` }), ids(question).send, discordMessage));
    }
    expect((await Promise.all(slackPosts)).map((r) => r.status)).toEqual(Array(25).fill(200));

    // Exactly one answer, by one of the 50.
    await expect.poll(async () => (await h.store.get(project, question.id))?.status).toBe('answered');
    const answered = await h.store.get(project, question.id);
    const winner = answered?.answer?.by;
    if (!winner) throw new Error('no answer');
    expect([...slackUsers, ...discordUsers]).toContain(winner.userId);
    const where = winner.platform === 'slack' ? 'Slack' : 'Discord';

    // Every Discord person is told: the winner "Sent", the others who answered and where.
    const discordTexts = await Promise.all(
      interactionIds.map(async (id) => String((await h.discord.waitForResponse(id)).data?.content)),
    );
    // Every Slack loser is told in place; the Slack winner (if any) gets no reply.
    const slackLosers = slackUsers.filter((u) => u !== winner.userId);
    await expect.poll(() => slackLosers.map((u) => responder.to(u).length)).toEqual(slackLosers.map(() => 1));
    const loserTexts = [
      ...discordTexts.filter((t) => !t.startsWith('Sent:')),
      ...slackLosers.map((u) => responder.to(u)[0] ?? ''),
    ];
    expect(loserTexts).toHaveLength(49);
    for (const text of loserTexts) expect(text).toContain(`already answered by ${winner.displayName} on ${where}`);
    expect(discordTexts.filter((t) => t.startsWith('Sent:'))).toHaveLength(winner.platform === 'discord' ? 1 : 0);

    // Both messages show the answer.
    await slack.waitFor(
      (c) =>
        c.method === 'chat.update' && c.body.ts === slackMessage.ts && textOf(c.body.blocks).includes('Answered by'),
    );
    await expect
      .poll(() => h.discord.edits(discordMessageId).map((c) => textOf(c.body)))
      .toContainEqual(expect.stringContaining('Answered by'));
    expect(h.discord.messages.get(discordMessageId)?.components).toEqual([]);
  });

  it('GIVEN Slack refusing every post and redraw THEN Discord and the web inbox still get every question and its answer', async () => {
    const h = await startDiscordHarness({ withSlack: true, deps: { bridge: { blockMs: 50, retryBaseMs: 10 } } });
    open.push(h);
    h.slack?.refuse('chat.postMessage', 'channel_not_found');
    h.slack?.refuse('chat.update', 'channel_not_found');
    const project = uniqueProject();
    const questions: Question[] = [];
    for (let i = 0; i < 3; i++) questions.push(await h.store.park(project, spec()));
    await vi.waitFor(async () => {
      for (const q of questions) {
        const platforms = (await h.store.get(project, q.id))?.messages.map((m) => m.platform).sort();
        expect(platforms).toEqual(['discord', 'web']);
      }
    });
    await h.store.answer(
      project,
      1,
      { choices: ['SQLite'], other: false },
      { platform: 'web', userId: 'me', displayName: 'me' },
    );
    await vi.waitFor(() => expect(h.discord.edits().length).toBeGreaterThanOrEqual(1));
    expect(h.slack?.messages).toEqual([]);
  });
});
