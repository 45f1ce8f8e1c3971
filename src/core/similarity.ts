/**
 * How alike a new question is to a decision taken before, for "already decided" (`ask_later` looks before it
 * parks). Pure.
 *
 * A question becomes a bag of terms: its question text, its options' labels and (a set's member) its topic, lower
 * case, accents and punctuation gone, stop words dropped, and each word cut to a stem (plurals and the common
 * English word forms: `databases`, `database's` → `databas`; `caching`, `cached` → `cach`). Two questions are
 * compared BM25-style: a shared term counts by how rare it is among the project's decisions (`ln(1 + (N - df + 0.5)
 * / (df + 0.5))`), saturating with repeats and discounted in long texts. The score is divided by what the new
 * question's own words (not its options) score against itself, so it reads 0 (nothing shared) to about 1 (the same
 * question), whatever the project's size: one threshold ({@link DECIDED_THRESHOLD}) serves every project. The store adapters keep the per-project
 * counts (how many decisions hold each term) and each decision's terms, and call {@link similarity} on candidates.
 */

/** Words that say nothing about what a question decides. */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again all also am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each either few for from further had has have having he her here hers ' +
    'how i if in into is it its itself just let lets like may me might more most must my need needs no nor not now of ' +
    'off on once one only or other our ours out over own please same shall she should so some such than that the their ' +
    'theirs them then there these they this those through to too under until up us use used using very want wants was ' +
    'we were what when where whether which while who whom why will with would yes you your yours go going get'
  ).split(' '),
);

/** BM25's saturation and length normalisation, the usual values. */
const K1 = 1.2;
const B = 0.75;

/**
 * The score at or above which an earlier decision is put in front of the model instead of parking. Chosen from
 * test/core/decided.test.ts's labelled pairs (it prints recall and interruptions around this value).
 */
export const DECIDED_THRESHOLD = 0.65;

/** At most this many earlier decisions are returned. */
export const DECIDED_MAX = 3;

/** A word cut to its stem: plurals, possessives and the common English endings. */
export function stem(word: string): string {
  let w = word.replace(/'s$/, '');
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('es') && /(?:ch|sh|x|z|ss)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  for (const suffix of ['ations', 'ation', 'ings', 'ing', 'edly', 'ed', 'ly', 'ment', 'ments', 'ers', 'er']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  // A trailing e and a doubled consonant are dropped, so `cache`/`caching` and `ship`/`shipping` meet.
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  if (/([bdgklmnprt])\1$/.test(w)) w = w.slice(0, -1);
  return w;
}

/** The terms of a text, in order: normalised, stop words dropped, stemmed. */
export function terms(text: string): string[] {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .split(/[^\p{L}\p{N}]+/u);
  const kept: string[] = [];
  for (const word of words) {
    if (word === '' || STOP_WORDS.has(word)) continue;
    kept.push(stem(word));
  }
  return kept;
}

/** What of a question is compared: its question, its options' labels, a set member's topic. */
export interface Comparable {
  readonly question: string;
  readonly options: readonly { readonly label: string }[];
  readonly topic?: string;
}

/** A question's terms and how often each occurs; `length` counts them all. */
export interface TermVector {
  readonly counts: ReadonlyMap<string, number>;
  readonly length: number;
  /** The terms of the question itself (and a member's topic): what a score is measured against. */
  readonly core: ReadonlySet<string>;
}

/** The terms of what is compared of a question. The question's own words count twice: they say what is decided. */
export function termVector(item: Comparable): TermVector {
  const own = [...terms(item.question), ...(item.topic === undefined ? [] : terms(item.topic))];
  const all = [...own, ...terms(item.question), ...item.options.flatMap((option) => terms(option.label))];
  const counts = new Map<string, number>();
  for (const term of all) counts.set(term, (counts.get(term) ?? 0) + 1);
  return { counts, length: all.length, core: new Set(own) };
}

/** What the project's decisions say about terms: how many there are, their mean length, and each term's count. */
export interface CorpusStats {
  readonly documents: number;
  readonly averageLength: number;
  /** How many of the project's decisions hold `term`. */
  documentFrequency(term: string): number;
}

/** How rare `term` is among the project's decisions: BM25's inverse document frequency. */
export function idf(term: string, stats: CorpusStats): number {
  const df = Math.min(stats.documentFrequency(term), stats.documents);
  return Math.log(1 + (stats.documents - df + 0.5) / (df + 0.5));
}

/**
 * A new question made ready to be compared with many candidates: each of its terms' weight (idf) and what its own
 * words score against itself. Candidates are then scored term by term ({@link termScore}) with no allocation.
 */
export interface PreparedQuery {
  readonly weights: ReadonlyMap<string, number>;
  /** What the question's own words score against the question: the 1 of the 0-to-1 scale. */
  readonly self: number;
  readonly averageLength: number;
}

/** A candidate's term, held `tf` times in a candidate of `length` terms, scored BM25-style for `query`. */
export function termScore(query: PreparedQuery, term: string, tf: number, length: number): number {
  const weight = query.weights.get(term);
  if (weight === undefined || tf <= 0) return 0;
  const average = query.averageLength > 0 ? query.averageLength : length || 1;
  return (weight * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / average));
}

/** `query`'s weights under `stats`, and its own words' score against itself. */
export function prepareQuery(query: TermVector, stats: CorpusStats): PreparedQuery {
  const weights = new Map<string, number>();
  for (const term of query.counts.keys()) weights.set(term, idf(term, stats));
  const prepared = { weights, self: 0, averageLength: stats.averageLength };
  let self = 0;
  for (const term of query.core) self += termScore(prepared, term, query.counts.get(term) ?? 0, query.length);
  return { ...prepared, self };
}

/**
 * How alike `candidate` (an earlier decision) is to `query` (the new question), from 0 to about 1: the BM25 score of
 * the candidate over what the question's own words score against the question. Options the candidate shares add to
 * it; options it lacks (the same choice offered under other names) take nothing away.
 */
export function similarity(query: TermVector, candidate: TermVector, stats: CorpusStats): number {
  const prepared = prepareQuery(query, stats);
  if (prepared.self === 0) return 0;
  let score = 0;
  for (const [term, tf] of candidate.counts) score += termScore(prepared, term, tf, candidate.length);
  return score / prepared.self;
}

/** Corpus statistics over decisions held in memory (tests, and adapters that read the candidates' vectors). */
export function corpusOf(vectors: readonly TermVector[]): CorpusStats {
  const frequency = new Map<string, number>();
  let total = 0;
  for (const vector of vectors) {
    total += vector.length;
    for (const term of vector.counts.keys()) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  }
  return {
    documents: vectors.length,
    averageLength: vectors.length === 0 ? 0 : total / vectors.length,
    documentFrequency: (term) => frequency.get(term) ?? 0,
  };
}
