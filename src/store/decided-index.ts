/**
 * What every adapter's index of decisions shares (the "already decided" check, `similarDecisions`): a decision's
 * documents (one per question, a set's per member) as term counts written by the transition that answers it; how
 * they are written down in the store (`term:count term:count`); and how candidates read back are ranked. Each
 * adapter keeps per project the documents, how many documents hold each term, and their total length, and reads
 * only the documents sharing a rarer term of the new question. Pure.
 */
import type { Decision } from '../core/decision.js';
import type { Question } from '../core/question.js';
import {
  type Comparable,
  type CorpusStats,
  DECIDED_MAX,
  DECIDED_THRESHOLD,
  idf,
  type PreparedQuery,
  prepareQuery,
  type TermVector,
  termScore,
  termVector,
} from '../core/similarity.js';
import type { SimilarDecision, SimilarOptions } from './trail.js';

/** One indexed document: a decided question, or one member of a decided set (`member`: its index). */
export interface IndexDocument {
  readonly id: number;
  readonly member?: number;
  readonly vector: TermVector;
}

/** The documents of an answered question, as the answering transition indexes them. */
export function documentsOf(question: Question): IndexDocument[] {
  if (question.members === undefined) return [{ id: question.id, vector: termVector(question) }];
  return question.members.map((member, index) => ({ id: question.id, member: index, vector: termVector(member) }));
}

/** A document's terms as stored: `term:count` separated by spaces (terms are letters and digits only). */
export function encodeTerms(vector: TermVector): string {
  return [...vector.counts].map(([term, count]) => `${term}:${count}`).join(' ');
}

/** A document's reference in a store: the question id, or `<id>.<member>` for a set's member. */
export function documentRef(document: Pick<IndexDocument, 'id' | 'member'>): string {
  return document.member === undefined ? String(document.id) : `${document.id}.${document.member}`;
}

/** Documents as the Redis scripts take them: a line each, `<ref>\t<length>\t<terms>`. */
export function encodeDocuments(documents: readonly IndexDocument[]): string {
  return documents
    .map((document) => `${documentRef(document)}\t${document.vector.length}\t${encodeTerms(document.vector)}`)
    .join('\n');
}

/** A candidate as a store reads it back: its decision (and member), its length in terms, its stored terms. */
export interface StoredDocument {
  readonly id: number;
  readonly member?: number;
  readonly length: number;
  /** As {@link encodeTerms} wrote them. */
  readonly terms: string;
}

/**
 * How alike stored documents are to a prepared query, read straight from their stored terms: each of the query's
 * terms looked up in the text, nothing allocated per document (a check reads up to thousands of candidates).
 * Anything malformed counts as no term.
 */
export function storedScorer(query: PreparedQuery): (document: StoredDocument) => number {
  const needles = [...query.weights.keys()].map((term) => ({ term, first: `${term}:`, later: ` ${term}:` }));
  return ({ terms, length }) => {
    if (query.self === 0) return 0;
    let score = 0;
    for (const { term, first, later } of needles) {
      let at = terms.startsWith(first) ? 0 : terms.indexOf(later);
      if (at < 0) continue;
      at += at === 0 ? first.length : later.length;
      let tf = 0;
      for (let code = terms.charCodeAt(at); code >= 48 && code <= 57; code = terms.charCodeAt(++at)) {
        tf = tf * 10 + code - 48;
      }
      score += termScore(query, term, tf, length);
    }
    return score / query.self;
  };
}

/**
 * The query terms whose decisions are worth reading as candidates. A decision reaches the threshold only by sharing
 * most of the weight of the new question's own words, so it must hold at least one of its rarest ones: the question's
 * words are taken rarest first until those left weigh less than the threshold's share (with a margin for BM25's
 * repeats and lengths). Common words and words no decision holds bring no candidate; a new question sharing nothing
 * rare reads no decision at all. (A decision alike only in its options is not looked for.)
 */
