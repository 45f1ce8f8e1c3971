/**
 * The index of decisions on Redis (see `store/decided-index.ts` and `lua/includes/decided-index.lua`): one hash per
 * project. answer-11 queues a decision's documents; the project's next "already decided" check indexes the queue and
 * reads the counts and the postings of the new question's terms (decided-stats-2), then the candidates' documents
 * (scored here) and the few decisions: three round trips. purge-9 drops a purged question from
 * the index and the queue. A project answered before the index existed is indexed once, from its trail, on its first
 * check.
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
      const sent = new Map(terms.map((term, index) => [term, counted[index + 3 + terms.length] ?? null]));
      const unsent = wanted.filter((term) => sent.get(term) === null);
      const fetched =
        unsent.length === 0
          ? []
          : ((await x.client.sendCommand(['HMGET', key, ...unsent.map((term) => `t:${term}`)])) as (string | null)[]);
      const refs = candidateRefs([...wanted.map((term) => sent.get(term) ?? null), ...fetched]);
      if (refs.length === 0) return items.map(() => []);
      const stored = (await x.client.sendCommand(['HMGET', key, ...refs.map((ref) => `d:${ref}`)])) as (
        | string
        | null
      )[];
      // Built field by field, no spread or split: a check reads hundreds of these (Node 20 spreads slowly).
      const candidates: StoredDocument[] = [];
      for (let index = 0; index < refs.length; index++) {
        const ref = refs[index] as string;
        const text = stored[index];
        if (typeof text !== 'string') continue;
        const dot = ref.indexOf('.');
        const bar = text.indexOf('|');
        const candidate: { id: number; member?: number; length: number; terms: string } = {
          id: Number(dot < 0 ? ref : ref.slice(0, dot)),
          length: Number(text.slice(0, bar)) || 0,
          terms: text.slice(bar + 1),
        };
        if (dot >= 0) candidate.member = Number(ref.slice(dot + 1));
        candidates.push(candidate);
      }
      const ranked = rank(items, candidates, stats, options);
      const ids = [...new Set(ranked.flat().map((each) => each.id))];
      const read = await Promise.all(ids.map((id) => x.get(project, id)));
      const decisions = new Map<number, Decision>();
      for (const question of read) {
        if (question?.answer !== undefined) decisions.set(question.id, question as Decision);
      }
      return withDecisions(ranked, decisions);
    });
  }
}

/**
 * The refs the postings name, each once; past {@link CANDIDATES_MAX}, the newest (postings are in answer order, so
 * sorting is needed only then).
 */
function candidateRefs(postings: readonly (string | null)[]): string[] {
  const refs = new Set<string>();
  for (const text of postings) {
    if (text === null) continue;
    for (const ref of text.split(' ')) if (ref !== '') refs.add(ref);
  }
  const all = [...refs];
  if (all.length <= CANDIDATES_MAX) return all;
  return all.sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a)).slice(0, CANDIDATES_MAX);
}
