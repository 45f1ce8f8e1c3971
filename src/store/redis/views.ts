/**
 * The paged views and counts on Redis (see `ViewsSection` in the port; the orders and cursors are store/paging.ts):
 * each project keeps its views in lexicographic sorted sets (`ix:*`, keys.ts) that the transitions keep true; a
 * page across projects reads the top of each project's index after the cursor, merges, and reads only the page's
 * records. Every paged read starts with views-10 per project, which rebuilds indexes an older version left behind.
 */
import { QUESTION_STATUSES, type Question } from '../../core/question.js';
import {
  type Cursor,
  closedSinceKey,
  formatCursor,
  formatListCursor,
  parseCursor,
  parseListCursor,
  sortInView,
  viewKey,
} from '../paging.js';
import type { ListPageQuery, PageQuery, QuestionCounts, QuestionPage, ViewCounts, ViewsSection } from '../port.js';
import { readEach } from '../shared.js';
import { KEYS_CACHE_MAX, type RedisContext } from './context.js';
import type { ProjectKeys } from './keys.js';
import { INDEX_VERSION, scripts } from './scripts.js';

/**
 * How long a view check (views-10) stands for the page reads that follow it. Its only risk is an older version's
 * write landing in this window, which the next check (the next view drawn) repairs.
 */
const VIEW_CHECK_MS = 2000;

export class RedisViews implements ViewsSection {
  readonly #x: RedisContext;
  /** The last view check of each project (by tag), for page reads right after it (see `#views`). */
  readonly #viewChecks = new Map<string, { readonly at: number; readonly counts: Promise<ViewCounts> }>();

  constructor(context: RedisContext) {
    this.#x = context;
  }

  /**
   * Every project's view counts, its indexes first brought in step with its status sets (views-10: built for a
   * project parked before they existed, rebuilt after an older version of ask-later wrote to it), one script per
   * project, all in flight at once. Every paged read starts with this check; a check this process made less than
   * {@link VIEW_CHECK_MS} ago (or is making) stands for a page read, so a view's counts and page cost one check.
   */
  #views(projects: readonly ProjectKeys[], reuse = false): Promise<Map<string, ViewCounts>> {
    const now = Date.now();
    return Promise.all(
      projects.map(async (keys): Promise<[string, ViewCounts]> => {
        const recent = this.#viewChecks.get(keys.tag);
        if (reuse && recent !== undefined && now - recent.at < VIEW_CHECK_MS)
          return [keys.project, await recent.counts];
        const counts = this.#checkViews(keys);
        if (this.#viewChecks.size >= KEYS_CACHE_MAX) this.#viewChecks.clear();
        this.#viewChecks.set(keys.tag, { at: now, counts });
        counts.catch(() => this.#viewChecks.delete(keys.tag));
        return [keys.project, await counts];
      }),
    ).then((entries) => new Map(entries));
  }

  async #checkViews(keys: ProjectKeys): Promise<ViewCounts> {
    const reply = (await this.#x.evalSettled(
      scripts.views,
      [
        keys.meta,
        keys.inboxIndex,
        keys.closedIndex,
        keys.answeredIndex,
        ...QUESTION_STATUSES.map((status) => keys.status(status)),
      ],
      [keys.base, INDEX_VERSION, this.#x.missing],
    )) as unknown[];
    return {
      blocking: Number(reply[0] ?? 0),
      canWait: Number(reply[1] ?? 0),
      closed: Number(reply[2] ?? 0),
      answered: Number(reply[3] ?? 0),
    };
  }

