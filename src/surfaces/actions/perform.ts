/**
 * Runs one action of any surface through `InteractionService` and says what came of it, logging one line (the
 * action, the person's id, the result and the refusal: never text).
 */

import type { Logger } from '../../core/logger.js';
import type { Actor, InteractionService, Place } from '../interactions.js';
import type { Action, ActionResult } from './action.js';
import { pick, saveNotes } from './draft.js';
import { inbox, openNotes, sendReady } from './inbox.js';
import { askRemove, keep, remove } from './remove.js';
import { confirmSend, review, send } from './send.js';

/** One action of one person: who, where, what. */
export interface ActionRequest {
  readonly actor: Actor;
  readonly place: Place;
  readonly action: Action;
}

function run(interactions: InteractionService, { actor, place, action }: ActionRequest): Promise<ActionResult> {
  switch (action.kind) {
    case 'pick':
      return pick(interactions, actor, place, action);
    case 'open-notes':
      return openNotes(interactions, actor, place, action);
    case 'save-notes':
    case 'draft':
      return saveNotes(interactions, actor, place, action);
    case 'send':
      return send(interactions, actor, place, action);
    case 'confirm-send':
      return confirmSend(interactions, actor, place, action);
    case 'review':
      return review(interactions, actor, place, action);
    case 'ask-remove':
      return askRemove(interactions, actor, place, action);
    case 'remove':
      return remove(interactions, actor, place, action);
    case 'keep':
      return Promise.resolve(keep(action));
    case 'inbox':
      return inbox(interactions, actor, place, action);
    case 'send-ready':
      return sendReady(interactions, actor, place, action);
  }
}

/** Perform `request` and log its outcome on `logger` under the surface's name. Throws what the store throws. */
export async function perform(
  interactions: InteractionService,
  request: ActionRequest,
  logger: Logger,
): Promise<ActionResult> {
  const result = await run(interactions, request);
  // Slack, Discord and Telegram user ids are ids; a web (or terminal) user id is a token's name, a person's: not logged.
  const user = request.actor.platform === 'web' ? {} : { user: request.actor.userId };
  const fields = { platform: request.actor.platform, action: request.action.kind, ...user };
  if (result.kind === 'refused') logger.info({ ...fields, refusal: result.refusal }, 'interaction refused');
  else if (result.kind === 'dropped') logger.warn(fields, `interaction dropped (${result.reason})`);
  else if (result.kind === 'sent') logger.info({ ...fields, questionId: result.question.id }, 'answer sent');
  else if (result.kind === 'batch') {
    logger.info({ ...fields, sent: result.sent.length, results: result.results.length }, 'inbox sent');
  }
  return result;
}