export function candidateTerms(
  queries: readonly TermVector[],
  stats: CorpusStats,
  threshold: number = DECIDED_THRESHOLD,
): string[] {
  const chosen = new Set<string>();
  for (const query of queries) {
    const weighed = [...query.core]
      .map((term) => ({ term, weight: idf(term, stats), held: stats.documentFrequency(term) > 0 }))
      .sort((a, b) => b.weight - a.weight);
    const total = weighed.reduce((sum, each) => sum + each.weight, 0);
    let left = total;
    for (const { term, weight, held } of weighed) {
      if (left < threshold * total * 0.6) break;
      if (held) chosen.add(term);
      left -= weight;
    }
  }
  return [...chosen];
}

/** A candidate that reached the threshold for an item: its decision (and member) and how alike it is. */
export interface ScoredDocument {
  readonly id: number;
  readonly member?: number;
  readonly score: number;
}

/** An item's scored candidates ranked: best first (the newer on a tie), one document per decision, at most `max`. */
export function best(scored: ScoredDocument[], max: number = DECIDED_MAX): ScoredDocument[] {
  scored.sort((a, b) => b.score - a.score || b.id - a.id);
  const seen = new Set<number>();
  return scored.filter((found) => !seen.has(found.id) && seen.add(found.id)).slice(0, max);
}

/** Each item's candidates ranked: at least the threshold, best first, at most `max`, one document per decision. */
export function rank(
  items: readonly Comparable[],
  candidates: readonly StoredDocument[],
  stats: CorpusStats,
  options: SimilarOptions = {},
): ScoredDocument[][] {
  const threshold = options.threshold ?? DECIDED_THRESHOLD;
  return items.map((item) => {
    const scoreOf = storedScorer(prepareQuery(termVector(item), stats));
    const scored: ScoredDocument[] = [];
    for (const document of candidates) {
      const score = scoreOf(document);
      if (score < threshold) continue;
      scored.push({ id: document.id, ...(document.member === undefined ? {} : { member: document.member }), score });
    }
    return best(scored, options.max);
  });
}

/**
 * Each posting of a term as the Redis index keeps them, ` ref:tf:len ref:tf:len … `: the document, how often it holds
 * the term, and its length in terms. A posting written before postings carried counts (` ref `) is visited with tf and
 * length -1: its score must be read from the document.
 */
export function forEachPosting(text: string, visit: (ref: string, tf: number, length: number) => void): void {
  let at = 0;
  while (at < text.length) {
    if (text.charCodeAt(at) === 32) {
      at++;
      continue;
    }
    let end = text.indexOf(' ', at);
    if (end < 0) end = text.length;
    const colon = text.indexOf(':', at);
    if (colon < 0 || colon > end) {
      visit(text.slice(at, end), -1, -1);
    } else {
      const second = text.indexOf(':', colon + 1);
      const tf = second < 0 || second > end ? Number.NaN : Number(text.slice(colon + 1, second));
      const length = second < 0 || second > end ? Number.NaN : Number(text.slice(second + 1, end));
      const known = Number.isInteger(tf) && Number.isInteger(length) && tf > 0 && length > 0;
      visit(text.slice(at, colon), known ? tf : -1, known ? length : -1);
    }
    at = end + 1;
  }
}

/** A candidate while it is ranked from postings: its length, and per item what its known terms score. */
interface Pending {
  readonly ref: string;
  length: number;
  /** A posting without counts: the document must be read. */
  unknown: boolean;
  readonly partial: number[];
}

/** What {@link rankFromPostings} settled, and the documents it could not. */
export interface PostingsRanking {
  /** Per item, the candidates scored exactly from the postings, at or above the threshold (not yet cut to `max`). */
  readonly scored: ScoredDocument[][];
  /** Per item, the candidates the postings cannot settle: read their documents and score them with {@link rank}. */
  readonly unsettled: string[][];
}

