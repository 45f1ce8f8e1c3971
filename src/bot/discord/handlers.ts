/**
 * What each Discord interaction does, apart from the transport: `app.ts` hands every interaction here. Custom ids
 * and values are read with the guards of blocks' `ids.ts` and `payload.ts`; the person's part goes through
 * `InteractionService` (access, routing, first answer wins); the answers are ephemeral (to the person who clicked
 * only) or redraw the ephemeral inbox in place. The shared question message is never touched here: the bridge
 * redraws it when the store's event arrives.
 *
 * Discord wants a first response within 3 s and a modal as that first response. Each handler computes its answer;
 * {@link DiscordHandlers.respond} sends it as the first response when it is ready in time, else defers (ephemeral
 * "thinking", or a silent update) and sends it as the edit of that response.
 *
 * | custom id / command            | does                                                                 |
 * | ------------------------------ | -------------------------------------------------------------------- |
 * | `al:pick:<ref>[:<member>]`     | keep the pick as the person's draft (of that member); receipt + mark  |
 * | `al:notes:<ref>`               | the notes modal (first response), or the notes menu when many notes  |
 * | `al:notes-for:<ref>[:<m>]`     | the menu's choice: the modal for that one note (first response)      |
 * | `al:notes-modal:<ref>[:…]`     | save notes (+ choice); refuse Other without a note; receipt, inbox or menu |
 * | `al:send:<ref>`                | a single question: send the draft, else the recommendation; a set: the review, or which members are not ready |
 * | `al:send-yes:<ref>:<check>`    | the review's "Send answers": send the set when its answers are those reviewed |
 * | `al:remove:<ref>`              | ephemeral confirmation; `remove-yes` dismisses, `remove-no` keeps     |
 * | `/questions`, `al:inbox-…`     | the ephemeral inbox: filter, choose, pick, notes, send the ready ones |
 */
import {
  type BaseInteraction,
  type BaseMessageOptions,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Interaction,
  MessageFlags,
  type ModalSubmitInteraction,
  type StringSelectMenuInteraction,
} from 'discord.js';
import {
  ANSWER_NOTES_VALUE,
  type DiscordCustomId,
  type InboxState,
  NOTES_MODAL_FIELDS,
  parseCustomId,
  parseInboxFilter,
  parseNotesField,
  selectionFromValues,
} from '../../blocks/discord/ids.js';
import { INBOX_PAGE_SIZE, type InboxPage, renderInbox } from '../../blocks/discord/inbox.js';
import { renderNotes, renderNotesMenu, renderTargetModal } from '../../blocks/discord/notes-modal.js';
import { renderDraftReceipt, renderRemoveConfirmation } from '../../blocks/discord/question-message.js';
import { renderSendReview, renderSetReceipt, reviewCheck } from '../../blocks/discord/review.js';
import { type DiscordMessage, type DiscordModal, toDiscordJsOptions } from '../../blocks/discord/types.js';
import { answerReadiness } from '../../core/answer.js';
import type { ChoiceNote, Question, QuestionItem } from '../../core/question.js';
import { formatQuestionRef, parseQuestionRef } from '../../core/question-ref.js';
import type { DraftChange, Store } from '../../store/port.js';
import type { Actor, DraftOutcomeOk, InteractionService, Place, ReviewLine } from '../interactions.js';
import type { Logger } from '../logger.js';
import { actorOf, interactionIds, obj, selectValues } from './payload.js';
import { discordErrorFields } from './rest.js';

/** The slash command that opens the inbox. */
export const QUESTIONS_COMMAND = 'questions';

export interface DiscordHandlersOptions {
  readonly interactions: InteractionService;
  readonly store: Store;
  readonly logger: Logger;
  /**
   * Work still running after this long is deferred (default 1500 ms), so the first response always lands within
   * Discord's 3 s; the answer then arrives as an edit of the deferred response. 0: always defer first.
   */
  readonly deferAfterMs?: number;
}

