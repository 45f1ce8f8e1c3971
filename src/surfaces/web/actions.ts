/**
 * The web inbox's JSON actions, through the same pipeline as every surface: the body (schemas.ts) becomes an action
 * whose readers turn option indexes into labels (a 400 when the page names what the question does not have: the page
 * is older than the question), `perform` runs it, and its result is the JSON the page reads. Open pages are told
 * what changed.
 */

import type { Logger } from '../../core/logger.js';
import { itemsOf, type Question, type QuestionItem } from '../../core/question.js';
import { WEB_ROUTES } from '../../render/web/routes.js';
import type { Action, ActionResult, ShownReader } from '../actions/action.js';
import { perform } from '../actions/perform.js';
import type { Actor, InteractionService } from '../interactions.js';
import type { ShownPick } from '../review.js';
import { RequestRefusedError } from './request-refused-error.js';
import {
  draftSchema,
  type PickInput,
  parseBody,
  removeSchema,
  reviewSchema,
  sendReadySchema,
  sendSchema,
} from './schemas.js';
import { WEB_CHANNEL, type WebSurface } from './surface.js';

/** What an action answers: `ok`, the text to show, and what the page needs beyond it. */
export type ActionBody = { ok: boolean; text: string; [key: string]: unknown };

export interface WebActionsOptions {
  readonly interactions: InteractionService;
  readonly surface: WebSurface;
  readonly logger: Logger;
}

/** The JSON action at `path` for `actor`, its body already read; a 404 for a path that is none. */
export async function runWebAction(
  options: WebActionsOptions,
  actor: Actor,
  path: string,
  body: unknown,
): Promise<ActionBody> {
  const { action, notify } = actionOf(path, body);
  const result = await perform(
    options.interactions,
    { actor, place: { channel: WEB_CHANNEL }, action },
    options.logger,
  );
  for (const ref of notify(result)) {
    const project = 'question' in result ? result.question?.project : undefined;
    options.surface.notify(ref, project === undefined ? {} : { project });
  }
  return bodyOf(result);
}

/** The action a path and body ask for, and the refs whose pages to tell afterwards. */
function actionOf(path: string, body: unknown): { action: Action; notify: (result: ActionResult) => string[] } {
  switch (path) {
    case WEB_ROUTES.draft: {
      const input = parseBody(draftSchema, body);
      const read = (question: Question) => {
        const item = itemOf(question, input.member);
        return [
          {
            ...(input.member === undefined ? {} : { member: input.member }),
            ...(input.pick === undefined ? {} : { pick: pickOf(item, input.pick) }),
            ...(input.notes === undefined ? {} : { notes: input.notes }),
            ...(input.choiceNotes === undefined
              ? {}
              : { choiceNotes: input.choiceNotes.map((e) => ({ choice: labelOf(item, e.choice), notes: e.notes })) }),
          },
        ];
      };
      return {
        action: { kind: 'draft', ref: input.ref, read },
        notify: (r) => (r.kind === 'drafted' ? [input.ref] : []),
      };
    }
    case WEB_ROUTES.review: {
      const input = parseBody(reviewSchema, body);
      return { action: { kind: 'review', ref: input.ref, shown: shownOf(input) }, notify: () => [] };
    }
    case WEB_ROUTES.send: {
      const input = parseBody(sendSchema, body);
      const shown = input.pick === undefined && input.picks === undefined ? undefined : shownOf(input);
      const action: Action = { kind: 'send', ref: input.ref, reviewSets: false, ...(shown ? { shown } : {}) };
      return { action, notify: () => [input.ref] };
    }
    case WEB_ROUTES.remove: {
      const input = parseBody(removeSchema, body);
      return { action: { kind: 'remove', ref: input.ref }, notify: () => [input.ref] };
    }
    case WEB_ROUTES.sendReady: {
      const input = parseBody(sendReadySchema, body);
      return {
        action: { kind: 'send-ready', refs: input.refs },
        notify: (r) => (r.kind === 'batch' ? r.results.map((result) => result.ref) : []),
      };
    }
    default:
      throw new RequestRefusedError(404, 'No such action.');
  }
}

function bodyOf(result: ActionResult): ActionBody {
  switch (result.kind) {
    case 'drafted':
      return { ok: true, text: '', readiness: result.readiness };
    case 'review': {
      const { review } = result;
      return {
        ok: true,
        ready: review.ready,
        text: review.text,
        summary: review.summary,
        lines: review.lines.map((line) => ({
          ref: line.ref,
          ...(line.topic === undefined ? {} : { topic: line.topic }),
          answer: line.answer,
          readiness: line.readiness,
        })),
      };
    }
    case 'batch': {
      const refused = result.results.filter((r) => !r.ok).length;
      return {
        ok: refused === 0 && result.sent.length > 0,
        text: result.text,
        sent: result.sent.length,
        results: result.results,
      };
    }
    case 'refused':
      return { ok: false, text: result.text, refusal: result.refusal };
    case 'sent':
    case 'removed':
      return { ok: true, text: result.text };
    default:
      throw new RequestRefusedError(400, 'That request is not one the inbox understands; reload the page.');
  }
}

/**
 * The item a draft is for: the question itself, or the set's `member`. Refused (400) when the page names a member
 * of a single question, none of a set, or one the set does not have (the page is older than the question).
 */
function itemOf(question: Question, member: number | undefined): QuestionItem {
  if (question.members === undefined) {
    if (member === undefined) return question;
    throw new RequestRefusedError(400, 'That question is not a set; reload the page.');
  }
  const item = member === undefined ? undefined : question.members[member];
  if (item === undefined) throw new RequestRefusedError(400, 'Say which question of the set; reload the page.');
  return item;
}

/** An option index as its label; refused (400) when it is not one of the item's options. */
function labelOf(item: QuestionItem, index: number): string {
  const label = item.options[index]?.label;
  if (label === undefined) {
    throw new RequestRefusedError(400, 'That option is not one of the question’s options; reload the page.');
  }
  return label;
}

function pickOf(item: QuestionItem, pick: PickInput): ShownPick {
  return { choices: pick.choices.map((index) => labelOf(item, index)), other: pick.other };
}

/** What the page shows picked, item by item, as labels. */
function shownOf(input: {
  readonly pick?: PickInput | undefined;
  readonly picks?: (PickInput | null)[] | undefined;
}): ShownReader {
  return (question) => {
    if (input.pick === undefined && input.picks === undefined) return [];
    const items = itemsOf(question);
    const picks = input.picks ?? [input.pick ?? null];
    if (picks.length > items.length)
      throw new RequestRefusedError(400, 'That question has fewer parts; reload the page.');
    return picks.map((pick, index) => {
      const item = items[index];
      return pick === null || item === undefined ? undefined : pickOf(item, pick);
    });
  };
}
