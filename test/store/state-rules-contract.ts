import { afterAll, beforeAll, expect, it } from 'vitest';
import { canTransition, QUESTION_STATUSES, type QuestionStatus } from '../../src/core/question.js';
import type { Store } from '../../src/store/port.js';
import { person, spec, testClock, uniqueProject } from '../support/store.js';
import type { ContractStoreOptions } from './store-contract.js';

/** Every question here expires a minute after parking, so each state (expired too) can be reached and tried. */
const EXPIRES_IN_S = 60;
const PAST_EXPIRY_MS = (EXPIRES_IN_S + 1) * 1000;
const CLAIM = { budget: 9000, leaseMs: 60_000 };
const pick = { choices: ['SQLite'], other: false };

type Move = Exclude<QuestionStatus, 'pending'>;

/**
 * The state rules, stated once in core (`canTransition`), checked on an adapter: a question is brought to each state
 * the way the product brings it there, then every move is tried; it happens exactly when `canTransition` allows it.
 */
export function stateRulesContract(openStore: (options: ContractStoreOptions) => Promise<Store>): void {
  const clock = testClock();
  let store: Store;

  beforeAll(async () => {
    store = await openStore({ now: clock.now });
  });
  afterAll(async () => {
    await store.close();
  });

  /** What each move does, and the result's kind when the port reports one (`moved` when it happened). */
  const moves: Record<Move, (project: string, id: number) => Promise<string | undefined>> = {
    answered: async (project, id) => {
      const result = await store.answer(project, id, pick, person());
      return result.kind === 'won' ? 'moved' : result.kind;
    },
    cancelled: async (project, id) => {
      const result = await store.cancel(project, id);
      return result.kind === 'done' ? 'moved' : result.kind;
    },
    dismissed: async (project, id) => {
      const result = await store.dismiss(project, id, person());
      return result.kind === 'done' ? 'moved' : result.kind;
    },
    expired: async () => {
      clock.advance(PAST_EXPIRY_MS);
      await store.expireDue();
      return undefined;
    },
    // The delivery of an outcome: an answer becomes delivered; a dismissal or an expiry is reported and keeps its state.
    delivered: async (project) => {
      const claim = await store.claimUndelivered(project, CLAIM);
      await store.confirmClaim(project, claim);
      return undefined;
    },
  };

  /** A new question brought to `status`. */
  async function questionIn(status: QuestionStatus): Promise<{ project: string; id: number }> {
    const project = uniqueProject('states');
    const { id } = await store.park(project, spec({ expiresInSeconds: EXPIRES_IN_S }));
    if (status === 'delivered') {
      await moves.answered(project, id);
      await moves.delivered(project, id);
    } else if (status !== 'pending') {
      await moves[status](project, id);
    }
    expect((await store.get(project, id))?.status).toBe(status);
    return { project, id };
  }

  it('GIVEN a question in each state WHEN each move is tried THEN it moves exactly when canTransition allows it, and otherwise stays', async () => {
    for (const from of QUESTION_STATUSES) {
      for (const to of Object.keys(moves) as Move[]) {
        const { project, id } = await questionIn(from);
        await moves[to](project, id);
        expect((await store.get(project, id))?.status, `${from} → ${to}`).toBe(canTransition(from, to) ? to : from);
      }
    }
  });

  it('GIVEN a move refused THEN an answer, cancel or dismiss says already-answered where an answer is, not-pending elsewhere', async () => {
    for (const from of QUESTION_STATUSES) {
      for (const to of ['answered', 'cancelled', 'dismissed'] as const) {
        const { project, id } = await questionIn(from);
        const refusal = from === 'answered' || from === 'delivered' ? 'already-answered' : 'not-pending';
        expect(await moves[to](project, id), `${from} → ${to}`).toBe(canTransition(from, to) ? 'moved' : refusal);
      }
    }
  });

  it('GIVEN a pending question past its expiry that no sweep expired yet THEN an answer, cancel or dismiss finds it expired', async () => {
    for (const to of ['answered', 'cancelled', 'dismissed'] as const) {
      const { project, id } = await questionIn('pending');
      clock.advance(PAST_EXPIRY_MS);
      expect(await moves[to](project, id), to).toBe('not-pending');
      expect((await store.get(project, id))?.status, to).toBe('expired');
    }
  });
}
