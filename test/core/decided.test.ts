/**
 * "Already decided" measured on a labelled set (test/core/decided-pairs.ts): with DECIDED_THRESHOLD, a paraphrase of
 * an earlier decision must find it among the three shown (recall at 3 ≥ 0.95) and at most 10 % of new, unrelated
 * questions may be interrupted. The figures (and those around the threshold, which is how it was chosen) are printed.
 */
import { describe, expect, it } from 'vitest';
import { corpusOf, DECIDED_THRESHOLD, similarity, stem, terms } from '../../src/core/similarity.js';
import { type Asked, shownFor, vectorOf } from '../support/decided-reference.js';
import { DECISIONS, NEAR_MISSES, PARAPHRASES, UNRELATED } from './decided-pairs.js';

const stats = corpusOf(DECISIONS.map(vectorOf));
const reference = shownFor(DECISIONS);
const shown = (asked: Asked, threshold: number) => reference(asked, threshold).map((found) => found.index);

function figures(threshold: number) {
  const recall =
    PARAPHRASES.filter((pair) => shown(pair.asked, threshold).includes(pair.of)).length / PARAPHRASES.length;
  const unrelated = UNRELATED.filter((asked) => shown(asked, threshold).length > 0).length / UNRELATED.length;
  const near = NEAR_MISSES.filter((pair) => shown(pair.asked, threshold).length > 0).length / NEAR_MISSES.length;
  return { recall, unrelated, near };
}

describe('already decided: similarity', () => {
  it('GIVEN words in their forms THEN they meet at one stem, and stop words and punctuation go', () => {
    expect(['databases', "database's", 'Database'].map((word) => terms(word))).toEqual([
      ['databas'],
      ['databas'],
      ['databas'],
    ]);
    expect(stem('caching')).toBe(stem('cached'));
    expect(stem('cache')).toBe(stem('caches'));
    expect(stem('shipping')).toBe(stem('ship'));
    expect(terms('Should we use the Café, or not?')).toEqual(terms('cafe'));
  });

  it(`GIVEN ${PARAPHRASES.length + NEAR_MISSES.length + UNRELATED.length} labelled questions THEN recall at 3 ≥ 0.95 and ≤ 10 % of unrelated ones interrupted at the threshold`, () => {
    const lines = [...new Set([0.45, 0.55, 0.6, 0.65, DECIDED_THRESHOLD, 0.7, 0.75])].sort().map((threshold) => {
      const f = figures(threshold);
      const mark = threshold === DECIDED_THRESHOLD ? ' ← DECIDED_THRESHOLD' : '';
      return `  ${threshold.toFixed(2)}: recall@3 ${f.recall.toFixed(3)}, unrelated interrupted ${(f.unrelated * 100).toFixed(1)} %, near misses shown one ${(f.near * 100).toFixed(1)} %${mark}`;
    });
    console.log(
      `already decided, ${DECISIONS.length} decisions; ${PARAPHRASES.length} paraphrases, ${NEAR_MISSES.length} near misses, ${UNRELATED.length} unrelated:\n${lines.join('\n')}`,
    );
    const at = figures(DECIDED_THRESHOLD);
    expect(at.recall).toBeGreaterThanOrEqual(0.95);
    expect(at.unrelated).toBeLessThanOrEqual(0.1);
  });

  it('GIVEN a project with no decisions, or a question with no words THEN nothing is alike', () => {
    const empty = corpusOf([]);
    const query = vectorOf(['Which database should billing use?', ['Postgres']]);
    expect(similarity(query, query, empty)).toBeGreaterThan(0.99);
    expect(similarity(vectorOf(['Is it?', []]), query, stats)).toBe(0);
  });
});
