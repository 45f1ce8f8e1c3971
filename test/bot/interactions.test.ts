import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Actor, allowListPolicy, InteractionService } from '../../src/bot/interactions.js';
import { formatQuestionRef } from '../../src/core/question-ref.js';
import type { RedisStore } from '../../src/store/redis/redis-store.js';
import { openTestStore, person, spec, uniqueProject } from '../support/store.js';

let store: RedisStore;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(async () => {
  await store.close();
});

const ada: Actor = { platform: 'slack', userId: 'UADA', displayName: 'Ada' };
const bob: Actor = { platform: 'discord', userId: '42', displayName: 'Bob', roles: ['R-ops'] };
const here = { channel: 'C-team' };

function service(allow: Parameters<typeof allowListPolicy>[0] = {}) {
  return new InteractionService({
    store,
    access: allowListPolicy(allow),
    routing: (platform) => (platform === 'slack' ? ['C-team'] : ['D-team']),
  });
}

async function parked(overrides: Parameters<typeof spec>[0] = {}, withoutRecommendation = false) {
  const project = uniqueProject();
  const { recommended: _dropped, ...plain } = spec(overrides);
  const q = await store.park(project, withoutRecommendation ? plain : spec(overrides));
  return { project, ref: formatQuestionRef(project, q.id) };
}

describe('drafts', () => {
  it('GIVEN a pick then notes THEN the draft keeps both and reports readiness', async () => {
    const { ref } = await parked();
    const svc = service();
    const picked = await svc.saveDraft(ref, ada, here, { pick: { choices: [], other: true } });
    expect(picked.ok && picked.readiness).toBe('needs-note');
    const noted = await svc.saveDraft(ref, ada, here, { notes: 'Use DynamoDB' });
    expect(noted.ok && noted.readiness).toBe('ready');
    expect(noted.ok && noted.draft).toMatchObject({ choices: [], other: true, notes: 'Use DynamoDB' });
  });

  it('GIVEN notes first THEN the recommendation stays picked', async () => {
    const { ref } = await parked();
    const noted = await service().saveDraft(ref, ada, here, { notes: 'fine' });
    expect(noted.ok && noted.draft.choices).toEqual(['Postgres']);
  });
});

describe('send', () => {
  it('GIVEN no draft THEN Send sends the recommendation in one click, kept with who', async () => {
    const { project, ref } = await parked();
    const sent = await service().send(ref, ada, here);
    expect(sent).toMatchObject({ ok: true, text: 'Sent: Postgres (#1).' });
    expect((await store.get(project, 1))?.answer).toMatchObject({
      choices: ['Postgres'],
      by: { platform: 'slack', userId: 'UADA', displayName: 'Ada' },
    });
  });

  it('GIVEN a draft with notes and a pick from the platform THEN the pick wins and the notes travel with it', async () => {
    const { project, ref } = await parked();
    const svc = service();
    await svc.saveDraft(ref, ada, here, { notes: 'small data' });
    await svc.send(ref, ada, here, { choices: ['SQLite'], other: false });
    expect((await store.get(project, 1))?.answer).toMatchObject({ choices: ['SQLite'], notes: 'small data' });
  });

  it('GIVEN Other without notes or nothing picked THEN refused as not ready, nothing stored', async () => {
    const { project, ref } = await parked({}, true);
    const svc = service();
    expect(await svc.send(ref, ada, here)).toMatchObject({
      ok: false,
      refusal: 'not-ready',
      text: 'Pick an answer first.',
    });
    const other = await svc.send(ref, ada, here, { choices: [], other: true });
    expect(other).toMatchObject({ ok: false, refusal: 'not-ready', text: 'Other needs a note: add notes first.' });
    expect((await store.get(project, 1))?.status).toBe('pending');
  });

  it('GIVEN two Sends at once THEN one answer is kept and the other is told who answered and where', async () => {
    const { project } = await parked();
    const ref = formatQuestionRef(project, 1);
    const svc = new InteractionService({ store, access: allowListPolicy({}), routing: () => ['C-team', 'D-team'] });
    const [a, b] = await Promise.all([
      svc.send(ref, ada, here),
      svc.send(ref, bob, { channel: 'D-team' }, { choices: ['SQLite'], other: false }),
    ]);
    const outcomes = [a, b];
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    const loser = outcomes.find((o) => !o.ok);
    expect(loser?.ok === false && loser.refusal).toBe('already-answered');
    expect(loser?.text).toMatch(
      /^#1 was already answered by (Ada on Slack|Bob on Discord) at .+: (Postgres|SQLite)\.$/,
    );
  });

  it('GIVEN a withdrawn, dismissed or expired question THEN Send says so and changes nothing', async () => {
    const { project, ref } = await parked();
    await store.cancel(project, 1);
    expect(await service().send(ref, ada, here)).toMatchObject({
      refusal: 'closed',
      text: '#1 was withdrawn by the agent.',
    });
    const other = await parked();
    await store.dismiss(other.project, 1, person('UX'));
    expect((await service().send(other.ref, ada, here)).text).toBe('#1 was dismissed by Person UX on Slack.');
  });

  it('GIVEN a user outside the allow-list THEN refused, nothing changed; a listed role is let in', async () => {
    const { project, ref } = await parked();
    const svc = new InteractionService({
      store,
      access: allowListPolicy({ users: { slack: ['UBOSS'] }, discordRoles: ['R-ops'] }),
      routing: () => ['C-team', 'D-team'],
    });
    expect(await svc.send(ref, ada, here)).toMatchObject({ ok: false, refusal: 'not-allowed' });
    expect((await svc.saveDraft(ref, ada, here, { notes: 'x' })).ok).toBe(false);
    expect((await store.get(project, 1))?.status).toBe('pending');
    expect((await svc.send(ref, bob, { channel: 'D-team' })).ok).toBe(true);
  });

  it("GIVEN a question from another channel's project, or a forged reference THEN refused", async () => {
    const { ref } = await parked();
    expect(await service().send(ref, ada, { channel: 'C-elsewhere' })).toMatchObject({ refusal: 'other-channel' });
    expect(await service().send('not-a-ref', ada, here)).toMatchObject({ refusal: 'unknown' });
    expect(await service().send('AAAAAAAAAAAAAAAA.1', ada, here)).toMatchObject({ refusal: 'unknown' });
  });
});

