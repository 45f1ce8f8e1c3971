import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Question } from '../../src/core/question.js';
import { projectTag } from '../../src/core/question-ref.js';
import type { PageQuery, Store } from '../../src/store/port.js';
import { person, spec, testClock, uniqueProject } from '../support/store.js';
import type { ContractStoreOptions } from './store-contract.js';

const pick = { choices: ['SQLite'], other: false };

/** Every page of a view, following the cursors; each page's `remaining` checked against what the next pages hold. */
async function readAll(store: Store, projects: readonly string[], query: PageQuery): Promise<Question[][]> {
  const pages: Question[][] = [];
  const remainings: number[] = [];
  let after: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const page = await store.pageAcross(projects, { ...query, ...(after === undefined ? {} : { after }) });
    pages.push([...page.questions]);
    remainings.push(page.remaining);
    if (page.next === undefined) break;
    after = page.next;
  }
  const total = pages.flat().length;
  let shown = 0;
  pages.forEach((page, i) => {
    shown += page.length;
    expect(remainings[i]).toBe(total - shown);
  });
  return pages;
}

const ref = (q: Question) => `${projectTag(q.project)}.${q.id}`;

/** The pending view's order, written out independently of the adapters: blocking, oldest, id, project tag. */
function inboxOrder(a: Question, b: Question): number {
  const tagA = projectTag(a.project);
  const tagB = projectTag(b.project);
  return (
    Number(b.isBlocking) - Number(a.isBlocking) ||
    a.createdAt - b.createdAt ||
    a.id - b.id ||
    (tagA < tagB ? -1 : tagA > tagB ? 1 : 0)
  );
}

/** The closed views' order: newest closing first, then the higher id, then the greater tag. */
function closedOrder(a: Question, b: Question): number {
  const at = (q: Question) => q.answer?.at ?? q.closure?.at ?? 0;
  const tagA = projectTag(a.project);
  const tagB = projectTag(b.project);
  return at(b) - at(a) || b.id - a.id || (tagB < tagA ? -1 : tagB > tagA ? 1 : 0);
}

/**
 * The paged views' contract (`pageAcross`, `countAcross`, `listPage`), the same for every adapter: the order (ties
 * included), the filters, the counts, and cursors that stay right while questions change between pages.
 */
