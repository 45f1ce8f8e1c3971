/**
 * The decision trail read from a store: the questions a person answered, newest answer first, one page at a time from
 * the store's answered index, optionally narrowed by a free-text search. Over the Store port's `pageAcross`, so every
 * adapter reads it the same way (`findDecisions` for one project; `store/decision-query.ts` for patterns of projects).
 */
import type { Decision, DecisionPage } from '../core/decision.js';
import { itemsOf, type Question, selectionsOf } from '../core/question.js';
import { describeReply } from '../core/reply.js';
import { cursorOf, formatCursor } from './paging.js';
import type { Store } from './port.js';
import type { TrailQuery } from './trail-query.js';

export type { Decision, DecisionPage } from '../core/decision.js';
export type { SimilarDecision, SimilarOptions, TrailQuery } from './trail-query.js';

/** Decisions a search reads at once while it looks for a page's matches. */
const SEARCH_BATCH = 200;

/**
 * One page of `projects`' trail from the store's answered index (newest answer first, then the higher id): the page
 * only, whatever the trail holds. A search reads the trail newest first in batches until the page is full (its cost
 * grows with how far back the matches are, bounded by the retention period), and cannot say how many more match.
 */
export async function trailPage(
  store: Pick<Store, 'pageAcross'>,
  projects: readonly string[],
  query: TrailQuery,
): Promise<DecisionPage> {
  const words = searchWords(query.search);
  const since = query.since === undefined ? {} : { since: query.since };
  if (words.length === 0) {
    const page = await store.pageAcross(projects, {
      view: 'answered',
      limit: query.limit,
      ...since,
      ...(query.after === undefined ? {} : { after: query.after }),
    });
    const decisions = page.questions.filter(isDecision);
    return page.next === undefined
      ? { decisions, remaining: 0 }
      : { decisions, next: page.next, remaining: page.remaining };
  }
  const found: Decision[] = [];
  let after = query.after;
  for (;;) {
    const batch = await store.pageAcross(projects, {
      view: 'answered',
      limit: SEARCH_BATCH,
      ...since,
      ...(after === undefined ? {} : { after }),
    });
    for (const question of batch.questions) {
      if (isDecision(question) && decisionMatches(question, query.search)) found.push(question);
    }
    if (found.length > query.limit || batch.next === undefined) break;
    after = batch.next;
  }
  const decisions = found.slice(0, query.limit);
  const last = decisions.at(-1);
  const cursor = found.length > query.limit && last !== undefined ? cursorOf('answered', last) : undefined;
  return cursor === undefined ? { decisions } : { decisions, next: formatCursor(cursor) };
}

function isDecision(question: Question): question is Decision {
  return question.answer !== undefined;
}

/** The words of a search: split on white space, lower-cased; none for a blank or absent search. */
export function searchWords(search: string | undefined): string[] {
  return (search ?? '')
    .toLowerCase()
    .split(/\s+/u)
    .filter((word) => word !== '');
}

/**
 * Whether `decision` matches `search`: every word of it (case-insensitive) appears somewhere in the question (each
 * question and topic of a set), its context, the ticket, the answer (picked labels, `Other`) or the notes (notes per
 * option too). Pure, so a view that already read the decisions (the web inbox's Answered view) filters with the same
 * rule.
 */
export function decisionMatches(decision: Decision, search: string | undefined): boolean {
  const words = searchWords(search);
  if (words.length === 0) return true;
  const { answer } = decision;
  const haystack = [
    ...itemsOf(decision).map((item) => item.question),
    ...(decision.members ?? []).map((member) => member.topic),
    decision.context,
    decision.ticket ?? '',
    describeReply(decision, answer),
    ...selectionsOf(answer).flatMap((selection) => [
      selection.notes ?? '',
      ...(selection.choiceNotes ?? []).map((entry) => entry.notes),
    ]),
  ]
    .join('\n')
    .toLowerCase();
  return words.every((word) => haystack.includes(word));
}