/** What a handler answers an interaction with. */
export type Answer =
  /** An ephemeral reply to the person. */
  | { readonly kind: 'reply'; readonly message: DiscordMessage }
  /** Redraw the (ephemeral) message the component is on; `notice`: an ephemeral line after it. */
  | { readonly kind: 'update'; readonly message: DiscordMessage; readonly notice?: string }
  /** Open a modal: only as the first response. */
  | { readonly kind: 'modal'; readonly modal: DiscordModal }
  /** Nothing to say: the interaction was not ours (logged). */
  | { readonly kind: 'drop' };

/** Interactions a handler can answer in place (replies, updates, modals). */
type Answerable =
  | ChatInputCommandInteraction
  | ButtonInteraction
  | StringSelectMenuInteraction
  | ModalSubmitInteraction;

const TRY_AGAIN = 'Something went wrong on our side: try again in a moment.';
const MODAL_LATE = 'That took too long for Discord to open the notes form: click "Add notes" again.';
const NEEDS_NOTE = 'Other needs a note: say what the answer is, then save again.';
const REVIEW_CHANGED =
  'Your answers changed since that review: here they are now. Press Send answers again to send these.';

/** Discord's limit on `content`. */
const CONTENT_MAX = 2000;

/** A plain ephemeral text as a message body (no mentions: the text can quote people). */
export function textMessage(text: string): DiscordMessage {
  const content = text.length > CONTENT_MAX ? `${text.slice(0, CONTENT_MAX - 1)}…` : text;
  return { content, embeds: [], components: [], allowed_mentions: { parse: [] } };
}

function reply(text: string): Answer {
  return { kind: 'reply', message: textMessage(text) };
}

export class DiscordHandlers {
  readonly #o: DiscordHandlersOptions;
  readonly #log: Logger;

  constructor(options: DiscordHandlersOptions) {
    this.#o = options;
    this.#log = options.logger;
  }

