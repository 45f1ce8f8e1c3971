/** The inbox: one page of a place's questions, the notes form, and "Send N answers". */

import { formatQuestionRef } from '../../core/question-ref.js';
import { batchSummary } from '../../render/vocabulary.js';
import type { Actor, InteractionService, Place } from '../interactions.js';
import type { Action, ActionResult } from './action.js';

/** One page of the place's inbox, with the person's drafts. */
export async function inbox(
  interactions: InteractionService,
  actor: Actor,
  place: Place,
  action: Extract<Action, { kind: 'inbox' }>,
): Promise<ActionResult> {
  return { kind: 'inbox', page: await interactions.inboxPage(actor, place, action.request) };
}

/** The notes form of a question (of a set's member), if the person may act on it: read, nothing written. */
export async function openNotes(
  interactions: InteractionService,
  actor: Actor,
  place: Place,
  action: Extract<Action, { kind: 'open-notes' }>,
): Promise<ActionResult> {
  const reach = await interactions.reach(action.ref, actor, place);
  if (!reach.ok) return { kind: 'refused', ...reach };
  if (action.member !== undefined && reach.question.members?.[action.member] === undefined) {
    return { kind: 'dropped', reason: 'no such member' };
  }
  return {
    kind: 'notes',
    question: reach.question,
    drafts: reach.drafts,
    ...(action.member === undefined ? {} : { member: action.member }),
  };
}

/**
 * "Send N answers": the questions on the page the person saw whose shown selection is ready (their drafts, else the
 * preselected recommendations), sent as shown. Read afresh at the click, so a question answered elsewhere meanwhile
 * is told, not sent twice, and one the page did not show is never sent. Each refusal is told once.
 */
export async function sendReady(
  interactions: InteractionService,
  actor: Actor,
  place: Place,
  action: Extract<Action, { kind: 'send-ready' }>,
): Promise<ActionResult> {
  const refs =
    action.refs.length > 0 || action.page === undefined
      ? [...new Set(action.refs)]
      : (await interactions.inboxPage(actor, place, action.page)).items.map((item) =>
          formatQuestionRef(item.question.project, item.question.id),
        );
  const results = await interactions.sendReady(refs, actor, place);
  const sent: number[] = [];
  const refused: string[] = [];
  for (const { outcome } of results) {
    if (outcome.ok) sent.push(outcome.question.id);
    else if (!refused.includes(outcome.text)) refused.push(outcome.text);
  }
  return {
    kind: 'batch',
    text: batchSummary(sent, refused),
    sent,
    results: results.map(({ ref, outcome }) => ({ ref, ok: outcome.ok, text: outcome.text })),
  };
}
