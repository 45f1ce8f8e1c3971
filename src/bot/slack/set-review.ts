/**
 * Send on a set: the review before it goes, and its submit.
 *
 * - Send (a `block_actions` click on a set's message): what the message shows for this viewer (every member's
 *   select is in the click's `state.values`) is reviewed (`InteractionService.review`). Not every member ready:
 *   refused in place with the review's text (ephemeral, through `response_url`, as a single question's Send is).
 *   Ready: the review modal opens on the click's fresh trigger (within Slack's 3 s), listing each topic, its answer
 *   and its notes.
 * - Its submit (`view_submission`, callback `al_review`) sends what was reviewed. The modal's `private_metadata`
 *   carries the reviewed picks (each member's select values: a few characters each) and a fingerprint of the
 *   review (picks and notes). Nothing is written to open a review: drafts are not saved from it, so a person who
 *   looks and goes Back has changed nothing, and opening stays one read within the trigger's 3 s. The submit
 *   reviews again with the carried picks: the same fingerprint sends them; notes changed meanwhile (another window)
 *   show the new review in place instead, to be sent from there; a refusal (answered elsewhere meanwhile, no longer
 *   allowed) replaces the modal with its text.
 */
import { createHash } from 'node:crypto';
import { CALLBACK_IDS, selectionFromSelectState, valueForLabel } from '../../blocks/slack/ids.js';
import { renderReviewModal } from '../../blocks/slack/review-modal.js';
import type { ModalView } from '../../blocks/slack/types.js';
import type { Question, QuestionItem } from '../../core/question.js';
import type { InteractionService, Pick, ReviewLine } from '../interactions.js';
import type { Logger } from '../logger.js';
import type { ViewAck } from './handlers.js';
import { noticeModal } from './notice.js';
import { type BlockActions, obj, payloadActor, viewOf } from './payload.js';
import { readReviewOrigin, withReviewOrigin } from './view-metadata.js';
import { callSlack, type WebClient } from './web.js';

export interface SetReviewOptions {
  readonly interactions: InteractionService;
  readonly client: WebClient;
  readonly logger: Logger;
  /** Reply in place to the person who clicked (ephemeral), logging the refusal. */
  readonly tell: (p: BlockActions, text: string, refusal: string) => Promise<void>;
  /** The question a ref names, if any. */
  readonly question: (ref: string) => Promise<Question | undefined>;
}

export class SetReview {
  readonly #o: SetReviewOptions;

  constructor(options: SetReviewOptions) {
    this.#o = options;
  }

  /** Send on a set's message: refuse in place until every member is ready, else open the review on the trigger. */
  async open(p: BlockActions, ref: string, shown: readonly (Pick | undefined)[]): Promise<void> {
    if (!p.message || p.triggerId === undefined) {
      this.#o.logger.warn({ what: p.actionId, user: p.actor.userId }, 'slack: payload dropped (no message or trigger)');
      return;
    }
    const channel = p.message.channel;
    const review = await this.#o.interactions.review(ref, p.actor, { channel }, shown);
    if (!review.ok) return this.#o.tell(p, review.text, review.refusal);
    if (!review.ready) return this.#o.tell(p, review.text, 'not-ready');
    const view = withReviewOrigin(renderReviewModal(review.question, review.lines), {
      ref,
      channel,
      picks: review.lines.map((line) => pickValues(itemAt(review.question, line.member), line.selection)),
      fp: fingerprint(review.lines),
    });
    await callSlack(this.#o.client, 'views.open', { trigger_id: p.triggerId, view });
    this.#o.logger.info(
      { action: p.actionId, questionId: review.question.id, user: p.actor.userId },
      'slack: set review opened',
    );
  }

  /** The review's submit: send what was reviewed, or show why not (see the module comment). */
  async submit(body: unknown): Promise<{ ack: ViewAck }> {
    const b = obj(body);
    const actor = b ? payloadActor(b) : undefined;
    const view = viewOf(b?.view);
    const origin = readReviewOrigin(view?.privateMetadata);
    if (!actor || !view || !origin || view.callbackId !== CALLBACK_IDS.review) {
      this.#o.logger.warn(
        { what: 'view_submission', user: actor?.userId },
        'slack: payload dropped (unreadable review)',
      );
      return { ack: undefined };
    }
    const question = await this.#o.question(origin.ref);
    const picks = question === undefined ? [] : readPicks(question, origin.picks);
    if (question !== undefined && picks === undefined) {
      this.#o.logger.warn({ what: 'view_submission', user: actor.userId }, 'slack: payload dropped (unreadable picks)');
      return { ack: undefined };
    }
    const place = { channel: origin.channel };
    const review = await this.#o.interactions.review(origin.ref, actor, place, picks);
    const title = question === undefined ? 'Review' : `Review #${question.id}`;
    if (!review.ok) return this.#refused(actor.userId, review.refusal, noticeModal(title, review.text));
    if (!review.ready) return this.#refused(actor.userId, 'not-ready', noticeModal(title, review.text));
    if (fingerprint(review.lines) !== origin.fp) {
      // Notes changed since the review opened: show what Send would send now, to be sent from there.
      const again = withReviewOrigin(renderReviewModal(review.question, review.lines), {
        ...origin,
        fp: fingerprint(review.lines),
      });
      return this.#refused(actor.userId, 'changed', again);
    }
    const outcome = await this.#o.interactions.send(origin.ref, actor, place, picks);
    if (!outcome.ok) return this.#refused(actor.userId, outcome.refusal, noticeModal(title, outcome.text));
    this.#o.logger.info(
      { action: 'review', questionId: outcome.question.id, user: actor.userId },
      'slack: answer sent',
    );
    // Success: the `answered` event makes the bridge redraw every copy; the modal closes.
    return { ack: undefined };
  }

  #refused(user: string, refusal: string, view: ModalView): { ack: ViewAck } {
    this.#o.logger.info({ action: 'review', user, refusal }, 'slack: interaction refused');
    return { ack: { response_action: 'update', view } };
  }
}

function itemAt(question: Question, member: number): QuestionItem {
  const item = question.members === undefined ? question : question.members[member];
  if (item === undefined) throw new RangeError(`#${question.id} has no member ${member}`);
  return item;
}

/** A pick as the select values that show it (`"0"`, `"2"`, `"other"`). */
function pickValues(item: QuestionItem, pick: Pick): string[] {
  const values = pick.choices.flatMap((label) => valueForLabel(item, label) ?? []);
  return pick.other ? [...values, 'other'] : values;
}

/** The carried picks read back against the set's items; undefined when any names what the item does not have. */
function readPicks(
  question: Question,
  carried: readonly (readonly string[] | null)[],
): (Pick | undefined)[] | undefined {
  const items = question.members ?? [question];
  if (carried.length !== items.length) return undefined;
  const picks: (Pick | undefined)[] = [];
  for (const [index, item] of items.entries()) {
    const values = carried[index];
    if (values === null || values === undefined) {
      picks.push(undefined);
      continue;
    }
    const pick = selectionFromSelectState(item, { selected_options: values.map((value) => ({ value })) });
    if (pick === undefined) return undefined;
    picks.push(pick);
  }
  return picks;
}

/** What a review would send, as a short digest: the same picks and notes give the same fingerprint. */
function fingerprint(lines: readonly ReviewLine[]): string {
  const sent = lines.map(({ selection }) => [
    selection.choices,
    selection.other,
    selection.notes ?? '',
    selection.choiceNotes ?? [],
  ]);
  return createHash('sha256').update(JSON.stringify(sent)).digest('base64url').slice(0, 22);
}
