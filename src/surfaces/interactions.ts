/**
 * What a person can do from any surface, once for every platform, and the one way a surface reaches the store: keep
 * a draft, review and send an answer, remove a question, read a place's inbox and batch-send from it, and the web
 * inbox's reads (its project counts, what closed lately, the decision trail). Surfaces translate payloads into
 * actions (`actions/`), which call this service only. Every refusal leaves the store unchanged and comes with a text
 * to show the person in place (`render/vocabulary.ts`).
 */

import { answerReadiness } from '../core/answer.js';
import type { InboxPage } from '../core/inbox.js';
import { InvalidAnswerError } from '../core/invalid-answer-error.js';
import { type Draft, itemsOf, type Platform, type Question, type Reply, type Selection } from '../core/question.js';
import { parseQuestionRef } from '../core/question-ref.js';
import { notPendingText, REFUSALS, removedText, sentText } from '../render/vocabulary.js';
import type { Decision, DecisionPage, DecisionPageQuery, DecisionQuery } from '../store/decision-query.js';
import type { DraftChange, ViewCounts } from '../store/port.js';
import { type Actor, type Place, reachesProject, responderOf } from './access.js';
import { InboxReads } from './inbox-reads.js';
import type { InteractionServiceOptions } from './interaction-options.js';
import type { DraftOutcome, InboxPageRequest, Outcome, Reach, Refused, Review } from './outcomes.js';
import { reviewOf, type ShownPicks } from './review.js';

export type { InboxPage } from '../core/inbox.js';

/** A question `locate` found and checked for one actor and place: see {@link InteractionService.locate}. */
export interface Located {
  readonly ok: true;
  readonly question: Question;
}
export { notPendingText } from '../render/vocabulary.js';
export type { DraftChange } from '../store/port.js';
export type { AccessPolicy, Actor, AllowLists, Membership, Place, Routing } from './access.js';
export { allowListPolicy, reachesProject, responderOf } from './access.js';
export type { InteractionServiceOptions } from './interaction-options.js';
export type {
  DraftOutcome,
  DraftOutcomeOk,
  InboxPageRequest,
  Outcome,
  Reach,
  Refusal,
  Refused,
  Review,
} from './outcomes.js';
export type { ReviewLine, ShownPick, ShownPicks } from './review.js';
export { reviewOf } from './review.js';

export class InteractionService {
  readonly #o: InteractionServiceOptions;
  readonly #reads: InboxReads;
  /** What `locate` found, for the one action that asked (held weakly: gone with the action). */
  readonly #located = new WeakMap<object, { readonly actor: Actor; readonly place: Place }>();

  constructor(options: InteractionServiceOptions) {
    this.#o = options;
    this.#reads = new InboxReads(options, (question, actor) => this.draftsOf(question, actor));
  }

  /**
   * The question a ref names, as it is now: for reading a payload's values against the question's options before
   * the action (which checks access) runs. Undefined for an unknown ref, and for one of a project the `actor`'s
   * sign-in does not reach (so reading a payload tells them nothing about it).
   */
  async lookup(ref: unknown, actor?: Actor): Promise<Question | undefined> {
    const parsed = parseQuestionRef(ref);
    const project = parsed ? await this.#o.store.projectByTag(parsed.tag) : undefined;
    if (project === undefined || parsed === undefined) return undefined;
    if (actor !== undefined && !reachesProject(actor, project)) return undefined;
    return this.#o.store.get(project, parsed.id);
  }

  /** The question as it is now (a redraw showing a draft checks it did not close meanwhile). */
  current(question: Question): Promise<Question | undefined> {
    return this.#o.store.get(question.project, question.id);
  }

  /**
   * Where an action starts: the question a payload's ref names, read once, with access and routing checked for this
   * actor and place. The result can be handed to `review` and `send` in place of the ref (they then read nothing
   * again); a located question not made here, or for another actor or place, is read again, so no caller can skip the
   * checks.
   */
  async locate(ref: unknown, actor: Actor, place: Place): Promise<Located | Refused> {
    const located = await this.#locate(ref, actor, place);
    if (located.ok) this.#located.set(located, { actor, place });
    return located;
  }

