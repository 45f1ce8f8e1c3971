/**
 * The pipeline's results as Slack replies, in Slack's transports: an ephemeral line through the click's
 * `response_url` (to the person who clicked only, never replacing the shared message), `chat.update` of a question
 * message showing the person's draft, `views.open` / `views.push` on the click's fresh trigger, `views.update` /
 * `views.publish` of the inbox, and the ack of a view submission (field errors, or another view in its place).
 * A sent answer draws nothing here: the `answered` event makes the bridge redraw every copy.
 */

import type { Logger } from '../../core/logger.js';
import { type Draft, itemsOf, type Question } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import { escapeMrkdwn, truncate } from '../../render/slack/format.js';
import { NOTES_BLOCK_IDS, selectValueForLabel } from '../../render/slack/ids.js';
import { renderInbox } from '../../render/slack/inbox.js';
import { renderNotesModal } from '../../render/slack/notes-modal.js';
import { renderQuestionMessage } from '../../render/slack/question-message.js';
import { renderReviewModal } from '../../render/slack/review-modal.js';
import type { ModalView, SlackView, ViewBlock } from '../../render/slack/types.js';
import { REFUSALS } from '../../render/vocabulary.js';
import { type ActionResult, itemAt } from '../actions/action.js';
import { perform } from '../actions/perform.js';
import type { Actor, InteractionService } from '../interactions.js';
import type { ShownPick } from '../review.js';
import { noticeModal } from './notice.js';
import { inboxRequest, type SlackOrigin, type SlackRequest } from './parse.js';
import type { Json } from './payload.js';
import { updateQuestionMessage } from './surface.js';
import { type InboxOrigin, withInboxMetadata, withNotesOrigin, withReviewOrigin } from './view-metadata.js';
import { callSlack, type WebClient } from './web.js';

/** What a `view_submission` is acked with: nothing (close the modal), field errors, or another view in its place. */
export type ViewAck =
  | undefined
  | { response_action: 'errors'; errors: Record<string, string> }
  | { response_action: 'update'; view: ModalView };

/** A reply: the ack of a view submission (when it was one), and work to do after it. */
export interface SlackReply {
  readonly ack?: ViewAck;
  readonly after?: () => Promise<void>;
}

export interface SlackReplierOptions {
  readonly interactions: InteractionService;
  readonly client: WebClient;
  readonly logger: Logger;
  /** Posts an ephemeral reply to a `response_url`. */
  readonly respond: (responseUrl: string, body: Json) => Promise<void>;
  /** Message redraw revision (default `Date.now`). */
  readonly revision?: () => number;
}

