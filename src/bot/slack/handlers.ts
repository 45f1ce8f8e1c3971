/**
 * What each Slack interaction does, apart from the transport: the Bolt listeners in `app.ts` ack, then hand the raw
 * payload here. Payloads are read with the guards in `payload.ts`; the person's part goes through
 * `InteractionService` (access, routing, first answer wins); the replies go out through the Web API or the
 * interaction's `response_url` (ephemeral, to the person who clicked, never replacing the shared message).
 *
 * A set's members are told apart by the member in their block ids (`ids.ts`: a member's select and "Add notes" share
 * its block) and in the notes modal's metadata; every draft change names the member. Send on a set and its review
 * modal are `set-review.ts`'s.
 *
 * Every method here may throw (store down, Web API failing): `app.ts` catches at one sink that logs ids and codes.
 * A payload this code does not recognise is logged as a warning (ids only) and dropped.
 */

import { escapeMrkdwn, truncate } from '../../blocks/slack/format.js';
import {
  ACTION_IDS,
  CALLBACK_IDS,
  type InboxState,
  memberFromAction,
  NOTES_BLOCK_IDS,
  optionNotesBlockId,
  pagedState,
  parseInboxFilter,
  parseInboxPaging,
  parseSendRefs,
  refFromAction,
  selectionFromSelectState,
} from '../../blocks/slack/ids.js';
import { INBOX_PAGE_SIZE, type InboxPage, renderInbox } from '../../blocks/slack/inbox.js';
import { renderNotesModal } from '../../blocks/slack/notes-modal.js';
import { renderQuestionMessage } from '../../blocks/slack/question-message.js';
import type { ModalView, SlackView, ViewBlock } from '../../blocks/slack/types.js';
import type { ChoiceNote, Draft, Question, QuestionItem } from '../../core/question.js';
import { parseQuestionRef } from '../../core/question-ref.js';
import type { Store } from '../../store/port.js';
import { type Actor, type InteractionService, type Outcome, type Pick, type Place, reviewOf } from '../interactions.js';
import type { Logger } from '../logger.js';
import { noticeModal } from './notice.js';
import {
  type BlockActions,
  inputState,
  type Json,
  obj,
  payloadActor,
  readBlockActions,
  selectStateFor,
  slackId,
  str,
  viewOf,
} from './payload.js';
import { SetReview } from './set-review.js';
import { updateQuestionMessage } from './surface.js';
import {
  type InboxOrigin,
  type NotesOrigin,
  readInboxMetadata,
  readNotesOrigin,
  withInboxMetadata,
  withNotesOrigin,
} from './view-metadata.js';
import { callSlack, type WebClient } from './web.js';

export interface SlackHandlersOptions {
  readonly interactions: InteractionService;
  readonly store: Store;
  /** The Bolt app's client (views.*, chat.update for redraws after a pick). */
  readonly client: WebClient;
  readonly logger: Logger;
  /** Posts an ephemeral reply to a `response_url` (default: `fetch`). */
  readonly respond?: (responseUrl: string, body: Json) => Promise<void>;
  /** Message redraw revision (default `Date.now`). */
  readonly revision?: () => number;
}

/** What a `view_submission` is acked with: nothing (close the modal), field errors, or another view in its place. */
export type ViewAck =
  | undefined
  | { response_action: 'errors'; errors: Record<string, string> }
  | { response_action: 'update'; view: ModalView };

/** Slack's limit on a view's blocks (modal and Home tab). */
const VIEW_BLOCKS_MAX = 100;