  /** Any interaction the gateway delivered. Never throws: failures are logged (ids and codes) and told in place. */
  async handle(interaction: Interaction): Promise<void> {
    const started = Date.now();
    if (interaction.isChatInputCommand()) {
      if (interaction.commandName !== QUESTIONS_COMMAND) return this.#drop(interaction, 'unknown command');
      return this.respond(interaction, 'reply', started, undefined, () => this.#questions(interaction));
    }
    if (!interaction.isButton() && !interaction.isStringSelectMenu() && !interaction.isModalSubmit()) {
      return this.#drop(interaction, 'unhandled interaction type');
    }
    const id = parseCustomId(interaction.customId);
    if (!id) return this.#drop(interaction, 'not one of our custom ids');
    // Redraws (the inbox, the review, the notes menu) defer as a silent update; the rest as an ephemeral "thinking".
    const redraws =
      (id.kind.startsWith('inbox-') && id.kind !== 'inbox-notes') ||
      id.kind === 'send-yes' ||
      (id.kind === 'notes-modal' && (id.menu === true || id.inbox !== undefined));
    const late = redraws ? 'update' : 'reply';
    return this.respond(interaction, late, started, id.kind, () => this.#route(interaction, id));
  }

  #route(interaction: Answerable, id: DiscordCustomId): Promise<Answer> {
    const actor = actorOf(interaction);
    if (!actor) return Promise.resolve(this.#dropped(interaction, 'no readable user'));
    const place: Place = { channel: interaction.channelId ?? '' };
    switch (id.kind) {
      case 'pick':
        return interaction.isStringSelectMenu()
          ? this.#pick(interaction, id.ref, id.member, actor, place)
          : Promise.resolve(this.#dropped(interaction, 'pick that is not a select'));
      case 'notes':
        return this.#openNotes(id.ref, actor, place, undefined);
      case 'notes-for':
        return interaction.isStringSelectMenu()
          ? this.#openTarget(interaction, id.ref, id.member, actor, place)
          : Promise.resolve(this.#dropped(interaction, 'notes-for that is not a select'));
      case 'send':
        return this.#send(id.ref, actor, place);
      case 'send-yes':
        return this.#confirmSend(id.ref, id.check, actor, place);
      case 'remove':
        return this.#confirmRemove(id.ref, actor, place);
      case 'remove-yes':
        return this.#remove(id.ref, actor, place);
      case 'remove-no':
        return this.#keep(id.ref);
      case 'notes-modal':
        return interaction.isModalSubmit()
          ? this.#submitNotes(interaction, id.ref, id.inbox ?? (id.menu === true ? 'menu' : undefined), actor, place)
          : Promise.resolve(this.#dropped(interaction, 'notes-modal id outside a modal'));
      case 'inbox-filter': {
        const filter = interaction.isStringSelectMenu() ? parseInboxFilter(interaction.values[0]) : undefined;
        if (filter === undefined) return Promise.resolve(this.#dropped(interaction, 'unknown filter'));
        return this.#inbox(actor, place, { filter });
      }
      case 'inbox-question': {
        const ref = interaction.isStringSelectMenu() ? interaction.values[0] : undefined;
        if (parseQuestionRef(ref) === undefined) return Promise.resolve(this.#dropped(interaction, 'bad question ref'));
        return this.#inbox(actor, place, id.inbox, ref);
      }
      case 'inbox-pick':
        return interaction.isStringSelectMenu()
          ? this.#inboxPick(interaction, id.ref, id.member, id.inbox, actor, place)
          : Promise.resolve(this.#dropped(interaction, 'pick that is not a select'));
      case 'inbox-notes':
        return this.#openNotes(id.ref, actor, place, id.inbox);
      case 'inbox-send':
        return this.#inboxSend(actor, place, id.inbox, interaction.isButton() ? shownRefs(interaction.message) : []);
      case 'inbox-page':
        return this.#inbox(actor, place, id.inbox);
    }
  }

  // -------------------------------------------------------------------------------------------------------------
  // The question message

  /**
   * A select's values as a pick of the item it is for (the single question, or the set's `member`): undefined when
   * the values or the member do not fit the question (then the interaction is dropped). An unknown question gives
   * `{}`: saving reports the refusal.
   */
  async #readPick(
    ref: string,
    member: number | undefined,
    values: unknown,
  ): Promise<{ change: DraftChange } | undefined> {
    const question = await this.#question(ref);
    if (question === undefined) return { change: {} };
    const item = itemAt(question, member);
    const pick = item === undefined ? undefined : selectionFromValues(item, selectValues(values));
    if (pick === undefined) return undefined;
    return { change: { ...(member === undefined ? {} : { member }), pick } };
  }

  /** A message's select: Discord sends only this select's values, so the pick is kept as the person's draft. */
  async #pick(
    interaction: StringSelectMenuInteraction,
    ref: string,
    member: number | undefined,
    actor: Actor,
    place: Place,
  ): Promise<Answer> {
    const read = await this.#readPick(ref, member, interaction.values);
    if (read === undefined) return this.#dropped(interaction, 'unreadable select values');
    const outcome = await this.#o.interactions.saveDraft(ref, actor, place, read.change);
    if (!outcome.ok) return this.#refusal('pick', actor, outcome.refusal, outcome.text);
    if (outcome.member === undefined) {
      return { kind: 'reply', message: renderDraftReceipt(outcome.question, outcome.draft) };
    }
    const drafts = await this.#o.interactions.draftsOf(outcome.question, actor);
    return {
      kind: 'reply',
      message: renderDraftReceipt(outcome.question, outcome.draft, { member: outcome.member, drafts }),
    };
  }

  /**
   * "Add notes" (on the message or in the inbox): the modal, prefilled with the person's drafts (else the
   * recommendations); or, when the notes to write do not fit one modal, the notes menu. Whether they may act on it
   * here is read, nothing written; a refusal is said instead.
   */
  async #openNotes(ref: string, actor: Actor, place: Place, inbox: InboxState | undefined): Promise<Answer> {
    const reach = await this.#o.interactions.reach(ref, actor, place);
    if (!reach.ok) return this.#refusal('notes', actor, reach.refusal, reach.text);
    const view = renderNotes(reach.question, reach.drafts, inbox ? { inbox } : {});
    return view.kind === 'modal' ? { kind: 'modal', modal: view.modal } : { kind: 'reply', message: view.message };
  }

  /** The notes menu's choice: the modal for that one note (the answer's, or a picked option's), prefilled. */
  async #openTarget(
    interaction: StringSelectMenuInteraction,
    ref: string,
    member: number | undefined,
    actor: Actor,
    place: Place,
  ): Promise<Answer> {
    const value = selectValues(interaction.values)?.[0];
    const reach = await this.#o.interactions.reach(ref, actor, place);
    if (!reach.ok) return this.#refusal('notes-for', actor, reach.refusal, reach.text);
    const item = itemAt(reach.question, member);
    const index = value !== undefined && /^\d$/.test(value) ? Number(value) : undefined;
    const target = value === ANSWER_NOTES_VALUE ? 'answer' : index;
    if (item === undefined || target === undefined || (target !== 'answer' && item.options[target] === undefined)) {
      return this.#dropped(interaction, 'unreadable notes target');
    }
    const draft = reach.drafts[member ?? 0];
    return { kind: 'modal', modal: renderTargetModal(reach.question, member, target, draft) };
  }

  /**
   * A notes modal submitted: save each item's notes, notes per option and (a single question's modal) the choice
   * shown in it. A single question's Other without a note is refused (the draft keeps the pick, so Send says the
   * same). Then: from the inbox, the inbox is redrawn; from the notes menu, the menu; from a message, a receipt.
   */
  async #submitNotes(
    interaction: ModalSubmitInteraction,
    ref: string,
    origin: InboxState | 'menu' | undefined,
    actor: Actor,
    place: Place,
  ): Promise<Answer> {
    const question = await this.#question(ref);
    const changes = question === undefined ? [{ notes: '' }] : modalChanges(interaction, question);
    if (changes === undefined || changes.length === 0) return this.#dropped(interaction, 'unreadable notes modal');
    let last: DraftOutcomeOk | undefined;
    for (const change of changes) {
      const outcome = await this.#o.interactions.saveDraft(ref, actor, place, change);
      if (!outcome.ok) return this.#refusal('notes-modal', actor, outcome.refusal, outcome.text);
      last = outcome;
    }
    if (last === undefined) return this.#dropped(interaction, 'nothing saved');
    const saved = last.question;
    const fromMessage = interaction.isFromMessage();
    if (saved.members === undefined) {
      const wroteNotes = changes.some((change) => change.notes !== undefined);
      if (wroteNotes && answerReadiness(saved, last.draft) === 'needs-note') {
        return this.#refusal('notes-modal', actor, 'needs-note', NEEDS_NOTE);
      }
    }
    if (origin !== undefined && origin !== 'menu' && fromMessage) return this.#inbox(actor, place, origin, ref);
    if (origin === 'menu' && fromMessage) {
      const drafts = await this.#o.interactions.draftsOf(saved, actor);
      return { kind: 'update', message: renderNotesMenu(saved, drafts) };
    }
    if (saved.members === undefined) return { kind: 'reply', message: renderDraftReceipt(saved, last.draft) };
    return { kind: 'reply', message: renderSetReceipt(saved, await this.#o.interactions.draftsOf(saved, actor)) };
  }

  /**
   * "Send". A single question: the person's draft, else the recommendation, sent at once. A set: reviewed first;
   * refused in place, naming the members that are not ready, until every one is; then the review with "Send
   * answers". Told in place either way, a refusal naming who won.
   */
  async #send(ref: string, actor: Actor, place: Place): Promise<Answer> {
    const question = await this.#question(ref);
    if (question?.members !== undefined) {
      const review = await this.#o.interactions.review(ref, actor, place);
      if (!review.ok) return this.#refusal('send', actor, review.refusal, review.text);
      if (!review.ready) return this.#refusal('send', actor, 'not-ready', review.text);
      return { kind: 'reply', message: renderSendReview(review.question, entriesOfLines(review.lines)) };
    }
    const outcome = await this.#o.interactions.send(ref, actor, place);
    if (!outcome.ok) return this.#refusal('send', actor, outcome.refusal, outcome.text);
    this.#log.info({ action: 'send', user: actor.userId, questionId: outcome.question.id }, 'discord: answer sent');
    return reply(outcome.text);
  }

  /**
   * The review's "Send answers": sends the set when the person's answers are still the reviewed ones (`check`);
   * otherwise the review is drawn again with the answers as they are now. The review turns into what happened.
   */
  async #confirmSend(ref: string, check: string, actor: Actor, place: Place): Promise<Answer> {
    const review = await this.#o.interactions.review(ref, actor, place);
    if (!review.ok || !review.ready) {
      this.#refused('send-yes', actor, review.ok ? 'not-ready' : review.refusal);
      return { kind: 'update', message: textMessage(review.text) };
    }
    if (reviewCheck(review.lines.map((line) => line.selection)) !== check) {
      this.#refused('send-yes', actor, 'changed');
      const message = renderSendReview(review.question, entriesOfLines(review.lines));
      return { kind: 'update', message, notice: REVIEW_CHANGED };
    }
    const outcome = await this.#o.interactions.send(ref, actor, place);
    if (!outcome.ok) this.#refused('send-yes', actor, outcome.refusal);
    else
      this.#log.info({ action: 'send', user: actor.userId, questionId: outcome.question.id }, 'discord: answer sent');
    return { kind: 'update', message: textMessage(outcome.text) };
  }

  /** "Remove": asks first (ephemeral), if the person may act on the question at all (read, nothing written). */
  async #confirmRemove(ref: string, actor: Actor, place: Place): Promise<Answer> {
    const reach = await this.#o.interactions.reach(ref, actor, place);
    if (!reach.ok) return this.#refusal('remove', actor, reach.refusal, reach.text);
    return { kind: 'reply', message: renderRemoveConfirmation(reach.question) };
  }

  /** The confirmation's "Remove": dismiss; the confirmation turns into what happened. */
  async #remove(ref: string, actor: Actor, place: Place): Promise<Answer> {
    const outcome = await this.#o.interactions.remove(ref, actor, place);
    if (!outcome.ok) this.#refused('remove-yes', actor, outcome.refusal);
    return { kind: 'update', message: textMessage(outcome.text) };
  }

  async #keep(ref: string): Promise<Answer> {
    const parsed = parseQuestionRef(ref);
    return { kind: 'update', message: textMessage(`Kept #${parsed?.id ?? '?'}: nothing was removed.`) };
  }

