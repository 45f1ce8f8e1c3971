/** A decision: a question the person answered, as the trail (`store/trail.ts`) and its views read it. Pure types. */
import type { Question } from './question.js';

/** An answered question: its answer is always there. */
export type Decision = Question & { readonly answer: NonNullable<Question['answer']> };

/** One page of the trail, newest answer first. */
export interface DecisionPage {
  readonly decisions: readonly Decision[];
  /** The `after` of the next page, when more decisions match. */
  readonly next?: string;
  /** How many more match, when the store can count them without reading them (no search). */
  readonly remaining?: number;
}