  pageAcross(projects: readonly string[], query: PageQuery): Promise<QuestionPage> {
    const x = this.#x;
    return x.run(async () => {
      const all = [...new Set(projects)].map((project) => x.keys(project));
      await this.#views(all, true);
      const { view } = query;
      const limit = Math.max(1, Math.trunc(query.limit));
      const cursor = parseCursor(view, query.after);
      const index = (keys: ProjectKeys) =>
        view === 'pending' ? keys.inboxIndex : view === 'closed' ? keys.closedIndex : keys.answeredIndex;
      // Each project's top of the view after the cursor: the page can come from one project alone.
      const ranges = await Promise.all(
        all.map(async (keys) => {
          const [from, to] = lexRange(query, keys.tag, cursor);
          const args = view === 'pending' ? [from, to] : [to, from, 'REV'];
          const members = (await x.client.sendCommand([
            'ZRANGE',
            index(keys),
            ...args.slice(0, 2),
            'BYLEX',
            ...args.slice(2),
            'LIMIT',
            '0',
            String(limit + 1),
          ])) as string[];
          return members.map((key) => ({ key, tag: keys.tag, keys }));
        }),
      );
      const merged = sortInView(view, ranges.flat());
      const taken = merged.slice(0, limit);
      const last = taken.at(-1);
      const follows = merged.length > limit && last !== undefined;
      const [hashes, counts] = await Promise.all([
        Promise.all(taken.map((entry) => x.hash(entry.keys.question(Number(entry.key.slice(-12)))))),
        follows
          ? Promise.all(
              all.map((keys) => {
                const [from, to] = lexRange(query, keys.tag, last);
                return x.client.sendCommand(['ZLEXCOUNT', index(keys), from, to]);
              }),
            )
          : Promise.resolve([]),
      ]);
      const questions = readEach(
        hashes.keys(),
        (i): Question | undefined => {
          const hash = hashes[i];
          const entry = taken[i];
          if (!hash || !entry) return undefined;
          const question = x.fromHash(hash, `${entry.keys.project}#${entry.key.slice(-12)}`);
          // Changed between the index read and the record read (answered elsewhere meanwhile): left out.
          return viewKey(view, question) === entry.key ? question : undefined;
        },
        x.options.onCorruptRecord,
      );
      const remaining = counts.reduce((sum: number, n) => sum + Number(n), 0);
      return follows ? { questions, next: formatCursor(last), remaining } : { questions, remaining: 0 };
    });
  }

  countAcross(projects: readonly string[]): Promise<ReadonlyMap<string, ViewCounts>> {
    return this.#x.run(() => this.#views([...new Set(projects)].map((project) => this.#x.keys(project))));
  }

  listPage(project: string, query: ListPageQuery): Promise<QuestionPage> {
    const x = this.#x;
    return x.run(async () => {
      const keys = x.keys(project);
      const wanted = query.status ?? QUESTION_STATUSES;
      const cursor = parseListCursor(query.after);
      const reply = (await x.eval(
        scripts.listPage,
        QUESTION_STATUSES.map((status) => keys.status(status)),
        [
          keys.base,
          QUESTION_STATUSES.map((status) => (wanted.includes(status) ? '1' : '0')).join(''),
          query.blocking === undefined ? '' : query.blocking ? '1' : '0',
          Math.max(1, Math.trunc(query.limit)),
          cursor === undefined ? '' : String(cursor.blockingFirst),
          cursor === undefined ? '' : String(cursor.id),
        ],
      )) as unknown[];
      const records: number[] = [];
      for (let i = 1; i + 1 < reply.length; i += 2) records.push(i);
      const questions = readEach(
        records,
        (i) => x.read(reply[i + 1], `${project}#${reply[i]}`),
        x.options.onCorruptRecord,
      );
      const remaining = Number(reply[0]);
      const lastId = reply.length >= 3 ? Number(reply[reply.length - 2]) : undefined;
      const last = lastId === undefined ? undefined : questions.find((q) => q.id === lastId);
      return remaining > 0 && last !== undefined
        ? { questions, next: formatListCursor(last), remaining }
        : { questions, remaining };
    });
  }

  countQuestions(project: string): Promise<QuestionCounts> {
    const x = this.#x;
    return x.run(async () => {
      const keys = x.keys(project);
      const reply = (await x.eval(
        scripts.count,
        QUESTION_STATUSES.map((status) => keys.status(status)),
        [keys.base],
      )) as unknown[];
      return Object.fromEntries(
        QUESTION_STATUSES.map((status, i) => [
          status,
          { blocking: Number(reply[2 * i] ?? 0), canWait: Number(reply[2 * i + 1] ?? 0) },
        ]),
      ) as unknown as QuestionCounts;
    });
  }
}

/**
 * One project's range of a view's index after `cursor` (and within the query's filters), as ZRANGE BYLEX bounds
 * [low, high] in the index's ascending order; the closed views read it reversed (newest first).
 */
function lexRange(query: PageQuery, tag: string, cursor: Cursor | undefined): [string, string] {
  if (query.view === 'pending') {
    const filterLow = query.blocking === false ? '1' : '0';
    const high = query.blocking === true ? '(1' : '+';
    // After the cursor: a greater key, or the same key in a project of a greater tag.
    const low =
      cursor !== undefined && cursor.key >= filterLow
        ? `${tag > cursor.tag ? '[' : '('}${cursor.key}`
        : query.blocking === undefined
          ? '-'
          : `[${filterLow}`;
    return [low, high];
  }
  const low = query.since === undefined ? '-' : `[${closedSinceKey(query.since)}`;
  // Newest first: after the cursor is a smaller key, or the same key in a project of a smaller tag.
  const high = cursor === undefined ? '+' : `${tag < cursor.tag ? '[' : '('}${cursor.key}`;
  return [low, high];
}