  // -------------------------------------------------------------------------------------------------------------
  // The inbox: /questions, an ephemeral reply redrawn in place

  async #questions(interaction: ChatInputCommandInteraction): Promise<Answer> {
    const actor = actorOf(interaction);
    if (!actor) return this.#dropped(interaction, 'no readable user');
    const state: InboxState = { filter: 'all' };
    const page = await this.#inboxPage(actor, { channel: interaction.channelId }, state);
    return { kind: 'reply', message: renderInbox(page, state) };
  }

  /** The inbox drawn afresh for `state` (and the question `selected`, whose picker and notes show). */
  async #inbox(actor: Actor, place: Place, state: InboxState, selected?: string, notice?: string): Promise<Answer> {
    const page = await this.#inboxPage(actor, place, state);
    const message = renderInbox(page, { ...state, ...(selected !== undefined ? { selected } : {}) });
    return { kind: 'update', message, ...(notice !== undefined ? { notice } : {}) };
  }

  async #inboxPick(
    interaction: StringSelectMenuInteraction,
    ref: string,
    member: number | undefined,
    state: InboxState,
    actor: Actor,
    place: Place,
  ): Promise<Answer> {
    const read = await this.#readPick(ref, member, interaction.values);
    if (read === undefined) return this.#dropped(interaction, 'unreadable select values');
    const outcome = await this.#o.interactions.saveDraft(ref, actor, place, read.change);
    if (!outcome.ok) this.#refused('inbox-pick', actor, outcome.refusal);
    return this.#inbox(actor, place, state, ref, outcome.ok ? undefined : outcome.text);
  }

  /** The page `state` shows: {@link INBOX_PAGE_SIZE} questions (what an embed's 4,096 characters hold). */
  #inboxPage(actor: Actor, place: Place, state: InboxState): Promise<InboxPage> {
    return this.#o.interactions.inboxPage(actor, place, {
      filter: state.filter,
      limit: INBOX_PAGE_SIZE,
      ...(state.after === undefined ? {} : { after: state.after }),
    });
  }

  /**
   * "Send N answers": the questions on the page the person saw (`shown`: the question select's refs in the message
   * clicked) whose shown selection is ready — the person's draft, else the preselected recommendation — sent as
   * shown. Read afresh at the click, so a question answered elsewhere meanwhile is simply no longer there, and one
   * the page did not show is never sent.
   */
  async #inboxSend(actor: Actor, place: Place, state: InboxState, shown: readonly string[]): Promise<Answer> {
    const refs =
      shown.length > 0 ? shown : (await this.#inboxPage(actor, place, state)).items.map((i) => refOf(i.question));
    const results = await this.#o.interactions.sendReady(refs, actor, place);
    const sent: number[] = [];
    const refused: string[] = [];
    for (const { outcome } of results) {
      if (outcome.ok) sent.push(outcome.question.id);
      else {
        this.#refused('inbox-send', actor, outcome.refusal);
        refused.push(outcome.text);
      }
    }
    this.#log.info(
      { action: 'inbox-send', user: actor.userId, sent: sent.length, refused: refused.length },
      'discord: inbox sent',
    );
    const head =
      sent.length === 0
        ? 'Nothing sent: no answer in this view is ready.'
        : `Sent ${sent.length === 1 ? '1 answer' : `${sent.length} answers`}: ${sent.map((id) => `#${id}`).join(', ')}.`;
    return this.#inbox(actor, place, state, undefined, [head, ...refused].join(' '));
  }

  // -------------------------------------------------------------------------------------------------------------
  // Answering in time

  /**
   * Run `work` and answer with what it returns: as the first response when it is ready within `deferAfterMs`;
   * otherwise defer first (`late`: an ephemeral "thinking" reply, or a silent update of the message the component
   * is on) and send it as the edit. A failure is logged (ids and codes) and told in place as "try again".
   */
  async respond(
    interaction: Answerable,
    late: 'reply' | 'update',
    started: number,
    verb: string | undefined,
    work: () => Promise<Answer>,
  ): Promise<void> {
    const running = work().then(
      (answer) => ({ ok: true as const, answer }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    const deferAfterMs = this.#o.deferAfterMs ?? 1500;
    let timer: NodeJS.Timeout | undefined;
    const early =
      deferAfterMs <= 0
        ? undefined
        : await Promise.race([
            running,
            new Promise<undefined>((resolve) => {
              timer = setTimeout(() => resolve(undefined), deferAfterMs);
            }),
          ]);
    clearTimeout(timer);
    try {
      if (early !== undefined) {
        if (!early.ok) this.#sink(early.error, interaction, verb);
        await this.#first(interaction, early.ok ? early.answer : reply(TRY_AGAIN));
      } else {
        const deferredAs = late === 'update' && canUpdate(interaction) ? 'update' : 'reply';
        if (deferredAs === 'update' && !interaction.isChatInputCommand()) await interaction.deferUpdate();
        else await interaction.deferReply({ flags: MessageFlags.Ephemeral });
        const result = await running;
        if (!result.ok) this.#sink(result.error, interaction, verb);
        await this.#afterDefer(interaction, deferredAs, result.ok ? result.answer : reply(TRY_AGAIN));
      }
      this.#log.info(
        { ...interactionIds(interaction, verb), ms: Date.now() - started, deferred: early === undefined },
        'discord: interaction answered',
      );
    } catch (error) {
      // The answer itself failed (the token expired, Discord down): nothing more can be said to the person.
      this.#sink(error, interaction, verb);
    }
  }

  async #first(interaction: Answerable, answer: Answer): Promise<void> {
    switch (answer.kind) {
      case 'drop':
        // Discord shows "This interaction failed" to an interaction left unanswered; a silent ack is kinder.
        if (canUpdate(interaction) && !interaction.isChatInputCommand()) await interaction.deferUpdate();
        return;
      case 'modal':
        if (interaction.isModalSubmit()) throw new Error('a modal cannot answer a modal submit');
        await interaction.showModal(answer.modal);
        return;
      case 'reply':
        await interaction.reply({ ...asOptions(answer.message), flags: MessageFlags.Ephemeral });
        return;
      case 'update':
        if (interaction.isMessageComponent()) {
          await interaction.update(asOptions(answer.message));
        } else if (interaction.isModalSubmit() && interaction.isFromMessage()) {
          await interaction.update(asOptions(answer.message));
        } else {
          await interaction.reply({ ...asOptions(answer.message), flags: MessageFlags.Ephemeral });
        }
        if (answer.notice !== undefined) await this.#notice(interaction, answer.notice);
        return;
    }
  }

  async #afterDefer(interaction: Answerable, deferredAs: 'reply' | 'update', answer: Answer): Promise<void> {
    switch (answer.kind) {
      case 'drop':
        if (deferredAs === 'reply') await interaction.deleteReply();
        return;
      case 'modal':
        // A modal must be the first response; this one came too late for that.
        await this.#edit(interaction, deferredAs, textMessage(MODAL_LATE));
        return;
      case 'reply':
      case 'update':
        await this.#edit(interaction, deferredAs, answer.message, answer.kind);
        if (answer.kind === 'update' && answer.notice !== undefined) await this.#notice(interaction, answer.notice);
        return;
    }
  }

  /**
   * Send `message` after a deferral: an edit of the deferred response when the kinds agree (a deferred reply takes
   * a reply, a deferred update an update); a reply after a deferred update goes as an ephemeral follow-up.
   */
  async #edit(
    interaction: Answerable,
    deferredAs: 'reply' | 'update',
    message: DiscordMessage,
    kind: 'reply' | 'update' = 'reply',
  ): Promise<void> {
    if (deferredAs === 'update' && kind === 'reply') {
      await interaction.followUp({ ...asOptions(message), flags: MessageFlags.Ephemeral });
      return;
    }
    await interaction.editReply(asOptions(message));
  }

  async #notice(interaction: Answerable, text: string): Promise<void> {
    await interaction.followUp({ ...asOptions(textMessage(text)), flags: MessageFlags.Ephemeral });
  }

  // -------------------------------------------------------------------------------------------------------------
  // helpers

  async #question(ref: string): Promise<Question | undefined> {
    const parsed = parseQuestionRef(ref);
    if (!parsed) return undefined;
    const project = await this.#o.store.projectByTag(parsed.tag);
    return project === undefined ? undefined : this.#o.store.get(project, parsed.id);
  }

  #refusal(action: string, actor: Actor, refusal: string, text: string): Answer {
    this.#refused(action, actor, refusal);
    return reply(text);
  }

  #refused(action: string, actor: Actor, refusal: string): void {
    this.#log.info({ action, user: actor.userId, refusal }, 'discord: interaction refused');
  }

  #dropped(interaction: BaseInteraction, reason: string): Answer {
    this.#log.warn(interactionIds(interaction), `discord: interaction dropped (${reason})`);
    return { kind: 'drop' };
  }

  async #drop(interaction: Interaction, reason: string): Promise<void> {
    this.#dropped(interaction, reason);
    if (interaction.isMessageComponent())
      await interaction.deferUpdate().catch((e: unknown) => this.#sink(e, interaction));
  }

  /** The one sink: the error's kind and codes, the interaction's ids. */
  #sink(error: unknown, interaction: BaseInteraction, verb?: string): void {
    this.#log.error(
      { ...interactionIds(interaction, verb), ...discordErrorFields(error) },
      'discord: interaction failed',
    );
  }
}