  /** A ref, or a question `locate` found for this call. */
  #resolve(target: unknown, actor: Actor, place: Place): Promise<Located | Refused> {
    const found = typeof target === 'object' && target !== null ? this.#located.get(target) : undefined;
    if (found !== undefined && found.actor === actor && found.place === place)
      return Promise.resolve(target as Located);
    return this.#locate(target, actor, place);
  }

  /** Resolve a payload's question reference and check that this actor may act on it here. */
  async #locate(ref: unknown, actor: Actor, place: Place): Promise<Located | Refused> {
    // A project the actor's sign-in does not reach reads as unknown: the refusal tells nothing about it.
    const question = await this.lookup(ref, actor);
    if (!question) return { ok: false, refusal: 'unknown', text: REFUSALS.unknown };
    const channels = this.#o.routing(actor.platform, question.project, actor);
    if (place.channel !== undefined ? !channels.includes(place.channel) : channels.length === 0) {
      return { ok: false, refusal: 'other-channel', text: REFUSALS.otherChannel };
    }
    if (!this.#o.access.mayAnswer(actor, question.project)) {
      return { ok: false, refusal: 'not-allowed', text: REFUSALS.notAllowed };
    }
    if (place.channel === undefined && !(await this.#reads.reachesUnplaced(actor, question.project, channels))) {
      return { ok: false, refusal: 'not-allowed', text: REFUSALS.notMember };
    }
    return { ok: true, question };
  }

  /** The actor's draft for a question (of a set's `member`), if they have one (without one, the recommendation shows). */
  async draftOf(question: Question, actor: Actor, member?: number): Promise<Draft | undefined> {
    return this.#o.store.getDraft(question.project, question.id, personOf(actor), member);
  }

  /** The actor's draft of each item of a question: one for a single question, one per member of a set. */
  async draftsOf(question: Question, actor: Actor): Promise<(Draft | undefined)[]> {
    if (question.members === undefined) return [await this.draftOf(question, actor)];
    return Promise.all(question.members.map((_, member) => this.draftOf(question, actor, member)));
  }

  /**
   * Whether the actor may act on the question here and now (access, routing, still pending), and their drafts.
   * Reads only: for what asks before it acts, such as opening the notes modal or Remove's confirmation. A refusal
   * comes with its text, as the acting calls give it.
   */
  async reach(ref: unknown, actor: Actor, place: Place): Promise<Reach> {
    const located = await this.#locate(ref, actor, place);
    if (!located.ok) return located;
    const { question } = located;
    if (question.status !== 'pending') return notPending(question);
    const drafts = await this.draftsOf(question, actor);
    const draft = question.members === undefined ? drafts[0] : undefined;
    return draft === undefined ? { ok: true, question, drafts } : { ok: true, question, draft, drafts };
  }

  /**
   * Change the actor's draft (of one member, for a set: `change.member`): `pick` replaces the choices, `notes` the
   * notes, `choiceNotes` each named option's notes (each kept when not given; empty notes clear them). The store
   * merges the change in one step, so a pick and notes arriving together both land. Not ready is fine for a draft;
   * only labels of the question are.
   */
  async saveDraft(ref: unknown, actor: Actor, place: Place, change: DraftChange): Promise<DraftOutcome> {
    const located = await this.#locate(ref, actor, place);
    if (!located.ok) return located;
    const { question } = located;
    try {
      const saved = await this.#o.store.saveDraft(question.project, question.id, personOf(actor), change);
      if (saved.kind === 'unknown') return { ok: false, refusal: 'unknown', text: REFUSALS.unknown };
      if (saved.kind === 'not-pending') return notPending(saved.question);
      // The store checked the member: it is one of the question's items.
      const item = itemsOf(question)[change.member ?? 0];
      const readiness = item === undefined ? 'pick-one' : answerReadiness(item, saved.draft);
      return {
        ok: true,
        question,
        ...(change.member === undefined ? {} : { member: change.member }),
        draft: saved.draft,
        readiness,
      };
    } catch (error) {
      if (error instanceof InvalidAnswerError) return { ok: false, refusal: 'invalid', text: error.message };
      throw error;
    }
  }

  /**
   * What Send would send now, item by item, without sending: `shown` (what the platform shows selected right now),
   * else the actor's draft, else the recommendation; notes from the draft. A set is reviewed before it is sent.
   */
  async review(ref: unknown, actor: Actor, place: Place, shown?: ShownPicks): Promise<Review> {
    const located = await this.#resolve(ref, actor, place);
    if (!located.ok) return located;
    const { question } = located;
    if (question.status !== 'pending') return notPending(question);
    const drafts = await this.draftsOf(question, actor);
    return { ok: true, ...reviewOf(question, drafts, shown) };
  }

  /**
   * Send the actor's answer: per item `shown` (what the platform shows selected right now) or else their draft, or
   * else the recommendation; notes from their draft. A set is sent whole, only when every member is ready. The first
   * answer wins; a later one is told who answered and where.
   */
  async send(ref: unknown, actor: Actor, place: Place, shown?: ShownPicks): Promise<Outcome> {
    const reviewed = await this.review(ref, actor, place, shown);
    if (!reviewed.ok) return reviewed;
    const { question } = reviewed;
    if (!reviewed.ready) return { ok: false, refusal: 'not-ready', text: reviewed.text, question };
    const selections = reviewed.lines.map((line) => line.selection);
    const reply: Reply = question.members === undefined ? (selections[0] as Selection) : { members: selections };
    try {
      const result = await this.#o.store.answer(question.project, question.id, reply, responderOf(actor));
      switch (result.kind) {
        case 'won':
          return { ok: true, question: result.question, text: sentText(question.id, reviewed.summary) };
        case 'unknown':
          return { ok: false, refusal: 'unknown', text: REFUSALS.unknown };
        default:
          return notPending(result.question);
      }
    } catch (error) {
      if (error instanceof InvalidAnswerError) return { ok: false, refusal: 'invalid', text: error.message, question };
      throw error;
    }
  }

  /** Remove (dismiss) a pending question without answering; the agent is told. */
  async remove(ref: unknown, actor: Actor, place: Place): Promise<Outcome> {
    const located = await this.#locate(ref, actor, place);
    if (!located.ok) return located;
    const result = await this.#o.store.dismiss(located.question.project, located.question.id, responderOf(actor));
    switch (result.kind) {
      case 'done':
        return { ok: true, question: result.question, text: removedText(result.question.id) };
      case 'unknown':
        return { ok: false, refusal: 'unknown', text: REFUSALS.unknown };
      default:
        return notPending(result.question);
    }
  }

  /**
   * One page of the inbox of a place: the pending questions of every project routed there (on this platform) in
   * `request.filter`, blocking first then oldest, each with the actor's draft; and the counts of every filter. Without
   * a channel (Slack's Home tab): the projects the person may answer that are routed to a channel they are in (as
   * last learnt) or that an allow-list names them for. Reads the counts and the page only, never the whole inbox.
   */
  inboxPage(actor: Actor, place: Place, request: InboxPageRequest): Promise<InboxPage> {
    return this.#reads.inboxPage(actor, place, request);
  }

  /**
   * Send every question among `refs` (those in the inbox's current filter) whose shown selection is ready: the
   * actor's draft, else the recommendation. Unready ones are left alone; each outcome is reported.
   */
  async sendReady(refs: readonly string[], actor: Actor, place: Place): Promise<{ ref: string; outcome: Outcome }[]> {
    const results: { ref: string; outcome: Outcome }[] = [];
    for (const ref of refs) {
      const located = await this.#locate(ref, actor, place);
      if (!located.ok) {
        results.push({ ref, outcome: located });
        continue;
      }
      // What the inbox shows for it: the actor's drafts, else the recommendations preselected.
      const drafts = await this.draftsOf(located.question, actor);
      if (!reviewOf(located.question, drafts).ready) continue;
      results.push({ ref, outcome: await this.send(ref, actor, place, drafts) });
    }
    return results;
  }

  /** The pending counts of every project the place shows this person (the web inbox's project filter). */
  projectCounts(actor: Actor, place: Place): Promise<ReadonlyMap<string, ViewCounts>> {
    return this.#reads.projectCounts(actor, place);
  }

  /** The newest questions closed since `since` among the projects the place shows (of one project's tag, if given). */
  recentlyClosed(
    actor: Actor,
    place: Place,
    query: { readonly since: number; readonly limit: number; readonly project?: string },
  ): Promise<readonly Question[]> {
    return this.#reads.recentlyClosed(actor, place, query);
  }

  /** One page of the decision trail of the projects the place shows (of one project's tag, if given). */
  decisionsPage(
    actor: Actor,
    place: Place,
    query: Omit<DecisionPageQuery, 'projects' | 'project'> & { readonly projectTag?: string },
  ): Promise<DecisionPage> {
    return this.#reads.decisionsPage(actor, place, query);
  }

  /** Every decision since `query.since` of the projects the place shows (the time-to-answer chart). */
  decisions(
    actor: Actor,
    place: Place,
    query: Omit<DecisionQuery, 'projects' | 'project'> & { readonly projectTag?: string },
  ): Promise<Decision[]> {
    return this.#reads.decisions(actor, place, query);
  }
}

function notPending(question: Question): Refused {
  return {
    ok: false,
    refusal: question.answer ? 'already-answered' : 'closed',
    text: notPendingText(question),
    question,
  };
}

function personOf(actor: Actor): { platform: Platform; userId: string } {
  return { platform: actor.platform, userId: actor.userId };
}
