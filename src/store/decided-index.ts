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

/** A document's id (and member) from its reference ({@link documentRef}). */
export function parseDocumentRef(ref: string): { id: number; member?: number } {
  const dot = ref.indexOf('.');
  return dot < 0 ? { id: Number(ref) } : { id: Number(ref.slice(0, dot)), member: Number(ref.slice(dot + 1)) };
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

const SPACE = 32;
const DOT = 46;
const COLON = 58;

/**
 * Reads a term's postings as the Redis index keeps them, ` ref:tf:len ref:tf:len … ` (the document, how often it holds
 * the term, its length in terms), one at a time and allocating nothing per posting: a check reads thousands. A posting
 * written before postings carried counts (` ref `), or with counts that do not read, has tf and length -1: its score
 * must be read from the document. A ref that does not read (not `<id>` or `<id>.<member>`) is skipped.
 */
export class PostingReader {
  /** The document as a map key: a number for `<id>` and `<id>.<member>` with a member below 7, else its ref. */
  key: number | string = 0;
  tf = -1;
  length = -1;
  #text = '';
  #at = 0;
  #refStart = 0;
  #refEnd = 0;
  /** Where the last `#number` stopped. */
  #after = 0;

  constructor(text = '') {
    this.reset(text);
  }

  reset(text: string): void {
    this.#text = text;
    this.#at = 0;
  }

  /** The document's ref, `<id>` or `<id>.<member>` (allocated: call it once per document, not per posting). */
  get ref(): string {
    return this.#text.slice(this.#refStart, this.#refEnd);
  }

  /** Move to the next readable posting; false after the last. */
  next(): boolean {
    const text = this.#text;
    for (;;) {
      let at = this.#at;
      while (at < text.length && text.charCodeAt(at) === SPACE) at++;
      if (at >= text.length) {
        this.#at = at;
        return false;
      }
      let end = text.indexOf(' ', at);
      if (end < 0) end = text.length;
      this.#at = end;
      this.#refStart = at;
      const id = this.#number(at, end);
      if (id < 0) continue;
      at = this.#after;
      let member = -1;
      if (at < end && text.charCodeAt(at) === DOT) {
        member = this.#number(at + 1, end);
        if (member < 0) continue;
        at = this.#after;
      }
      this.#refEnd = at;
      this.tf = -1;
      this.length = -1;
      if (at < end) {
        if (text.charCodeAt(at) !== COLON) continue;
        const tf = this.#number(at + 1, end);
        at = this.#after;
        if (tf > 0 && at < end && text.charCodeAt(at) === COLON) {
          const length = this.#number(at + 1, end);
          if (length > 0 && this.#after === end) {
            this.tf = tf;
            this.length = length;
          }
        }
      }
      this.key = member < 0 ? id * 8 : member < 7 ? id * 8 + 1 + member : this.ref;
      return true;
    }
  }

  /** The whole number whose digits start at `at` (before `end`); -1 if none. */
  #number(at: number, end: number): number {
    const text = this.#text;
    let value = 0;
    let i = at;
    for (; i < end; i++) {
      const code = text.charCodeAt(i);
      if (code < 48 || code > 57) break;
      value = value * 10 + code - 48;
    }
    this.#after = i;
    return i === at ? -1 : value;
  }
}

/** What {@link rankFromPostings} settled, and the documents it could not. */
export interface PostingsRanking {
  /** Per item, the candidates scored exactly from the postings, at or above the threshold (not yet cut to `max`). */
  readonly scored: ScoredDocument[][];
  /** Per item, the candidates the postings cannot settle: read their documents and score them with {@link rank}. */
  readonly unsettled: string[][];
}

/** A document's ref from its key ({@link PostingReader.key}). */
function refOf(key: number | string): string {
  if (typeof key === 'string') return key;
  const member = (key % 8) - 1;
  return member < 0 ? String(key / 8) : `${(key - member - 1) / 8}.${member}`;
}

/** A scored document from its key. */
function scoredDocument(key: number | string, score: number): ScoredDocument {
  if (typeof key === 'string') return { ...parseDocumentRef(key), score };
  const member = (key % 8) - 1;
  return member < 0 ? { id: key / 8, score } : { id: (key - member - 1) / 8, member, score };
}

