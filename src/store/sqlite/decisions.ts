/**
 * The index of decisions in the SQLite file (see `store/decided-index.ts`): `decided_docs` (a row per decided
 * question, or per member of a decided set, with its terms) and `decided_terms` (a row per term of each), written in
 * the transaction that answers the question and dropped in the one that purges it; `decided_totals` counts each
 * project's documents and their length, `decided_df` the documents holding each term (kept with them, so a check
 * reads a few numbers, not every row);
 * `decided_built` names the projects whose earlier decisions were indexed once (files older than the index).
 */
import type { Decision } from '../../core/decision.js';
import type { Question } from '../../core/question.js';
import { type Comparable, type CorpusStats, termVector } from '../../core/similarity.js';
import {
  candidateTerms,
  documentsOf,
  encodeTerms,
  rank,
  type StoredDocument,
  withDecisions,
} from '../decided-index.js';
import type { SimilarDecision, SimilarOptions } from '../trail.js';
import type { SqliteContext } from './context.js';

/** Candidates read at most per check: a check stays bounded however many decisions share its terms. */
const CANDIDATES_MAX = 2000;

/** Index an answered question (inside the transaction that answers it, or the one that builds the index). */
export function indexDecision(x: SqliteContext, question: Question): void {
  const doc = x.c.statement(
    'INSERT OR IGNORE INTO decided_docs (project, id, member, length, terms) VALUES (?, ?, ?, ?, ?)',
  );
  const term = x.c.statement('INSERT OR IGNORE INTO decided_terms (project, term, id, member) VALUES (?, ?, ?, ?)');
  const held = x.c.statement(
    `INSERT INTO decided_df (project, term, documents) VALUES (?, ?, 1)
     ON CONFLICT (project, term) DO UPDATE SET documents = documents + 1`,
  );
  const totals = x.c.statement(
    `INSERT INTO decided_totals (project, documents, length) VALUES (?, 1, ?)
     ON CONFLICT (project) DO UPDATE SET documents = documents + 1, length = length + excluded.length`,
  );
  for (const document of documentsOf(question)) {
    const member = document.member ?? -1;
    const { length } = document.vector;
    if (doc.run(question.project, question.id, member, length, encodeTerms(document.vector)).changes === 0) continue;
    for (const name of document.vector.counts.keys()) {
      if (term.run(question.project, name, question.id, member).changes > 0) held.run(question.project, name);
    }
    totals.run(question.project, length);
  }
}

/** Drop a question's documents (inside the transaction that purges it). */
export function unindexDecision(x: SqliteContext, project: string, id: number): void {
  const dropped = x.c
    .statement(
      'SELECT COUNT(*) AS documents, COALESCE(SUM(length), 0) AS length FROM decided_docs WHERE project = ? AND id = ?',
    )
    .get(project, id) as { documents: number; length: number };
  if (dropped.documents > 0) {
    x.c
      .statement('UPDATE decided_totals SET documents = documents - ?, length = length - ? WHERE project = ?')
      .run(dropped.documents, dropped.length, project);
  }
  // Each term loses the question's documents holding it (a set's members may share one).
  x.c
    .statement(
      `UPDATE decided_df SET documents = documents - (
         SELECT COUNT(*) FROM decided_terms t WHERE t.project = decided_df.project AND t.term = decided_df.term AND t.id = ?)
       WHERE project = ? AND term IN (SELECT term FROM decided_terms WHERE project = ? AND id = ?)`,
    )
    .run(id, project, project, id);
  x.c
    .statement(
      `DELETE FROM decided_df WHERE project = ? AND documents <= 0
         AND term IN (SELECT term FROM decided_terms WHERE project = ? AND id = ?)`,
    )
    .run(project, project, id);
  x.c.statement('DELETE FROM decided_docs WHERE project = ? AND id = ?').run(project, id);
  x.c.statement('DELETE FROM decided_terms WHERE project = ? AND id = ?').run(project, id);
}

export class SqliteDecisions {
  readonly #x: SqliteContext;

  constructor(context: SqliteContext) {
    this.#x = context;
  }

  /** Index the project's earlier decisions once (a file written before the index). */
  #build(project: string): void {
    const { c } = this.#x;
    if (c.statement('SELECT 1 FROM decided_built WHERE project = ?').get(project) !== undefined) return;
    c.write(() => {
      if (c.statement('SELECT 1 FROM decided_built WHERE project = ?').get(project) !== undefined) return;
      const rows = c
        .statement(`SELECT id FROM questions WHERE project = ? AND status IN ('answered', 'delivered')`)
        .all(project) as { id: number }[];
      for (const { id } of rows) {
        const question = this.#x.get(project, id);
        if (question?.answer !== undefined) indexDecision(this.#x, question);
      }
      c.statement('INSERT INTO decided_built (project) VALUES (?)').run(project);
    });
  }

  similarDecisions(
    project: string,
    items: readonly Comparable[],
    options: SimilarOptions = {},
  ): Promise<SimilarDecision[][]> {
    const x = this.#x;
    const { c } = x;
    return x.run(() => {
      this.#build(project);
      const queries = items.map((item) => termVector(item));
      const totals = c.statement('SELECT documents, length FROM decided_totals WHERE project = ?').get(project) as
        | { documents: number; length: number }
        | undefined;
      if (totals === undefined || totals.documents <= 0) return items.map(() => []);
      const terms = [...new Set(queries.flatMap((query) => [...query.counts.keys()]))];
      const frequency = new Map<string, number>();
      const held = c
        .statement(
          `SELECT term, documents FROM decided_df WHERE project = ? AND term IN (${terms.map(() => '?').join(', ')})`,
        )
        .all(project, ...terms) as { term: string; documents: number }[];
      for (const row of held) frequency.set(row.term, row.documents);
      const stats: CorpusStats = {
        documents: totals.documents,
        averageLength: totals.length / totals.documents,
        documentFrequency: (term) => frequency.get(term) ?? 0,
      };
      const wanted = candidateTerms(queries, stats, options.threshold);
      if (wanted.length === 0) return items.map(() => []);
      // Each document once, however many of the wanted terms it holds; the newest first when there are too many.
      const seen = new Set<string>();
      const rows = (
        c
          .statement(
            `SELECT d.id, d.member, d.length, d.terms FROM decided_terms t
             JOIN decided_docs d ON d.project = t.project AND d.id = t.id AND d.member = t.member
             WHERE t.project = ? AND t.term IN (${wanted.map(() => '?').join(', ')})`,
          )
          .all(project, ...wanted) as { id: number; member: number; length: number; terms: string }[]
      )
        .filter((row) => !seen.has(`${row.id}.${row.member}`) && seen.add(`${row.id}.${row.member}`))
        .sort((a, b) => b.id - a.id)
        .slice(0, CANDIDATES_MAX);
      const candidates: StoredDocument[] = rows.map((row) => ({
        id: row.id,
        ...(row.member < 0 ? {} : { member: row.member }),
        length: row.length,
        terms: row.terms,
      }));
      const ranked = rank(items, candidates, stats, options);
      const decisions = new Map<number, Decision>();
      for (const id of new Set(ranked.flat().map((found) => found.id))) {
        const question = x.get(project, id);
        if (question?.answer !== undefined) decisions.set(id, question as Decision);
      }
      return withDecisions(ranked, decisions);
    });
  }
}