async function fetchRespond(responseUrl: string, body: Json): Promise<void> {
  const response = await fetch(responseUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
  await response.body?.cancel();
  if (!response.ok) throw Object.assign(new Error('response_url refused the reply'), { statusCode: response.status });
}

export class SlackHandlers {
  readonly #o: SlackHandlersOptions;
  readonly #log: Logger;
  readonly #respond: (responseUrl: string, body: Json) => Promise<void>;
  readonly #revision: () => number;
  readonly #review: SetReview;

  constructor(options: SlackHandlersOptions) {
    this.#o = options;
    this.#log = options.logger;
    this.#respond = options.respond ?? fetchRespond;
    this.#revision = options.revision ?? Date.now;
    this.#review = new SetReview({
      interactions: options.interactions,
      client: options.client,
      logger: options.logger,
      tell: (p, text, refusal) => this.#tell(p, text, refusal),
      question: (ref) => this.#question(ref),
    });
  }

  // -------------------------------------------------------------------------------------------------------------
  // block_actions

  /** Any `block_actions` payload for one of our action ids (already acked). */
  async blockActions(body: unknown): Promise<void> {
    const payload = readBlockActions(body);
    if (!payload) return this.#drop('block_actions', body, 'unreadable block_actions payload');
    switch (payload.actionId) {
      case ACTION_IDS.pick:
        return this.#pick(payload);
      case ACTION_IDS.notes:
        return this.#openNotes(payload);
      case ACTION_IDS.send:
        return this.#send(payload);
      case ACTION_IDS.remove:
        return this.#remove(payload);
      case ACTION_IDS.notesPick:
        return this.#notesPick(payload);
      case ACTION_IDS.inboxFilter:
      case ACTION_IDS.inboxPage:
      case ACTION_IDS.inboxPick:
      case ACTION_IDS.inboxNotes:
      case ACTION_IDS.inboxSendAll:
        return this.#inboxAction(payload);
      default:
        return this.#drop('block_actions', body, 'unknown action');
    }
  }

  /**
   * The message's select (of a set's member: its block id names it): keep the pick as the actor's draft and redraw
   * the message showing the actor's drafts.
   */
  async #pick(p: BlockActions): Promise<void> {
    const ref = refFromAction(p.action);
    if (ref === undefined || !p.message) return this.#drop(p.actionId, p, 'no question ref or message');
    const member = memberFromAction(p.action);
    const place = { channel: p.message.channel };
    const question = await this.#question(ref);
    const item = question ? itemOf(question, member) : undefined;
    if (question && !item) return this.#drop(p.actionId, p, 'no such member');
    const pick = item ? selectionFromSelectState(item, p.action) : undefined;
    if (question && !pick) return this.#drop(p.actionId, p, 'unreadable select state');
    const outcome = await this.#o.interactions.saveDraft(ref, p.actor, place, {
      ...(member === undefined ? {} : { member }),
      ...(pick ? { pick } : {}),
    });
    if (!outcome.ok) return this.#tell(p, outcome.text, outcome.refusal);
    const message = renderQuestionMessage(outcome.question, {
      drafts: await this.#draftsShown(outcome.question, p.actor, outcome.draft),
      draftBy: p.actor.displayName,
      revision: this.#revision(),
    });
    await updateQuestionMessage(this.#o.client, p.message.channel, p.message.ts, message, this.#log);
    await this.#settle(outcome.question, [p.message]);
  }

  /**
   * "Add notes" (of a set's member: its block id names it): the notes modal, drawn from what this viewer's select
   * shows, opened on the fresh trigger.
   */
  async #openNotes(p: BlockActions): Promise<void> {
    const ref = refFromAction(p.action);
    if (ref === undefined || !p.message || p.triggerId === undefined) {
      return this.#drop(p.actionId, p, 'no question ref, message or trigger');
    }
    const member = memberFromAction(p.action);
    const place = { channel: p.message.channel };
    // Access and routing are read before anything opens; nothing is written until the modal is submitted.
    const reach = await this.#o.interactions.reach(ref, p.actor, place);
    if (!reach.ok) return this.#tell(p, reach.text, reach.refusal);
    const item = itemOf(reach.question, member);
    if (!item) return this.#drop(p.actionId, p, 'no such member');
    const shown = withPick(reach.drafts[member ?? 0], this.#shownPick(item, ref, p, member));
    const view = withNotesOrigin(renderNotesModal(reach.question, shown, member), {
      ref,
      ...(member === undefined ? {} : { member }),
      channel: p.message.channel,
    });
    await callSlack(this.#o.client, 'views.open', { trigger_id: p.triggerId, view });
  }

  /**
   * "Send": what this viewer's message shows (their select's state; else their draft; else the recommendation). A
   * set is reviewed first: refused in place until every member is ready, else the review modal opens, whose submit
   * sends (`set-review.ts`).
   */
  async #send(p: BlockActions): Promise<void> {
    const ref = refFromAction(p.action);
    if (ref === undefined || !p.message) return this.#drop(p.actionId, p, 'no question ref or message');
    const question = await this.#question(ref);
    if (question?.members !== undefined) {
      const shown = question.members.map((member, index) => this.#shownPick(member, ref, p, index));
      return this.#review.open(p, ref, shown);
    }
    const pick = question ? this.#shownPick(question, ref, p) : undefined;
    const outcome = await this.#o.interactions.send(
      ref,
      p.actor,
      { channel: p.message.channel },
      pick === undefined ? undefined : [pick],
    );
    // Success: the `answered` event makes the bridge redraw every copy; nothing to draw here.
    if (!outcome.ok) return this.#tell(p, outcome.text, outcome.refusal);
    this.#log.info({ action: p.actionId, questionId: outcome.question.id, user: p.actor.userId }, 'slack: answer sent');
  }

  /** "Remove" (confirmed in the client): dismiss the question; the bridge redraws from the `dismissed` event. */
  async #remove(p: BlockActions): Promise<void> {
    const ref = refFromAction(p.action);
    if (ref === undefined || !p.message) return this.#drop(p.actionId, p, 'no question ref or message');
    const outcome = await this.#o.interactions.remove(ref, p.actor, { channel: p.message.channel });
    if (!outcome.ok) return this.#tell(p, outcome.text, outcome.refusal);
  }

  /** The picker inside the notes modal: keep the draft, redraw the modal (notes turn required with Other). */
  async #notesPick(p: BlockActions): Promise<void> {
    const origin = readNotesOrigin(p.view?.privateMetadata);
    if (!origin || !p.view) return this.#drop(p.actionId, p, 'notes modal without a question ref');
    const question = await this.#question(origin.ref);
    const item = question ? itemOf(question, origin.member) : undefined;
    if (question && !item) return this.#drop(p.actionId, p, 'no such member');
    const pick = item ? selectionFromSelectState(item, p.action) : undefined;
    if (question && !pick) return this.#drop(p.actionId, p, 'unreadable select state');
    const outcome = await this.#o.interactions.saveDraft(origin.ref, p.actor, placeOf(origin), {
      ...(origin.member === undefined ? {} : { member: origin.member }),
      ...(pick ? { pick } : {}),
    });
    const view = outcome.ok
      ? withNotesOrigin(renderNotesModal(outcome.question, outcome.draft, origin.member), origin)
      : noticeModal(question ? `Notes for #${question.id}` : 'Notes', outcome.text);
    if (!outcome.ok) this.#refused(p.actionId, p.actor, outcome.refusal);
    await callSlack(this.#o.client, 'views.update', { view_id: p.view.id, view });
  }

  // -------------------------------------------------------------------------------------------------------------
  // view_submission of the notes modal

  /**
   * Save the notes (and the pick shown in the modal, and on a multi-select the notes of each picked option) as the
   * actor's draft (of the modal's member, for a set). Answers the ack: field errors when the draft is not ready
   * because Other has no note, or when the person may not act on the question any more; otherwise nothing (the
   * modal closes) and `after` redraws what shows the draft.
   */
  async submitNotes(body: unknown): Promise<{ ack: ViewAck; after?: () => Promise<void> }> {
    const b = obj(body);
    const actor = b ? payloadActor(b) : undefined;
    const view = viewOf(b?.view);
    const origin = readNotesOrigin(view?.privateMetadata);
    if (!b || !actor || !view || !origin) {
      this.#drop('view_submission', body, 'unreadable notes submission');
      return { ack: undefined };
    }
    const question = await this.#question(origin.ref);
    const item = question ? itemOf(question, origin.member) : undefined;
    if (question && !item) {
      this.#drop('view_submission', body, 'no such member');
      return { ack: undefined };
    }
    const pickState = inputState(view.stateValues, NOTES_BLOCK_IDS.pick, ACTION_IDS.notesPick);
    const pick = item && pickState ? selectionFromSelectState(item, pickState) : undefined;
    const notesValue = inputState(view.stateValues, NOTES_BLOCK_IDS.notes, ACTION_IDS.notesText)?.value;
    const notes = typeof notesValue === 'string' ? notesValue : '';
    const choiceNotes = item?.multiSelect ? optionNotesOf(item, view.stateValues) : [];
    const outcome = await this.#o.interactions.saveDraft(origin.ref, actor, placeOf(origin), {
      ...(origin.member === undefined ? {} : { member: origin.member }),
      notes,
      ...(pick ? { pick } : {}),
      ...(choiceNotes.length === 0 ? {} : { choiceNotes }),
    });
    if (!outcome.ok) {
      this.#refused('view_submission', actor, outcome.refusal);
      return { ack: { response_action: 'errors', errors: { [NOTES_BLOCK_IDS.notes]: outcome.text } } };
    }
    if (outcome.readiness === 'needs-note') {
      return {
        ack: {
          response_action: 'errors',
          errors: { [NOTES_BLOCK_IDS.notes]: 'Other needs a note: say what the answer is.' },
        },
      };
    }
    const after = async () => {
      if (origin.inbox) {
        const viewId = origin.inbox.viewId ?? view.previousViewId;
        await this.#showInbox(actor, origin.inbox, viewId);
        return;
      }
      // Opened from a message: redraw every Slack copy of the question showing this draft.
      const targets = outcome.question.messages
        .filter((m) => m.platform === 'slack')
        .map((m) => ({ channel: m.channel, ts: m.messageId }));
      const message = renderQuestionMessage(outcome.question, {
        drafts: await this.#draftsShown(outcome.question, actor, outcome.draft),
        draftBy: actor.displayName,
        revision: this.#revision(),
      });
      for (const target of targets) {
        await updateQuestionMessage(this.#o.client, target.channel, target.ts, message, this.#log);
      }
      await this.#settle(outcome.question, targets);
    };
    return { ack: undefined, after };
  }

  // -------------------------------------------------------------------------------------------------------------
  // view_submission of a set's review modal

  /** Send the reviewed set (see `set-review.ts`). */
  submitReview(body: unknown): Promise<{ ack: ViewAck }> {
    return this.#review.submit(body);
  }

  // -------------------------------------------------------------------------------------------------------------
  // The inbox: /questions (modal) and the Home tab

  /** `/questions` in a channel: the inbox of the projects routed there, opened on the command's trigger. */
  async questionsCommand(command: unknown): Promise<void> {
    const c = obj(command);
    const actor = c ? actorOfCommand(c) : undefined;
    const channel = slackId(c?.channel_id);
    const triggerId = str(c?.trigger_id, 200);
    if (!actor || channel === undefined || triggerId === undefined) {
      return this.#drop('/questions', command, 'unreadable slash command');
    }
    const state: InboxState = { filter: 'all' };
    const page = await this.#inboxPage(actor, { channel }, state);
    const view = withInboxMetadata(renderInbox(page, state, 'modal'), channel);
    await callSlack(this.#o.client, 'views.open', { trigger_id: triggerId, view });
  }

  /** The Home tab opened: publish the inbox of every project routed on Slack, keeping the filter last shown. */
  async homeOpened(event: unknown): Promise<void> {
    const e = obj(event);
    if (e?.tab !== undefined && e.tab !== 'home') return;
    const userId = slackId(e?.user);
    if (userId === undefined) return this.#drop('app_home_opened', event, 'no user');
    const shown = viewOf(e?.view);
    const { state } = readInboxMetadata(shown?.callbackId === CALLBACK_IDS.inbox ? shown.privateMetadata : undefined);
    await this.#showInbox({ platform: 'slack', userId, displayName: userId }, { ...state, surface: 'home' }, undefined);
  }

  async #inboxAction(p: BlockActions): Promise<void> {
    if (!p.view) return this.#drop(p.actionId, p, 'inbox action outside a view');
    const { state, channel } = readInboxMetadata(p.view.privateMetadata);
    const origin: InboxOrigin = {
      ...state,
      surface: p.view.type,
      ...(channel !== undefined ? { channel } : {}),
      ...(p.view.type === 'modal' ? { viewId: p.view.id } : {}),
    };
    const place: Place = channel !== undefined ? { channel } : {};
    switch (p.actionId) {
      case ACTION_IDS.inboxFilter: {
        const filter = parseInboxFilter(obj(p.action.selected_option)?.value);
        if (filter === undefined) return this.#drop(p.actionId, p, 'unknown filter');
        return this.#showInbox(p.actor, { surface: origin.surface, ...whereOf(origin), filter }, origin.viewId);
      }
      case ACTION_IDS.inboxPage: {
        const paging = parseInboxPaging(p.action.value);
        if (paging === undefined) return this.#drop(p.actionId, p, 'bad page');
        const next = pagedState(origin, paging);
        return this.#showInbox(p.actor, { surface: origin.surface, ...whereOf(origin), ...next }, origin.viewId);
      }
      case ACTION_IDS.inboxPick: {
        const ref = refFromAction(p.action);
        if (ref === undefined) return this.#drop(p.actionId, p, 'no question ref');
        const member = memberFromAction(p.action);
        const question = await this.#question(ref);
        const item = question ? itemOf(question, member) : undefined;
        if (question && !item) return this.#drop(p.actionId, p, 'no such member');
        const pick = item ? selectionFromSelectState(item, p.action) : undefined;
        if (question && !pick) return this.#drop(p.actionId, p, 'unreadable select state');
        const outcome = await this.#o.interactions.saveDraft(ref, p.actor, place, {
          ...(member === undefined ? {} : { member }),
          ...(pick ? { pick } : {}),
        });
        if (!outcome.ok) this.#refused(p.actionId, p.actor, outcome.refusal);
        return this.#showInbox(p.actor, origin, origin.viewId, outcome.ok ? undefined : outcome.text);
      }
      case ACTION_IDS.inboxNotes: {
        const ref = refFromAction(p.action);
        if (ref === undefined || p.triggerId === undefined) return this.#drop(p.actionId, p, 'no ref or trigger');
        const member = memberFromAction(p.action);
        // Access and routing are read before anything opens; nothing is written until the modal is submitted.
        const reach = await this.#o.interactions.reach(ref, p.actor, place);
        if (!reach.ok) {
          this.#refused(p.actionId, p.actor, reach.refusal);
          return this.#showInbox(p.actor, origin, origin.viewId, reach.text);
        }
        if (!itemOf(reach.question, member)) return this.#drop(p.actionId, p, 'no such member');
        const view = withNotesOrigin(renderNotesModal(reach.question, reach.drafts[member ?? 0], member), {
          ref,
          ...(member === undefined ? {} : { member }),
          ...(channel !== undefined ? { channel } : {}),
          inbox: origin,
        });
        // Over the inbox modal: push (Save pops back to it). From the Home tab: a modal of its own.
        const method = origin.surface === 'modal' ? 'views.push' : 'views.open';
        await callSlack(this.#o.client, method, { trigger_id: p.triggerId, view });
        return;
      }
      case ACTION_IDS.inboxSendAll: {
        const summary = await this.#sendShownReady(p.actor, place, parseSendRefs(p.action.value));
        return this.#showInbox(p.actor, origin, origin.viewId, summary);
      }
      default:
        return this.#drop(p.actionId, p, 'unknown inbox action');
    }
  }

  /**
   * "Send N answers": the questions the button carries (the ready ones on the page the person saw), each sent as it
   * shows now — the actor's drafts, else the preselected recommendations — if still ready (a set whole, only when
   * every member is). Read afresh at the click, so a question answered meanwhile elsewhere is left out, not sent
   * twice. Returns the summary to show.
   */
  async #sendShownReady(actor: Actor, place: Place, refs: readonly string[]): Promise<string> {
    const ready: { ref: string; question: Question; drafts: readonly (Draft | undefined)[] }[] = [];
    const refused: string[] = [];
    for (const ref of refs) {
      const reach = await this.#o.interactions.reach(ref, actor, place);
      if (reach.ok) {
        if (reviewOf(reach.question, reach.drafts).ready)
          ready.push({ ref, question: reach.question, drafts: reach.drafts });
      } else if (reach.refusal === 'not-allowed' || reach.refusal === 'other-channel') {
        // Told once per reason; questions answered or closed meanwhile are simply not sent.
        this.#refused(ACTION_IDS.inboxSendAll, actor, reach.refusal);
        if (!refused.includes(reach.text)) refused.push(reach.text);
      }
    }
    const sent: number[] = [];
    for (const { ref, question, drafts } of ready) {
      const outcome: Outcome = await this.#o.interactions.send(ref, actor, place, drafts);
      if (outcome.ok) sent.push(question.id);
      else {
        this.#refused(ACTION_IDS.inboxSendAll, actor, outcome.refusal);
        refused.push(outcome.text);
      }
    }
    this.#log.info(
      { action: ACTION_IDS.inboxSendAll, user: actor.userId, sent: sent.length, refused: refused.length },
      'slack: inbox sent',
    );
    const head =
      sent.length === 0
        ? 'Nothing sent.'
        : `Sent ${sent.length === 1 ? '1 answer' : `${sent.length} answers`}: ${sent.map((id) => `#${id}`).join(', ')}.`;
    return [head, ...refused].join(' ');
  }

  /** Draw the inbox for `origin` afresh: `views.update` of the modal, `views.publish` of the Home tab. */
  async #showInbox(actor: Actor, origin: InboxOrigin, viewId: string | undefined, note?: string): Promise<void> {
    const place: Place = origin.channel !== undefined ? { channel: origin.channel } : {};
    const state: InboxState = {
      filter: origin.filter,
      ...(origin.after === undefined ? {} : { after: origin.after }),
      ...(origin.back === undefined ? {} : { back: origin.back }),
    };
    let view = withInboxMetadata(
      renderInbox(await this.#inboxPage(actor, place, state), state, origin.surface),
      origin.channel,
    );
    if (note !== undefined) view = withNote(view, note);
    if (origin.surface === 'home') {
      await callSlack(this.#o.client, 'views.publish', { user_id: actor.userId, view });
    } else if (viewId !== undefined) {
      await callSlack(this.#o.client, 'views.update', { view_id: viewId, view });
    }
  }

  /** The page `state` shows: {@link INBOX_PAGE_SIZE} questions, as many as one view's 100 blocks hold. */
  #inboxPage(actor: Actor, place: Place, state: InboxState): Promise<InboxPage> {
    return this.#o.interactions.inboxPage(actor, place, {
      filter: state.filter,
      limit: INBOX_PAGE_SIZE,
      ...(state.after === undefined ? {} : { after: state.after }),
    });
  }

  // -------------------------------------------------------------------------------------------------------------
  // helpers

  async #question(ref: string): Promise<Question | undefined> {
    const parsed = parseQuestionRef(ref);
    if (!parsed) return undefined;
    const project = await this.#o.store.projectByTag(parsed.tag);
    return project === undefined ? undefined : this.#o.store.get(project, parsed.id);
  }

  /**
   * What the viewer's message select shows for `ref` (a set's `member`), from the payload's state (undefined: no
   * state sent).
   */
  #shownPick(item: QuestionItem, ref: string, p: BlockActions, member?: number): Pick | undefined {
    const state = selectStateFor(p.stateValues, ref, ACTION_IDS.pick, member);
    return state === undefined ? undefined : selectionFromSelectState(item, state);
  }

  /**
   * The drafts a redraw shows after the actor changed one: a single question's `draft`; for a set, the actor's draft
   * of every member (read afresh).
   */
  async #draftsShown(question: Question, actor: Actor, draft: Draft): Promise<readonly (Draft | undefined)[]> {
    return question.members === undefined ? [draft] : this.#o.interactions.draftsOf(question, actor);
  }

  /**
   * A redraw showing a draft may land after the bridge drew the answer (someone sent meanwhile): if the question
   * moved on, draw it as it is now, so the last redraw is always the true one.
   */
  async #settle(question: Question, targets: readonly { channel: string; ts: string }[]): Promise<void> {
    const now = await this.#o.store.get(question.project, question.id);
    if (!now || now.status === 'pending') return;
    const message = renderQuestionMessage(now, { revision: this.#revision() });
    for (const target of targets) {
      await updateQuestionMessage(this.#o.client, target.channel, target.ts, message, this.#log);
    }
  }

  /** Reply in place, to the person who clicked only. */
  async #tell(p: BlockActions, text: string, refusal: string): Promise<void> {
    this.#refused(p.actionId, p.actor, refusal);
    if (p.responseUrl === undefined) return;
    await this.#respond(p.responseUrl, {
      response_type: 'ephemeral',
      replace_original: false,
      text: escapeMrkdwn(text),
    });
  }

  #refused(action: string, actor: Actor, refusal: string): void {
    this.#log.info({ action, user: actor.userId, refusal }, 'slack: interaction refused');
  }

  #drop(what: string, _payload: unknown, reason: string): void {
    this.#log.warn({ what, ...payloadIds(_payload) }, `slack: payload dropped (${reason})`);
  }
}