/**
 * blocks' message as discord.js options. The renderers build Discord's own JSON (checked against its limits when
 * rendered) with readonly types; discord.js types the same JSON as mutable, hence the cast.
 */
function asOptions(message: DiscordMessage): BaseMessageOptions {
  return toDiscordJsOptions(message);
}

/** Whether the interaction came from a message it may redraw (a component, or a modal opened from one). */
function canUpdate(interaction: Answerable): boolean {
  return interaction.isMessageComponent() || (interaction.isModalSubmit() && interaction.isFromMessage());
}

/** The item a member index names: the single question (no member), or the set's member; undefined otherwise. */
function itemAt(question: Question, member: number | undefined): QuestionItem | undefined {
  if (question.members === undefined) return member === undefined ? question : undefined;
  return member === undefined ? undefined : question.members[member];
}

/** A review's lines as the review renderer takes them. */
function entriesOfLines(
  lines: readonly ReviewLine[],
): { selection: ReviewLine['selection']; readiness: ReviewLine['readiness'] }[] {
  return lines.map((line) => ({ selection: line.selection, readiness: line.readiness }));
}

/**
 * A notes modal's fields as draft changes, one per item it holds (in the items' order): the choice select (a single
 * question's), answer notes, and notes per option (by the option's index, saved under its label). Read with guards:
 * undefined when a field names no item or option of the question, or its value is unreadable.
 */
