import type { Draft } from '../../core/question.js';

/** What the message shows besides the question: one person's drafts, and the message's revision. */
export interface QuestionMessageView {
  /**
   * A single question's draft the picker and ready mark show (the last person who touched the message); else the
   * recommendation.
   */
  readonly draft?: Draft;
  /** The drafts per item, as {@link draft} for each (a set: one per member, undefined where none). */
  readonly drafts?: readonly (Draft | undefined)[];
  /** Display name of the drafts' author, for "Notes by …". */
  readonly draftBy?: string;
  /** Bumped by the caller on every redraw; part of the pickers' block_ids (see `ids.ts`). */
  readonly revision: number;
}
