/**
 * The index of decisions on Redis (see `store/decided-index.ts` and `lua/includes/decided-index.lua`): one hash per
 * project, written by answer-11 and purge-8 with the question, and read here by the "already decided" check in a
 * few round trips (the counts, the postings of the rarer terms, the candidates' documents, the few decisions). A
 * project answered before the index existed is indexed once, from its trail, on its first check.
 */
import type { Decision } from '../../core/decision.js';
import { type Comparable, type CorpusStats, termVector } from '../../core/similarity.js';
import {
  candidateTerms,
  documentsOf,
  encodeDocuments,
  rank,
  type StoredDocument,
  withDecisions,
} from '../decided-index.js';
import type { DecisionPage, SimilarDecision, SimilarOptions, TrailQuery } from '../trail.js';
import type { RedisContext } from './context.js';
import { scripts } from './scripts.js';

/** Candidates read at most per check, the newest first: a check stays bounded however common its terms. */
const CANDIDATES_MAX = 2000;
/** Decisions indexed per call while a project is indexed once. */
const BUILD_BATCH = 200;

export class RedisDecisions {
  readonly #x: RedisContext;
  readonly #trail: (project: string, query: TrailQuery) => Promise<DecisionPage>;

  constructor(context: RedisContext, trail: (project: string, query: TrailQuery) => Promise<DecisionPage>) {
    this.#x = context;
    this.#trail = trail;
  }

  /** Index the project's earlier decisions once (answered before the index existed). */
  async #build(key: string, project: string): Promise<void> {
    const x = this.#x;
    let after: string | undefined;
    do {
      const page = await this.#trail(project, { limit: BUILD_BATCH, ...(after === undefined ? {} : { after }) });
      const args = page.decisions.flatMap((decision) => [String(decision.id), encodeDocuments(documentsOf(decision))]);
      after = page.next;
      await x.eval(scripts.indexDecisions, [key], [after === undefined ? '1' : '0', ...args]);
    } while (after !== undefined);
  }

  similarDecisions(
    project: string,
    items: readonly Comparable[],
    options: SimilarOptions = {},
  ): Promise<SimilarDecision[][]> {
    const x = this.#x;
    return x.run(async () => {
      const key = x.keys(project).decisions;
      const queries = items.map((item) => termVector(item));
      const terms = [...new Set(queries.flatMap((query) => [...query.counts.keys()]))];
      // Whether the project was indexed, its totals and the terms' counts: one read (again after indexing it once).
      const readTotals = async () =>
        (await x.client.sendCommand(['HMGET', key, 'b', 'n', 'l', ...terms.map((term) => `df:${term}`)])) as (
          | string
          | null
        )[];
      let counted = await readTotals();
      if (counted[0] !== '1') {
        await this.#build(key, project);
        counted = await readTotals();
      }
      const totals = counted.slice(1);
      const documents = Number(totals[0] ?? 0);
      if (documents <= 0 || terms.length === 0) return items.map(() => []);
      const frequency = new Map(terms.map((term, index) => [term, Number(totals[index + 2] ?? 0)]));
      const stats: CorpusStats = {
        documents,
        averageLength: Number(totals[1] ?? 0) / documents,
        documentFrequency: (term) => frequency.get(term) ?? 0,
      };
      const wanted = candidateTerms(queries, stats, options.threshold).filter((term) => (frequency.get(term) ?? 0) > 0);
      if (wanted.length === 0) return items.map(() => []);
      const postings = (await x.client.sendCommand(['HMGET', key, ...wanted.map((term) => `t:${term}`)])) as (
        | string
        | null
      )[];
      const refs = [...new Set(postings.flatMap((text) => (text ?? '').split(' ').filter((ref) => ref !== '')))]
        .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))
        .slice(0, CANDIDATES_MAX);
      if (refs.length === 0) return items.map(() => []);
      const stored = (await x.client.sendCommand(['HMGET', key, ...refs.map((ref) => `d:${ref}`)])) as (
        | string
        | null
      )[];
      const candidates: StoredDocument[] = [];
      refs.forEach((ref, index) => {
        const text = stored[index];
        if (typeof text !== 'string') return;
        const [id, member] = ref.split('.');
        const bar = text.indexOf('|');
        candidates.push({
          id: Number(id),
          ...(member === undefined ? {} : { member: Number(member) }),
          length: Number(text.slice(0, bar)) || 0,
          terms: text.slice(bar + 1),
        });
      });
      const ranked = rank(items, candidates, stats, options);
      const ids = [...new Set(ranked.flat().map((found) => found.id))];
      const read = await Promise.all(ids.map((id) => x.get(project, id)));
      const decisions = new Map<number, Decision>();
      for (const question of read) {
        if (question?.answer !== undefined) decisions.set(question.id, question as Decision);
      }
      return withDecisions(ranked, decisions);
    });
  }
}
