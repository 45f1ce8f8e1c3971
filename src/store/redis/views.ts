/**
 * The paged views and counts on Redis (see `ViewsSection` in the port; the orders and cursors are store/paging.ts):
 * each project keeps its views in lexicographic sorted sets (`ix:*`, keys.ts) that the transitions keep true; a
 * page across projects reads, in one script per project (view-page-10), its view check and counts and the top of its
 * index after the cursor, then merges and reads only the page's records. The view check (includes/view-check.lua)
 * rebuilds indexes an older version left behind.
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
import type { RedisContext } from './context.js';
import type { ProjectKeys } from './keys.js';
import { INDEX_VERSION, scripts } from './scripts.js';

export class RedisViews implements ViewsSection {
  readonly #x: RedisContext;

  constructor(context: RedisContext) {
    this.#x = context;
  }

  /**
   * Every project's view counts, its indexes first brought in step with its status sets (views-10: built for a
   * project parked before they existed, rebuilt after an older version of ask-later wrote to it), one script per
   * project, all in flight at once.
   */
  async #views(projects: readonly ProjectKeys[]): Promise<Map<string, ViewCounts>> {
    const entries = await Promise.all(
      projects.map(async (keys): Promise<[string, ViewCounts]> => [keys.project, await this.#checkViews(keys)]),
    );
    return new Map(entries);
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
    return countsOf(reply);
  }

  /** One project's part of a page (view-page-10): its counts, how many of the range there are, the range's top. */
  async #pagePart(
    keys: ProjectKeys,
    view: PageQuery['view'],
    [low, high]: [string, string],
    limit: number,
  ): Promise<{ counts: ViewCounts; inRange: number; members: string[] }> {
    const reply = (await this.#x.evalSettled(
      scripts.viewPage,
      [
        keys.meta,
        keys.inboxIndex,
        keys.closedIndex,
        keys.answeredIndex,
        ...QUESTION_STATUSES.map((status) => keys.status(status)),
      ],
      [
        keys.base,
        INDEX_VERSION,
        this.#x.missing,
        view === 'pending' ? 2 : view === 'closed' ? 3 : 4,
        low,
        high,
        view === 'pending' ? 'asc' : 'desc',
        limit,
      ],
    )) as unknown[];
    return { counts: countsOf(reply), inRange: Number(reply[5] ?? 0), members: reply.slice(6).map(String) };
  }

  pageAcross(projects: readonly string[], query: PageQuery): Promise<QuestionPage> {
    const x = this.#x;
    return x.run(async () => {
      const all = [...new Set(projects)].map((project) => x.keys(project));
      const { view } = query;
      const limit = Math.max(1, Math.trunc(query.limit));
      const cursor = parseCursor(view, query.after);
      // Each project's first few of the view after the cursor, its counts, and how many it holds after the cursor:
      // one script per project, all in flight at once. Few each, so a page over a thousand projects reads thousands
      // of members, not tens of thousands; then only a project whose few all made the page's top is read further
      // (the page can come from one project alone).
      const wanted = limit + 1;
      const few = Math.min(wanted, Math.ceil(wanted / Math.max(1, all.length)) + 1);
      const parts = await Promise.all(
        all.map(async (keys) => {
          const range = lexRange(query, keys.tag, cursor);
          return { keys, range, ...(await this.#pagePart(keys, view, range, few)) };
        }),
      );
      const mergedOf = () =>
        sortInView(
          view,
          parts.flatMap(({ keys, members }) => members.map((key) => ({ key, tag: keys.tag, keys }))),
        );
      let merged = mergedOf();
      const top = new Set(merged.slice(0, wanted).map((entry) => `${entry.tag}\n${entry.key}`));
      const further = parts.filter(
        (part) =>
          part.members.length === few &&
          few < wanted &&
          part.members.every((key) => top.has(`${part.keys.tag}\n${key}`)),
      );
      if (further.length > 0) {
        await Promise.all(
          further.map(async (part) => {
            part.members = (await this.#pagePart(part.keys, view, part.range, wanted)).members;
          }),
        );
        merged = mergedOf();
      }
      const taken = merged.slice(0, limit);
      const last = taken.at(-1);
      const follows = merged.length > limit && last !== undefined;
      const hashes = await Promise.all(taken.map((entry) => x.hash(entry.keys.question(Number(entry.key.slice(-12))))));
      /** Projects with a question that changed between the index read and the record read. */
      const changed = new Set<ProjectKeys>();
      const questions = readEach(
        hashes.keys(),
        (i): Question | undefined => {
          const hash = hashes[i];
          const entry = taken[i];
          if (!entry) return undefined;
          if (!hash) {
            changed.add(entry.keys);
            return undefined;
          }
          const question = x.fromHash(hash, `${entry.keys.project}#${entry.key.slice(-12)}`);
          if (viewKey(view, question) === entry.key) return question;
          // Answered elsewhere meanwhile (or purged): left out.
          changed.add(entry.keys);
          return undefined;
        },
        x.options.onCorruptRecord,
      );
      // What follows the page: everything after the cursor, less what the page took.
      const remaining = parts.reduce((sum, part) => sum + part.inRange, 0) - taken.length;
      const counts = new Map(parts.map(({ keys, counts: each }) => [keys.project, each]));
      // Those projects' counts were read before the change: read again, so they agree with the questions shown.
      if (changed.size > 0) for (const [project, each] of await this.#views([...changed])) counts.set(project, each);
      return follows ? { questions, next: formatCursor(last), remaining, counts } : { questions, remaining: 0, counts };
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

/** The counts a view check answers with (views-10, view-page-10). */
function countsOf(reply: readonly unknown[]): ViewCounts {
  return {
    blocking: Number(reply[0] ?? 0),
    canWait: Number(reply[1] ?? 0),
    closed: Number(reply[2] ?? 0),
    answered: Number(reply[3] ?? 0),
  };
}