export function pagingContract(
  openStore: (options: ContractStoreOptions) => Promise<Store>,
  /** Whether the adapter reads the view counts with a page (`QuestionPage.counts`: Redis does, SQLite does not). */
  { countsWithPage }: { readonly countsWithPage: boolean },
): void {
  const clock = testClock();
  let store: Store;

  beforeAll(async () => {
    store = await openStore({ now: clock.now });
  });
  afterAll(async () => {
    await store.close();
  });

  /** Three projects with questions parked at a few shared instants (ties on time and on id across projects). */
  async function threeProjects(): Promise<string[]> {
    const projects = [uniqueProject('a'), uniqueProject('b'), uniqueProject('c')];
    for (let round = 0; round < 4; round++) {
      for (const [i, project] of projects.entries()) {
        await store.park(project, spec({ isBlocking: (round + i) % 3 === 0, question: `r${round} p${i}?` }));
      }
      if (round % 2 === 1) clock.advance(1000);
    }
    return projects;
  }

  describe('the pending view', () => {
    it('GIVEN questions over three projects with ties THEN pages of 4 give them all once: blocking, oldest, id, tag', async () => {
      const projects = await threeProjects();
      const expected = (await store.listAcross(projects, { status: ['pending'] })).sort(inboxOrder).map(ref);
      expect(expected).toHaveLength(12);
      const pages = await readAll(store, projects, { view: 'pending', limit: 4 });
      expect(pages.map((page) => page.length)).toEqual([4, 4, 4]);
      expect(pages.flat().map(ref)).toEqual(expected);
    });

    it('GIVEN the blocking filter THEN each page holds only that kind, in order, and the counts agree', async () => {
      const projects = await threeProjects();
      const all = (await store.listAcross(projects, { status: ['pending'] })).sort(inboxOrder);
      for (const blocking of [true, false]) {
        const pages = await readAll(store, projects, { view: 'pending', blocking, limit: 3 });
        expect(pages.flat().map(ref)).toEqual(all.filter((q) => q.isBlocking === blocking).map(ref));
      }
      const counts = await store.countAcross([...projects, uniqueProject('empty')]);
      const blocking = all.filter((q) => q.isBlocking).length;
      expect([...counts.values()].reduce((sum, c) => sum + c.blocking, 0)).toBe(blocking);
      expect([...counts.values()].reduce((sum, c) => sum + c.canWait, 0)).toBe(all.length - blocking);
      expect(counts.size).toBe(4);
      expect([...counts.values()].at(-1)).toEqual({ blocking: 0, canWait: 0, closed: 0, answered: 0 });
    });

    it('GIVEN questions answered, dismissed and parked between pages THEN the next page repeats none and skips none that stayed', async () => {
      const projects = await threeProjects();
      const first = await store.pageAcross(projects, { view: 'pending', limit: 5 });
      const before = (await store.listAcross(projects, { status: ['pending'] })).sort(inboxOrder);
      const shown = first.questions.map(ref);
      expect(shown).toEqual(before.slice(0, 5).map(ref));
      // One shown question answered, two not yet shown answered and dismissed, and a newer one parked.
      const [shownOne] = first.questions;
      const later = before.slice(5);
      const [l1, l2] = [later[0], later[3]];
      if (!shownOne || !l1 || !l2) throw new Error('setup');
      await store.answer(shownOne.project, shownOne.id, pick, person());
      await store.answer(l1.project, l1.id, pick, person());
      await store.dismiss(l2.project, l2.id, person());
      clock.advance(1000);
      const parked = await store.park(projects[1] ?? '', spec({ isBlocking: true }));
      const rest: string[] = [];
      let after = first.next;
      while (after !== undefined) {
        const page = await store.pageAcross(projects, { view: 'pending', limit: 5, after });
        rest.push(...page.questions.map(ref));
        after = page.next;
      }
      // What follows the last shown question now, in the view's order: the untouched later ones, and the newly
      // parked one only if it sorts after the cursor (a blocking one joins before the can-wait ones shown).
      const order = [...before, parked].sort(inboxOrder).map(ref);
      const lastShown = order.indexOf(shown.at(-1) ?? '');
      const expected = order.slice(lastShown + 1).filter((r) => r !== ref(l1) && r !== ref(l2));
      expect(expected.length).toBeGreaterThan(4);
      expect(rest).toEqual(expected);
    });

    it('GIVEN a cursor that is not one THEN the first page is read', async () => {
      const projects = await threeProjects();
      const first = await store.pageAcross(projects, { view: 'pending', limit: 2 });
      const bogus = await store.pageAcross(projects, { view: 'pending', limit: 2, after: 'not a cursor' });
      expect(bogus.questions.map(ref)).toEqual(first.questions.map(ref));
      expect(first.remaining).toBe(10);
    });

    it('GIVEN no projects or nothing pending THEN an empty page with nothing remaining and no cursor', async () => {
      const { counts: none, ...empty } = await store.pageAcross([], { view: 'pending', limit: 5 });
      expect(empty).toEqual({ questions: [], remaining: 0 });
      const project = uniqueProject('none');
      const { counts, ...closed } = await store.pageAcross([project], { view: 'closed', limit: 5 });
      expect(closed).toEqual({ questions: [], remaining: 0 });
      // Counts read with a page are every project's, zeros included.
      expect(none && [...none]).toEqual(countsWithPage ? [] : undefined);
      expect(counts && [...counts]).toEqual(countsWithPage ? [...(await store.countAcross([project]))] : undefined);
    });

    it('GIVEN many projects and the oldest questions all in one THEN the page comes from that one alone, whole', async () => {
      const crowded = uniqueProject('crowded');
      const others = Array.from({ length: 11 }, (_, i) => uniqueProject(`other${i}`));
      for (let i = 0; i < 8; i++) await store.park(crowded, spec({ isBlocking: false, question: `old ${i}?` }));
      clock.advance(1000);
      for (const project of others) await store.park(project, spec({ isBlocking: false, question: 'newer?' }));
      const projects = [...others, crowded];
      const first = await store.pageAcross(projects, { view: 'pending', limit: 5 });
      const text = (q: Question) => ('question' in q ? q.question : '');
      expect(first.questions.map((q) => [q.project, text(q)])).toEqual(
        [0, 1, 2, 3, 4].map((i) => [crowded, `old ${i}?`]),
      );
      expect(first.remaining).toBe(3 + others.length);
      const second = await store.pageAcross(projects, { view: 'pending', limit: 5, after: first.next ?? '' });
      expect(second.questions.map(text)).toEqual(['old 5?', 'old 6?', 'old 7?', 'newer?', 'newer?']);
      expect(second.remaining).toBe(others.length - 2);
    });

    it('GIVEN a page read with its counts THEN they are what countAcross reads for the same projects', async () => {
      const projects = await threeProjects();
      const page = await store.pageAcross(projects, { view: 'pending', limit: 2 });
      const counted = await store.countAcross(projects);
      expect([...counted.values()].reduce((sum, each) => sum + each.blocking + each.canWait, 0)).toBe(12);
      expect(page.counts && new Map(page.counts)).toEqual(countsWithPage ? new Map(counted) : undefined);
    });
  });

  describe('the closed views', () => {
    /** Questions closed at a few instants, with ties, in every closed state. */
    async function closedProjects(): Promise<{ projects: string[]; closed: Question[] }> {
      const projects = [uniqueProject('a'), uniqueProject('b')];
      for (const project of projects) for (let i = 0; i < 6; i++) await store.park(project, spec());
      const moves: ((project: string, id: number) => Promise<unknown>)[] = [
        (p, id) => store.answer(p, id, pick, person()),
        (p, id) => store.cancel(p, id),
        (p, id) => store.answer(p, id, pick, person()).then(() => store.markDelivered(p, id)),
        (p, id) => store.dismiss(p, id, person()),
        (p, id) => store.answer(p, id, pick, person()),
      ];
      for (const [m, move] of moves.entries()) {
        for (const project of projects) await move(project, m + 1);
        if (m % 2 === 0) clock.advance(1000);
      }
      const closed = (await store.listAcross(projects)).filter((q) => q.status !== 'pending');
      return { projects, closed };
    }

    it('GIVEN questions closed in every way THEN the closed view pages them newest first; answered holds only answers', async () => {
      const { projects, closed } = await closedProjects();
      const all = await readAll(store, projects, { view: 'closed', limit: 3 });
      expect(all.flat().map(ref)).toEqual([...closed].sort(closedOrder).map(ref));
      const answered = await readAll(store, projects, { view: 'answered', limit: 4 });
      expect(answered.flat().map(ref)).toEqual(
        closed
          .filter((q) => q.status === 'answered' || q.status === 'delivered')
          .sort(closedOrder)
          .map(ref),
      );
      const counts = await store.countAcross(projects);
      for (const project of projects) {
        expect(counts.get(project)).toEqual({ blocking: 0, canWait: 1, closed: 5, answered: 3 });
      }
    });

    it('GIVEN a since THEN only questions closed at or after it', async () => {
      const { projects, closed } = await closedProjects();
      const since = clock.now() - 1000;
      const recent = await readAll(store, projects, { view: 'closed', since, limit: 50 });
      expect(recent.flat().map(ref)).toEqual(
        closed
          .filter((q) => (q.answer?.at ?? q.closure?.at ?? 0) >= since)
          .sort(closedOrder)
          .map(ref),
      );
      expect(recent.flat().length).toBeGreaterThan(0);
      expect(recent.flat().length).toBeLessThan(closed.length);
    });

    it('GIVEN closed questions purged after retention THEN the closed views no longer hold them', async () => {
      const { projects } = await closedProjects();
      clock.advance(31 * 24 * 3600_000);
      await store.purgeExpired();
      const left = (await readAll(store, projects, { view: 'closed', limit: 10 })).flat();
      // Delivered (#3) and cancelled (#2) go; answered but undelivered (#1, #5) and the unreported dismissal stay.
      expect(left.map((q) => q.id).sort()).toEqual([1, 1, 4, 4, 5, 5]);
      const counts = await store.countAcross(projects);
      expect(counts.get(projects[0] ?? '')).toEqual({ blocking: 0, canWait: 1, closed: 3, answered: 2 });
    });

    it('GIVEN a question expired THEN it leaves the pending view for the closed one', async () => {
      const project = uniqueProject();
      await store.park(project, spec({ expiresInSeconds: 1 }));
      await store.park(project, spec());
      clock.advance(2000);
      expect(await store.expireDue()).toBeGreaterThanOrEqual(1);
      const pending = await store.pageAcross([project], { view: 'pending', limit: 10 });
      const closed = await store.pageAcross([project], { view: 'closed', limit: 10 });
      expect(pending.questions.map((q) => q.id)).toEqual([2]);
      expect(closed.questions.map((q) => [q.id, q.status])).toEqual([[1, 'expired']]);
    });
  });

  describe("one project's listing page", () => {
    it('GIVEN mixed questions THEN pages go blocking first then by id, filter by status and blocking, and say how many follow', async () => {
      const project = uniqueProject();
      for (let i = 1; i <= 7; i++) await store.park(project, spec({ isBlocking: i % 3 === 0 }));
      await store.answer(project, 2, pick, person());
      await store.cancel(project, 3);
      const ids: number[][] = [];
      const remaining: number[] = [];
      let after: string | undefined;
      do {
        const page = await store.listPage(project, { limit: 3, ...(after === undefined ? {} : { after }) });
        ids.push(page.questions.map((q) => q.id));
        remaining.push(page.remaining);
        after = page.next;
      } while (after !== undefined);
      expect(ids).toEqual([[3, 6, 1], [2, 4, 5], [7]]);
      expect(remaining).toEqual([4, 1, 0]);
      const pending = await store.listPage(project, { status: ['pending'], blocking: false, limit: 2 });
      expect(pending.questions.map((q) => q.id)).toEqual([1, 4]);
      expect(pending.remaining).toBe(2);
      const more = await store.listPage(project, {
        status: ['pending'],
        blocking: false,
        limit: 2,
        ...(pending.next === undefined ? {} : { after: pending.next }),
      });
      expect(more.questions.map((q) => q.id)).toEqual([5, 7]);
      expect(more).not.toHaveProperty('next');
      const closed = await store.listPage(project, { status: ['answered', 'cancelled'], limit: 10 });
      expect(closed.questions.map((q) => q.id)).toEqual([3, 2]);
      expect((await store.listPage(uniqueProject('none'), { limit: 5 })).questions).toEqual([]);
    });
  });
}