/** Posts an ephemeral reply to a `response_url` with `fetch` (5 s). */
export async function fetchRespond(responseUrl: string, body: Json): Promise<void> {
  const response = await fetch(responseUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
  await response.body?.cancel();
  if (!response.ok) throw Object.assign(new Error('response_url refused the reply'), { statusCode: response.status });
}

/** Slack's limit on a view's blocks (modal and Home tab). */
const VIEW_BLOCKS_MAX = 100;

export class SlackReplier {
  readonly #o: SlackReplierOptions;
  readonly #revision: () => number;

  constructor(options: SlackReplierOptions) {
    this.#o = options;
    this.#revision = options.revision ?? Date.now;
  }

  /** Render `result` for where `request` came from. View submissions get their ack; the rest is sent here. */
  async reply(request: SlackRequest, result: ActionResult): Promise<SlackReply> {
    const { origin, actor } = request;
    switch (origin.kind) {
      case 'message':
        await this.#onMessage(origin, actor, result);
        return {};
      case 'notes-modal': {
        const title = result.kind === 'refused' && result.question ? `Notes for #${result.question.id}` : 'Notes';
        const view =
          result.kind === 'drafted'
            ? withNotesOrigin(renderNotesModal(result.question, result.draft, origin.notes.member), origin.notes)
            : result.kind === 'refused'
              ? noticeModal(title, result.text)
              : undefined;
        if (view !== undefined) await callSlack(this.#o.client, 'views.update', { view_id: origin.viewId, view });
        return {};
      }
      case 'inbox':
        await this.#onInbox(origin, actor, result);
        return {};
      case 'notes-submit':
        return this.#notesSubmitted(origin, actor, result);
      case 'review-submit':
        return this.#reviewSubmitted(origin, result);
      case 'command':
        if (result.kind !== 'inbox') return {};
        await callSlack(this.#o.client, 'views.open', {
          trigger_id: origin.triggerId,
          view: withInboxMetadata(renderInbox(result.page, { filter: 'all' }, 'modal'), origin.channel),
        });
        return {};
      case 'home':
        if (result.kind === 'inbox') await this.#publishInbox(origin.inbox, actor, result);
        return {};
    }
  }

  async #onMessage(origin: Extract<SlackOrigin, { kind: 'message' }>, actor: Actor, result: ActionResult) {
    switch (result.kind) {
      case 'refused':
        return this.#tell(origin.responseUrl, result.text);
      case 'drafted': {
        const message = renderQuestionMessage(result.question, {
          drafts: result.drafts,
          draftBy: actor.displayName,
          revision: this.#revision(),
        });
        await updateQuestionMessage(this.#o.client, origin.channel, origin.ts, message, this.#o.logger);
        return this.#settle(result.question, [{ channel: origin.channel, ts: origin.ts }]);
      }
      case 'notes': {
        // The modal starts from what this viewer's select shows; nothing is saved until it is submitted.
        const member = result.member;
        const index = member ?? 0;
        const shown = origin.shown?.(result.question)?.[index];
        const view = withNotesOrigin(renderNotesModal(result.question, withPick(result.drafts[index], shown), member), {
          ref: refOf(result.question),
          ...(member === undefined ? {} : { member }),
          channel: origin.channel,
        });
        await callSlack(this.#o.client, 'views.open', { trigger_id: origin.triggerId, view });
        return;
      }
      case 'review': {
        if (origin.triggerId === undefined) return;
        const { review, check } = result;
        const view = withReviewOrigin(renderReviewModal(review.question, review.lines), {
          ref: refOf(review.question),
          channel: origin.channel,
          picks: review.lines.map((line) => pickValues(review.question, line.member, line.selection)),
          fp: check,
        });
        await callSlack(this.#o.client, 'views.open', { trigger_id: origin.triggerId, view });
        return;
      }
      default:
        return;
    }
  }

  async #onInbox(origin: Extract<SlackOrigin, { kind: 'inbox' }>, actor: Actor, result: ActionResult) {
    const inbox = origin.inbox;
    switch (result.kind) {
      case 'inbox':
        return this.#publishInbox(inbox, actor, result);
      case 'notes': {
        const member = result.member;
        const view = withNotesOrigin(renderNotesModal(result.question, result.drafts[member ?? 0], member), {
          ref: refOf(result.question),
          ...(member === undefined ? {} : { member }),
          ...(inbox.channel === undefined ? {} : { channel: inbox.channel }),
          inbox,
        });
        // Over the inbox modal: push (Save pops back to it). From the Home tab: a modal of its own.
        const method = inbox.surface === 'modal' ? 'views.push' : 'views.open';
        await callSlack(this.#o.client, method, { trigger_id: origin.triggerId, view });
        return;
      }
      case 'refused':
      case 'batch':
        return this.showInbox(inbox, actor, result.text);
      case 'drafted':
        return this.showInbox(inbox, actor);
      default:
        return;
    }
  }

  /**
   * The notes modal's ack: field errors when the person may not act on the question any more or Other is left
   * without a note; otherwise nothing (the modal closes) and, after it, what shows the draft is redrawn.
   */
  #notesSubmitted(origin: Extract<SlackOrigin, { kind: 'notes-submit' }>, actor: Actor, result: ActionResult) {
    if (result.kind === 'refused') {
      return { ack: { response_action: 'errors', errors: { [NOTES_BLOCK_IDS.notes]: result.text } } } as const;
    }
    if (result.kind !== 'drafted') return { ack: undefined };
    const after = async () => {
      const inbox = origin.notes.inbox;
      if (inbox) {
        const viewId = inbox.viewId ?? origin.view.previousViewId;
        await this.showInbox({ ...inbox, ...(viewId === undefined ? {} : { viewId }) }, actor);
        return;
      }
      // Opened from a message: redraw every Slack copy of the question showing this draft.
      const targets = result.question.messages
        .filter((m) => m.platform === 'slack')
        .map((m) => ({ channel: m.channel, ts: m.messageId }));
      const message = renderQuestionMessage(result.question, {
        drafts: result.drafts,
        draftBy: actor.displayName,
        revision: this.#revision(),
      });
      for (const target of targets) {
        await updateQuestionMessage(this.#o.client, target.channel, target.ts, message, this.#o.logger);
      }
      await this.#settle(result.question, targets);
    };
    return { ack: undefined, after };
  }

  /** A set's review submitted: close when sent; show why not, or the review again when the answers changed. */
  #reviewSubmitted(origin: Extract<SlackOrigin, { kind: 'review-submit' }>, result: ActionResult): SlackReply {
    if (result.kind === 'sent' || result.kind === 'dropped') return { ack: undefined };
    if (result.kind === 'review') {
      const view = withReviewOrigin(renderReviewModal(result.review.question, result.review.lines), {
        ...origin.review,
        fp: result.check,
      });
      return { ack: { response_action: 'update', view } };
    }
    const title = result.kind === 'refused' && result.question ? `Review #${result.question.id}` : 'Review';
    const text = result.kind === 'refused' ? result.text : REFUSALS.tryAgain;
    return { ack: { response_action: 'update', view: noticeModal(title, text) } };
  }

  /** Draw the inbox for `origin` afresh (a notice under its header): `views.update` of the modal, or the Home tab. */
  async showInbox(origin: InboxOrigin, actor: Actor, note?: string): Promise<void> {
    const place = origin.channel === undefined ? {} : { channel: origin.channel };
    const action = { kind: 'inbox', request: inboxRequest(origin) } as const;
    const result = await perform(this.#o.interactions, { actor, place, action }, this.#o.logger);
    if (result.kind === 'inbox') await this.#publishInbox(origin, actor, result, note);
  }

  async #publishInbox(
    origin: InboxOrigin,
    actor: Actor,
    result: Extract<ActionResult, { kind: 'inbox' }>,
    note?: string,
  ): Promise<void> {
    const state = {
      filter: origin.filter,
      ...(origin.after === undefined ? {} : { after: origin.after }),
      ...(origin.back === undefined ? {} : { back: origin.back }),
    };
    let view = withInboxMetadata(renderInbox(result.page, state, origin.surface), origin.channel);
    if (note !== undefined) view = withNote(view, note);
    if (origin.surface === 'home') {
      await callSlack(this.#o.client, 'views.publish', { user_id: actor.userId, view });
    } else if (origin.viewId !== undefined) {
      await callSlack(this.#o.client, 'views.update', { view_id: origin.viewId, view });
    }
  }

  /**
   * A redraw showing a draft may land after the bridge drew the answer (someone sent meanwhile): if the question
   * moved on, draw it as it is now, so the last redraw is always the true one.
   */
  async #settle(question: Question, targets: readonly { channel: string; ts: string }[]): Promise<void> {
    const now = await this.#o.interactions.current(question);
    if (!now || now.status === 'pending') return;
    const message = renderQuestionMessage(now, { revision: this.#revision() });
    for (const target of targets) {
      await updateQuestionMessage(this.#o.client, target.channel, target.ts, message, this.#o.logger);
    }
  }

  /** Reply in place, to the person who clicked only. */
  async #tell(responseUrl: string | undefined, text: string): Promise<void> {
    if (responseUrl === undefined) return;
    await this.#o.respond(responseUrl, {
      response_type: 'ephemeral',
      replace_original: false,
      text: escapeMrkdwn(text),
    });
  }
}

function refOf(question: Question): string {
  return formatQuestionRef(question.project, question.id);
}

/**
 * What the notes modal opened from a message starts from: the viewer's draft with what their select shows picked.
 * Not saved: the modal's submit saves the pick with the notes.
 */
function withPick(draft: Draft | undefined, pick: ShownPick | undefined): Draft | undefined {
  if (pick === undefined) return draft;
  // `updatedAt` only completes the shape the renderer takes; nothing stores this draft.
  return { ...draft, choices: pick.choices, other: pick.other, updatedAt: draft?.updatedAt ?? 0 };
}

/** A member's pick as the select values that show it (`"0"`, `"2"`, `"other"`). */
function pickValues(question: Question, member: number, pick: ShownPick): string[] {
  const item = itemAt(question, question.members === undefined ? undefined : member) ?? itemsOf(question)[0];
  const values = item === undefined ? [] : pick.choices.flatMap((label) => selectValueForLabel(item, label) ?? []);
  return pick.other ? [...values, 'other'] : values;
}

/** The view with a one-line notice under its header, when a block is left under Slack's 100. */
function withNote(view: SlackView, note: string): SlackView {
  if (view.blocks.length >= VIEW_BLOCKS_MAX) return view;
  const block: ViewBlock = { type: 'context', elements: [{ type: 'plain_text', text: truncate(note, 3000) }] };
  const [first, ...rest] = view.blocks;
  return { ...view, blocks: first === undefined ? [block] : [first, block, ...rest] };
}
