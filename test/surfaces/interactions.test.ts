import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { silentLogger } from '../../src/core/logger.js';
import type { Draft } from '../../src/core/question.js';
import { formatQuestionRef } from '../../src/core/question-ref.js';
import { ProjectKeys } from '../../src/store/redis/keys.js';
import type { RedisStore } from '../../src/store/redis/redis-store.js';
import { perform } from '../../src/surfaces/actions/perform.js';
import {
  type Actor,
  allowListPolicy,
  type DraftOutcome,
  InteractionService,
  type Outcome,
} from '../../src/surfaces/interactions.js';
import { openTestStore, person, setSpec, spec, uniquePrefix, uniqueProject } from '../support/store.js';

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

describe('reach: may a person act here (reads only)', () => {
  it('GIVEN a member with no draft THEN the question and no draft, and still no draft after; with one THEN it', async () => {
    const { project, ref } = await parked();
    const svc = service();
    const reached = await svc.reach(ref, ada, here);
    expect(reached).toMatchObject({ ok: true, question: { project, id: 1, status: 'pending' } });
    expect(reached.ok && reached.draft).toBeUndefined();
    expect(await store.getDraft(project, 1, ada)).toBeUndefined();
    await svc.saveDraft(ref, ada, here, { notes: 'mine' });
    expect(await svc.reach(ref, ada, here)).toMatchObject({
      ok: true,
      draft: { choices: ['Postgres'], notes: 'mine' },
    });
  });

  it('GIVEN a member and an outsider asking about a question nobody drafted THEN its drafts hash does not even exist', async () => {
    const prefix = uniquePrefix();
    const own = await openTestStore({ prefix });
    const raw = createClient({ url: inject('redisUrl') });
    await raw.connect();
    try {
      const project = uniqueProject();
      await own.park(project, spec());
      const ref = formatQuestionRef(project, 1);
      const svc = new InteractionService({
        store: own,
        access: allowListPolicy({ users: { slack: ['UADA'] } }),
        routing: () => ['C-team'],
      });
      expect((await svc.reach(ref, ada, here)).ok).toBe(true);
      const eve: Actor = { platform: 'slack', userId: 'UEVE', displayName: 'Eve' };
      expect(await svc.reach(ref, eve, here)).toMatchObject({ ok: false, refusal: 'not-allowed' });
      expect(await raw.exists(new ProjectKeys(prefix, project).drafts(1))).toBe(0);
    } finally {
      raw.destroy();
      await own.close();
    }
  });

  it('GIVEN an outsider, another channel, a forged reference or an answered question THEN refused as acting would be, and nothing is written', async () => {
    const { project, ref } = await parked();
    const listed = service({ users: { slack: ['UBOSS'] } });
    const refusals = [
      [await listed.reach(ref, ada, here), await listed.saveDraft(ref, ada, here, { notes: 'x' })],
      [
        await service().reach(ref, ada, { channel: 'C-elsewhere' }),
        await service().remove(ref, ada, { channel: 'C-elsewhere' }),
      ],
      [await service().reach('AAAAAAAAAAAAAAAA.1', ada, here), await service().remove('AAAAAAAAAAAAAAAA.1', ada, here)],
    ];
    for (const [reached, acted] of refusals) {
      expect(reached?.ok).toBe(false);
      expect(reached).toEqual(acted);
    }
    expect(await store.getDraft(project, 1, ada)).toBeUndefined();
    await service().send(ref, bob, { channel: 'D-team' });
    expect(await service().reach(ref, ada, here)).toMatchObject({
      ok: false,
      refusal: 'already-answered',
      text: expect.stringMatching(/^#1 was already answered by Bob on Discord/),
    });
    expect(await store.getDraft(project, 1, ada)).toBeUndefined();
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
    await svc.send(ref, ada, here, [{ choices: ['SQLite'], other: false }]);
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
    const other = await svc.send(ref, ada, here, [{ choices: [], other: true }]);
    expect(other).toMatchObject({ ok: false, refusal: 'not-ready', text: 'Other needs a note: add notes first.' });
    expect((await store.get(project, 1))?.status).toBe('pending');
  });

  it('GIVEN two Sends at once THEN one answer is kept and the other is told who answered and where', async () => {
    const { project } = await parked();
    const ref = formatQuestionRef(project, 1);
    const svc = new InteractionService({ store, access: allowListPolicy({}), routing: () => ['C-team', 'D-team'] });
    const [a, b] = await Promise.all([
      svc.send(ref, ada, here),
      svc.send(ref, bob, { channel: 'D-team' }, [{ choices: ['SQLite'], other: false }]),
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

describe('a set of questions', () => {
  async function parkedSet() {
    const project = uniqueProject();
    const q = await store.park(project, setSpec());
    return { project, ref: formatQuestionRef(project, q.id) };
  }

  it('GIVEN drafts per member THEN reach gives each, saveDraft reports that member’s readiness, and a member past the set is refused', async () => {
    const { ref } = await parkedSet();
    const svc = service();
    const saved = await svc.saveDraft(ref, ada, here, { member: 2, pick: { choices: [], other: true } });
    expect(saved).toMatchObject({ ok: true, member: 2, readiness: 'needs-note' });
    const reached = await svc.reach(ref, ada, here);
    expect(reached.ok && reached.drafts.map((draft) => draft?.other)).toEqual([undefined, undefined, true]);
    expect(reached.ok && reached.draft).toBeUndefined();
    expect(await svc.saveDraft(ref, ada, here, { member: 3, notes: 'x' })).toMatchObject({
      ok: false,
      refusal: 'invalid',
      text: 'Expected one of the 3 questions of the set #1, got #1.4',
    });
  });

  it('GIVEN a member not ready THEN review names it and Send refuses the whole set; once ready, review lists each topic and Send sends it whole', async () => {
    const { project, ref } = await parkedSet();
    const svc = service();
    const before = await svc.review(ref, ada, here);
    expect(before).toMatchObject({
      ok: true,
      ready: false,
      text: 'Not sent: every question of the set must be ready first. Naming needs a pick.',
    });
    expect(await svc.send(ref, ada, here)).toMatchObject({
      ok: false,
      refusal: 'not-ready',
      text: before.ok && before.text,
    });
    await svc.saveDraft(ref, ada, here, { member: 2, pick: { choices: [], other: true } });
    expect((await svc.review(ref, ada, here)).ok && (await svc.review(ref, ada, here))).toMatchObject({
      text: 'Not sent: every question of the set must be ready first. Naming needs a note (Other).',
    });
    await svc.saveDraft(ref, ada, here, { member: 2, notes: 'books' });
    await svc.saveDraft(ref, ada, here, {
      member: 1,
      pick: { choices: ['Redis', 'None'], other: false },
      choiceNotes: [{ choice: 'Redis', notes: 'prices' }],
    });
    // What the platform shows picked for a member wins over the draft's pick; the notes stay the draft's.
    const shown = [{ choices: ['SQLite'], other: false }, undefined, undefined];
    const review = await svc.review(ref, ada, here, shown);
    expect(review).toMatchObject({
      ok: true,
      ready: true,
      summary: 'Database: SQLite · Caches: Redis, None · Naming: Other',
      lines: [
        { member: 0, ref: '#1.1', topic: 'Database', answer: 'SQLite', readiness: 'ready' },
        { member: 1, ref: '#1.2', topic: 'Caches', answer: 'Redis, None', readiness: 'ready' },
        { member: 2, ref: '#1.3', topic: 'Naming', answer: 'Other', readiness: 'ready' },
      ],
    });
    expect(await svc.send(ref, ada, here, shown)).toMatchObject({
      ok: true,
      text: 'Sent: Database: SQLite · Caches: Redis, None · Naming: Other (#1).',
    });
    expect((await store.get(project, 1))?.answer).toMatchObject({
      members: [
        { choices: ['SQLite'], other: false },
        { choices: ['Redis', 'None'], other: false, choiceNotes: [{ choice: 'Redis', notes: 'prices' }] },
        { choices: [], other: true, notes: 'books' },
      ],
      by: { userId: 'UADA' },
    });
    // A later Send, from the other platform, is told who sent what.
    expect(await svc.send(ref, bob, { channel: 'D-team' })).toMatchObject({
      ok: false,
      refusal: 'already-answered',
      text: expect.stringMatching(
        /^#1 was already answered by Ada on Slack at .+: Database: SQLite · Caches: Redis, None · Naming: Other\.$/,
      ),
    });
  });

  it('GIVEN a set in the inbox THEN it carries the member drafts, counts once, and Send N sends it whole only when every member is ready', async () => {
    const { project, ref } = await parkedSet();
    const svc = new InteractionService({
      store,
      access: allowListPolicy({}),
      routing: (_platform, name) => (name === project ? ['C-team'] : []),
    });
    await svc.saveDraft(ref, ada, here, { member: 2, pick: { choices: ['ledger'], other: false } });
    const page = await svc.inboxPage(ada, here, { filter: 'all', limit: 10 });
    expect(page.counts).toEqual({ all: 1, blocking: 1, 'non-blocking': 0 });
    expect(page.items[0]?.memberDrafts?.map((draft) => draft?.choices)).toEqual([undefined, undefined, ['ledger']]);
    const results = await svc.sendReady([ref], ada, here);
    expect(results.map((result) => result.outcome.ok)).toEqual([true]);
    expect((await store.get(project, 1))?.answer).toMatchObject({
      members: [{ choices: ['Postgres'] }, { choices: ['Redis', 'In-process'] }, { choices: ['ledger'] }],
    });
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
      const inbox = await svc.inboxPage(ada, here, { filter: 'all', limit: 10 });
      expect(inbox.items.map((i) => [i.question.project, i.question.id, i.draft?.choices])).toEqual([
        [b, 1, []],
        [a, 1, ['SQLite']],
        [a, 3, undefined],
      ]);
      expect(inbox).toMatchObject({ counts: { all: 3, blocking: 1, 'non-blocking': 2 }, offset: 0, remaining: 0 });
      expect(inbox).not.toHaveProperty('next');
      // One page at a time: the next page starts after the ref of the last one shown, counts stay the filter's.
      const first = await svc.inboxPage(ada, here, { filter: 'all', limit: 2 });
      expect(first).toMatchObject({ offset: 0, remaining: 1, next: refA });
      const second = await svc.inboxPage(ada, here, { filter: 'all', limit: 2, after: refA });
      expect(second.items.map((i) => i.question.id)).toEqual([3]);
      expect(second).toMatchObject({ offset: 2, remaining: 0 });
      const canWait = await svc.inboxPage(ada, here, { filter: 'non-blocking', limit: 10 });
      expect(canWait.items.map((i) => [i.question.project, i.question.id])).toEqual([
        [a, 1],
        [a, 3],
      ]);
      expect((await svc.inboxPage(ada, { channel: 'C-elsewhere' }, { filter: 'all', limit: 10 })).items).toEqual([]);
      const refA3 = formatQuestionRef(a, 3);
      const results = await svc.sendReady([refA, refB, refA3], ada, here);
      expect(results.map((r) => [r.ref, r.outcome.ok])).toEqual([
        [refA, true],
        [refA3, true],
      ]);
      expect(await isolated.get(a, 1)).toMatchObject({ answer: { choices: ['SQLite'] } });
      expect(await isolated.get(a, 3)).toMatchObject({ answer: { choices: ['Postgres'] } });
      expect((await isolated.get(b, 1))?.status).toBe('pending');
    } finally {
      await isolated.close();
    }
  });
});

describe('drafts under concurrency', () => {
  const sqlitePick = { choices: ['SQLite'], other: false };

  it('GIVEN a pick and a notes submit from one person at once THEN the draft keeps both (20 questions)', async () => {
    const svc = service();
    const drafts = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const { project, ref } = await parked();
        const [picked, noted] = await Promise.all([
          svc.saveDraft(ref, ada, here, { pick: sqlitePick }),
          svc.saveDraft(ref, ada, here, { notes: `note ${i}` }),
        ]);
        expect([picked.ok, noted.ok]).toEqual([true, true]);
        return store.getDraft(project, 1, ada);
      }),
    );
    for (const [i, draft] of drafts.entries()) {
      expect(draft).toMatchObject({ choices: ['SQLite'], other: false, notes: `note ${i}` });
    }
  });

  it('GIVEN 100 pick, notes and Send interactions from two people on one question, in concurrent waves THEN every draft change lands, one answer wins, and the others are told who answered', async () => {
    const { project, ref } = await parked();
    const svc = new InteractionService({
      store,
      access: allowListPolicy({}),
      routing: (platform) => (platform === 'slack' ? ['C-team'] : ['D-team']),
    });
    const people = [
      { actor: ada, place: here },
      { actor: bob, place: { channel: 'D-team' } },
    ];
    // Each wave changes both fields: 4 picks of the same choice (a different one from the wave before) and 3
    // notes, all at once, so each pick races the notes. Per person: 7 waves (49 changes) and one Send, which goes
    // with wave 5 once both people are through wave 4: 100 interactions.
    const pickOf = (wave: number) =>
      [
        { choices: ['Postgres'], other: false },
        { choices: ['SQLite'], other: false },
        { choices: [], other: true },
      ][wave % 3] as { choices: string[]; other: boolean };
    const notesOf = (actor: Actor, wave: number, i: number) => `${actor.userId}:${wave}:${i}`;
    let throughWave4 = 0;
    let bothThrough: () => void = () => {};
    const barrier = new Promise<void>((resolve) => {
      bothThrough = resolve;
    });
    const runs = await Promise.all(
      people.map(async ({ actor, place }) => {
        const waves: { wave: number; outcomes: DraftOutcome[]; kept: Draft | undefined }[] = [];
        let send: Outcome | undefined;
        for (let wave = 1; wave <= 7; wave++) {
          const changes = [
            ...Array.from({ length: 4 }, () => ({ pick: pickOf(wave) })),
            ...Array.from({ length: 3 }, (_, i) => ({ notes: notesOf(actor, wave, i) })),
          ];
          const saving = Promise.all(changes.map((change) => svc.saveDraft(ref, actor, place, change)));
          const sending = wave === 5 ? svc.send(ref, actor, place) : undefined;
          const outcomes = await saving;
          send = (await sending) ?? send;
          waves.push({ wave, outcomes, kept: await store.getDraft(project, 1, actor) });
          if (wave === 4 && ++throughWave4 === people.length) bothThrough();
          if (wave === 4) await barrier;
        }
        return { actor, waves, send };
      }),
    );

    // One answer wins; the other Send is told who answered, and where.
    const answered = await store.get(project, 1);
    expect(answered?.status).toBe('answered');
    const winner = answered?.answer?.by;
    expect(runs.filter((r) => r.send?.ok).map((r) => r.actor.userId)).toEqual([winner?.userId]);
    const toldText = `#1 was already answered by ${winner?.displayName} on (Slack|Discord) at .+\\.`;
    const told = expect.stringMatching(new RegExp(`^${toldText}$`));
    expect(runs.find((r) => !r.send?.ok)?.send).toMatchObject({ refusal: 'already-answered', text: told });
    // The winner's draft as their Send read it: notes of wave 4 or 5, their own.
    expect(answered).toMatchObject({
      answer: { notes: expect.stringMatching(new RegExp(`^${winner?.userId}:[45]:\\d$`)) },
    });

    for (const { actor, waves } of runs) {
      for (const { wave, outcomes, kept } of waves) {
        const picks = outcomes.slice(0, 4);
        const notes = outcomes.slice(4);
        if (wave <= 4) {
          // Before any Send: every change saved, each showing its own field, and the draft after the wave holds
          // the wave's pick and one of its notes: neither field lost to the other.
          for (const outcome of picks) expect(outcome).toMatchObject({ ok: true, draft: pickOf(wave) });
          for (const [i, outcome] of notes.entries()) {
            expect(outcome).toMatchObject({ ok: true, draft: { notes: notesOf(actor, wave, i) } });
          }
          expect(kept).toMatchObject({ ...pickOf(wave), notes: expect.stringMatching(`^${actor.userId}:${wave}:`) });
        } else if (wave === 5) {
          // Racing the Sends: saved, or told who answered.
          for (const outcome of outcomes) {
            const verdict = outcome.ok ? 'saved' : `${outcome.refusal}: ${outcome.text}`;
            expect(verdict).toMatch(new RegExp(`^(saved|already-answered: ${toldText})$`));
          }
          expect(kept).toBeUndefined();
        } else {
          // After the answer: every change told who answered; nothing written.
          for (const outcome of outcomes) {
            expect(outcome).toMatchObject({ ok: false, refusal: 'already-answered', text: told });
          }
          expect(kept).toBeUndefined();
        }
      }
    }
  });
});

describe('reads per action', () => {
  it('GIVEN a Send click THEN the question is read once before its one write (not once per step)', async () => {
    const { ref } = await parked();
    const reads: string[] = [];
    const counting = new Proxy(store, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (typeof value !== 'function') return value;
        if (name !== 'get' && name !== 'projectByTag') return value.bind(target);
        return (...args: unknown[]) => {
          reads.push(String(name));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const svc = new InteractionService({
      store: counting,
      access: allowListPolicy({}),
      routing: (platform) => (platform === 'slack' ? ['C-team'] : ['D-team']),
    });
    const action = {
      kind: 'send' as const,
      ref,
      reviewSets: true,
      shown: () => [{ choices: ['Postgres'], other: false }],
    };
    const result = await perform(svc, { actor: ada, place: here, action } as const, silentLogger);
    expect(result.kind).toBe('sent');
    expect(reads).toEqual(['projectByTag', 'get']);
  });
});
