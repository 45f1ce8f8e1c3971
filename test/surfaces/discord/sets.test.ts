/**
 * A set of questions answered on Discord, end to end: the real discord.js client against the fake gateway and REST,
 * the real store (Redis), the bridge posting and redrawing the set's one message, and the real hook delivering it.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { assertDiscordMessage } from '../../../src/render/discord/limits.js';
import type { DiscordMessage } from '../../../src/render/discord/types.js';
import { hookEnv, noteOf, payload, runHookCli } from '../../agents/hooks/support.js';
import { uniquePrefix, uniqueProject } from '../../support/store.js';
import {
  ANA,
  BOB,
  customIdIn,
  type DiscordHarness,
  ids,
  member,
  parkSetAndPost,
  refOf,
  startDiscordHarness,
  textOf,
} from './harness.js';

const open: DiscordHarness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.stop();
});

async function harness(options: Parameters<typeof startDiscordHarness>[0] = {}): Promise<DiscordHarness> {
  const h = await startDiscordHarness(options);
  open.push(h);
  return h;
}

describe('a set of questions on Discord, end to end', () => {
  it('GIVEN a set of three WHEN a person picks several on the multi-select with notes on one, picks Other with notes, and sends THEN Send is refused until all are ready, the review shows each topic, Send answers sends one answer, the message shows it, and it is delivered once', async () => {
    const prefix = uniquePrefix();
    const h = await harness({ prefix });
    const project = uniqueProject();
    const { question, messageId } = await parkSetAndPost(h, {}, project);
    const id = ids(question);
    const message = () => h.discord.messagePayload(messageId);
    const ana = member(ANA, { nick: 'Ana' });
    const person = { platform: 'discord', userId: ANA } as const;

    // One message: the set and each member as embeds, a select per member and one row of buttons.
    expect(h.discord.creates()).toHaveLength(1);
    const { nonce: _n, enforce_nonce: _e, ...posted } = h.discord.creates()[0]?.body as Record<string, unknown>;
    expect(() => assertDiscordMessage(posted as unknown as DiscordMessage)).not.toThrow();
    expect((posted.embeds as unknown[]).length).toBe(4);
    expect((posted.components as unknown[]).length).toBe(4);
    for (const [index, topic] of ['Database', 'Caches', 'Naming'].entries()) {
      expect(textOf(posted)).toContain(`#${question.id}.${index + 1} · ${topic}`);
      expect(textOf(posted)).toContain(id.pickOf(index));
    }

    // /questions counts the set once and shows how many of its members are ready (Naming has no recommendation).
    const inbox = await h.discord.waitForResponse(h.discord.command(ana, 'questions'));
    expect(textOf(inbox.data)).toContain('All (1)');
    expect(textOf(inbox.data)).toContain('👉 2 of 3 ready');
    expect(textOf(inbox.data)).toContain('Send 0 answers');

    // Send now: refused in place, naming the member that is not ready.
    const early = await h.discord.waitForResponse(h.discord.click(ana, id.send, message()));
    expect(early.data?.flags).toBe(64);
    expect(String(early.data?.content)).toBe(
      'Not sent: every question of the set must be ready first. Naming needs a pick.',
    );

    // Caches: three picks (the select carries only its own values), kept as the draft of member 2.
    const caches = await h.discord.waitForResponse(h.discord.select(ana, id.pickOf(1), ['0', '1', '2'], message()));
    expect(String(caches.data?.content)).toContain(`**#${question.id}.2 · Caches**`);
    expect(String(caches.data?.content)).toContain('Your answer: **Redis, In-process, None**');
    expect(await h.store.getDraft(project, question.id, person, 1)).toMatchObject({
      choices: ['Redis', 'In-process', 'None'],
    });

    // Naming: Other, no notes yet. Send names what is missing.
    const naming = await h.discord.waitForResponse(h.discord.select(ana, id.pickOf(2), ['other'], message()));
    expect(String(naming.data?.content)).toContain('✍️ needs a note');
    const noNote = await h.discord.waitForResponse(h.discord.click(ana, id.send, message()));
    expect(String(noNote.data?.content)).toBe(
      'Not sent: every question of the set must be ready first. Naming needs a note (Other).',
    );

    // Add notes: six notes to write (3 answers + 3 picks) do not fit one modal, so the notes menu.
    const menuOpened = h.discord.click(ana, id.notes, message());
    const menu = await h.discord.waitForResponse(menuOpened);
    expect(menu.type).toBe(4);
    expect(menu.data?.flags).toBe(64);
    expect(customIdIn(menu.data, 'al:notes-for:')).toBe(id.notesFor(0));

    // The menu: Caches · Redis opens its modal, prefilled (empty), first response.
    const chooseRedis = h.discord.select(ana, id.notesFor(1), ['0'], h.discord.ephemeralOf(menuOpened));
    const redisModal = await h.discord.waitForResponse(chooseRedis);
    expect(redisModal.type).toBe(9);
    expect(redisModal.data?.custom_id).toBe(id.notesMenuModal);
    expect(textOf(redisModal.data)).toContain('"custom_id":"option:0:1"');
    const redisSaved = h.discord.submitModal(
      ana,
      id.notesMenuModal,
      { 'option:0:1': 'Use the shared cluster.' },
      h.discord.ephemeralOf(menuOpened),
    );
    const menuAgain = await h.discord.waitForResponse(redisSaved);
    expect(menuAgain.type).toBe(7);
    expect(textOf(menuAgain.data)).toContain('✎ Notes on Redis');

    // The menu again: Naming's answer notes.
    const chooseNaming = h.discord.select(ana, id.notesFor(2), ['notes'], h.discord.ephemeralOf(redisSaved));
    expect((await h.discord.waitForResponse(chooseNaming)).type).toBe(9);
    const namingSaved = h.discord.submitModal(
      ana,
      id.notesMenuModal,
      { 'notes:2': 'Call it ledger-two.' },
      h.discord.ephemeralOf(redisSaved),
    );
    expect((await h.discord.waitForResponse(namingSaved)).type).toBe(7);
    expect(await h.store.getDraft(project, question.id, person, 2)).toMatchObject({
      other: true,
      notes: 'Call it ledger-two.',
    });

    // Send: every member ready, so the review, each topic with its answer and notes, and "Send answers".
    const reviewed = h.discord.click(ana, id.send, message());
    const review = await h.discord.waitForResponse(reviewed);
    expect(review.data?.flags).toBe(64);
    const shown = textOf(review.data);
    for (const line of [
      `#${question.id}.1 · Database`,
      '**Answer:** Postgres',
      `#${question.id}.2 · Caches`,
      '**Answer:** Redis, In-process, None',
      'Notes on Redis: Use the shared cluster.',
      `#${question.id}.3 · Naming`,
      '**Answer:** Other',
      'Notes: Call it ledger-two.',
    ]) {
      expect(shown).toContain(line);
    }
    const confirmId = customIdIn(review.data, 'al:send-yes:') ?? '';
    expect((await h.store.get(project, question.id))?.status).toBe('pending');

    // A pick changed after the review: its "Send answers" shows the new answers instead of sending.
    await h.discord.waitForResponse(h.discord.select(ana, id.pickOf(0), ['1'], message()));
    const stale = h.discord.click(ana, confirmId, h.discord.ephemeralOf(reviewed));
    const redrawn = await h.discord.waitForResponse(stale);
    expect(redrawn.type).toBe(7);
    expect(textOf(redrawn.data)).toContain('**Answer:** SQLite');
    await expect
      .poll(() => h.discord.responsesTo(stale).some((r) => String(r.data?.content).startsWith('Your answers changed')))
      .toBe(true);
    expect((await h.store.get(project, question.id))?.status).toBe('pending');

    // The new review's "Send answers": sent, the review says so.
    const newConfirm = customIdIn(redrawn.data, 'al:send-yes:') ?? '';
    expect(newConfirm).not.toBe(confirmId);
    const sent = h.discord.click(ana, newConfirm, h.discord.ephemeralOf(stale));
    const told = await h.discord.waitForResponse(sent);
    expect(told.type).toBe(7);
    expect(String(told.data?.content)).toBe(
      `Sent: Database: SQLite · Caches: Redis, In-process, None · Naming: Other (#${question.id}).`,
    );
    expect(told.data?.components).toEqual([]);

    // The store holds one answer: a selection per member, the notes per option nested.
    const answered = await h.store.get(project, question.id);
    expect(answered?.status).toBe('answered');
    expect(answered?.answer).toEqual({
      members: [
        { choices: ['SQLite'], other: false },
        {
          choices: ['Redis', 'In-process', 'None'],
          other: false,
          choiceNotes: [{ choice: 'Redis', notes: 'Use the shared cluster.' }],
        },
        { choices: [], other: true, notes: 'Call it ledger-two.' },
      ],
      by: { platform: 'discord', userId: ANA, displayName: 'Ana' },
      at: expect.any(Number),
    });

    // The bridge redraws the one message: the outcome, each member's answer and notes, no controls.
    await expect
      .poll(() => h.discord.edits(messageId).map((c) => textOf(c.body)))
      .toContainEqual(expect.stringContaining('Answered by Ana'));
    const redraw = textOf(h.discord.messages.get(messageId));
    expect(redraw).toContain('**Notes on Redis**');
    expect(redraw).toContain('> Call it ledger-two.');
    expect(h.discord.messages.get(messageId)?.components).toEqual([]);

    // A later Send on the message is told who answered.
    const late = await h.discord.waitForResponse(h.discord.click(member(BOB), id.send, message()));
    expect(String(late.data?.content)).toContain('already answered by Ana on Discord');

    // /questions no longer lists it.
    const after = await h.discord.waitForResponse(h.discord.command(ana, 'questions'));
    expect(textOf(after.data)).toContain('Nothing waiting');

    // The next prompt: the real hook delivers it once, as one entry with the members under their topics.
    const drained = await runHookCli(
      hookEnv({ REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix, ASK_LATER_PROJECT: project }),
      payload(),
    );
    expect(drained.code).toBe(0);
    const note = noteOf(drained.stdout);
    expect(note).toContain(`#### #${question.id}.2 Caches`);
    expect(note).toContain('Use the shared cluster.');
    expect((await h.store.get(project, question.id))?.status).toBe('delivered');
    await expect
      .poll(() => h.discord.edits(messageId).map((c) => textOf(c.body)))
      .toContainEqual(expect.stringContaining('Delivered to the agent'));
    expect(h.discord.creates()).toHaveLength(1);

    // Logs: ids and timings, never a question, answer or note, nor the token.
    const logs = h.logger.text();
    for (const secret of ['Which database', 'billing', 'shared cluster', 'ledger-two', h.discord.token]) {
      expect(logs).not.toContain(secret);
    }
  });

  it('GIVEN a set in /questions WHEN the person chooses it THEN the set view answers it there: a select per member, notes in one modal, and "Send N answers" sends it whole', async () => {
    const h = await harness();
    const project = uniqueProject();
    const { question } = await parkSetAndPost(h, {}, project);
    const ref = refOf(question);
    const ana = member(ANA, { nick: 'Ana' });

    const opened = h.discord.command(ana, 'questions');
    const list = await h.discord.waitForResponse(opened);
    const chosen = h.discord.select(
      ana,
      customIdIn(list.data, 'al:inbox-question:') ?? '',
      [ref],
      h.discord.ephemeralOf(opened),
    );
    const view = await h.discord.waitForResponse(chosen);
    expect(view.type).toBe(7);
    expect((view.data?.components as unknown[]).length).toBe(4);
    expect(textOf(view.data)).toContain(`#${question.id} · 👉 2 of 3 ready`);

    // Pick Naming in the set view: redrawn, all ready.
    const namingPick = customIdIn(view.data, `al:inbox-pick:${ref}:2:`) ?? '';
    const picked = h.discord.select(ana, namingPick, ['1'], h.discord.ephemeralOf(chosen));
    const ready = await h.discord.waitForResponse(picked);
    expect(ready.type).toBe(7);
    expect(textOf(ready.data)).toContain('✅ 3 of 3 ready');

    // Add notes: 5 notes (3 answers + Caches' 2 recommended picks) fit one modal, opened from the inbox.
    const notesClicked = h.discord.click(
      ana,
      customIdIn(ready.data, `al:inbox-notes:${ref}:`) ?? '',
      h.discord.ephemeralOf(picked),
    );
    const modal = await h.discord.waitForResponse(notesClicked);
    expect(modal.type).toBe(9);
    const modalId = String(modal.data?.custom_id);
    expect(modalId.startsWith(`al:notes-modal:${ref}:all:`)).toBe(true);
    const saved = h.discord.submitModal(
      ana,
      modalId,
      { 'notes:0': 'Postgres it is.', 'notes:1': '', 'option:0:1': 'Shared.', 'option:1:1': '', 'notes:2': '' },
      h.discord.ephemeralOf(picked),
    );
    const redrawn = await h.discord.waitForResponse(saved);
    expect(redrawn.type).toBe(7);
    expect(textOf(redrawn.data)).toContain('Notes: Postgres it is.');
    expect(textOf(redrawn.data)).toContain('Notes on Redis: Shared.');

    // Back to the list: the set is ready, and "Send 1 answer" sends it whole.
    const back = h.discord.click(ana, customIdIn(redrawn.data, 'al:inbox-page:') ?? '', h.discord.ephemeralOf(saved));
    const listAgain = await h.discord.waitForResponse(back);
    expect(textOf(listAgain.data)).toContain('Send 1 answer');
    const sendAll = h.discord.click(
      ana,
      customIdIn(listAgain.data, 'al:inbox-send:') ?? '',
      h.discord.ephemeralOf(back),
    );
    const afterSend = await h.discord.waitForResponse(sendAll);
    expect(afterSend.type).toBe(7);
    await expect
      .poll(() => h.discord.responsesTo(sendAll).some((r) => String(r.data?.content).startsWith('Sent 1 answer')))
      .toBe(true);
    expect((await h.store.get(project, question.id))?.answer).toMatchObject({
      members: [
        { choices: ['Postgres'], notes: 'Postgres it is.' },
        { choices: ['Redis', 'In-process'], choiceNotes: [{ choice: 'Redis', notes: 'Shared.' }] },
        { choices: ['ledger'] },
      ],
      by: { userId: ANA },
    });
  });

  it('GIVEN the set message WHEN Remove is confirmed THEN the whole set is dismissed and the message says so', async () => {
    const h = await harness();
    const { question, messageId } = await parkSetAndPost(h);
    const id = ids(question);
    const ana = member(ANA, { nick: 'Ana' });
    const asked = h.discord.click(ana, id.remove, h.discord.messagePayload(messageId));
    expect(customIdIn((await h.discord.waitForResponse(asked)).data, 'al:remove-yes:')).toBe(id.removeYes);
    const done = await h.discord.waitForResponse(h.discord.click(ana, id.removeYes, h.discord.ephemeralOf(asked)));
    expect(String(done.data?.content)).toContain(`Removed #${question.id}`);
    expect((await h.store.get(question.project, question.id))?.status).toBe('dismissed');
    await expect
      .poll(() => h.discord.edits(messageId).map((c) => textOf(c.body)))
      .toContainEqual(expect.stringContaining('Dismissed by Ana'));
  });
});
