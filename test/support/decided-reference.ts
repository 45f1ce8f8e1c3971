/**
 * The "already decided" check computed in memory over a list of decisions, straight from core's `similarity`: the
 * reference the labelled-set figures are measured on (test/core/decided.test.ts) and every store adapter's index is
 * held to (the store contract).
 */
import {
  type CorpusStats,
  corpusOf,
  DECIDED_MAX,
  similarity,
  type TermVector,
  termVector,
} from '../../src/core/similarity.js';
import { candidateTerms } from '../../src/store/decided-index.js';

import type { Asked } from '../core/decided-pairs.js';

export type { Asked };

export const vectorOf = ([question, options]: Asked): TermVector =>
  termVector({ question, options: options.map((label) => ({ label })) });

/**
 * For `decisions` (the n-th at index n), the decisions shown for a new question: at or above `threshold`, best
 * first, at most three; among the candidates an index reads (those holding a term `candidateTerms` picks).
 */
export function shownFor(
  decisions: readonly Asked[],
): (asked: Asked, threshold: number) => { index: number; score: number }[] {
  const vectors = decisions.map(vectorOf);
  const stats: CorpusStats = corpusOf(vectors);
  return (asked, threshold) => {
    const query = vectorOf(asked);
    const wanted = candidateTerms([query], stats, threshold);
    return vectors
      .map((decision, index) => ({ index, decision }))
      .filter(({ decision }) => wanted.some((term) => decision.counts.has(term)))
      .map(({ decision, index }) => ({ index, score: similarity(query, decision, stats) }))
      .filter((scored) => scored.score >= threshold)
      .sort((a, b) => b.score - a.score || b.index - a.index)
      .slice(0, DECIDED_MAX);
  };
}
