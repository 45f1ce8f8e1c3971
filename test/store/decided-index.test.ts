import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Comparable, corpusOf, type TermVector, termVector } from '../../src/core/similarity.js';
import {
  best,
  candidateTerms,
  encodeTerms,
  PostingReader,
  rank,
  rankFromPostings,
  type StoredDocument,
} from '../../src/store/decided-index.js';

const WORDS = ['database', 'queue', 'billing', 'search', 'postgres', 'redis', 'region', 'cache', 'mailer', 'ledger'];

const comparable = fc.record({
  question: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }).map((words) => words.join(' ')),
  options: fc.array(
    fc.constantFrom(...WORDS).map((label) => ({ label })),
    { maxLength: 2 },
  ),
});

/** A decision's document: its vector and ref (`<id>` or `<id>.<member>`). */
interface Doc {
  readonly ref: string;
  readonly vector: TermVector;
}

/** The postings of every term, as the Redis index writes them (" ref:tf:len "), documents in answer order. */
function postingsOf(docs: readonly Doc[], legacy: ReadonlySet<number>): Map<string, string> {
  const postings = new Map<string, string>();
  for (const [index, { ref, vector }] of docs.entries()) {
    for (const [term, tf] of vector.counts) {
      const posting = legacy.has(index) ? ref : `${ref}:${tf}:${vector.length}`;
      postings.set(term, `${postings.get(term) ?? ' '}${posting} `);
    }
  }
  return postings;
}

const stored = ({ ref, vector }: Doc): StoredDocument => {
  const [id, member] = ref.split('.');
  return {
    id: Number(id),
    ...(member === undefined ? {} : { member: Number(member) }),
    length: vector.length,
    terms: encodeTerms(vector),
  };
};

const found = (one: { id: number; member?: number }) => [one.id, one.member];

describe('ranking decisions from their postings', () => {
  it('GIVEN any decisions (members of sets among them), questions, threshold and terms too common to be sent THEN the same decisions and scores as reading every candidate', () => {
    let settledAlone = 0;
    fc.assert(
      fc.property(
        fc.array(fc.record({ item: comparable, member: fc.option(fc.nat(9), { nil: undefined }) }), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.array(comparable, { minLength: 1, maxLength: 3 }),
        fc.double({ min: 0.1, max: 0.95, noNaN: true }),
        fc.array(fc.boolean(), { minLength: WORDS.length * 2, maxLength: WORDS.length * 2 }),
        fc.integer({ min: 1, max: 45 }),
        fc.uniqueArray(fc.nat(39), { maxLength: 5 }),
        (decisions, items, threshold, sendMask, most, legacyIndexes) => {
          const docs: Doc[] = decisions.map(({ item, member }, index) => ({
            ref: member === undefined ? String(index + 1) : `${index + 1}.${member}`,
            vector: termVector(item),
          }));
          const stats = corpusOf(docs.map((doc) => doc.vector));
          const queries = items.map((item) => termVector(item));
          const wanted = candidateTerms(queries, stats, threshold).filter((term) => stats.documentFrequency(term) > 0);
          const all = postingsOf(docs, new Set(legacyIndexes));
          // What a check has: the wanted terms' postings, and some of the questions' other terms' (the rest too common).
          const asked = [...new Set(queries.flatMap((query) => [...query.counts.keys()]))];
          const postings = new Map<string, string>();
          for (const [index, term] of asked.entries()) {
            const text = all.get(term);
            if (text !== undefined && (wanted.includes(term) || sendMask[index % sendMask.length])) {
              postings.set(term, text);
            }
          }
          const settled = rankFromPostings(items, postings, wanted, stats, { threshold, most });

          // Reading every candidate: the documents the wanted terms' postings name, the newest `most`.
          const candidates = docs
            .filter(({ vector }) => wanted.some((term) => vector.counts.has(term)))
            .slice(-most)
            .map(stored);
          const byRef = new Map(docs.map((doc) => [doc.ref, stored(doc)]));
          for (const [i, item] of items.entries()) {
            const read = (settled.unsettled[i] ?? []).map((ref) => byRef.get(ref) as StoredDocument);
            const [fromDocuments = []] = rank([item], read, stats, { threshold, max: Number.POSITIVE_INFINITY });
            const got = best([...(settled.scored[i] ?? []), ...fromDocuments]);
            const [expected = []] = rank([item], candidates, stats, { threshold });
            expect(got.map(found)).toEqual(expected.map(found));
            for (const [j, one] of got.entries()) expect(one.score).toBeCloseTo(expected[j]?.score ?? Number.NaN, 9);
            // Nothing is read when every term's postings are there and all carry counts.
            const complete = [...(queries[i]?.counts.keys() ?? [])].every(
              (term) => postings.has(term) || !all.has(term),
            );
            if (complete && legacyIndexes.length === 0) {
              expect(settled.unsettled[i]).toEqual([]);
              settledAlone++;
            }
          }
        },
      ),
      { numRuns: 500 },
    );
    // The runs above met that case, not only its opposite.
    expect(settledAlone).toBeGreaterThan(20);
  });

  it('GIVEN a term too common to be sent THEN only candidates it could lift to the threshold are read', () => {
    const subjects = ['queue', 'cache', 'region', 'mailer', 'search', 'ledger', 'redis', 'postgres', 'font', 'backup'];
    const decisions: Comparable[] = [
      ...subjects.map((subject) => ({ question: `Which ${subject} should billing use?`, options: [] })),
      { question: 'Which database should billing use?', options: [] },
      { question: 'Which database, region, cache, queue, mailer, search and ledger should redis use?', options: [] },
    ];
    const docs = decisions.map((decision, index) => ({ ref: String(index + 1), vector: termVector(decision) }));
    const stats = corpusOf(docs.map((doc) => doc.vector));
    const all = postingsOf(docs, new Set());
    const item = { question: 'What database does billing use?', options: [] };
    // `billing` (`bil`) is held by all but one decision: suppose it too common to send. `databas` is sent.
    const postings = new Map([['databas', all.get('databas') as string]]);
    const settled = rankFromPostings([item], postings, ['databas'], stats, { most: 100 });
    expect(settled.scored).toEqual([[]]);
    // The long decision shares `databas` but even `billing` as often as it is long would not lift it: not read.
    expect(settled.unsettled).toEqual([['11']]);
    // With both terms sent, the first is scored from the postings and nothing is read.
    const both = new Map([...all].filter(([term]) => termVector(item).counts.has(term)));
    const exact = rankFromPostings([item], both, ['databas'], stats, { most: 100 });
    expect(exact.unsettled).toEqual([[]]);
    expect(exact.scored[0]?.map((one) => one.id)).toEqual([11]);
  });

  it('GIVEN postings of every form THEN each readable ref is visited with its counts, or none when they do not read', () => {
    const seen: [string, number | string, number, number][] = [];
    const reader = new PostingReader(' 12:2:9  3.1:1:4 7 8:x:3 9:1: 10:0:5 x:1:2 .4 5. 6x 11.9:2:3 13:2:3:4 14:1:2 ');
    while (reader.next()) seen.push([reader.ref, reader.key, reader.tf, reader.length]);
    expect(seen).toEqual([
      ['12', 96, 2, 9],
      ['3.1', 26, 1, 4],
      ['7', 56, -1, -1],
      ['8', 64, -1, -1],
      ['9', 72, -1, -1],
      ['10', 80, -1, -1],
      ['11.9', '11.9', 2, 3],
      ['13', 104, -1, -1],
      ['14', 112, 1, 2],
    ]);
    reader.reset('');
    expect(reader.next()).toBe(false);
  });
});