function modalChanges(interaction: ModalSubmitInteraction, question: Question): DraftChange[] | undefined {
  type Change = { member?: number; pick?: NonNullable<DraftChange['pick']>; notes?: string; choiceNotes: ChoiceNote[] };
  const byItem = new Map<number, Change>();
  const changeOf = (member: number | undefined): Change => {
    const key = member ?? -1;
    const existing = byItem.get(key);
    if (existing !== undefined) return existing;
    const created: Change = { ...(member === undefined ? {} : { member }), choiceNotes: [] };
    byItem.set(key, created);
    return created;
  };
  for (const [customId, data] of interaction.fields.fields) {
    const field = obj(data);
    if (customId === NOTES_MODAL_FIELDS.choice) {
      const pick =
        question.members === undefined ? selectionFromValues(question, selectValues(field?.values)) : undefined;
      if (pick === undefined) return undefined;
      changeOf(undefined).pick = pick;
      continue;
    }
    const target = parseNotesField(customId);
    const value = field?.value;
    const item = target === undefined ? undefined : itemAt(question, target.member);
    if (target === undefined || item === undefined || typeof value !== 'string') return undefined;
    const change = changeOf(target.member);
    if (target.option === undefined) {
      change.notes = value;
      continue;
    }
    const label = item.options[target.option]?.label;
    if (label === undefined) return undefined;
    change.choiceNotes.push({ choice: label, notes: value });
  }
  return [...byItem.entries()]
    .sort(([a], [b]) => a - b)
    .map(
      ([, { choiceNotes, ...change }]): DraftChange => (choiceNotes.length === 0 ? change : { ...change, choiceNotes }),
    );
}

function refOf(question: Question): string {
  return formatQuestionRef(question.project, question.id);
}

/**
 * The refs of the questions an inbox message shows: the values of its question select (`al:inbox-question:…`),
 * read from the message the component was clicked on. Input from the edge: anything unreadable gives none.
 */
function shownRefs(message: unknown): string[] {
  let rows: unknown;
  try {
    rows = JSON.parse(JSON.stringify((message as { components?: unknown } | null)?.components ?? []));
  } catch {
    return [];
  }
  const refs: string[] = [];
  for (const row of Array.isArray(rows) ? rows : []) {
    const components = (row as { components?: unknown }).components;
    for (const component of Array.isArray(components) ? components : []) {
      const c = component as { custom_id?: unknown; options?: unknown };
      if (parseCustomId(c.custom_id)?.kind !== 'inbox-question' || !Array.isArray(c.options)) continue;
      for (const option of c.options) {
        const value = (option as { value?: unknown }).value;
        if (typeof value === 'string' && parseQuestionRef(value) !== undefined) refs.push(value);
      }
    }
  }
  return refs;
}