/**
 * What the notes modal opened from a message starts from: the viewer's draft with what their select shows picked.
 * Not saved: the modal's submit saves the pick with the notes.
 */
function withPick(draft: Draft | undefined, pick: Pick | undefined): Draft | undefined {
  if (pick === undefined) return draft;
  // `updatedAt` only completes the shape the renderer takes; nothing stores this draft.
  return { ...draft, choices: pick.choices, other: pick.other, updatedAt: draft?.updatedAt ?? 0 };
}

/** The item an action is about: a single question itself (no member), or the set's `member`; else undefined. */
function itemOf(question: Question, member: number | undefined): QuestionItem | undefined {
  if (question.members === undefined) return member === undefined ? question : undefined;
  return member === undefined ? undefined : question.members[member];
}

/**
 * The notes per option a multi-select's notes modal submitted: one per option input it showed (empty clears).
 * Options whose input was not shown (not picked) keep their notes in the draft.
 */
function optionNotesOf(item: QuestionItem, stateValues: Json | undefined): ChoiceNote[] {
  return item.options.flatMap((option, index) => {
    const state = inputState(stateValues, optionNotesBlockId(index), ACTION_IDS.notesOption);
    if (state === undefined) return [];
    return [{ choice: option.label, notes: typeof state.value === 'string' ? state.value : '' }];
  });
}

