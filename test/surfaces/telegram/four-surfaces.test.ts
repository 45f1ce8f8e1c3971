import { afterEach, describe, expect, it } from 'vitest';
import { ACTION_IDS } from '../../../src/render/slack/ids.js';
import { FakeTelegram } from '../../support/fake-telegram.js';
import { spec, uniqueProject } from '../../support/store.js';
import { type DiscordHarness, ids, member, startDiscordHarness } from '../discord/harness.js';
import { buttonAction, messageAction, postedMessage } from '../slack/harness.js';
import { CHAT, data, refOf, telegramConfig } from './harness.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('one question on Slack, Discord, Telegram and the web inbox at once', () => {
  it('GIVEN 25 Sends on each of the four surfaces at once THEN exactly one answer; every Telegram loser is told who answered and where', async () => {
    const telegram = await new FakeTelegram().start();
    cleanup.push(() => telegram.stop());
    const telegramUsers = Array.from({ length: 25 }, (_, i) => ({ id: 5000 + i, first_name: `T${i}` }));
    telegram.addChat(
      CHAT,
      telegramUsers.map((user) => user.id),
    );
    const h: DiscordHarness = await startDiscordHarness({
      withSlack: true,
      config: { telegram: telegramConfig(telegram) },
      deps: { telegram: { leaseMs: 1500, pollSeconds: 1 } },
    });
    cleanup.push(() => h.stop());
    const slack = h.slack;
    const responder = h.responder;
    if (!slack || !responder) throw new Error('harness without Slack');

    const project = uniqueProject();
    const question = await h.store.park(project, spec());
    await expect
      .poll(async () => (await h.store.get(project, question.id))?.messages.map((m) => m.platform).sort())
      .toEqual(['discord', 'slack', 'telegram', 'web']);
    const copies = (await h.store.get(project, question.id))?.messages ?? [];
    const telegramMessage = Number(copies.find((m) => m.platform === 'telegram')?.messageId);
    const discordMessage = h.discord.messagePayload(copies.find((m) => m.platform === 'discord')?.messageId ?? '');
    const slackMessage = postedMessage(slack, question);
    if (!slackMessage) throw new Error('not posted on Slack');
    const ref = refOf(question);

    const slackPosts: Promise<{ status: number }>[] = [];
    const discordInteractions: string[] = [];
    const taps: string[] = [];
    const webSends: Promise<{ ok: boolean; text: string }>[] = [];
    for (let i = 0; i < 25; i++) {
      slackPosts.push(
        h.slackInteract(
          messageAction(
            {
              user: `UP${String(i).padStart(2, '0')}`,
              responder,
              message: { channel: slackMessage.channel, ts: slackMessage.ts, blocks: slackMessage.blocks },
            },
            buttonAction(ACTION_IDS.send, ref),
          ),
        ),
      );
      discordInteractions.push(
        h.discord.click(
          member(`40000000000000000${String(i).padStart(2, '0')}`, { nick: `D${i}` }),
          ids(question).send,
          discordMessage,
        ),
      );
      taps.push(
        telegram.tap(
          telegramUsers[i] ?? { id: 1, first_name: 'x' },
          CHAT,
          telegramMessage,
          data({ kind: 'send', ref }),
        ),
      );
      webSends.push(
        fetch(`http://127.0.0.1:${h.serve.port}/api/send`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${h.serve.port}` },
          body: JSON.stringify({ ref }),
        }).then((response) => response.json() as Promise<{ ok: boolean; text: string }>),
      );
    }
    expect((await Promise.all(slackPosts)).map((r) => r.status)).toEqual(Array(25).fill(200));
    const web = await Promise.all(webSends);

    await expect.poll(async () => (await h.store.get(project, question.id))?.status).toBe('answered');
    const winner = (await h.store.get(project, question.id))?.answer?.by;
    if (!winner) throw new Error('no answer');
    const where = { slack: 'Slack', discord: 'Discord', telegram: 'Telegram', web: 'the web inbox' }[winner.platform];

    await expect.poll(() => taps.filter((tap) => telegram.answersTo(tap).length > 0).length).toBe(25);
    const toasts = taps.map((tap) => String(telegram.answersTo(tap)[0]?.text));
    const discordTexts = await Promise.all(
      discordInteractions.map(async (id) => String((await h.discord.waitForResponse(id)).data?.content)),
    );
    const wins =
      toasts.filter((text) => text.startsWith('Sent:')).length +
      discordTexts.filter((text) => text.startsWith('Sent:')).length +
      web.filter((reply) => reply.ok).length;
    expect(wins).toBe(winner.platform === 'slack' ? 0 : 1);
    for (const text of toasts.filter((t) => !t.startsWith('Sent:'))) {
      expect(text).toContain(`already answered by ${winner.displayName} on ${where}`);
    }
    // Every copy shows the answer.
    await expect.poll(() => String(telegram.message(CHAT, telegramMessage)?.text)).toContain('Answered by');
    expect(telegram.message(CHAT, telegramMessage)?.replyMarkup?.inline_keyboard ?? []).toEqual([]);
  });
});
