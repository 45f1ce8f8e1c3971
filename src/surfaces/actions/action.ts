/**
 * The one inbound pipeline's vocabulary: every surface parses its payload into an {@link Action} (with the actor and
 * the place), `perform` runs it through `InteractionService`, and the surface renders the {@link ActionResult} as its
 * own reply, in its own transport and time limit (Slack: ack, `response_url`, `views.*`; Discord: the interaction
 * response; Telegram: `answerCallbackQuery` and an edit; the web inbox: JSON).
 *
 * A payload's values are read against the question they are about (an option's index or value becomes its label):
 * the action carries a reader the pipeline applies once it looked the question up, so parsing stays free of I/O.
 */
import type { Readiness } from '../../core/answer.js';
import type { InboxPage } from '../../core/inbox.js';
import type { Draft, Question, QuestionItem, Selection } from '../../core/question.js';
import type { DraftChange, InboxPageRequest, Refusal } from '../interactions.js';
import type { ReviewOf, ShownPick, ShownPicks } from '../review.js';

/**
 * A platform's pick values read against the item they are for: undefined when they do not fit it (the payload is
 * then dropped). `shown` is what the item shows selected now (the draft, else the recommendation): a toggle starts
 * from it.
 */
export type PickReader = (item: QuestionItem, shown: Selection) => ShownPick | undefined;

/** A notes form's fields as draft changes, one per item it holds; undefined when the form does not fit the question. */
export type NotesReader = (question: Question) => readonly DraftChange[] | undefined;

/** What the platform shows picked right now, item by item (Slack's state values); undefined: unreadable. */
export type ShownReader = (question: Question) => ShownPicks | undefined;

/** What a person asks for, on any surface. `ref` is a question ref (`core/question-ref.ts`). */
export type Action =
  /** Change the choices of the person's draft (of a set's `member`). */
  | { readonly kind: 'pick'; readonly ref: string; readonly member?: number; readonly read: PickReader }
  /** Change the person's draft as the surface sends it (a pick, notes, notes per option at once); no form rule. */
  | { readonly kind: 'draft'; readonly ref: string; readonly read: NotesReader }
  /** Open the notes form (of a set's `member`, where the surface has one per member): read, nothing written. */
  | { readonly kind: 'open-notes'; readonly ref: string; readonly member?: number }
  /** Save what a notes form submitted (notes, notes per option, and a pick shown in the form). */
  | { readonly kind: 'save-notes'; readonly ref: string; readonly read: NotesReader }
  /**
   * Send: a single question at once; a set (`reviewSets`) is reviewed first, refused in place until every member is
   * ready. `shown`: what the platform shows picked (else the drafts, else the recommendations).
   */
  | { readonly kind: 'send'; readonly ref: string; readonly reviewSets: boolean; readonly shown?: ShownReader }
  /** A review's confirmation: send when the answers are still those reviewed (`check`), else review again. */
  | { readonly kind: 'confirm-send'; readonly ref: string; readonly check: string; readonly shown?: ShownReader }
  /** What Send would send, without sending. */
  | { readonly kind: 'review'; readonly ref: string; readonly shown?: ShownReader }
  /** Remove: asks first (read, nothing written). */
  | { readonly kind: 'ask-remove'; readonly ref: string }
  /** The confirmation's Remove: dismiss the question. */
  | { readonly kind: 'remove'; readonly ref: string }
  /** The confirmation's Keep. */
  | { readonly kind: 'keep'; readonly ref: string }
  /** One page of the place's inbox. */
  | { readonly kind: 'inbox'; readonly request: InboxPageRequest }
  /**
   * "Send N answers": the ready answers among `refs` (the page the person saw), sent as shown; without refs, those
   * of `page` read afresh.
   */
  | { readonly kind: 'send-ready'; readonly refs: readonly string[]; readonly page?: InboxPageRequest };

/** What an action came to, for the surface to render. */
export type ActionResult =
  /** Refused in place (the store unchanged), with the text to tell the person. */
  | {
      readonly kind: 'refused';
      readonly refusal: Refusal | 'needs-note' | 'changed';
      readonly text: string;
      readonly question?: Question;
    }
  /** Not ours, or unreadable: nothing to tell (logged with ids). */
  | { readonly kind: 'dropped'; readonly reason: string }
  /** The draft was saved: the person's drafts of every item now, and the ready mark of the one changed. */
  | {
      readonly kind: 'drafted';
      readonly question: Question;
      readonly member?: number;
      readonly draft: Draft;
      readonly drafts: readonly (Draft | undefined)[];
      readonly readiness: Readiness;
    }
  /** The notes form to open, prefilled with the person's drafts. */
  | {
      readonly kind: 'notes';
      readonly question: Question;
      readonly member?: number;
      readonly drafts: readonly (Draft | undefined)[];
    }
  /** A review to show (a set's before it is sent; `changed`: shown again because the answers changed). */
  | { readonly kind: 'review'; readonly review: ReviewOf; readonly check: string; readonly changed?: boolean }
  | { readonly kind: 'sent'; readonly question: Question; readonly text: string }
  | { readonly kind: 'removed'; readonly question: Question; readonly text: string }
  /** Remove's confirmation to show. */
  | { readonly kind: 'confirm-remove'; readonly question: Question }
  | { readonly kind: 'kept'; readonly text: string }
  | { readonly kind: 'inbox'; readonly page: InboxPage }
  /** What "Send N answers" did, per ref, and its summary. */
  | {
      readonly kind: 'batch';
      readonly text: string;
      readonly sent: readonly number[];
      readonly results: readonly { readonly ref: string; readonly ok: boolean; readonly text: string }[];
    };

/** The item an action is about: a single question itself (no member), or the set's `member`; else undefined. */
export function itemAt(question: Question, member: number | undefined): QuestionItem | undefined {
  if (question.members === undefined) return member === undefined ? question : undefined;
  return member === undefined ? undefined : question.members[member];
}
