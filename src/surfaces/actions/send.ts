/** Send, a set's review before it, and the review's confirmation. */

import { reviewCheck } from '../../core/review-check.js';
import { REFUSALS } from '../../render/vocabulary.js';
import type { Actor, InteractionService, Located, Place, Refused, ShownPicks } from '../interactions.js';
import type { Action, ActionResult, ShownReader } from './action.js';

/**
 * The question located once for the whole action, and what the platform shows picked read against it (`unreadable`:
 * the payload is dropped).
 */
async function locateShown(
  interactions: InteractionService,
  actor: Actor,
  place: Place,
  ref: string,
  read: ShownReader | undefined,
): Promise<{ located: Located | Refused; shown?: ShownPicks } | 'unreadable'> {
  const located = await interactions.locate(ref, actor, place);
  if (read === undefined || !located.ok) return { located };
  const shown = read(located.question);
  return shown === undefined ? 'unreadable' : { located, shown };
}

/**
 * Send. A single question at once (what shows, else the draft, else the recommendation); a set, when the surface
 * reviews sets, reviewed first: refused in place naming the members that are not ready, else the review to confirm.
 */
export async function send(
  interactions: InteractionService,
  actor: Actor,
  place: Place,
  action: Extract<Action, { kind: 'send' }>,
): Promise<ActionResult> {
  const found = await locateShown(interactions, actor, place, action.ref, action.shown);
  if (found === 'unreadable') return { kind: 'dropped', reason: 'unreadable shown picks' };
  const { located, shown } = found;
  if (!located.ok) return { kind: 'refused', ...located };
  if (action.reviewSets && located.question.members !== undefined) {
    const review = await interactions.review(located, actor, place, shown);
    if (!review.ok) return { kind: 'refused', ...review };
    if (!review.ready) return { kind: 'refused', refusal: 'not-ready', text: review.text, question: review.question };
    return { kind: 'review', review, check: reviewCheck(review.lines.map((line) => line.selection)) };
  }
  const outcome = await interactions.send(located, actor, place, shown);
  if (!outcome.ok) return { kind: 'refused', ...outcome };
  return { kind: 'sent', question: outcome.question, text: outcome.text };
}

/** What Send would send, ready or not (the web inbox's review panel). */
export async function review(
  interactions: InteractionService,
  actor: Actor,
  place: Place,
  action: Extract<Action, { kind: 'review' }>,
): Promise<ActionResult> {
  const found = await locateShown(interactions, actor, place, action.ref, action.shown);
  if (found === 'unreadable') return { kind: 'dropped', reason: 'unreadable shown picks' };
  const reviewed = await interactions.review(found.located, actor, place, found.shown);
  if (!reviewed.ok) return { kind: 'refused', ...reviewed };
  return { kind: 'review', review: reviewed, check: reviewCheck(reviewed.lines.map((line) => line.selection)) };
}

/**
 * A review's confirmation: sends when the answers are still those reviewed (`check`); otherwise the review again,
 * with the answers as they are now, to confirm from there.
 */
export async function confirmSend(
  interactions: InteractionService,
  actor: Actor,
  place: Place,
  action: Extract<Action, { kind: 'confirm-send' }>,
): Promise<ActionResult> {
  const found = await locateShown(interactions, actor, place, action.ref, action.shown);
  if (found === 'unreadable') return { kind: 'dropped', reason: 'unreadable shown picks' };
  const { located, shown } = found;
  const reviewed = await interactions.review(located, actor, place, shown);
  if (!reviewed.ok) return { kind: 'refused', ...reviewed };
  if (!reviewed.ready) {
    return { kind: 'refused', refusal: 'not-ready', text: reviewed.text, question: reviewed.question };
  }
  const check = reviewCheck(reviewed.lines.map((line) => line.selection));
  if (check !== action.check) return { kind: 'review', review: reviewed, check, changed: true };
  const outcome = await interactions.send(located, actor, place, shown);
  if (!outcome.ok) return { kind: 'refused', ...outcome };
  return { kind: 'sent', question: outcome.question, text: outcome.text };
}

/** The text a changed review is shown with. */
export const REVIEW_CHANGED = REFUSALS.reviewChanged;
