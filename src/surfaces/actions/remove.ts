/** Remove, its confirmation, and Keep. */

import { parseQuestionRef } from '../../core/question-ref.js';
import { keptText } from '../../render/vocabulary.js';
import type { Actor, InteractionService, Place } from '../interactions.js';
import type { Action, ActionResult } from './action.js';

/** Remove asks first, if the person may act on the question at all (read, nothing written). */
export async function askRemove(
  interactions: InteractionService,
  actor: Actor,
  place: Place,
  action: Extract<Action, { kind: 'ask-remove' }>,
): Promise<ActionResult> {
  const reach = await interactions.reach(action.ref, actor, place);
  if (!reach.ok) return { kind: 'refused', ...reach };
  return { kind: 'confirm-remove', question: reach.question };
}

/** The confirmation's Remove: dismiss; the agent is told. */
export async function remove(
  interactions: InteractionService,
  actor: Actor,
  place: Place,
  action: Extract<Action, { kind: 'remove' }>,
): Promise<ActionResult> {
  const outcome = await interactions.remove(action.ref, actor, place);
  if (!outcome.ok) return { kind: 'refused', ...outcome };
  return { kind: 'removed', question: outcome.question, text: outcome.text };
}

/** The confirmation's Keep: nothing changes. */
export function keep(action: Extract<Action, { kind: 'keep' }>): ActionResult {
  return { kind: 'kept', text: keptText(parseQuestionRef(action.ref)?.id) };
}
