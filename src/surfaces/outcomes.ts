/** What `InteractionService` answers: each outcome, or a refusal with its text for the person. */
import type { Readiness } from '../core/answer.js';
import type { InboxFilter } from '../core/inbox.js';
import type { Draft, Question } from '../core/question.js';
import type { ViewCounts } from '../store/port.js';
import type { ReviewOf } from './review.js';

export type Refusal =
  | 'unknown'
  | 'not-allowed'
  | 'other-channel'
  | 'not-ready'
  | 'already-answered'
  | 'closed'
  | 'invalid';

/** A refusal with its text for the person (and the question, when it is known). */
export type Refused = {
  readonly ok: false;
  readonly refusal: Refusal;
  readonly text: string;
  readonly question?: Question;
};

export type Outcome = { readonly ok: true; readonly question: Question; readonly text: string } | Refused;

export interface DraftOutcomeOk {
  readonly ok: true;
  readonly question: Question;
  /** The member of a set the draft is of; absent for a single question. */
  readonly member?: number;
  readonly draft: Draft;
  /** The ready mark of this draft (of its member, for a set). */
  readonly readiness: Readiness;
}

export type DraftOutcome = DraftOutcomeOk | Refused;

/**
 * Whether a person may act on a question here and now, with their draft if they have one (see `reach`): `draft` for
 * a single question, `drafts` (one per member, undefined where none) for a set.
 */
export type Reach =
  | {
      readonly ok: true;
      readonly question: Question;
      readonly draft?: Draft;
      readonly drafts: readonly (Draft | undefined)[];
    }
  | Refused;

/** What Send would send, each item with its ready mark (see `review`). */
export type Review = ({ readonly ok: true } & ReviewOf) | Refused;

/** Which page of a place's inbox to read. */
export interface InboxPageRequest {
  readonly filter: InboxFilter;
  /** The ref of the last question of the page before ({@link InboxPage.next}); absent: the first page. */
  readonly after?: string;
  /** Questions on the page: as many as the surface shows at once. */
  readonly limit: number;
  /** Only the project of this tag (`core/question-ref.ts`), among those the place shows (the web inbox's filter). */
  readonly project?: string;
  /** The store's counts of these projects when the caller read them just now (the web inbox, for its project filter). */
  readonly counts?: ReadonlyMap<string, ViewCounts>;
}
