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
  similarity,
  type TermVector,
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

/** The stored terms read back; anything malformed reads as no term. */
export function decodeTerms(text: string): TermVector {
  const counts = new Map<string, number>();
  let length = 0;
  for (const pair of text.split(' ')) {
    const colon = pair.lastIndexOf(':');
    const count = Number(pair.slice(colon + 1));
    if (colon <= 0 || !Number.isInteger(count) || count <= 0) continue;
    counts.set(pair.slice(0, colon), count);
    length += count;
  }
  return { counts, length, core: new Set() };
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

/** Each item's candidates ranked: at least the threshold, best first, at most `max`, one document per decision. */
export function rank(
  items: readonly Comparable[],
  candidates: readonly IndexDocument[],
  stats: CorpusStats,
  options: SimilarOptions = {},
): { id: number; member?: number; score: number }[][] {
  return items.map((item) => {
    const query = termVector(item);
    const scored = candidates
      .map((document) => ({
        id: document.id,
        ...(document.member === undefined ? {} : { member: document.member }),
        score: similarity(query, document.vector, stats),
      }))
      .filter((found) => found.score >= (options.threshold ?? DECIDED_THRESHOLD))
      .sort((a, b) => b.score - a.score || b.id - a.id);
    const seen = new Set<number>();
    return scored.filter((found) => !seen.has(found.id) && seen.add(found.id)).slice(0, options.max ?? DECIDED_MAX);
  });
}

/** Ranked ids with their decisions (read after ranking); a decision gone meanwhile (purged) is left out. */
export function withDecisions(
  ranked: readonly { id: number; member?: number; score: number }[][],
  decisions: ReadonlyMap<number, Decision>,
): SimilarDecision[][] {
  return ranked.map((found) =>
    found.flatMap(({ id, member, score }) => {
      const decision = decisions.get(id);
      return decision === undefined ? [] : [{ decision, ...(member === undefined ? {} : { member }), score }];
    }),
  );
}
