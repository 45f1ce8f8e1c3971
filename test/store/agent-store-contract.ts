import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryEntryLength } from '../../src/core/delivery-note.js';
import type { AgentStore, Store } from '../../src/store/port.js';
import { person, setSpec, single, spec, testClock, uniqueProject } from '../support/store.js';
import type { ContractStoreOptions } from './store-contract.js';

/**
 * The stores an agent-side contract run works with: `agent`, the adapter under test, through which every agent
 * operation goes; `full`, a store over the same data for what people and serve do (answer, dismiss, expire). For
 * Redis and SQLite both are the one store; for HTTP, `agent` is the client and `full` the store behind serve.
 */
export interface AgentContractStores {
  readonly agent: AgentStore;
  readonly full: Store;
  close(): Promise<void>;
}

/**
 * The agent side of the store contract (`AgentStore`): every adapter runs it, the HTTP client included. The rest of
 * the contract (store-contract.ts) runs on the full adapters only.
 */
export function agentStoreContract(openStores: (options: ContractStoreOptions) => Promise<AgentContractStores>): void {
  const clock = testClock();
  let stores: AgentContractStores;
  let agent: AgentStore;
  let full: Store;

  beforeAll(async () => {
    stores = await openStores({ now: clock.now });
    agent = stores.agent;
    full = stores.full;
  });
  afterAll(async () => {
    await stores.close();
  });

  const pick = (label: string, notes?: string) => ({ choices: [label], other: false, ...(notes ? { notes } : {}) });

  describe('agent side', () => {
    describe('park and read', () => {
      it('GIVEN a new project THEN ids start at 1, the question reads back whole and pending', async () => {
        const project = uniqueProject();
        const first = await agent.park(project, spec({ ticket: 'PROJ-12' }));
        const second = await agent.park(project, spec());
        expect([first.id, second.id]).toEqual([1, 2]);
        const read = await agent.get(project, 1);
        expect(read).toEqual({
          ...spec({ ticket: 'PROJ-12' }),
          project,
          id: 1,
          status: 'pending',
          createdAt: clock.now(),
          messages: [],
        });
      });

      it('GIVEN a set of questions with values and several recommended THEN it reads back whole, and its answer comes back as one outcome', async () => {
        const project = uniqueProject();
        const parked = await agent.park(project, setSpec({ ticket: 'BILL-50', expiresInSeconds: 3600 }));
        expect(parked).toMatchObject({ id: 1, isBlocking: true, members: setSpec().members });
        expect(await agent.get(project, 1)).toEqual({
          ...setSpec({ ticket: 'BILL-50', expiresInSeconds: 3600 }),
          project,
          id: 1,
          status: 'pending',
          createdAt: clock.now(),
          expiresAt: clock.now() + 3_600_000,
          messages: [],
        });
        const reply = {
          members: [pick('SQLite'), { choices: ['None'], other: false }, { choices: [], other: true, notes: 'books' }],
        };
        await full.answer(project, 1, reply, person());
        const claim = await agent.claimUndelivered(project, { budget: 100_000, leaseMs: 5000 });
        expect(claim.questions).toEqual([expect.objectContaining({ id: 1, answer: expect.objectContaining(reply) })]);
        expect(await agent.confirmClaim(project, claim)).toEqual([1]);
      });

      it('GIVEN 50 parallel parks in one project THEN 50 distinct ids 1..50', async () => {
        const project = uniqueProject();
        const parked = await Promise.all(Array.from({ length: 50 }, () => agent.park(project, spec())));
        expect(parked.map((q) => q.id).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      });

      it('GIVEN two projects THEN ids are per project and neither sees the other', async () => {
        const a = uniqueProject('a');
        const b = uniqueProject('b');
        await agent.park(a, spec({ question: 'Question of A?' }));
        expect(await agent.get(b, 1)).toBeUndefined();
        expect((await agent.park(b, spec())).id).toBe(1);
        expect((await agent.list(b)).map((q) => single(q).question)).not.toContain('Question of A?');
      });

      it('GIVEN ids cancelled THEN ids are never reused', async () => {
        const project = uniqueProject();
        await agent.park(project, spec());
        await agent.cancel(project, 1);
        expect((await agent.park(project, spec())).id).toBe(2);
      });

      it('GIVEN an expiry THEN expiresAt is set from the clock', async () => {
        const project = uniqueProject();
        const q = await agent.park(project, spec({ expiresInSeconds: 120 }));
        expect(q.expiresAt).toBe(clock.now() + 120_000);
        expect((await agent.get(project, q.id))?.expiresAt).toBe(clock.now() + 120_000);
      });
    });

    describe('list', () => {
      it('GIVEN mixed questions THEN blocking first, then by id, filterable by status and blocking', async () => {
        const project = uniqueProject();
        await agent.park(project, spec({ isBlocking: false }));
        await agent.park(project, spec({ isBlocking: true }));
        await agent.park(project, spec({ isBlocking: false }));
        await agent.park(project, spec({ isBlocking: true }));
        await full.answer(project, 3, pick('SQLite'), person());
        expect((await agent.list(project)).map((q) => q.id)).toEqual([2, 4, 1, 3]);
        expect((await agent.list(project, { status: ['pending'] })).map((q) => q.id)).toEqual([2, 4, 1]);
        expect((await agent.list(project, { blocking: false })).map((q) => q.id)).toEqual([1, 3]);
        expect((await agent.list(project, { status: ['answered'], blocking: false })).map((q) => q.id)).toEqual([3]);
      });

      it('GIVEN mixed questions THEN listPage reads them a page at a time in the same order, filtered, saying how many follow', async () => {
        const project = uniqueProject();
        for (const isBlocking of [false, true, false, true, false]) await agent.park(project, spec({ isBlocking }));
        await full.answer(project, 3, pick('SQLite'), person());
        const first = await agent.listPage(project, { limit: 2 });
        expect([first.questions.map((q) => q.id), first.remaining]).toEqual([[2, 4], 3]);
        const second = await agent.listPage(project, { limit: 2, ...(first.next ? { after: first.next } : {}) });
        expect([second.questions.map((q) => q.id), second.remaining]).toEqual([[1, 3], 1]);
        const last = await agent.listPage(project, { limit: 2, ...(second.next ? { after: second.next } : {}) });
        expect([last.questions.map((q) => q.id), last.remaining, last.next]).toEqual([[5], 0, undefined]);
        const pending = await agent.listPage(project, { status: ['pending'], blocking: false, limit: 5 });
        expect(pending.questions.map((q) => q.id)).toEqual([1, 5]);
      });
    });

    describe('cancel and dismiss', () => {
      it('GIVEN a pending question THEN the agent cancels it once; a second cancel is told it is cancelled', async () => {
        const project = uniqueProject();
        await agent.park(project, spec());
        const done = await agent.cancel(project, 1);
        expect(done.kind === 'done' && done.question.status).toBe('cancelled');
        expect((await agent.get(project, 1))?.closure).toEqual({ at: clock.now() });
        const again = await agent.cancel(project, 1);
        expect(again.kind === 'not-pending' && again.question.status).toBe('cancelled');
        expect(await agent.cancel(project, 2)).toEqual({ kind: 'unknown' });
      });

      it('GIVEN an answered question THEN cancel and dismiss are told it is answered, and by whom', async () => {
        const project = uniqueProject();
        await agent.park(project, spec());
        await full.answer(project, 1, pick('SQLite'), person('UA'));
        const cancel = await agent.cancel(project, 1);
        const dismiss = await full.dismiss(project, 1, person('UB'));
        expect(cancel.kind === 'already-answered' && cancel.question.answer?.by.userId).toBe('UA');
        expect(dismiss.kind === 'already-answered' && dismiss.question.answer?.by.userId).toBe('UA');
      });

      it('GIVEN a question past its expiry THEN cancel expires it instead', async () => {
        const project = uniqueProject();
        await agent.park(project, spec({ expiresInSeconds: 60 }));
        clock.advance(61_000);
        const result = await agent.cancel(project, 1);
        expect(result.kind === 'not-pending' && result.question.status).toBe('expired');
      });
    });

    describe('delivery claims', () => {
      async function answered(project: string, count: number, notes = 'n') {
        for (let i = 0; i < count; i++) {
          const q = await agent.park(project, spec());
          await full.answer(project, q.id, pick('SQLite', notes), person());
          clock.advance(1);
        }
      }

      it('GIVEN answers, a dismissal and an expiry THEN one claim carries them oldest first; confirm delivers', async () => {
        const project = uniqueProject();
        await answered(project, 1);
        await agent.park(project, spec());
        await full.dismiss(project, 2, person());
        clock.advance(1);
        await agent.park(project, spec({ expiresInSeconds: 60 }));
        await agent.park(project, spec());
        clock.advance(60_000);
        await full.expireDue();
        const claim = await agent.claimUndelivered(project, { budget: 10_000, leaseMs: 30_000 });
        expect(claim.questions.map((q) => [q.id, q.status])).toEqual([
          [1, 'answered'],
          [2, 'dismissed'],
          [3, 'expired'],
        ]);
        expect(claim.remaining).toBe(0);
        expect(await agent.confirmClaim(project, claim)).toEqual([1, 2, 3]);
        const after = await agent.list(project);
        expect(after.map((q) => [q.id, q.status, q.deliveredAt !== undefined])).toEqual([
          [1, 'delivered', true],
          [2, 'dismissed', true],
          [3, 'expired', true],
          [4, 'pending', false],
        ]);
        expect((await agent.claimUndelivered(project, { budget: 10_000, leaseMs: 30_000 })).questions).toEqual([]);
      });

      it('GIVEN blocking and non-blocking outcomes THEN a blocking-only claim takes and counts only the blocking ones; the rest wait for a full claim', async () => {
        const project = uniqueProject();
        for (const isBlocking of [false, true, false, true]) {
          const q = await agent.park(project, spec({ isBlocking }));
          await full.answer(project, q.id, pick('SQLite'), person());
          clock.advance(1);
        }
        const blocking = await agent.claimUndelivered(project, { budget: 10_000, leaseMs: 30_000, blockingOnly: true });
        expect(blocking.questions.map((q) => q.id)).toEqual([2, 4]);
        expect(blocking.remaining).toBe(0);
        await agent.confirmClaim(project, blocking);
        const rest = await agent.claimUndelivered(project, { budget: 10_000, leaseMs: 30_000 });
        expect(rest.questions.map((q) => q.id)).toEqual([1, 3]);
        const tight = await agent.claimUndelivered(project, { budget: 10_000, leaseMs: 30_000, blockingOnly: true });
        expect(tight.questions).toEqual([]);
      });

      it('GIVEN several outcomes THEN a claim for one question takes and counts only its outcome, and none once another claim holds it', async () => {
        const project = uniqueProject();
        for (const isBlocking of [true, true, false]) {
          const q = await agent.park(project, spec({ isBlocking }));
          await full.answer(project, q.id, pick('SQLite'), person());
          clock.advance(1);
        }
        const one = await agent.claimUndelivered(project, {
          budget: 10_000,
          leaseMs: 30_000,
          questionId: 2,
          via: 'tool-result',
        });
        expect(one.questions.map((q) => q.id)).toEqual([2]);
        expect(one.remaining).toBe(0);
        expect(
          (await agent.claimUndelivered(project, { budget: 10_000, leaseMs: 30_000, questionId: 2 })).questions,
        ).toEqual([]);
        expect(await agent.confirmClaim(project, one)).toEqual([2]);
        expect((await agent.get(project, 2))?.deliveredVia).toBe('tool-result');
        const rest = await agent.claimUndelivered(project, { budget: 10_000, leaseMs: 30_000 });
        expect(rest.questions.map((q) => q.id)).toEqual([1, 3]);
      });

      it('GIVEN answered questions THEN findDecisions reads them newest first, narrowed by a search, only this project’s', async () => {
        const project = uniqueProject();
        for (const question of ['Which database for billing?', 'Prices with VAT?', 'Which database for search?']) {
          const q = await agent.park(project, spec({ question }));
          await full.answer(project, q.id, pick('SQLite'), person());
          clock.advance(1);
        }
        await agent.park(project, spec({ question: 'Which database for logs?' }));
        const found = await agent.findDecisions(project, { search: 'database', limit: 10 });
        expect(found.decisions.map((d) => [d.id, d.answer.by.userId])).toEqual([
          [3, 'U1'],
          [1, 'U1'],
        ]);
        const first = await agent.findDecisions(project, { limit: 2 });
        expect(first.decisions.map((d) => d.id)).toEqual([3, 2]);
        expect(
          (
            await agent.findDecisions(project, { limit: 2, ...(first.next ? { after: first.next } : {}) })
          ).decisions.map((d) => d.id),
        ).toEqual([1]);
        expect((await agent.findDecisions(uniqueProject(), { limit: 10 })).decisions).toEqual([]);
      });

      it('GIVEN decisions of two projects THEN similarDecisions finds, per item, this project’s alike ones best first (a set by member) and nothing of the other project or of pending questions', async () => {
        const project = uniqueProject();
        const other = uniqueProject();
        const decide = async (where: string, parked: Parameters<typeof agent.park>[1]) => {
          const q = await agent.park(where, parked);
          const reply =
            parked.members === undefined
              ? pick(parked.options[0]?.label ?? '')
              : { members: parked.members.map((m) => pick(m.options[0]?.label ?? '')) };
          await full.answer(where, q.id, reply, person());
          clock.advance(1);
          return q.id;
        };
        const billing = await decide(project, spec({ question: 'Which database should billing use?' }));
        await decide(
          project,
          spec({
            question: 'Should prices include VAT?',
            options: [{ label: 'Yes' }, { label: 'No' }],
            recommended: ['Yes'],
          }),
        );
        const set = await decide(project, setSpec());
        await decide(other, spec({ question: 'Which database should billing use?' }));
        await agent.park(project, spec({ question: 'Which database should billing use now?' })); // pending
        const [database, unrelated] = await agent.similarDecisions(project, [
          { question: 'What database does billing use?', options: [{ label: 'Postgres' }] },
          { question: 'Which font for headings?', options: [{ label: 'Inter' }] },
        ]);
        // Both ask the same (the set's first member is the billing question): both come, best first.
        expect(database?.map((found) => [found.decision.id, found.member]).sort()).toEqual([
          [billing, undefined],
          [set, 0],
        ]);
        expect((database?.[0]?.score ?? 0) >= (database?.[1]?.score ?? 0)).toBe(true);
        expect(database?.[1]?.score).toBeGreaterThan(0.55);
        expect(unrelated).toEqual([]);
        const [cache] = await agent.similarDecisions(project, [
          { question: 'Which caches may billing use?', options: [{ label: 'Redis' }], topic: 'Caches' },
        ]);
        expect(cache?.[0]).toMatchObject({ member: 1 });
        expect(cache?.[0]?.decision.id).toBe(set);
      });

      it('GIVEN a question asked with the agent’s own tool THEN its origin is kept and read back', async () => {
        const project = uniqueProject();
        const parked = await agent.park(project, {
          ...spec({ isBlocking: true }),
          origin: { tool: 'AskUserQuestion', header: 'Format' },
        });
        expect(parked.origin).toEqual({ tool: 'AskUserQuestion', header: 'Format' });
        expect((await agent.get(project, parked.id))?.origin).toEqual({ tool: 'AskUserQuestion', header: 'Format' });
        const plan = await agent.park(project, {
          ...spec(),
          origin: { tool: 'ExitPlanMode', plan: '0123456789abcdef' },
        });
        expect((await agent.list(project)).map((q) => q.origin)).toEqual([
          { tool: 'AskUserQuestion', header: 'Format' },
          { tool: 'ExitPlanMode', plan: '0123456789abcdef' },
        ]);
        expect(plan.id).toBe(2);
      });

      it('GIVEN an approval THEN it is stored with the tool call it binds to and reads back the same', async () => {
        const project = uniqueProject();
        const approval = {
          agent: 'claude-code' as const,
          tool: 'Bash',
          input: 'a'.repeat(64),
          session: 'session-1',
          rule: 'Bash(npm publish)',
        };
        const parked = await agent.park(project, { ...spec(), origin: { tool: 'PermissionRequest', approval } });
        expect(parked.origin).toEqual({ tool: 'PermissionRequest', approval });
        expect((await agent.get(project, parked.id))?.origin).toEqual({ tool: 'PermissionRequest', approval });
      });

      it('GIVEN outcomes, one of them leased THEN waitingOutcomes lists the free ones oldest first, blocking-only when asked, and takes nothing', async () => {
        const project = uniqueProject();
        expect(await agent.waitingOutcomes(project)).toEqual([]);
        for (const isBlocking of [true, false, true]) {
          const q = await agent.park(project, spec({ isBlocking }));
          await full.answer(project, q.id, pick('SQLite'), person());
          clock.advance(1);
        }
        await agent.park(project, spec({ isBlocking: true })); // pending: not an outcome
        expect((await agent.waitingOutcomes(project)).map((q) => q.id)).toEqual([1, 2, 3]);
        expect((await agent.waitingOutcomes(project, { blockingOnly: true })).map((q) => q.id)).toEqual([1, 3]);
        const claim = await agent.claimUndelivered(project, { budget: 1, leaseMs: 30_000 }); // takes #1 only
        expect(claim.questions.map((q) => q.id)).toEqual([1]);
        expect((await agent.waitingOutcomes(project)).map((q) => q.id)).toEqual([2, 3]);
        clock.advance(30_000); // the lease lapses
        expect((await agent.waitingOutcomes(project, { blockingOnly: true })).map((q) => q.id)).toEqual([1, 3]);
        // Looking took nothing: a claim still gets everything.
        const all = await agent.claimUndelivered(project, { budget: 100_000, leaseMs: 30_000 });
        expect(all.questions.map((q) => q.id)).toEqual([1, 2, 3]);
        await agent.confirmClaim(project, all);
        expect(await agent.waitingOutcomes(project)).toEqual([]);
      });

      it('GIVEN outcomes of the same millisecond THEN a claim carries them in id order (#2 before #10)', async () => {
        const project = uniqueProject();
        for (let i = 0; i < 12; i++) await agent.park(project, spec());
        for (let id = 1; id <= 12; id++) await full.answer(project, id, pick('SQLite'), person());
        const claim = await agent.claimUndelivered(project, { budget: 100_000, leaseMs: 30_000 });
        expect(claim.questions.map((q) => q.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      });

      it('GIVEN a budget THEN a claim takes whole entries in order while they fit, and counts the rest', async () => {
        const project = uniqueProject();
        await answered(project, 5);
        const one = await agent.get(project, 1);
        const size = one ? deliveryEntryLength(one) : 0;
        const claim = await agent.claimUndelivered(project, { budget: size * 3, leaseMs: 30_000 });
        expect(claim.questions.map((q) => q.id)).toEqual([1, 2, 3]);
        expect(claim.remaining).toBe(2);
        const tiny = await agent.claimUndelivered(project, { budget: 1, leaseMs: 30_000 });
        expect(tiny.questions.map((q) => q.id)).toEqual([4]);
        expect(tiny.remaining).toBe(1);
      });

      it('GIVEN a claim left unconfirmed THEN its answers come back after the lease and are delivered once', async () => {
        const project = uniqueProject();
        await answered(project, 2);
        const lost = await agent.claimUndelivered(project, { budget: 10_000, leaseMs: 5_000 });
        expect(lost.questions).toHaveLength(2);
        expect((await agent.claimUndelivered(project, { budget: 10_000, leaseMs: 5_000 })).questions).toEqual([]);
        clock.advance(5_001);
        const retry = await agent.claimUndelivered(project, { budget: 10_000, leaseMs: 5_000 });
        expect(retry.questions.map((q) => q.id)).toEqual([1, 2]);
        expect(await agent.confirmClaim(project, retry)).toEqual([1, 2]);
        expect(await agent.confirmClaim(project, lost)).toEqual([]);
        expect((await agent.list(project, { status: ['delivered'] })).map((q) => q.id)).toEqual([1, 2]);
      });

      it('GIVEN a claim whose lease ran out but nobody took over THEN its confirm still delivers', async () => {
        const project = uniqueProject();
        await answered(project, 1);
        const slow = await agent.claimUndelivered(project, { budget: 10_000, leaseMs: 1_000 });
        clock.advance(2_000);
        expect(await agent.confirmClaim(project, slow)).toEqual([1]);
      });

      it('GIVEN a released claim THEN its answers are at once claimable again', async () => {
        const project = uniqueProject();
        await answered(project, 2);
        const first = await agent.claimUndelivered(project, { budget: 10_000, leaseMs: 60_000 });
        await agent.releaseClaim(project, first);
        const second = await agent.claimUndelivered(project, { budget: 10_000, leaseMs: 60_000 });
        expect(second.questions.map((q) => q.id)).toEqual([1, 2]);
        expect(await agent.confirmClaim(project, first)).toEqual([]);
      });

      it('GIVEN a note that carried only part of a claim THEN those are confirmed and the rest released for the next', async () => {
        const project = uniqueProject();
        await answered(project, 3);
        const claim = await agent.claimUndelivered(project, { budget: 10_000, leaseMs: 60_000 });
        expect(await agent.confirmClaim(project, claim, [1, 2, 99])).toEqual([1, 2]);
        await agent.releaseClaim(project, claim, [3]);
        const next = await agent.claimUndelivered(project, { budget: 10_000, leaseMs: 60_000 });
        expect(next.questions.map((q) => q.id)).toEqual([3]);
      });

      it('GIVEN 20 parallel claims over 10 answers THEN every answer is in exactly one claim', async () => {
        const project = uniqueProject();
        await answered(project, 10);
        const claims = await Promise.all(
          Array.from({ length: 20 }, () => agent.claimUndelivered(project, { budget: 600, leaseMs: 30_000 })),
        );
        const ids = claims.flatMap((c) => c.questions.map((q) => q.id));
        expect(ids.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        const confirmed = (await Promise.all(claims.map((c) => agent.confirmClaim(project, c)))).flat();
        expect(confirmed.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      });

      it('GIVEN an answer the agent received directly THEN it is delivered and no claim carries it again', async () => {
        const project = uniqueProject();
        await answered(project, 2);
        await agent.park(project, spec());
        expect(await agent.markDelivered(project, 1)).toBe('delivered');
        expect((await agent.get(project, 1))?.status).toBe('delivered');
        expect(await agent.markDelivered(project, 1)).toBe('not-waiting');
        expect(await agent.markDelivered(project, 3)).toBe('not-waiting');
        expect(await agent.markDelivered(project, 9)).toBe('not-waiting');
        const claim = await agent.claimUndelivered(project, { budget: 10_000, leaseMs: 30_000 });
        expect(claim.questions.map((q) => q.id)).toEqual([2]);
        expect(await agent.markDelivered(project, 2)).toBe('leased');
        expect(await agent.confirmClaim(project, claim)).toEqual([2]);
      });

      it('GIVEN another project waiting THEN a claim never carries its answers', async () => {
        const mine = uniqueProject('mine');
        const theirs = uniqueProject('theirs');
        await answered(theirs, 2);
        expect((await agent.claimUndelivered(mine, { budget: 10_000, leaseMs: 1_000 })).questions).toEqual([]);
      });
      it('GIVEN outcomes delivered by a prompt claim, a tool-call claim and directly THEN each keeps the path it took', async () => {
        const project = uniqueProject();
        await answered(project, 3);
        const prompt = await agent.claimUndelivered(project, { budget: 10_000, leaseMs: 30_000 });
        expect(prompt.via).toBe('prompt');
        expect(await agent.confirmClaim(project, prompt, [1])).toEqual([1]);
        await agent.releaseClaim(project, prompt, [2, 3]);
        const toolCall = await agent.claimUndelivered(project, { budget: 10_000, leaseMs: 30_000, via: 'tool-call' });
        expect(await agent.confirmClaim(project, toolCall, [2])).toEqual([2]);
        await agent.releaseClaim(project, toolCall, [3]);
        expect(await agent.markDelivered(project, 3)).toBe('delivered');
        const paths = (await agent.list(project)).map((q) => [q.id, q.deliveredVia]);
        expect(paths).toEqual([
          [1, 'prompt'],
          [2, 'tool-call'],
          [3, 'tool-result'],
        ]);
      });
    });

    describe('counts', () => {
      it('GIVEN questions in every state THEN countQuestions counts each, blocking and not, for that project only', async () => {
        const project = uniqueProject();
        const other = uniqueProject('other');
        await agent.park(other, spec({ isBlocking: true }));
        const states: [boolean, (id: number) => Promise<unknown>][] = [
          [true, async () => undefined],
          [true, async () => undefined],
          [false, async () => undefined],
          [true, (id) => full.answer(project, id, pick('SQLite'), person())],
          [
            false,
            (id) => full.answer(project, id, pick('SQLite'), person()).then(() => agent.markDelivered(project, id)),
          ],
          [false, (id) => agent.cancel(project, id)],
          [true, (id) => full.dismiss(project, id, person())],
        ];
        for (const [isBlocking, move] of states) await move((await agent.park(project, spec({ isBlocking }))).id);
        expect(await agent.countQuestions(project)).toEqual({
          pending: { blocking: 2, canWait: 1 },
          answered: { blocking: 1, canWait: 0 },
          delivered: { blocking: 0, canWait: 1 },
          cancelled: { blocking: 0, canWait: 1 },
          dismissed: { blocking: 1, canWait: 0 },
          expired: { blocking: 0, canWait: 0 },
        });
        const none = { blocking: 0, canWait: 0 };
        expect(await agent.countQuestions(uniqueProject('empty'))).toEqual({
          pending: none,
          answered: none,
          delivered: none,
          cancelled: none,
          dismissed: none,
          expired: none,
        });
      });
    });

    describe('watching a project', () => {
      it('GIVEN a watch THEN a change made before changed() is called is not missed; then it waits for the next one', async () => {
        const project = uniqueProject();
        await agent.park(project, spec());
        const watch = await agent.watch(project);
        try {
          await full.answer(project, 1, pick('SQLite'), person());
          expect(await watch.changed({ timeoutMs: 10_000 })).toBe(true);
          const next = watch.changed({ timeoutMs: 10_000 });
          await agent.park(project, spec());
          expect(await next).toBe(true);
        } finally {
          await watch.close();
        }
      });

      it('GIVEN nothing happening THEN changed() says false when its time runs out, or at once when its signal aborts', async () => {
        const project = uniqueProject();
        await agent.park(project, spec());
        const watch = await agent.watch(project);
        try {
          expect(await watch.changed({ timeoutMs: 50 })).toBe(false);
          const stop = new AbortController();
          const waiting = watch.changed({ timeoutMs: 60_000, signal: stop.signal });
          stop.abort();
          expect(await waiting).toBe(false);
        } finally {
          await watch.close();
        }
      });
    });

    describe('waiting without polling', () => {
      it('GIVEN a wait THEN it returns the answered question as soon as the answer lands', async () => {
        const project = uniqueProject();
        await agent.park(project, spec());
        await agent.park(project, spec());
        const waiting = agent.waitWhilePending(project, 1, { timeoutMs: 20_000 });
        await new Promise((r) => setTimeout(r, 50));
        await full.answer(project, 2, pick('SQLite'), person()); // another question: the wait goes on
        await full.answer(project, 1, pick('Postgres'), person());
        const result = await waiting;
        expect(result?.status).toBe('answered');
        expect(result).toMatchObject({ answer: { choices: ['Postgres'] } });
      });

      it('GIVEN nobody answers THEN the wait ends at its time-out with the question still pending', async () => {
        const local = await openStores({}); // real clock: the wait's deadline is real time
        try {
          const project = uniqueProject();
          await local.agent.park(project, spec());
          expect((await local.agent.waitWhilePending(project, 1, { timeoutMs: 200 }))?.status).toBe('pending');
        } finally {
          await local.close();
        }
      });

      it('GIVEN an abort THEN the wait ends at once with the question as it is', async () => {
        const local = await openStores({});
        try {
          const project = uniqueProject();
          await local.agent.park(project, spec());
          const controller = new AbortController();
          const waiting = local.agent.waitWhilePending(project, 1, { timeoutMs: 60_000, signal: controller.signal });
          setTimeout(() => controller.abort(), 50);
          expect((await waiting)?.status).toBe('pending');
        } finally {
          await local.close();
        }
      });

      it('GIVEN a question already answered or unknown THEN the wait returns at once', async () => {
        const project = uniqueProject();
        await agent.park(project, spec());
        await agent.cancel(project, 1);
        expect((await agent.waitWhilePending(project, 1, { timeoutMs: 60_000 }))?.status).toBe('cancelled');
        expect(await agent.waitWhilePending(project, 7, { timeoutMs: 60_000 })).toBeUndefined();
      });
    });

    describe('named leases', () => {
      it('GIVEN two owners THEN one holds the lease, renews it, gives it up, and the other takes it after', async () => {
        const sweep = `sweep-${randomUUID()}`;
        const other = `other-${randomUUID()}`;
        expect(await agent.acquireLease(sweep, 'a', 60_000)).toBe(true);
        expect(await agent.acquireLease(sweep, 'b', 60_000)).toBe(false);
        expect(await agent.acquireLease(sweep, 'a', 60_000)).toBe(true); // renewed
        expect(await agent.acquireLease(other, 'b', 60_000)).toBe(true); // leases are per name
        await agent.releaseLease(sweep, 'b'); // not b's: nothing happens
        expect(await agent.acquireLease(sweep, 'b', 60_000)).toBe(false);
        await agent.releaseLease(sweep, 'a');
        expect(await agent.acquireLease(sweep, 'b', 60_000)).toBe(true);
        expect(await agent.acquireLease(sweep, 'a', 60_000)).toBe(false);
      });

      it('GIVEN a holder WHEN another owner seizes the lease THEN the holder can neither renew nor release it; the seizer can', async () => {
        const waiter = `waiter:${randomUUID()}`;
        const free = `free-${randomUUID()}`;
        expect(await agent.acquireLease(waiter, 'waiter', 60_000)).toBe(true);
        await agent.seizeLease(waiter, 'turn', 60_000);
        expect(await agent.acquireLease(waiter, 'waiter', 60_000)).toBe(false);
        await agent.releaseLease(waiter, 'waiter'); // not the holder's any more: nothing happens
        expect(await agent.acquireLease(waiter, 'other', 60_000)).toBe(false);
        await agent.releaseLease(waiter, 'turn');
        expect(await agent.acquireLease(waiter, 'waiter', 60_000)).toBe(true);
        await agent.seizeLease(free, 'turn', 60_000); // a free one is simply taken
        expect(await agent.acquireLease(free, 'x', 60_000)).toBe(false);
      });

      it('GIVEN an open store THEN ping answers', async () => {
        await expect(agent.ping()).resolves.toBeUndefined();
      });
    });
  });
}