function scoredDocument(ref: string, score: number): ScoredDocument {
  const dot = ref.indexOf('.');
  if (dot < 0) return { id: Number(ref), score };
  return { id: Number(ref.slice(0, dot)), member: Number(ref.slice(dot + 1)), score };
}

/**
 * The candidates (the documents the `wanted` terms' postings name, the newest `most` when there are more) scored from
 * postings instead of from their documents. A candidate's score is exact when every query term some decision holds
 * has its postings in `postings`; otherwise each missing term (too common to be sent whole) could add at most what it
 * scores held as often as the document is long, and only a candidate whose known score plus that bound reaches the
 * threshold is left unsettled, to be read. The same documents come out as when every candidate is read and scored.
 */
export function rankFromPostings(
  items: readonly Comparable[],
  postings: ReadonlyMap<string, string>,
  wanted: readonly string[],
  stats: CorpusStats,
  options: SimilarOptions & { most: number },
): PostingsRanking {
  const threshold = options.threshold ?? DECIDED_THRESHOLD;
  const queries = items.map((item) => prepareQuery(termVector(item), stats));
  let candidates = new Map<string, Pending>();
  const add = (ref: string, tf: number, length: number) => {
    const known = candidates.get(ref);
    if (known !== undefined) {
      if (length < 0) known.unknown = true;
      return;
    }
    candidates.set(ref, { ref, length, unknown: length < 0 || tf < 0, partial: queries.map(() => 0) });
  };
  for (const term of wanted) {
    const text = postings.get(term);
    if (text !== undefined) forEachPosting(text, add);
  }
  if (candidates.size > options.most) {
    // Postings are in answer order but merged from several terms: the newest by id.
    const newest = [...candidates.keys()]
      .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))
      .slice(0, options.most);
    candidates = new Map(newest.map((ref) => [ref, candidates.get(ref) as Pending]));
  }
  for (const [term, text] of postings) {
    const asking = queries.flatMap((query, index) => (query.weights.has(term) ? [index] : []));
    if (asking.length === 0) continue;
    forEachPosting(text, (ref, tf, length) => {
      const candidate = candidates.get(ref);
      if (candidate === undefined) return;
      if (length < 0) {
        candidate.unknown = true;
        return;
      }
      candidate.length = length;
      for (const index of asking) {
        candidate.partial[index] =
          (candidate.partial[index] ?? 0) + termScore(queries[index] as PreparedQuery, term, tf, length);
      }
    });
  }
  const scored: ScoredDocument[][] = [];
  const unsettled: string[][] = [];
  for (const query of queries) {
    const index = scored.length;
    const found: ScoredDocument[] = [];
    const unread: string[] = [];
    scored.push(found);
    unsettled.push(unread);
    if (query.self === 0) continue;
    // Terms some decision holds whose postings were not sent: each may add to a candidate's score.
    const missing = [...query.weights.keys()].filter(
      (term) => !postings.has(term) && stats.documentFrequency(term) > 0,
    );
    for (const candidate of candidates.values()) {
      if (candidate.unknown) {
        unread.push(candidate.ref);
        continue;
      }
      const known = candidate.partial[index] ?? 0;
      if (missing.length === 0) {
        const score = known / query.self;
        if (score >= threshold) found.push(scoredDocument(candidate.ref, score));
        continue;
      }
      let bound = known;
      for (const term of missing) bound += termScore(query, term, candidate.length, candidate.length);
      if (bound / query.self >= threshold) unread.push(candidate.ref);
    }
  }
  return { scored, unsettled };
}

/** Ranked ids with their decisions (read after ranking); a decision gone meanwhile (purged) is left out. */
export function withDecisions(
  ranked: readonly (readonly ScoredDocument[])[],
  decisions: ReadonlyMap<number, Decision>,
): SimilarDecision[][] {
  return ranked.map((found) =>
    found.flatMap(({ id, member, score }) => {
      const decision = decisions.get(id);
      return decision === undefined ? [] : [{ decision, ...(member === undefined ? {} : { member }), score }];
    }),
  );
}
