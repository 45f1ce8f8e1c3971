import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidAnswerError } from '../../src/core/invalid-answer-error.js';
import { projectTag } from '../../src/core/question-ref.js';
import { DECIDED_THRESHOLD } from '../../src/core/similarity.js';
import type { Store, StoreEvent } from '../../src/store/port.js';
import { StoreUnavailableError } from '../../src/store/store-unavailable-error.js';
import { DECISIONS, NEAR_MISSES, PARAPHRASES, UNRELATED } from '../core/decided-pairs.js';
import { type Asked, shownFor } from '../support/decided-reference.js';
import { person, setSpec, single, spec, testClock, uniqueProject } from '../support/store.js';
import { agentStoreContract } from './agent-store-contract.js';

/** What the contract asks of an adapter's test factory: a store of its own, on the given clock when one is given. */
export interface ContractStoreOptions {
  readonly now?: () => number;
}

/**
 * The store contract, the same for every adapter: each run passes a factory that opens a fresh store of its own
 * (Redis: over node-redis and over the minimal client, each with its own key prefix; SQLite: a new file).
 */
export function storeContract(openStore: (options: ContractStoreOptions) => Promise<Store>): void {
  agentStoreContract(async (options) => {
    const store = await openStore(options);
    return { agent: store, full: store, close: () => store.close() };
  });

  const clock = testClock();
  let store: Store;

  beforeAll(async () => {
    store = await openStore({ now: clock.now });
  });
  afterAll(async () => {
    await store.close();
  });

  const pick = (label: string, notes?: string) => ({ choices: [label], other: false, ...(notes ? { notes } : {}) });

  describe('park and read', () => {
    it('GIVEN parked projects THEN they are known, and a question reference tag leads back to its project', async () => {
      const project = uniqueProject();
      await store.park(project, spec());
      expect(await store.knownProjects()).toContain(project);
      expect(await store.projectByTag(projectTag(project))).toBe(project);
      expect(await store.projectByTag('AAAAAAAAAAAAAAAA')).toBeUndefined();
    });
  });

  describe('list', () => {
    it('GIVEN several projects THEN listAcross merges them, blocking first then oldest, and only those projects', async () => {
      const a = uniqueProject('a');
      const b = uniqueProject('b');
      const c = uniqueProject('c');
      await store.park(a, spec({ question: 'a1?' }));
      clock.advance(1);
      await store.park(b, spec({ question: 'b1?', isBlocking: true }));
      clock.advance(1);
      await store.park(a, spec({ question: 'a2?', isBlocking: true }));
      await store.park(c, spec({ question: 'c1?', isBlocking: true }));
      const listed = await store.listAcross([a, b], { status: ['pending'] });
      expect(listed.map((q) => single(q).question)).toEqual(['b1?', 'a2?', 'a1?']);
    });
  });

  describe('drafts', () => {
    it('GIVEN drafts by two people THEN each reads back their own; saving again replaces it', async () => {
      const project = uniqueProject();
      await store.park(project, spec());
      const alice = { platform: 'slack' as const, userId: 'UA' };
      const bob = { platform: 'discord' as const, userId: '42' };
      expect(await store.saveDraft(project, 1, alice, { pick: { choices: ['SQLite'], other: false } })).toMatchObject({
        kind: 'saved',
      });
      await store.saveDraft(project, 1, bob, { pick: { choices: [], other: true } });
      await store.saveDraft(project, 1, alice, {
        pick: { choices: ['Postgres'], other: false },
        notes: '  keep it boring ',
      });
      expect(await store.getDraft(project, 1, alice)).toEqual({
        choices: ['Postgres'],
        other: false,
        notes: 'keep it boring',
        updatedAt: clock.now(),
      });
      expect(await store.getDraft(project, 1, bob)).toMatchObject({ choices: [], other: true });
      expect(await store.getDraft(project, 1, { platform: 'slack', userId: 'nobody' })).toBeUndefined();
    });

    it('GIVEN a draft naming a label the question lacks THEN InvalidAnswerError and nothing saved', async () => {
      const project = uniqueProject();
      await store.park(project, spec());
      const who = { platform: 'slack' as const, userId: 'U' };
      await expect(
        store.saveDraft(project, 1, who, { pick: { choices: ['MongoDB'], other: false } }),
      ).rejects.toBeInstanceOf(InvalidAnswerError);
      expect(await store.getDraft(project, 1, who)).toBeUndefined();
    });

    it('GIVEN an unknown or answered question THEN the draft is refused with why, and the answer drops drafts', async () => {
      const project = uniqueProject();
      const who = { platform: 'slack' as const, userId: 'U' };
      expect(await store.saveDraft(project, 9, who, { pick: pick('SQLite') })).toEqual({ kind: 'unknown' });
      await store.park(project, spec());
      await store.saveDraft(project, 1, who, { pick: pick('SQLite') });
      await store.answer(project, 1, pick('Postgres'), person());
      expect(await store.getDraft(project, 1, who)).toBeUndefined();
      const late = await store.saveDraft(project, 1, who, { pick: pick('SQLite') });
      expect(late.kind).toBe('not-pending');
    });
  });

  describe('draft changes merge', () => {
    const who = { platform: 'slack' as const, userId: 'UM' };
    const sqlite = { choices: ['SQLite'], other: false };

    it('GIVEN a pick then notes, or notes then a pick THEN the draft keeps both', async () => {
      const project = uniqueProject();
      await store.park(project, spec());
      await store.park(project, spec());
      await store.saveDraft(project, 1, who, { pick: sqlite });
      expect(await store.saveDraft(project, 1, who, { notes: 'small data' })).toEqual({
        kind: 'saved',
        draft: { ...sqlite, notes: 'small data', updatedAt: clock.now() },
      });
      await store.saveDraft(project, 2, who, { notes: 'small data' });
      await store.saveDraft(project, 2, who, { pick: sqlite });
      expect(await store.getDraft(project, 1, who)).toEqual(await store.getDraft(project, 2, who));
    });

    it('GIVEN no draft yet THEN a change starts from what the question shows: its recommendation, else nothing', async () => {
      const project = uniqueProject();
      await store.park(project, spec());
      const { recommended: _none, ...plain } = spec();
      await store.park(project, plain);
      expect(await store.saveDraft(project, 1, who, { notes: 'why not' })).toMatchObject({
        draft: { choices: ['Postgres'], other: false, notes: 'why not' },
      });
      expect(await store.saveDraft(project, 2, who, { notes: 'why not' })).toMatchObject({
        draft: { choices: [], other: false, notes: 'why not' },
      });
    });

    it('GIVEN notes empty or only whitespace THEN they clear the notes and keep the pick; notes are kept trimmed', async () => {
      const project = uniqueProject();
      await store.park(project, spec());
      await store.saveDraft(project, 1, who, { pick: { choices: [], other: true }, notes: '  use DynamoDB \n' });
      expect((await store.getDraft(project, 1, who))?.notes).toBe('use DynamoDB');
      const cleared = await store.saveDraft(project, 1, who, { notes: ' \t ' });
      expect(cleared).toEqual({ kind: 'saved', draft: { choices: [], other: true, updatedAt: clock.now() } });
      expect(await store.getDraft(project, 1, who)).toEqual({ choices: [], other: true, updatedAt: clock.now() });
    });

    it('GIVEN labels and notes with quotes, backslashes, slashes, line breaks and emoji THEN they read back as written', async () => {
      const project = uniqueProject();
      const label = 'Postgres "16" \\ 9/10 é';
      await store.park(project, spec({ options: [{ label }, { label: 'SQLite' }], recommended: [label] }));
      const notes = 'say "hi" \\ a/b\nnext\u2028line — 🎉';
      await store.saveDraft(project, 1, who, { pick: { choices: [label], other: false } });
      await store.saveDraft(project, 1, who, { notes });
      await store.saveDraft(project, 1, who, { pick: { choices: [label], other: false } });
      expect(await store.getDraft(project, 1, who)).toEqual({
        choices: [label],
        other: false,
        notes,
        updatedAt: clock.now(),
      });
    });

    it('GIVEN a change naming a label the question lacks, two picks on a single-select, or notes too long THEN InvalidAnswerError and the draft is unchanged', async () => {
      const project = uniqueProject();
      await store.park(project, spec());
      await store.saveDraft(project, 1, who, { pick: sqlite, notes: 'kept' });
      const before = await store.getDraft(project, 1, who);
      for (const change of [
        { pick: { choices: ['MongoDB'], other: false }, notes: 'lost' },
        { pick: { choices: ['SQLite'], other: true } },
        { notes: 'n'.repeat(3001) },
      ]) {
        await expect(store.saveDraft(project, 1, who, change)).rejects.toBeInstanceOf(InvalidAnswerError);
      }
      expect(await store.getDraft(project, 1, who)).toEqual(before);
    });

    it("GIVEN two people THEN one person's change never touches the other's draft", async () => {
      const project = uniqueProject();
      await store.park(project, spec());
      const other = { platform: 'discord' as const, userId: '7' };
      await store.saveDraft(project, 1, who, { pick: sqlite });
      await store.saveDraft(project, 1, other, { notes: 'mine' });
      expect(await store.getDraft(project, 1, who)).toEqual({ ...sqlite, updatedAt: clock.now() });
      expect(await store.getDraft(project, 1, other)).toEqual({
        choices: ['Postgres'],
        other: false,
        notes: 'mine',
        updatedAt: clock.now(),
      });
    });

    it('GIVEN 50 picks and 50 notes from one person at once THEN none is lost: each shows its own change, and the draft ends as the last one applied left it, both fields set', async () => {
      const project = uniqueProject();
      await store.park(project, spec());
      const changes = Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? { pick: sqlite } : { notes: `note ${i}` }));
      const saved = await Promise.all(changes.map((change) => store.saveDraft(project, 1, who, change)));
      const drafts = saved.map((result) => (result.kind === 'saved' ? result.draft : undefined));
      for (const [i, change] of changes.entries()) {
        if (change.pick) expect(drafts[i]?.choices).toEqual(['SQLite']);
        else expect(drafts[i]?.notes).toBe(change.notes);
      }
      // Applied one after another: whichever kind came first, every later change of the other kind saw it. A pick
      // that saw no notes and notes that saw no pick cannot both be.
      const pickSawNoNotes = changes.some((change, i) => change.pick && drafts[i]?.notes === undefined);
      const notesSawNoPick = changes.some((change, i) => change.notes && drafts[i]?.choices[0] !== 'SQLite');
      expect(pickSawNoNotes && notesSawNoPick).toBe(false);
      const final = await store.getDraft(project, 1, who);
      expect(final).toMatchObject({ choices: ['SQLite'], other: false, notes: expect.stringMatching(/^note \d+$/) });
      expect(drafts).toContainEqual(final);
    });
  });

  describe('sets of questions', () => {
    const who = { platform: 'slack' as const, userId: 'US' };
    const caches = (choices: string[]) => ({ choices, other: false });

    it('GIVEN a set parked THEN it reads back whole: members, values, several recommended, the set blocking', async () => {
      const project = uniqueProject();
      const parked = await store.park(project, setSpec({ ticket: 'BILL-50' }));
      expect(await store.get(project, parked.id)).toEqual({ ...parked, messages: [] });
      expect(parked).toMatchObject({ isBlocking: true, members: setSpec().members, ticket: 'BILL-50' });
      // Listed and counted once, as a blocking question.
      expect((await store.list(project, { blocking: true })).map((q) => q.id)).toEqual([parked.id]);
      expect((await store.countQuestions(project)).pending).toEqual({ blocking: 1, canWait: 0 });
    });

    it('GIVEN drafts of each member THEN each is kept apart, starts from that member’s recommendations, and a single question takes no member', async () => {
      const project = uniqueProject();
      await store.park(project, setSpec());
      await store.park(project, spec());
      const saved = await store.saveDraft(project, 1, who, { member: 1, notes: 'warm it up' });
      expect(saved).toMatchObject({
        kind: 'saved',
        draft: { choices: ['Redis', 'In-process'], other: false, notes: 'warm it up' },
      });
      await store.saveDraft(project, 1, who, { member: 2, pick: { choices: [], other: true } });
      expect(await store.getDraft(project, 1, who, 0)).toBeUndefined();
      expect(await store.getDraft(project, 1, who, 1)).toMatchObject({ notes: 'warm it up' });
      expect(await store.getDraft(project, 1, who, 2)).toMatchObject({ choices: [], other: true });
      expect(await store.getDraft(project, 1, who)).toBeUndefined();
      await expect(store.saveDraft(project, 1, who, { pick: caches(['Redis']) })).rejects.toThrow(
        /^Expected one of the 3 questions of the set #1, got none$/,
      );
      await expect(store.saveDraft(project, 1, who, { member: 3, notes: 'x' })).rejects.toThrow(
        /^Expected one of the 3 questions of the set #1, got #1\.4$/,
      );
      await expect(store.saveDraft(project, 2, who, { member: 0, notes: 'x' })).rejects.toThrow(InvalidAnswerError);
      await expect(store.saveDraft(project, 1, who, { member: 0, pick: caches(['Redis']) })).rejects.toThrow(
        /^Expected choices among the options of #1\.1/,
      );
    });

    it('GIVEN notes per option arriving together with a pick and other options’ notes THEN every change lands, in the options’ order; empty clears one', async () => {
      const project = uniqueProject();
      await store.park(project, setSpec());
      const changes = [
        { member: 1, choiceNotes: [{ choice: 'None', notes: ' none note ' }] },
        { member: 1, pick: caches(['Redis', 'None']) },
        { member: 1, choiceNotes: [{ choice: 'Redis', notes: 'redis note' }] },
        { member: 1, notes: 'overall' },
      ];
      await Promise.all(changes.map((change) => store.saveDraft(project, 1, who, change)));
      expect(await store.getDraft(project, 1, who, 1)).toEqual({
        choices: ['Redis', 'None'],
        other: false,
        notes: 'overall',
        choiceNotes: [
          { choice: 'Redis', notes: 'redis note' },
          { choice: 'None', notes: 'none note' },
        ],
        updatedAt: expect.any(Number),
      });
      await store.saveDraft(project, 1, who, { member: 1, choiceNotes: [{ choice: 'None', notes: '  ' }] });
      expect((await store.getDraft(project, 1, who, 1))?.choiceNotes).toEqual([
        { choice: 'Redis', notes: 'redis note' },
      ]);
      // Notes per option belong to multi-selects only.
      await expect(
        store.saveDraft(project, 1, who, { member: 0, choiceNotes: [{ choice: 'Postgres', notes: 'x' }] }),
      ).rejects.toThrow(/^Expected notes per option only on a multi-select question/);
    });

    it('GIVEN a set THEN it is answered whole: an unready member refuses it and keeps the drafts; a ready reply wins once', async () => {
      const project = uniqueProject();
      await store.park(project, setSpec());
      await store.saveDraft(project, 1, who, { member: 2, notes: 'kept' });
      const unready = {
        members: [caches(['Postgres']), caches(['Redis']), { choices: [], other: true }],
      };
      await expect(store.answer(project, 1, unready, person('U1'))).rejects.toThrow(
        /^#1\.3 \(Naming\): Expected notes/,
      );
      expect((await store.get(project, 1))?.status).toBe('pending');
      expect(await store.getDraft(project, 1, who, 2)).toMatchObject({ notes: 'kept' });
      const reply = {
        members: [
          caches(['Postgres']),
          { choices: ['Redis', 'None'], other: false, choiceNotes: [{ choice: 'None', notes: 'for now' }] },
          { choices: [], other: true, notes: 'ledger' },
        ],
      };
      const [first, second] = await Promise.all([
        store.answer(project, 1, reply, person('U1')),
        store.answer(project, 1, reply, person('U2')),
      ]);
      const kinds = [first.kind, second.kind].sort();
      expect(kinds).toEqual(['already-answered', 'won']);
      const answered = await store.get(project, 1);
      expect(answered).toMatchObject({ status: 'answered', answer: { ...reply, by: { platform: 'slack' } } });
      expect(await store.getDraft(project, 1, who, 2)).toBeUndefined();
      // One outcome for the agent: the whole set.
      const claim = await store.claimUndelivered(project, { budget: 100_000, leaseMs: 5000 });
      expect(claim.questions.map((q) => q.id)).toEqual([1]);
      expect(await store.confirmClaim(project, claim)).toEqual([1]);
    });

    it('GIVEN a reply of the wrong shape THEN InvalidAnswerError and still pending', async () => {
      const project = uniqueProject();
      await store.park(project, setSpec());
      await store.park(project, spec());
      await expect(store.answer(project, 1, pick('Postgres'), person())).rejects.toThrow(InvalidAnswerError);
      await expect(store.answer(project, 2, { members: [pick('Postgres')] }, person())).rejects.toThrow(
        InvalidAnswerError,
      );
      expect((await store.list(project)).map((q) => q.status)).toEqual(['pending', 'pending']);
    });
  });

  describe('answer', () => {
    it('GIVEN a pending question THEN the answer wins and is kept with who and when', async () => {
      const project = uniqueProject();
      await store.park(project, spec());
      const result = await store.answer(project, 1, pick('SQLite', 'small data'), person('U7'));
      expect(result.kind).toBe('won');
      const stored = await store.get(project, 1);
      expect(stored?.status).toBe('answered');
      expect(stored?.answer).toEqual({
        choices: ['SQLite'],
        other: false,
        notes: 'small data',
        by: person('U7'),
        at: clock.now(),
      });
    });

    it('GIVEN an answered question THEN a later answer is told who answered, and nothing changes', async () => {
      const project = uniqueProject();
      await store.park(project, spec());
      await store.answer(project, 1, pick('SQLite'), person('first', 'discord'));
      const late = await store.answer(project, 1, pick('Postgres'), person('second'));
      expect(late.kind).toBe('already-answered');
      if (late.kind !== 'already-answered') throw new Error('unreachable');
      expect(late.question.answer?.by).toEqual(person('first', 'discord'));
      expect(await store.get(project, 1)).toMatchObject({ answer: { choices: ['SQLite'] } });
    });

    it('GIVEN 100 parallel answers to one question THEN exactly one wins and 99 are told who', async () => {
      const project = uniqueProject();
      await store.park(project, spec());
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          store.answer(project, 1, pick(i % 2 ? 'SQLite' : 'Postgres'), person(`U${i}`)),
        ),
      );
      const winners = results.filter((r) => r.kind === 'won');
      expect(winners).toHaveLength(1);
      const winner = winners[0]?.kind === 'won' ? winners[0].question.answer?.by : undefined;
      const losers = results.filter((r) => r.kind === 'already-answered');
      expect(losers).toHaveLength(99);
      const toldWho = losers.map((loser) =>
        loser.kind === 'already-answered' ? loser.question.answer?.by : undefined,
      );
      expect(toldWho).toEqual(Array.from({ length: 99 }, () => winner));
    });

    it('GIVEN Other without notes, or two picks on a single-select THEN InvalidAnswerError and still pending', async () => {
      const project = uniqueProject();
      await store.park(project, spec());
      await expect(store.answer(project, 1, { choices: [], other: true }, person())).rejects.toBeInstanceOf(
        InvalidAnswerError,
      );
      await expect(
        store.answer(project, 1, { choices: ['SQLite', 'Postgres'], other: false }, person()),
      ).rejects.toBeInstanceOf(InvalidAnswerError);
      expect((await store.get(project, 1))?.status).toBe('pending');
    });

    it('GIVEN a multi-select question THEN several options and Other with notes are kept', async () => {
      const project = uniqueProject();
      await store.park(project, spec({ multiSelect: true }));
      const result = await store.answer(
        project,
        1,
        { choices: ['SQLite', 'Postgres'], other: true, notes: 'and Redis' },
        person(),
      );
      expect(result.kind).toBe('won');
      expect((await store.get(project, 1))?.answer).toMatchObject({
        choices: ['Postgres', 'SQLite'],
        other: true,
        notes: 'and Redis',
      });
    });

    it('GIVEN an unknown id THEN unknown', async () => {
      expect(await store.answer(uniqueProject(), 3, pick('SQLite'), person())).toEqual({ kind: 'unknown' });
    });

    it('GIVEN a cancelled question THEN the answer is told it is no longer pending (cancelled)', async () => {
      const project = uniqueProject();
      await store.park(project, spec());
      await store.cancel(project, 1);
      const result = await store.answer(project, 1, pick('SQLite'), person());
      expect(result.kind === 'not-pending' && result.question.status).toBe('cancelled');
    });

    it('GIVEN a question past its expiry that no timer expired yet THEN the answer expires it and is told so', async () => {
      const project = uniqueProject();
      await store.park(project, spec({ expiresInSeconds: 60 }));
      clock.advance(60_000);
      const result = await store.answer(project, 1, pick('SQLite'), person());
      expect(result.kind === 'not-pending' && result.question.status).toBe('expired');
      expect((await store.get(project, 1))?.status).toBe('expired');
    });
  });

  describe('cancel and dismiss', () => {
    it('GIVEN a pending question THEN the person dismisses it, who is kept, and a later answer is refused', async () => {
      const project = uniqueProject();
      await store.park(project, spec());
      const done = await store.dismiss(project, 1, person('UD'));
      expect(done.kind === 'done' && done.question.closure?.by).toEqual(person('UD'));
      const late = await store.answer(project, 1, pick('SQLite'), person());
      expect(late.kind === 'not-pending' && late.question.status).toBe('dismissed');
      expect(await store.dismiss(uniqueProject(), 1, person())).toEqual({ kind: 'unknown' });
    });
  });

  describe('expiry', () => {
    it('GIVEN due and not-due questions THEN expireDue expires only the due pending ones, once', async () => {
      const project = uniqueProject();
      await store.park(project, spec({ expiresInSeconds: 60 }));
      await store.park(project, spec({ expiresInSeconds: 600 }));
      await store.park(project, spec({ expiresInSeconds: 60 }));
      await store.park(project, spec());
      await store.answer(project, 3, pick('SQLite'), person());
      clock.advance(60_000);
      expect(await store.expireDue()).toBeGreaterThanOrEqual(1);
      expect((await store.list(project)).map((q) => [q.id, q.status])).toEqual([
        [1, 'expired'],
        [2, 'pending'],
        [3, 'answered'],
        [4, 'pending'],
      ]);
      expect((await store.get(project, 1))?.closure).toEqual({ at: clock.now() });
      expect(await store.expireDue()).toBe(0);
    });
  });

  describe('reminders', () => {
    it('GIVEN a pending question THEN each reminder ordinal is recorded once, in order, with its time', async () => {
      const project = uniqueProject();
      await store.park(project, spec({ isBlocking: true }));
      expect((await store.remind(project, 1, 2)).kind).toBe('already');
      const first = await store.remind(project, 1, 1);
      expect(first.kind).toBe('reminded');
      expect((await store.remind(project, 1, 1)).kind).toBe('already');
      clock.advance(1000);
      const second = await store.remind(project, 1, 2);
      expect(second).toMatchObject({ kind: 'reminded', question: { reminders: 2, remindedAt: clock.now() } });
      expect(await store.get(project, 1)).toMatchObject({ reminders: 2, remindedAt: clock.now() });
      expect((await store.remind(project, 9, 1)).kind).toBe('unknown');
    });

    it('GIVEN 20 replicas recording the same reminder at once THEN exactly one records it', async () => {
      const project = uniqueProject();
      await store.park(project, spec({ isBlocking: true }));
      const results = await Promise.all(Array.from({ length: 20 }, () => store.remind(project, 1, 1)));
      expect(results.filter((r) => r.kind === 'reminded')).toHaveLength(1);
      expect(results.filter((r) => r.kind === 'already')).toHaveLength(19);
    });

    it('GIVEN an answered, cancelled or past-expiry question THEN no reminder is recorded', async () => {
      const project = uniqueProject();
      await store.park(project, spec());
      await store.answer(project, 1, pick('SQLite'), person());
      await store.park(project, spec());
      await store.cancel(project, 2);
      await store.park(project, spec({ expiresInSeconds: 60 }));
      clock.advance(60_000);
      expect((await store.remind(project, 1, 1)).kind).toBe('not-pending');
      expect((await store.remind(project, 2, 1)).kind).toBe('not-pending');
      expect((await store.remind(project, 3, 1)).kind).toBe('not-pending');
      expect((await store.get(project, 1))?.reminders).toBeUndefined();
    });

    it('GIVEN a recorded reminder THEN consumers see a reminded event', async () => {
      const local = await openStore({ now: clock.now });
      try {
        const project = uniqueProject();
        const consumer = await local.consumer('reminders-test', 'one');
        await local.park(project, spec());
        await local.remind(project, 1, 1);
        await local.remind(project, 1, 1);
        const events = await consumer.read({ count: 100 });
        expect(events.filter((e) => e.project === project).map((e) => [e.type, e.questionId])).toEqual([
          ['parked', 1],
          ['reminded', 1],
        ]);
        await consumer.close();
      } finally {
        await local.close();
      }
    });
  });

  describe('retention', () => {
    it('GIVEN questions delivered or cancelled over 30 days ago THEN they are purged; pending and undelivered stay', async () => {
      const project = uniqueProject();
      await store.park(project, spec()); // 1 pending
      await store.park(project, spec()); // 2 answered, delivered
      await store.answer(project, 2, pick('SQLite'), person());
      const claim = await store.claimUndelivered(project, { budget: 10_000, leaseMs: 1_000 });
      await store.confirmClaim(project, claim);
      await store.park(project, spec()); // 3 cancelled
      await store.cancel(project, 3);
      await store.park(project, spec()); // 4 answered, not delivered
      await store.answer(project, 4, pick('SQLite'), person());
      await store.park(project, spec()); // 5 dismissed, not reported
      await store.dismiss(project, 5, person());
      clock.advance(29 * 24 * 3600_000);
      expect(await store.purgeExpired()).toBe(0);
      clock.advance(2 * 24 * 3600_000);
      expect(await store.purgeExpired()).toBeGreaterThanOrEqual(2);
      expect((await store.list(project)).map((q) => q.id)).toEqual([1, 4, 5]);
      expect(await store.get(project, 2)).toBeUndefined();
    });
  });

  describe('the index of decisions', () => {
    it('GIVEN decisions answered, dismissed and purged THEN the check finds exactly the answered ones still kept', async () => {
      const project = uniqueProject();
      const database = { question: 'What database does billing use?', options: [{ label: 'Postgres' }] };
      expect(await store.similarDecisions(project, [database])).toEqual([[]]);
      await store.park(project, spec({ question: 'Which database should billing use?' })); // 1 answered, delivered
      await store.answer(project, 1, pick('Postgres'), person());
      await store.confirmClaim(project, await store.claimUndelivered(project, { budget: 10_000, leaseMs: 1_000 }));
      await store.park(project, spec({ question: 'Which database should billing use now?' })); // 2 dismissed
      await store.dismiss(project, 2, person());
      expect((await store.similarDecisions(project, [database]))[0]?.map((found) => found.decision.id)).toEqual([1]);
      clock.advance(31 * 24 * 3600_000);
      await store.purgeExpired();
      expect(await store.similarDecisions(project, [database])).toEqual([[]]);
      await store.park(project, spec({ question: 'Which database should billing use?' })); // 3, answered after the purge
      await store.answer(project, 3, pick('SQLite'), person());
      expect((await store.similarDecisions(project, [database]))[0]?.map((found) => found.decision.id)).toEqual([3]);
    });

    it('GIVEN a decision purged before any check THEN no check finds it, and one answered later is found', async () => {
      const project = uniqueProject();
      await store.park(project, spec({ question: 'Which queue should the mailer use?' }));
      await store.answer(project, 1, pick('Postgres'), person());
      await store.confirmClaim(project, await store.claimUndelivered(project, { budget: 10_000, leaseMs: 1_000 }));
      clock.advance(31 * 24 * 3600_000);
      expect(await store.purgeExpired()).toBeGreaterThanOrEqual(1);
      const queue = { question: 'What queue does the mailer use?', options: [{ label: 'Postgres' }] };
      expect(await store.similarDecisions(project, [queue])).toEqual([[]]);
      await store.park(project, spec({ question: 'Which queue should the mailer use?' }));
      await store.answer(project, 2, pick('SQLite'), person());
      expect((await store.similarDecisions(project, [queue]))[0]?.map((found) => found.decision.id)).toEqual([2]);
    });

    it('GIVEN the labelled decisions, some checked before others were answered THEN every check finds what the in-memory reference finds, with its scores', async () => {
      const project = uniqueProject();
      const reference = shownFor(DECISIONS);
      const asked: Asked[] = [
        ...PARAPHRASES.map((pair) => pair.asked),
        ...NEAR_MISSES.map((pair) => pair.asked),
        ...UNRELATED,
      ];
      const half = Math.floor(DECISIONS.length / 2);
      for (const [index, [question, labels]] of DECISIONS.entries()) {
        const parked = await store.park(
          project,
          spec({ question, options: labels.map((label) => ({ label })), recommended: [] }),
        );
        expect(parked.id).toBe(index + 1);
        await store.answer(project, parked.id, pick(labels[0] ?? ''), person());
        // Half of them indexed by a check before the rest are answered: those wait for the next check.
        if (index === half) await store.similarDecisions(project, [{ question, options: [] }]);
      }
      let found = 0;
      for (const each of asked) {
        const [question, labels] = each;
        const [got = []] = await store.similarDecisions(project, [
          { question, options: labels.map((label) => ({ label })) },
        ]);
        const expected = reference(each, DECIDED_THRESHOLD);
        expect(got.map((one) => one.decision.id)).toEqual(expected.map((one) => one.index + 1));
        for (const [i, one] of got.entries()) expect(one.score).toBeCloseTo(expected[i]?.score ?? Number.NaN, 9);
        found += got.length;
      }
      expect(found).toBeGreaterThan(asked.length / 2);
    });
  });

  describe('message references', () => {
    it('GIVEN copies posted on two platforms THEN both are kept; an unknown question records nothing', async () => {
      const project = uniqueProject();
      await store.park(project, spec());
      expect(await store.recordMessage(project, 1, { platform: 'slack', channel: 'C1', messageId: '1700.01' })).toBe(
        true,
      );
      expect(await store.recordMessage(project, 1, { platform: 'discord', channel: '99', messageId: '123' })).toBe(
        true,
      );
      expect((await store.get(project, 1))?.messages).toEqual(
        expect.arrayContaining([
          { platform: 'slack', channel: 'C1', messageId: '1700.01' },
          { platform: 'discord', channel: '99', messageId: '123' },
        ]),
      );
      expect(await store.recordMessage(project, 2, { platform: 'slack', channel: 'C1', messageId: 'x' })).toBe(false);
      expect(await store.get(project, 2)).toBeUndefined();
    });
  });

  describe('events', () => {
    it('GIVEN every transition THEN a consumer group sees each event once, in order, and acked ones never return', async () => {
      const local = await openStore({ now: clock.now });
      try {
        const project = uniqueProject();
        const consumer = await local.consumer('bridge', 'one');
        expect(await consumer.read()).toEqual([]);
        await local.park(project, spec());
        await local.park(project, spec());
        await local.park(project, spec());
        await local.answer(project, 1, pick('SQLite'), person());
        await local.cancel(project, 2);
        await local.dismiss(project, 3, person());
        const claim = await local.claimUndelivered(project, { budget: 10_000, leaseMs: 1_000 });
        await local.confirmClaim(project, claim);
        const events = await consumer.read({ count: 100 });
        expect(events.map((e) => [e.type, e.questionId])).toEqual([
          ['parked', 1],
          ['parked', 2],
          ['parked', 3],
          ['answered', 1],
          ['cancelled', 2],
          ['dismissed', 3],
          ['delivered', 1],
          ['delivered', 3],
        ]);
        expect(events.every((e) => e.project === project)).toBe(true);
        await consumer.ack(events);
        expect(await consumer.read()).toEqual([]);
        expect(await consumer.reclaim(0)).toEqual([]);
        await consumer.close();
      } finally {
        await local.close();
      }
    });

    it('GIVEN a consumer that read and died THEN another reclaims its unacknowledged events', async () => {
      const local = await openStore({ now: clock.now });
      try {
        const project = uniqueProject();
        const dead = await local.consumer('bridge', 'dead');
        const alive = await local.consumer('bridge', 'alive');
        await dead.read();
        await local.park(project, spec());
        await local.park(project, spec());
        const taken = await dead.read();
        expect(taken).toHaveLength(2);
        await dead.close();
        expect(await alive.read()).toEqual([]);
        const reclaimed = await alive.reclaim(0);
        expect(reclaimed.map((e) => e.questionId)).toEqual([1, 2]);
        await alive.ack(reclaimed);
        expect(await alive.reclaim(0)).toEqual([]);
        await alive.close();
      } finally {
        await local.close();
      }
    });

    it('GIVEN a group replacing another (inheritFrom) THEN it starts at the old group’s oldest unacknowledged event, or after its last one, and a group with nothing to inherit starts at the beginning', async () => {
      const local = await openStore({ now: clock.now });
      try {
        const project = uniqueProject();
        for (let i = 0; i < 4; i++) await local.park(project, spec());
        const old = await local.consumer('old', 'o');
        const read = await old.read({ count: 3 });
        expect(read.map((e) => e.questionId)).toEqual([1, 2, 3]);
        await old.ack([read[0] as StoreEvent, read[2] as StoreEvent]); // #2 stays unacknowledged
        const heir = await local.consumer('heir', 'h', { inheritFrom: 'old' });
        expect((await heir.read()).map((e) => e.questionId)).toEqual([2, 3, 4]);

        await old.ack([read[1] as StoreEvent]);
        const second = await local.consumer('second-heir', 'h', { inheritFrom: 'old' });
        expect((await second.read()).map((e) => e.questionId)).toEqual([4]);

        const orphan = await local.consumer('orphan', 'h', { inheritFrom: 'no-such-group' });
        expect((await orphan.read()).map((e) => e.questionId)).toEqual([1, 2, 3, 4]);

        // An existing group keeps its own position: inheriting applies only when it is created.
        await heir.close();
        const again = await local.consumer('heir', 'h2', { inheritFrom: 'no-such-group' });
        await local.park(project, spec());
        expect((await again.read()).map((e) => e.questionId)).toEqual([5]);
        for (const consumer of [old, second, orphan, again]) await consumer.close();
      } finally {
        await local.close();
      }
    });

    it('GIVEN a consumer blocking before a project exists THEN it picks up the new project on its next read', async () => {
      const local = await openStore({ now: clock.now });
      try {
        const consumer = await local.consumer('bridge', 'c');
        expect(await consumer.read({ blockMs: 50 })).toEqual([]);
        const project = uniqueProject();
        await local.park(project, spec());
        const pending = consumer.read({ blockMs: 5_000 });
        const events: StoreEvent[] = await pending;
        expect(events.map((e) => e.type)).toEqual(['parked']);
        await consumer.close();
      } finally {
        await local.close();
      }
    });

    it('GIVEN a blocking read THEN an event in a known project wakes it', async () => {
      const local = await openStore({ now: clock.now });
      try {
        const project = uniqueProject();
        await local.park(project, spec());
        const consumer = await local.consumer('bridge', 'c');
        await consumer.ack(await consumer.read());
        const woken = consumer.read({ blockMs: 10_000 });
        await local.answer(project, 1, pick('SQLite'), person());
        expect((await woken).map((e) => e.type)).toEqual(['answered']);
        await consumer.close();
      } finally {
        await local.close();
      }
    });
  });
  describe('tailing every project', () => {
    it('GIVEN two tails THEN each sees every event after its start, a new project included, and none from before', async () => {
      const local = await openStore({ now: clock.now });
      try {
        const known = uniqueProject('known');
        await local.park(known, spec());
        const first = await local.tail();
        const second = await local.tail();
        const fresh = uniqueProject('fresh');
        await local.answer(known, 1, pick('SQLite'), person());
        await local.park(fresh, spec());
        await local.cancel(fresh, 1);
        const seen = async (tail: Awaited<ReturnType<Store['tail']>>) => {
          const events: StoreEvent[] = [];
          while (events.length < 3) events.push(...(await tail.next({ timeoutMs: 10_000 })));
          return events.map((e) => `${e.project === known ? 'known' : 'fresh'}#${e.questionId} ${e.type}`).sort();
        };
        const expected = ['fresh#1 cancelled', 'fresh#1 parked', 'known#1 answered'];
        expect(await seen(first)).toEqual(expected);
        expect(await seen(second)).toEqual(expected);
        await first.close();
        await second.close();
      } finally {
        await local.close();
      }
    });

    it('GIVEN a tail waiting THEN an event wakes it; with nothing new it says [] when its time runs out or its signal aborts; closed, it says the store is unavailable', async () => {
      const local = await openStore({ now: clock.now });
      try {
        const project = uniqueProject();
        await local.park(project, spec());
        const tail = await local.tail();
        expect(await tail.next({ timeoutMs: 50 })).toEqual([]);
        const woken = tail.next({ timeoutMs: 10_000 });
        await local.answer(project, 1, pick('SQLite'), person());
        expect((await woken).map((e) => [e.type, e.questionId])).toEqual([['answered', 1]]);
        const stop = new AbortController();
        const waiting = tail.next({ timeoutMs: 60_000, signal: stop.signal });
        stop.abort();
        expect(await waiting).toEqual([]);
        const next = await local.tail();
        await next.close();
        await expect(next.next({ timeoutMs: 10 })).rejects.toBeInstanceOf(StoreUnavailableError);
        await tail.close();
      } finally {
        await local.close();
      }
    });
  });
}
