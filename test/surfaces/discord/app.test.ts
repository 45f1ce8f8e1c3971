import { afterEach, describe, expect, inject, it } from 'vitest';
import { assertDiscordMessage } from '../../../src/render/discord/limits.js';
import type { DiscordMessage } from '../../../src/render/discord/types.js';
import { hookEnv, noteOf, payload, runHookCli } from '../../agents/hooks/support.js';
import { spec, uniquePrefix } from '../../support/store.js';
import {
  ANA,
  BOB,
  customIdIn,
  type DiscordHarness,
  EVE,
  ids,
  member,
  parkAndPost,
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

describe('Discord end to end', () => {
  it('GIVEN a parked question WHEN a person picks, adds notes and sends THEN the store holds the answer, the message shows it, then shows it delivered', async () => {
    const prefix = uniquePrefix();
    const h = await harness({ prefix });
    const { question, messageId } = await parkAndPost(h);
    const id = ids(question);

    // Posted once, with the bot token, a nonce derived from the question, and a payload within Discord's limits.
    const [create] = h.discord.creates();
    expect(h.discord.creates()).toHaveLength(1);
    expect(create?.path).toBe(`/channels/${h.discord.channelId}/messages`);
    expect(create?.auth).toBe(`Bot ${h.discord.token}`);
    const body = create?.body as Record<string, unknown>;
    expect(body.enforce_nonce).toBe(true);
    expect(body.nonce).toMatch(/^[A-Za-z0-9_-]{1,25}$/);
    const { nonce: _n, enforce_nonce: _e, ...message } = body;
    expect(() => assertDiscordMessage(message as unknown as DiscordMessage)).not.toThrow();
    expect(textOf(message)).toContain(id.send);

    // /questions is registered in the guild at start.
    expect(h.discord.callsOf('PUT', /^\/applications\/\d+\/guilds\/\d+\/commands$/)).toHaveLength(1);

    // Pick SQLite (option 1): kept as Ana's draft; an ephemeral receipt with the ready mark.
    const ana = member(ANA, { nick: 'Ana' });
    const picked = h.discord.select(ana, id.pick, ['1'], h.discord.messagePayload(messageId));
    const receipt = await h.discord.waitForResponse(picked);
    expect(receipt.type).toBe(4);
    expect(receipt.data?.flags).toBe(64);
    expect(textOf(receipt.data)).toContain('SQLite');
    expect(await h.store.getDraft(question.project, question.id, { platform: 'discord', userId: ANA })).toMatchObject({
      choices: ['SQLite'],
      other: false,
    });

    // "Add notes": the modal is the first response.
    const opened = h.discord.click(ana, id.notes, h.discord.messagePayload(messageId));
    const modal = await h.discord.waitForResponse(opened);
    expect(modal.type).toBe(9);
    expect(modal.data?.custom_id).toBe(id.notesModal);

    // Submit notes with the choice: saved; an ephemeral receipt.
    const submitted = h.discord.submitModal(
      ana,
      id.notesModal,
      { choice: ['1'], notes: 'Small data set.' },
      h.discord.messagePayload(messageId),
    );
    const saved = await h.discord.waitForResponse(submitted);
    expect(saved.type).toBe(4);
    expect(saved.data?.flags).toBe(64);
    expect(await h.store.getDraft(question.project, question.id, { platform: 'discord', userId: ANA })).toMatchObject({
      choices: ['SQLite'],
      notes: 'Small data set.',
    });

    // Send: Ana's draft is the answer, with who.
    const sent = h.discord.click(ana, id.send, h.discord.messagePayload(messageId));
    const told = await h.discord.waitForResponse(sent);
    expect(told.data?.flags).toBe(64);
    expect(textOf(told.data)).toContain('Sent: SQLite');
    const answered = await h.store.get(question.project, question.id);
    expect(answered?.status).toBe('answered');
    expect(answered?.answer).toMatchObject({
      choices: ['SQLite'],
      other: false,
      notes: 'Small data set.',
      by: { platform: 'discord', userId: ANA, displayName: 'Ana' },
    });

    // The bridge edits the channel message: the answer shown, the controls gone.
    await expect
      .poll(() => h.discord.edits(messageId).map((c) => textOf(c.body)))
      .toContainEqual(expect.stringContaining('Answered by Ana'));
    expect(h.discord.messages.get(messageId)?.components).toEqual([]);

    // The next prompt: the real hook (built CLI) drains it → the message shows "delivered".
    const drained = await runHookCli(
      hookEnv({ REDIS_URL: inject('redisUrl'), ASK_LATER_REDIS_PREFIX: prefix, ASK_LATER_PROJECT: question.project }),
      payload(),
    );
    expect(drained.code).toBe(0);
    expect(noteOf(drained.stdout)).toContain('> Small data set.');
    expect((await h.store.get(question.project, question.id))?.status).toBe('delivered');
    await expect
      .poll(() => h.discord.edits(messageId).map((c) => textOf(c.body)))
      .toContainEqual(expect.stringContaining('Delivered to the agent'));
    expect(h.discord.creates()).toHaveLength(1);

    // Every first response came within Discord's 3 s.
    for (const interaction of [picked, opened, submitted, sent]) {
      expect(h.discord.firstResponseMs(interaction)).toBeLessThan(3000);
    }

    // Logs: ids and timings, never the question, the notes, or the token.
    const logs = h.logger.text();
    for (const secret of ['Which database', 'billing', 'Small data set', h.discord.token]) {
      expect(logs).not.toContain(secret);
    }
  });
});

describe('Discord: a multi-select question with notes per option', () => {
  it('GIVEN a multi-select with two recommended WHEN a person adds notes on each pick in the modal and sends THEN the answer carries both picks with their notes, and the message shows them', async () => {
    const h = await harness();
    const { question, messageId } = await parkAndPost(h, { multiSelect: true, recommended: ['Postgres', 'SQLite'] });
    const id = ids(question);
    const ana = member(ANA, { nick: 'Ana' });

    // The message preselects both recommendations.
    const posted = textOf(h.discord.creates()[0]?.body);
    expect(posted).toContain('"value":"0","description":"What the team knows","default":true');
    expect(posted).toContain('"value":"1","default":true');

    // Add notes: the modal as before, with a notes field per picked option.
    const opened = h.discord.click(ana, id.notes, h.discord.messagePayload(messageId));
    const modal = await h.discord.waitForResponse(opened);
    expect(modal.type).toBe(9);
    for (const field of [
      '"custom_id":"choice"',
      '"custom_id":"notes"',
      '"custom_id":"option:0"',
      '"custom_id":"option:1"',
    ]) {
      expect(textOf(modal.data)).toContain(field);
    }
    const saved = h.discord.submitModal(
      ana,
      id.notesModal,
      { choice: ['0', '1'], notes: 'Both, for now.', 'option:0': 'For billing.', 'option:1': 'For tests.' },
      h.discord.messagePayload(messageId),
    );
    const receipt = await h.discord.waitForResponse(saved);
    expect(String(receipt.data?.content)).toContain('Notes on Postgres: For billing.');
    expect(String(receipt.data?.content)).toContain('Notes on SQLite: For tests.');

    const sent = await h.discord.waitForResponse(h.discord.click(ana, id.send, h.discord.messagePayload(messageId)));
    expect(String(sent.data?.content)).toBe(`Sent: Postgres, SQLite (#${question.id}).`);
    expect((await h.store.get(question.project, question.id))?.answer).toMatchObject({
      choices: ['Postgres', 'SQLite'],
      notes: 'Both, for now.',
      choiceNotes: [
        { choice: 'Postgres', notes: 'For billing.' },
        { choice: 'SQLite', notes: 'For tests.' },
      ],
    });
    await expect
      .poll(() => h.discord.edits(messageId).map((c) => textOf(c.body)))
      .toContainEqual(expect.stringContaining('**Notes on SQLite**'));
  });
});

describe('Discord interactions', () => {
  it('GIVEN Other picked in the notes modal without a note THEN an ephemeral error, the question stays pending, and Send says the same', async () => {
    const h = await harness();
    const { question, messageId } = await parkAndPost(h);
    const id = ids(question);
    const ana = member(ANA);
    const submitted = h.discord.submitModal(ana, id.notesModal, { choice: ['other'], notes: '  ' });
    const refused = await h.discord.waitForResponse(submitted);
    expect(refused.type).toBe(4);
    expect(refused.data?.flags).toBe(64);
    expect(String(refused.data?.content)).toContain('Other needs a note');
    expect((await h.store.get(question.project, question.id))?.status).toBe('pending');

    const sent = h.discord.click(ana, id.send, h.discord.messagePayload(messageId));
    expect(String((await h.discord.waitForResponse(sent)).data?.content)).toContain('needs a note');
    expect((await h.store.get(question.project, question.id))?.status).toBe('pending');
  });

  it('GIVEN two Sends at once THEN one answer is kept and the other person is told who answered, on Discord, and when', async () => {
    const h = await harness();
    const { question, messageId } = await parkAndPost(h);
    const id = ids(question);
    const message = h.discord.messagePayload(messageId);
    const a = h.discord.click(member(ANA, { nick: 'Ana' }), id.send, message);
    const b = h.discord.click(member(BOB, { nick: 'Bob' }), id.send, message);
    const texts = await Promise.all(
      [a, b].map(async (i) => String((await h.discord.waitForResponse(i)).data?.content)),
    );
    const answered = await h.store.get(question.project, question.id);
    const winner = answered?.answer?.by.displayName;
    expect(answered?.answer).toMatchObject({ choices: ['Postgres'] });
    expect(texts.filter((t) => t.startsWith('Sent: Postgres'))).toHaveLength(1);
    const loser = texts.find((t) => !t.startsWith('Sent:'));
    expect(loser).toMatch(
      new RegExp(`already answered by ${winner} on Discord at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC`),
    );
  });

  it('GIVEN a user outside DISCORD_ALLOWED_USERS and DISCORD_ALLOWED_ROLES THEN every interaction is refused in place and nothing changes; a member of an allowed role is let in', async () => {
    const role = '3000000000000000001';
    const h = await harness({
      fake: { roles: [role, '3000000000000000002'] },
      discordConfig: { allowedUsers: [ANA], allowedRoles: [role] },
    });
    const { question, messageId } = await parkAndPost(h);
    const id = ids(question);
    const eve = member(EVE, { roles: ['3000000000000000002'] });
    const message = () => h.discord.messagePayload(messageId);
    const tries = [
      h.discord.select(eve, id.pick, ['1'], message()),
      h.discord.click(eve, id.notes, message()),
      h.discord.click(eve, id.remove, message()),
      h.discord.click(eve, id.removeYes, message()),
      h.discord.submitModal(eve, id.notesModal, { choice: ['1'], notes: 'x' }, message()),
      h.discord.click(eve, id.send, message()),
    ];
    for (const attempt of tries) {
      const answer = await h.discord.waitForResponse(attempt);
      expect(answer.type === 4 || answer.type === 7).toBe(true);
      expect(String(answer.data?.content)).toContain('not allowed');
    }
    expect((await h.store.get(question.project, question.id))?.status).toBe('pending');
    expect(await h.store.getDraft(question.project, question.id, { platform: 'discord', userId: EVE })).toBeUndefined();
    expect(h.discord.edits(messageId)).toEqual([]);

    // Bob is not listed, but holds the allowed role: his Send is taken.
    const bob = h.discord.click(member(BOB, { roles: [role] }), id.send, message());
    expect(String((await h.discord.waitForResponse(bob)).data?.content)).toContain('Sent: Postgres');
    expect((await h.store.get(question.project, question.id))?.answer?.by.userId).toBe(BOB);
  });

  it('GIVEN a member opens Add notes and Remove (not yet confirmed) on a question they have no draft for THEN the modal shows the recommendation and the confirmation asks, and no draft is written', async () => {
    const h = await harness();
    const { question, messageId } = await parkAndPost(h);
    const id = ids(question);
    const ana = member(ANA);
    const modal = await h.discord.waitForResponse(h.discord.click(ana, id.notes, h.discord.messagePayload(messageId)));
    expect(modal).toMatchObject({ type: 9, data: { custom_id: id.notesModal } });
    expect(textOf(modal.data)).toContain('"value":"0","description":"What the team knows","default":true');
    const asked = await h.discord.waitForResponse(h.discord.click(ana, id.remove, h.discord.messagePayload(messageId)));
    expect(customIdIn(asked.data, 'al:remove-yes:')).toBe(id.removeYes);
    expect(await h.store.getDraft(question.project, question.id, { platform: 'discord', userId: ANA })).toBeUndefined();
    expect((await h.store.get(question.project, question.id))?.status).toBe('pending');
  });

  it('GIVEN Remove THEN an ephemeral confirmation; confirming dismisses the question and the message says so; a later Send is told', async () => {
    const h = await harness();
    const { question, messageId } = await parkAndPost(h);
    const id = ids(question);
    const ana = member(ANA, { nick: 'Ana' });
    const asked = h.discord.click(ana, id.remove, h.discord.messagePayload(messageId));
    const confirmation = await h.discord.waitForResponse(asked);
    expect(confirmation.data?.flags).toBe(64);
    expect(customIdIn(confirmation.data, 'al:remove-yes:')).toBe(id.removeYes);
    expect((await h.store.get(question.project, question.id))?.status).toBe('pending');

    const confirmed = h.discord.click(ana, id.removeYes, h.discord.ephemeralOf(asked));
    const done = await h.discord.waitForResponse(confirmed);
    expect(done.type).toBe(7);
    expect(String(done.data?.content)).toContain(`Removed #${question.id}`);
    expect(done.data?.components).toEqual([]);
    expect((await h.store.get(question.project, question.id))?.status).toBe('dismissed');
    await expect
      .poll(() => h.discord.edits(messageId).map((c) => textOf(c.body)))
      .toContainEqual(expect.stringContaining('Dismissed by Ana'));
    const late = h.discord.click(member(BOB), id.send, h.discord.messagePayload(messageId));
    expect(String((await h.discord.waitForResponse(late)).data?.content)).toContain('dismissed by Ana on Discord');
  });

  it('GIVEN a withdrawn question or a click from a channel it is not routed to THEN the Send is refused in place and nothing changes', async () => {
    const h = await harness();
    const first = await parkAndPost(h);
    const second = await parkAndPost(h);
    await h.store.cancel(first.question.project, first.question.id);
    const withdrawn = h.discord.click(member(ANA), ids(first.question).send, h.discord.messagePayload(first.messageId));
    expect(String((await h.discord.waitForResponse(withdrawn)).data?.content)).toContain('withdrawn by the agent');
    const elsewhere = h.discord.interact({
      type: 3,
      member: member(ANA),
      data: { custom_id: ids(second.question).send, component_type: 2 },
      message: h.discord.messagePayload(second.messageId),
      channelId: '1200000000000000777',
    });
    expect(String((await h.discord.waitForResponse(elsewhere)).data?.content)).toContain('not routed to this channel');
    expect((await h.store.get(second.question.project, second.question.id))?.status).toBe('pending');
  });

  it('GIVEN slow work (deferral at 0 ms) THEN the first response is a deferral and the answer arrives as its edit', async () => {
    const h = await harness({ deps: { discord: { deferAfterMs: 0 } } });
    const { question, messageId } = await parkAndPost(h);
    const sent = h.discord.click(member(ANA), ids(question).send, h.discord.messagePayload(messageId));
    const answer = await h.discord.waitForResponse(sent);
    const [first] = h.discord.responsesTo(sent);
    expect(first?.type).toBe(5);
    expect(first?.data?.flags).toBe(64);
    expect(String(answer.data?.content)).toContain('Sent: Postgres');
    expect(h.discord.callsOf('PATCH', /^\/webhooks\/\d+\/[^/]+\/messages\/@original$/)).toHaveLength(1);
    expect((await h.store.get(question.project, question.id))?.status).toBe('answered');
  });

  it('GIVEN interactions that are not ours or not readable THEN each is acknowledged or dropped, logged with ids only, and nothing changes', async () => {
    const h = await harness();
    const { question, messageId } = await parkAndPost(h);
    const message = h.discord.messagePayload(messageId);
    const foreign = h.discord.click(member(ANA), 'other-app:thing', message);
    const badRef = h.discord.click(member(ANA), 'al:send:nope', message);
    const badValue = h.discord.select(member(ANA), ids(question).pick, ['9'], message);
    // Each is acknowledged silently, and each handler has said it dropped its interaction: then nothing can change.
    await expect
      .poll(() => [foreign, badRef, badValue].map((i) => h.discord.responsesTo(i)[0]?.type))
      .toEqual([6, 6, 6]);
    await expect
      .poll(() => h.logger.lines.filter((l) => l.message.includes('dropped')).length)
      .toBeGreaterThanOrEqual(3);
    expect((await h.store.get(question.project, question.id))?.status).toBe('pending');
    expect(await h.store.getDraft(question.project, question.id, { platform: 'discord', userId: ANA })).toBeUndefined();
    expect(h.logger.lines.filter((l) => l.level === 'error')).toEqual([]);
  });
});

function specWithout(overrides: Parameters<typeof spec>[0]) {
  const { recommended: _r, ...rest } = spec(overrides);
  return rest;
}

describe('Discord /questions', () => {
  it('GIVEN questions of both kinds THEN the inbox counts each filter, and "Send N answers" sends the ready ones of the current filter only', async () => {
    const h = await harness();
    const project = `/tmp/ask-later-test/inbox-${uniquePrefix()}`;
    const ready = await h.store.park(project, spec({ isBlocking: true }));
    const unready = await h.store.park(project, specWithout({ isBlocking: true }));
    const other = await h.store.park(project, spec({ isBlocking: false }));
    const ana = member(ANA, { nick: 'Ana' });

    const opened = h.discord.command(ana, 'questions');
    const inbox = await h.discord.waitForResponse(opened);
    expect(inbox.type).toBe(4);
    expect(inbox.data?.flags).toBe(64);
    for (const label of ['All (3)', 'Blocking (2)', 'Non-blocking (1)', 'Send 2 answers']) {
      expect(textOf(inbox.data)).toContain(label);
    }

    // Blocking only: one ready (the recommendation), one without any.
    const filtered = h.discord.select(ana, 'al:inbox-filter', ['blocking'], h.discord.ephemeralOf(opened));
    const blocking = await h.discord.waitForResponse(filtered);
    expect(blocking.type).toBe(7);
    expect(textOf(blocking.data)).toContain('Send 1 answer');

    // Choose the unready one and pick its first option: now both blocking ones are ready.
    const chosen = h.discord.select(
      ana,
      customIdIn(blocking.data, 'al:inbox-question:') ?? '',
      [refOf(unready)],
      h.discord.ephemeralOf(filtered),
    );
    const withPicker = await h.discord.waitForResponse(chosen);
    const pickId = customIdIn(withPicker.data, 'al:inbox-pick:');
    expect(pickId).toContain(refOf(unready));
    const picked = h.discord.select(ana, pickId ?? '', ['1'], h.discord.ephemeralOf(chosen));
    const two = await h.discord.waitForResponse(picked);
    expect(two.type).toBe(7);
    expect(textOf(two.data)).toContain('Send 2 answers');

    // Send the ready answers of the filter: the two blocking ones, not the non-blocking one.
    const sendAll = h.discord.click(ana, customIdIn(two.data, 'al:inbox-send:') ?? '', h.discord.ephemeralOf(picked));
    const after = await h.discord.waitForResponse(sendAll);
    expect(after.type).toBe(7);
    expect(textOf(after.data)).toContain('All (1)');
    const summaries = () =>
      h.discord.responsesTo(sendAll).filter((r) => String(r.data?.content).startsWith('Sent 2 answers'));
    await expect.poll(summaries).toHaveLength(1);
    expect(summaries()[0]?.data?.flags).toBe(64);
    expect((await h.store.get(project, ready.id))?.answer).toMatchObject({
      choices: ['Postgres'],
      by: { userId: ANA },
    });
    expect((await h.store.get(project, unready.id))?.answer).toMatchObject({ choices: ['SQLite'] });
    expect((await h.store.get(project, other.id))?.status).toBe('pending');
    expect(h.discord.firstResponseMs(sendAll)).toBeLessThan(3000);
  });

  it('GIVEN 14 questions THEN the inbox shows 10, Next shows the 4 after, and "Send N answers" there sends those 4 only', async () => {
    const h = await harness();
    const project = `/tmp/ask-later-test/inbox-${uniquePrefix()}`;
    const parked = [];
    for (let n = 0; n < 14; n += 1) parked.push(await h.store.park(project, spec({ isBlocking: false })));
    const ana = member(ANA, { nick: 'Ana' });

    const opened = h.discord.command(ana, 'questions');
    const first = await h.discord.waitForResponse(opened);
    expect(textOf(first.data)).toContain('1–10 of 14');
    expect(textOf(first.data)).toContain('Send 10 answers');
    // First (to the start, disabled here) and Next (after the 10th question).
    expect(customIdIn(first.data, 'al:inbox-page:all:-')).toBe('al:inbox-page:all:-');
    const nextId = customIdIn(first.data, `al:inbox-page:all:${refOf(parked[9] ?? { project, id: 0 })}`) ?? '';
    expect(nextId).not.toBe('');

    const next = h.discord.click(ana, nextId, h.discord.ephemeralOf(opened));
    const second = await h.discord.waitForResponse(next);
    expect(second.type).toBe(7);
    expect(textOf(second.data)).toContain('11–14 of 14');
    expect(textOf(second.data)).toContain('Send 4 answers');

    const sendAll = h.discord.click(ana, customIdIn(second.data, 'al:inbox-send:') ?? '', h.discord.ephemeralOf(next));
    await h.discord.waitForResponse(sendAll);
    await expect
      .poll(async () => (await h.store.list(project, { status: ['answered'] })).map((q) => q.id))
      .toEqual(parked.slice(10).map((q) => q.id));
    expect((await h.store.list(project, { status: ['pending'] })).map((q) => q.id)).toEqual(
      parked.slice(0, 10).map((q) => q.id),
    );
  });
});
