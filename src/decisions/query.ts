/**
 * The decision trail: the questions a person answered, newest answer first. One query for every view of it
 * (`ask-later decisions`, the web inbox's Answered view and its time-to-answer chart), over the Store port.
 */
import { describeSelection } from '../core/answer.js';
import type { Question } from '../core/question.js';
import { compilePattern } from '../routing.js';
import type { Store } from '../store/port.js';

/** Which decisions to read. Omitted fields do not filter. */
export interface DecisionQuery {
  /** A project pattern, as in the routing file (`acme/*`, `acme/**`, a project name). */
  readonly project?: string;
  /** Only answers given at or after this time (ms since the epoch). */
  readonly since?: number;
  /** Free text: only decisions matching every word of it (see {@link decisionMatches}). Blank does not filter. */
  readonly search?: string;
}

/** An answered question: its answer is always there. */
export type Decision = Question & { readonly answer: NonNullable<Question['answer']> };

/** Answered (and delivered) questions matching the query, newest answer first, then by project and id. */
export async function listDecisions(store: Store, query: DecisionQuery = {}): Promise<Decision[]> {
  const pattern = query.project === undefined ? undefined : compilePattern(query.project);
  const projects = (await store.knownProjects()).filter((project) => pattern?.test(project) ?? true);
  const answered = await store.listAcross(projects, { status: ['answered', 'delivered'] });
  const since = query.since ?? Number.NEGATIVE_INFINITY;
  return answered
    .filter((question): question is Decision => question.answer !== undefined && question.answer.at >= since)
    .filter((decision) => decisionMatches(decision, query.search))
    .sort(
      (a, b) =>
        b.answer.at - a.answer.at || (a.project < b.project ? -1 : a.project > b.project ? 1 : 0) || a.id - b.id,
    );
}

/** The words of a search: split on white space, lower-cased; none for a blank or absent search. */
export function searchWords(search: string | undefined): string[] {
  return (search ?? '')
    .toLowerCase()
    .split(/\s+/u)
    .filter((word) => word !== '');
}

/**
 * Whether `decision` matches `search`: every word of it (case-insensitive) appears somewhere in the question, its
 * context, the ticket, the answer (picked labels, `Other`) or the notes. Pure, so a view that already read the
 * decisions (the web inbox's Answered view) filters with the same rule.
 */
export function decisionMatches(decision: Decision, search: string | undefined): boolean {
  const words = searchWords(search);
  if (words.length === 0) return true;
  const { answer } = decision;
  const haystack = [
    decision.question,
    decision.context,
    decision.ticket ?? '',
    describeSelection(decision, answer),
    answer.notes ?? '',
  ]
    .join('\n')
    .toLowerCase();
  return words.every((word) => haystack.includes(word));
}