describe('remove', () => {
  it('GIVEN a pending question THEN Remove dismisses it; after an answer THEN it is told who answered', async () => {
    const { project, ref } = await parked();
    expect(await service().remove(ref, ada, here)).toMatchObject({ ok: true });
    expect((await store.get(project, 1))?.closure?.by).toEqual({
      platform: 'slack',
      userId: 'UADA',
      displayName: 'Ada',
    });
    const other = await parked();
    await service().send(other.ref, ada, here);
    expect(await service().remove(other.ref, ada, here)).toMatchObject({ refusal: 'already-answered' });
  });
});

describe('inbox', () => {
  it('GIVEN questions in routed projects THEN the inbox lists the pending ones with the actor’s drafts, and Send N sends only what shows ready', async () => {
    const isolated = await openTestStore();
    try {
      const a = uniqueProject('a');
      const b = uniqueProject('b');
      await isolated.park(a, spec({ isBlocking: false }));
      const { recommended: _r, ...unrecommended } = spec({ isBlocking: true });
      await isolated.park(b, unrecommended);
      await isolated.park(a, spec());
      await isolated.cancel(a, 2);
      await isolated.park(a, spec({ isBlocking: false })); // #3: no draft, the recommendation shows ready
      const svc = new InteractionService({ store: isolated, access: allowListPolicy({}), routing: () => ['C-team'] });
      const refA = formatQuestionRef(a, 1);
      const refB = formatQuestionRef(b, 1);
      await svc.saveDraft(refA, ada, here, { pick: { choices: ['SQLite'], other: false } });
      await svc.saveDraft(refB, ada, here, { pick: { choices: [], other: true } });
      const inbox = await svc.inbox(ada, here);
      expect(inbox.map((i) => [i.question.project, i.question.id, i.draft?.choices])).toEqual([
        [b, 1, []],
        [a, 1, ['SQLite']],
        [a, 3, undefined],
      ]);
      expect(await svc.inbox(ada, { channel: 'C-elsewhere' })).toEqual([]);
      const refA3 = formatQuestionRef(a, 3);
      const results = await svc.sendReady([refA, refB, refA3], ada, here);
      expect(results.map((r) => [r.ref, r.outcome.ok])).toEqual([
        [refA, true],
        [refA3, true],
      ]);
      expect((await isolated.get(a, 1))?.answer?.choices).toEqual(['SQLite']);
      expect((await isolated.get(a, 3))?.answer?.choices).toEqual(['Postgres']);
      expect((await isolated.get(b, 1))?.status).toBe('pending');
    } finally {
      await isolated.close();
    }
  });
});
