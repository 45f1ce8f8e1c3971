/** Changing a person's draft: a pick, and what a notes form submitted. */

import { shownSelection } from '../../core/inbox.js';
import { REFUSALS } from '../../render/vocabulary.js';
import type { Actor, DraftChange, DraftOutcomeOk, InteractionService, Place } from '../interactions.js';
import { type Action, type ActionResult, itemAt } from './action.js';

/**
 * A pick (a select's values, a toggled button): read against the item, kept as the person's draft of it. An unknown
 * question is the service's to report; values that do not fit the item drop the payload.
 */
export async function pick(
  interactions: InteractionService,
  actor: Actor,
  place: Place,
  action: Extract<Action, { kind: 'pick' }>,
): Promise<ActionResult> {
  const question = await interactions.lookup(action.ref, actor);
  let change: DraftChange = {};
  if (question !== undefined) {
    const item = itemAt(question, action.member);
    if (item === undefined) return { kind: 'dropped', reason: 'no such member' };
    const shown = shownSelection(item, await interactions.draftOf(question, actor, action.member));
    const read = action.read(item, shown);
    if (read === undefined) return { kind: 'dropped', reason: 'unreadable pick' };
    change = { ...(action.member === undefined ? {} : { member: action.member }), pick: read };
  }
  const outcome = await interactions.saveDraft(action.ref, actor, place, change);
  if (!outcome.ok) return { kind: 'refused', ...outcome };
  return drafted(interactions, actor, outcome);
}

/**
 * A notes form submitted (or a draft change): each item's notes, notes per option and (where the form shows one) the
 * pick, saved as the person's drafts. A notes form about one item that leaves Other without a note is refused (the
 * draft keeps what was written, so Send says the same).
 */
export async function saveNotes(
  interactions: InteractionService,
  actor: Actor,
  place: Place,
  action: Extract<Action, { kind: 'save-notes' | 'draft' }>,
): Promise<ActionResult> {
  const question = await interactions.lookup(action.ref, actor);
  const changes = question === undefined ? [{ notes: '' }] : action.read(question);
  if (changes === undefined || changes.length === 0) return { kind: 'dropped', reason: 'unreadable notes form' };
  let last: DraftOutcomeOk | undefined;
  for (const change of changes) {
    const outcome = await interactions.saveDraft(action.ref, actor, place, change);
    if (!outcome.ok) return { kind: 'refused', ...outcome };
    last = outcome;
  }
  if (last === undefined) return { kind: 'dropped', reason: 'nothing saved' };
  const [only] = changes;
  const form = action.kind === 'save-notes';
  if (form && changes.length === 1 && only?.notes !== undefined && last.readiness === 'needs-note') {
    return { kind: 'refused', refusal: 'needs-note', text: REFUSALS.noteMissing, question: last.question };
  }
  return drafted(interactions, actor, last);
}

async function drafted(interactions: InteractionService, actor: Actor, saved: DraftOutcomeOk): Promise<ActionResult> {
  const drafts =
    saved.question.members === undefined ? [saved.draft] : await interactions.draftsOf(saved.question, actor);
  return {
    kind: 'drafted',
    question: saved.question,
    ...(saved.member === undefined ? {} : { member: saved.member }),
    draft: saved.draft,
    drafts,
    readiness: saved.readiness,
  };
}
