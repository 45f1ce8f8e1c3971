/**
 * The index of decisions on Redis (see `store/decided-index.ts` and `lua/includes/decided-index.lua`): one hash per
 * project. answer-11 queues a decision's documents; the project's next "already decided" check indexes the queue and
 * reads the counts and the postings of the new question's terms (decided-stats-2). The postings carry each document's
 * counts, so candidates are scored from them; only those a term too common to send whole leaves unsettled are read.
 * Then the few decisions: two round trips, three or four with a very common term. purge-9 drops a purged question from
 * the index and the queue. A project answered before the index existed is indexed once, from its trail, on its first
 * check.
 */
import type { Decision } from '../../core/decision.js';
import { type Comparable, type CorpusStats, termVector } from '../../core/similarity.js';
import {
  best,
  candidateTerms,
  documentsOf,
  encodeDocuments,
  parseDocumentRef,
  rank,
  rankFromPostings,
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
      const keys = x.keys(project);
      const key = keys.decisions;
      const queries = items.map((item) => termVector(item));
      const terms = [...new Set(queries.flatMap((query) => [...query.counts.keys()]))];
      // What was answered since the last check joins the index; then whether the project's older decisions were
      // indexed, its totals and the terms' counts (again after indexing those once).
      const readTotals = async () =>
        (await x.evalSettled(
          scripts.decidedStats,
          [key, keys.decisionsQueue],
          [keys.base, x.missing, CANDIDATES_MAX, ...terms],
        )) as (string | null)[];
      let counted = await readTotals();
      if (counted[0] !== '1') {
        await this.#build(key, project);
        counted = await readTotals();
      }
      const documents = Number(counted[1] ?? 0);
      if (documents <= 0 || terms.length === 0) return items.map(() => []);
      const frequency = new Map(terms.map((term, index) => [term, Number(counted[index + 3] ?? 0)]));
      const stats: CorpusStats = {
        documents,
        averageLength: Number(counted[2] ?? 0) / documents,
        documentFrequency: (term) => frequency.get(term) ?? 0,
      };
      const wanted = candidateTerms(queries, stats, options.threshold).filter((term) => (frequency.get(term) ?? 0) > 0);
      if (wanted.length === 0) return items.map(() => []);
      // The postings came with the counts, but for a term too common to send whole (its candidates are capped).
      const postings = new Map<string, string>();
      for (const [index, term] of terms.entries()) {
        const text = counted[index + 3 + terms.length];
        if (typeof text === 'string') postings.set(term, text);
      }
      const unsent = wanted.filter((term) => !postings.has(term));
      if (unsent.length > 0) {
        const fetched = (await x.client.sendCommand(['HMGET', key, ...unsent.map((term) => `t:${term}`)])) as (
          | string
          | null
        )[];
        for (const [index, term] of unsent.entries()) postings.set(term, fetched[index] ?? '');
      }
      // Scored from the postings (they carry each document's counts); only a candidate they cannot settle is read.
      const settled = rankFromPostings(items, postings, wanted, stats, { ...options, most: CANDIDATES_MAX });
      const refs = [...new Set(settled.unsettled.flat())];
      const stored =
        refs.length === 0
          ? []
          : ((await x.client.sendCommand(['HMGET', key, ...refs.map((ref) => `d:${ref}`)])) as (string | null)[]);
      const read = new Map<string, StoredDocument>();
      for (let index = 0; index < refs.length; index++) {
        const document = storedDocument(refs[index] as string, stored[index]);
        if (document !== undefined) read.set(refs[index] as string, document);
      }
      const ranked = items.map((item, index) => {
        const documents = (settled.unsettled[index] ?? []).flatMap((ref) => read.get(ref) ?? []);
        const [fromDocuments = []] = rank([item], documents, stats, { ...options, max: Number.POSITIVE_INFINITY });
        return best([...(settled.scored[index] ?? []), ...fromDocuments], options.max);
      });
      const ids = [...new Set(ranked.flat().map((each) => each.id))];
      const decisions = new Map<number, Decision>();
      for (const question of await Promise.all(ids.map((id) => x.get(project, id)))) {
        if (question?.answer !== undefined) decisions.set(question.id, question as Decision);
      }
      return withDecisions(ranked, decisions);
    });
  }
}

/** A document as the index keeps it (`<length>|<terms>`), for ranking; undefined when it is gone. */
function storedDocument(ref: string, text: string | null | undefined): StoredDocument | undefined {
  if (typeof text !== 'string') return undefined;
  const bar = text.indexOf('|');
  return { ...parseDocumentRef(ref), length: Number(text.slice(0, bar)) || 0, terms: text.slice(bar + 1) };
}
