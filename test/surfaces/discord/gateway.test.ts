import { afterEach, describe, expect, it } from 'vitest';
import { ANA, type DiscordHarness, ids, member, parkAndPost, startDiscordHarness } from './harness.js';

const open: DiscordHarness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.stop();
});

describe('Discord gateway', () => {
  it.each([
    ['a close with 4000 (resumable)', { code: 4000 } as const, { resumes: 1, identifies: 1 }],
    ['a dead TCP connection', 'terminate' as const, { resumes: 1, identifies: 1 }],
    ['a close with 1000 (session over)', { code: 1000 } as const, { resumes: 0, identifies: 2 }],
  ])('GIVEN the gateway drops (%s) THEN the client resumes or identifies again, and the next interaction and post still work', async (_name, how, sessions) => {
    const h = await startDiscordHarness();
    open.push(h);
    const first = await parkAndPost(h);
    expect(h.discord.identifies).toBe(1);

    h.discord.dropConnection(how);
    await h.discord.connected();
    expect({ resumes: h.discord.resumes, identifies: h.discord.identifies }).toEqual(sessions);

    // The bridge posts (its own REST client), and an interaction on the new connection is answered.
    const second = await parkAndPost(h);
    const sent = h.discord.click(member(ANA), ids(second.question).send, h.discord.messagePayload(second.messageId));
    expect(String((await h.discord.waitForResponse(sent)).data?.content)).toContain('Sent: Postgres');
    expect((await h.store.get(second.question.project, second.question.id))?.status).toBe('answered');
    expect((await h.store.get(first.question.project, first.question.id))?.status).toBe('pending');
    expect(h.logger.lines.some((l) => l.message.startsWith('discord: gateway'))).toBe(true);
  });

  it('GIVEN an interaction dispatched while the connection is down THEN it is replayed on resume and answered', async () => {
    const h = await startDiscordHarness();
    open.push(h);
    const { question, messageId } = await parkAndPost(h);
    const message = h.discord.messagePayload(messageId);
    h.discord.dropConnection({ code: 4000 });
    const sent = h.discord.click(member(ANA), ids(question).send, message);
    await h.discord.connected();
    expect(String((await h.discord.waitForResponse(sent)).data?.content)).toContain('Sent: Postgres');
  });
});