function placeOf(origin: NotesOrigin): Place {
  const channel = origin.channel ?? origin.inbox?.channel;
  return channel !== undefined ? { channel } : {};
}

function actorOfCommand(command: Json): Actor | undefined {
  const id = slackId(command.user_id);
  if (id === undefined) return undefined;
  const name = str(command.user_name, 200);
  return { platform: 'slack', userId: id, displayName: name ?? id };
}

/** The ids a log line may carry about a payload: team, user, channel, view, action ids. Never values or text. */
export function payloadIds(payload: unknown): Record<string, unknown> {
  const p = obj(payload);
  if (!p) return {};
  const user = slackId(obj(p.user)?.id) ?? slackId(p.user_id) ?? slackId(p.user);
  const channel = slackId(obj(p.channel)?.id) ?? slackId(p.channel_id);
  const view = slackId(obj(p.view)?.id);
  const action = Array.isArray(p.actions) ? str(obj(p.actions[0])?.action_id, 64) : str(obj(p.action)?.action_id, 64);
  const ids: Record<string, unknown> = {};
  if (user !== undefined) ids.user = user;
  if (channel !== undefined) ids.channel = channel;
  if (view !== undefined) ids.view = view;
  if (action !== undefined && /^[\w.-]+$/.test(action)) ids.action = action;
  return ids;
}

/** The view with a one-line notice under its header, when a block is left under Slack's 100. */
function withNote(view: SlackView, note: string): SlackView {
  if (view.blocks.length >= VIEW_BLOCKS_MAX) return view;
  const block: ViewBlock = { type: 'context', elements: [{ type: 'plain_text', text: truncate(note, 3000) }] };
  const [first, ...rest] = view.blocks;
  return { ...view, blocks: first === undefined ? [block] : [first, block, ...rest] };
}

/** Where an inbox origin lives (its channel, its modal's view id), as fields to spread. */
function whereOf(origin: InboxOrigin): { channel?: string; viewId?: string } {
  return {
    ...(origin.channel === undefined ? {} : { channel: origin.channel }),
    ...(origin.viewId === undefined ? {} : { viewId: origin.viewId }),
  };
}
