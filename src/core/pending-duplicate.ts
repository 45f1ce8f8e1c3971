/**
 * A new question that is already waiting: the same question (texts compared without case and spacing), or one the
 * decided-before measure ({@link similarity}) finds at least {@link DECIDED_THRESHOLD} alike, among the project's
 * pending questions. `ask_later` returns that one's id and status instead of parking a second copy (which would be
 * answered twice, perhaps two ways). Pure.
 */
import { itemsOf, type Question, type QuestionSpec } from './question.js';
import { type CorpusStats, DECIDED_THRESHOLD, similarity, type TermVector, termVector } from './similarity.js';

type Item = ReturnType<typeof itemsOf>[number];

/**
 * Every term weighed the same. The few questions waiting in a project are too small a corpus for rarity to mean
 * anything (a word only the new question has would outweigh all it shares), so the measure here is how much of
 * the new question's own words the waiting one holds, as the decided-before check counts them.
 */
function evenWeights(vectors: readonly TermVector[]): CorpusStats {
  const total = vectors.reduce((sum, vector) => sum + vector.length, 0);
  return {
    documents: 1000,
    averageLength: vectors.length === 0 ? 0 : total / vectors.length,
    documentFrequency: () => 1,
  };
}

/**
 * A question's own words (and a member's topic), without its options: two questions offering the same choices
 * ("Postgres or Redis?") about different things are not the same question.
 */
function wordsOf(item: Item): TermVector {
  return termVector({ question: item.question, options: [], ...('topic' in item ? { topic: item.topic } : {}) });
}

function sameText(a: string, b: string): boolean {
  const norm = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();
  return norm(a) === norm(b);
}

/** The same question and the same option labels, in any order. */
function sameItem(a: Item, b: Item): boolean {
  if (!sameText(a.question, b.question) || a.options.length !== b.options.length) return false;
  const labels = new Set(a.options.map((option) => option.label.trim().toLowerCase()));
  return b.options.every((option) => labels.has(option.label.trim().toLowerCase()));
}

/**
 * The pending question `spec` repeats, best first: every item of the new one matches an item of the waiting one
 * (a single question another single one; a set a set of as many questions), exactly or nearly.
 */
export function findPendingDuplicate(spec: QuestionSpec, pending: readonly Question[]): Question | undefined {
  const mine = itemsOf(spec);
  const candidates = pending.filter(
    (question) => question.status === 'pending' && itemsOf(question).length === mine.length,
  );
  const exact = candidates.find((question) =>
    mine.every((item) => itemsOf(question).some((its) => sameItem(item, its))),
  );
  if (exact !== undefined) return exact;
  const vectors = new Map<Question, TermVector[]>(
    candidates.map((question) => [question, itemsOf(question).map(wordsOf)]),
  );
  const stats = evenWeights([...vectors.values()].flat());
  let best: { question: Question; score: number } | undefined;
  for (const [question, theirs] of vectors) {
    // The weakest of the new items' best matches: a set is a repeat only when each of its questions is.
    const score = Math.min(
      ...mine.map((item) => Math.max(...theirs.map((vector) => similarity(wordsOf(item), vector, stats)))),
    );
    if (score >= DECIDED_THRESHOLD && (best === undefined || score > best.score)) best = { question, score };
  }
  return best?.question;
}