/**
 * The candidates (the documents the `wanted` terms' postings name, the newest `most` when there are more) scored from
 * postings instead of from their documents. A candidate's score is exact when every query term some decision holds
 * has its postings in `postings`; otherwise each missing term (too common to be sent whole) could add at most what it
 * scores held as often as the document is long, and only a candidate whose known score plus that bound reaches the
 * threshold is left unsettled, to be read. The same documents come out as when every candidate is read and scored.
 * The candidates live in parallel arrays, not an object each: a check may hold thousands.
 */
export function rankFromPostings(
  items: readonly Comparable[],
  postings: ReadonlyMap<string, string>,
  wanted: readonly string[],
  stats: CorpusStats,
  options: SimilarOptions & { most: number },
): PostingsRanking {
  const threshold = options.threshold ?? DECIDED_THRESHOLD;
  const reader = new PostingReader();
  // Candidate i: keys[i], its length lengths[i] (-1 until a posting with counts gives it), unknown[i] when some
  // posting of it carries no counts (its document must be read).
  let slots = new Map<number | string, number>();
  let keys: (number | string)[] = [];
  let lengths: number[] = [];
  let unknown: boolean[] = [];
  for (const term of wanted) {
    const text = postings.get(term);
    if (text === undefined) continue;
    reader.reset(text);
    while (reader.next()) {
      const slot = slots.get(reader.key);
      if (slot === undefined) {
        slots.set(reader.key, keys.length);
        keys.push(reader.key);
        lengths.push(reader.length);
        unknown.push(reader.tf < 0);
      } else if (reader.tf < 0) {
        unknown[slot] = true;
      }
    }
  }
  if (keys.length > options.most) {
    // Postings are in answer order but merged from several terms: the newest by id.
    const id = (key: number | string) => (typeof key === 'number' ? key / 8 : Number.parseFloat(key));
    const newest = keys
      .map((_, slot) => slot)
      .sort((a, b) => id(keys[b] as number | string) - id(keys[a] as number | string))
      .slice(0, options.most);
    const was = { keys, lengths, unknown };
    keys = newest.map((slot) => was.keys[slot] as number | string);
    lengths = newest.map((slot) => was.lengths[slot] as number);
    unknown = newest.map((slot) => was.unknown[slot] as boolean);
    slots = new Map(keys.map((key, slot) => [key, slot]));
  }
  const partial = new Float64Array(keys.length);
  const scored: ScoredDocument[][] = [];
  const unsettled: string[][] = [];
  for (const item of items) {
    const query = prepareQuery(termVector(item), stats);
    const found: ScoredDocument[] = [];
    const unread: string[] = [];
    scored.push(found);
    unsettled.push(unread);
    if (query.self === 0) continue;
    partial.fill(0);
    for (const [term, text] of postings) {
      if (!query.weights.has(term)) continue;
      reader.reset(text);
      while (reader.next()) {
        const slot = slots.get(reader.key);
        if (slot === undefined) continue;
        if (reader.tf < 0) {
          unknown[slot] = true;
          continue;
        }
        lengths[slot] = reader.length;
        partial[slot] = (partial[slot] ?? 0) + termScore(query, term, reader.tf, reader.length);
      }
    }
    // Terms some decision holds whose postings were not sent: each may add to a candidate's score.
    const missing = [...query.weights.keys()].filter(
      (term) => !postings.has(term) && stats.documentFrequency(term) > 0,
    );
    for (let slot = 0; slot < keys.length; slot++) {
      const key = keys[slot] as number | string;
      if (unknown[slot]) {
        unread.push(refOf(key));
        continue;
      }
      const known = partial[slot] ?? 0;
      if (missing.length === 0) {
        const score = known / query.self;
        if (score >= threshold) found.push(scoredDocument(key, score));
        continue;
      }
      const length = lengths[slot] ?? 0;
      let bound = known;
      for (const term of missing) bound += termScore(query, term, length, length);
      if (bound / query.self >= threshold) unread.push(refOf(key));
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
