/**
 * What a person can do from chat, once for every platform: keep a draft, send an answer, remove a question,
 * list and batch-send from the inbox. Platform handlers translate payloads into these calls and the outcomes into
 * replies. Every refusal leaves the store unchanged and comes with a text to show the person in place.
 */
import { answerReadiness, describeSelection, type Readiness } from '../core/answer.js';
import { type InboxFilter, type InboxPage, shownSelection } from '../core/inbox.js';
import { InvalidAnswerError } from '../core/invalid-answer-error.js';
import { DISPLAY_NAME_MAX } from '../core/limits.js';
import {
  type Draft,
  itemsOf,
  memberRef,
  OTHER_LABEL,
  type Platform,
  platformName,
  type Question,
  type QuestionItem,
  type Reply,
  type Responder,
  type Selection,
} from '../core/question.js';
import { formatQuestionRef, parseQuestionRef, projectTag } from '../core/question-ref.js';
import { describeReply } from '../core/reply.js';
import { cursorOf, formatCursor } from '../store/paging.js';
import type { DraftChange, Store, ViewCounts } from '../store/port.js';

/** The person acting, as the platform identifies them. `roles` are Discord role ids (empty elsewhere). */
export interface Actor extends Responder {
  readonly roles?: readonly string[];
}

/** The actor as the store keeps them: platform, id, and a display name within the limit. */
export function responderOf(actor: Actor): Responder {
  const displayName = actor.displayName.trim().slice(0, DISPLAY_NAME_MAX) || actor.userId;
  return { platform: actor.platform, userId: actor.userId, displayName };
}

/** Who may answer: by default everyone in the routed channel; narrowed by allow-lists. */
export interface AccessPolicy {
  mayAnswer(actor: Actor, project: string): boolean;
  /**
   * Whether an allow-list names this person for the project (their user id, or on Discord one of their roles):
   * they may then reach its questions from a place without a channel (Slack's Home tab) without being a member of
   * the channel it is routed to. Implies `mayAnswer`.
   */
  grants(actor: Actor, project: string): boolean;
}

export interface AllowLists {
  /** User ids per platform; absent or empty means everyone. */
  readonly users?: Partial<Record<Platform, readonly string[]>>;
  /** Discord role ids; a Discord user with any of them is allowed too. */
  readonly discordRoles?: readonly string[];
}

export function allowListPolicy(lists: AllowLists): AccessPolicy {
  const listsFor = (actor: Actor) => ({
    users: lists.users?.[actor.platform] ?? [],
    roles: actor.platform === 'discord' ? (lists.discordRoles ?? []) : [],
  });
  const names = (actor: Actor) => {
    const { users, roles } = listsFor(actor);
    return users.includes(actor.userId) || (actor.roles ?? []).some((role) => roles.includes(role));
  };
  return {
    mayAnswer(actor) {
      const { users, roles } = listsFor(actor);
      return (users.length === 0 && roles.length === 0) || names(actor);
    },
    grants: names,
  };
}

/**
 * The channels a person is a member of, on one platform, for places without a channel (Slack's Home tab).
 * Implementations ask the platform and may answer from a cache for a short while.
 */
export interface Membership {
  /** The person's channels. `fresh`: the cached answer said no; ask the platform again (as often as it allows). */
  channelsOf(actor: Actor, options?: { readonly fresh?: boolean }): Promise<ReadonlySet<string>>;
}

/** Channels each platform routes a project to (the bridge's routing, seen from the person's side). */
export type Routing = (platform: Platform, project: string) => readonly string[];

/**
 * Where an interaction happened: a channel, or a place without one (Slack's Home tab), where a person reaches
 * only the projects routed to channels they are a member of, and those an allow-list names them for.
 */
export interface Place {
  readonly channel?: string;
}

export type Refusal =
  | 'unknown'
  | 'not-allowed'
  | 'other-channel'
  | 'not-ready'
  | 'already-answered'
  | 'closed'
  | 'invalid';

export type Outcome =
  | { readonly ok: true; readonly question: Question; readonly text: string }
  | { readonly ok: false; readonly refusal: Refusal; readonly text: string; readonly question?: Question };

export interface DraftOutcomeOk {
  readonly ok: true;
  readonly question: Question;
  /** The member of a set the draft is of; absent for a single question. */
  readonly member?: number;
  readonly draft: Draft;
  /** The ready mark of this draft (of its member, for a set). */
  readonly readiness: Readiness;
}

export type DraftOutcome = DraftOutcomeOk | (Outcome & { readonly ok: false });

/**
 * Whether a person may act on a question here and now, with their draft if they have one (see `reach`): `draft` for
 * a single question, `drafts` (one per member, undefined where none) for a set.
 */
export type Reach =
  | {
      readonly ok: true;
      readonly question: Question;
      readonly draft?: Draft;
      readonly drafts: readonly (Draft | undefined)[];
    }
  | (Outcome & { readonly ok: false });

/** One line of a set's review before it is sent: a member, what it would send, and whether that is ready. */
export interface ReviewLine {
  /** The member (0 for the first); a single question has one line, member 0. */
  readonly member: number;
  /** `#12.1`, or `#12` for a single question. */
  readonly ref: string;
  /** The member's topic; absent for a single question. */
  readonly topic?: string;
  readonly selection: Selection;
  /** The picked answer as one line (`describeSelection`). */
  readonly answer: string;
  readonly readiness: Readiness;
}

/** What Send would send, each item with its ready mark (see `review`). */
export type Review =
  | {
      readonly ok: true;
      readonly question: Question;
      readonly lines: readonly ReviewLine[];
      /** Every line is ready: Send would send. */
      readonly ready: boolean;
      /** The whole as one line (`describeReply`): `Database: Postgres · Cache: Redis`. */
      readonly summary: string;
      /** When not ready, what to do first, naming the members (`Cache needs a note.`). */
      readonly text: string;
    }
  | (Outcome & { readonly ok: false });

/** What a platform shows selected right now per item (index 0 for a single question); undefined: not reported. */
export type ShownPicks = readonly (Pick | undefined)[];

function time(at: number): string {
  return `${new Date(at).toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}

/** The in-place text for a question that is no longer pending, naming who answered and where. */
export function notPendingText(question: Question): string {
  const answer = question.answer;
  if (answer) {
    return `#${question.id} was already answered by ${answer.by.displayName} on ${platformName(answer.by.platform)} at ${time(answer.at)}: ${describeReply(question, answer)}.`;
  }
  switch (question.status) {
    case 'cancelled':
      return `#${question.id} was withdrawn by the agent.`;
    case 'dismissed': {
      const by = question.closure?.by;
      return by
        ? `#${question.id} was dismissed by ${by.displayName} on ${platformName(by.platform)}.`
        : `#${question.id} was dismissed.`;
    }
    case 'expired':
      return `#${question.id} expired unanswered.`;
    default:
      return `#${question.id} is ${question.status}.`;
  }
}

const REFUSAL_TEXT = {
  unknown: 'This question no longer exists.',
  notAllowed: 'You are not allowed to answer questions here.',
  otherChannel: 'This question belongs to a project that is not routed to this channel.',
  notMember: 'This question belongs to a channel you are not in: answer it there, or ask to be added.',
  pickOne: 'Pick an answer first.',
  needsNote: `${OTHER_LABEL} needs a note: add notes first.`,
} as const;

export interface InteractionServiceOptions {
  readonly store: Store;
  readonly access: AccessPolicy;
  readonly routing: Routing;
  /** Per platform, whose channels a person is in: needed for places without a channel; absent there, none shown. */
  readonly membership?: Partial<Record<Platform, Membership>>;
}

/** A draft-less selection as a platform reports it (Slack sends the select's state with each click). */
export interface Pick {
  readonly choices: readonly string[];
  readonly other: boolean;
}

/** Which page of a place's inbox to read. */
export interface InboxPageRequest {
  readonly filter: InboxFilter;
  /** The ref of the last question of the page before ({@link InboxPage.next}); absent: the first page. */
  readonly after?: string;
  /** Questions on the page: as many as the surface shows at once. */
  readonly limit: number;
  /** Only the project of this tag (`core/question-ref.ts`), among those the place shows (the web inbox's filter). */
  readonly project?: string;
  /** The store's counts of these projects when the caller read them just now (the web inbox, for its project filter). */
  readonly counts?: ReadonlyMap<string, ViewCounts>;
}

export type { InboxPage } from '../core/inbox.js';

export class InteractionService {
  readonly #o: InteractionServiceOptions;

  constructor(options: InteractionServiceOptions) {
    this.#o = options;
  }

  /** Resolve a payload's question reference and check that this actor may act on it here. */
  async #locate(
    ref: unknown,
    actor: Actor,
    place: Place,
  ): Promise<{ ok: true; question: Question } | (Outcome & { ok: false })> {
    const parsed = parseQuestionRef(ref);
    const project = parsed ? await this.#o.store.projectByTag(parsed.tag) : undefined;
    const question = project && parsed ? await this.#o.store.get(project, parsed.id) : undefined;
    if (!question) return { ok: false, refusal: 'unknown', text: REFUSAL_TEXT.unknown };
    const channels = this.#o.routing(actor.platform, question.project);
    if (place.channel !== undefined ? !channels.includes(place.channel) : channels.length === 0) {
      return { ok: false, refusal: 'other-channel', text: REFUSAL_TEXT.otherChannel };
    }
    if (!this.#o.access.mayAnswer(actor, question.project)) {
      return { ok: false, refusal: 'not-allowed', text: REFUSAL_TEXT.notAllowed };
    }
    if (place.channel === undefined && !(await this.#reachesUnplaced(actor, question.project, channels))) {
      return { ok: false, refusal: 'not-allowed', text: REFUSAL_TEXT.notMember };
    }
    return { ok: true, question };
  }

  /**
   * From a place without a channel, whether the person reaches a project routed to `channels`: an allow-list names
   * them, or they are a member of one of those channels (the platform asked again when its cached answer says no).
   */
  async #reachesUnplaced(actor: Actor, project: string, channels: readonly string[]): Promise<boolean> {
    if (this.#o.access.grants(actor, project)) return true;
    const membership = this.#o.membership?.[actor.platform];
    if (!membership) return false;
    const cached = await membership.channelsOf(actor);
    if (channels.some((channel) => cached.has(channel))) return true;
    const fresh = await membership.channelsOf(actor, { fresh: true });
    return channels.some((channel) => fresh.has(channel));
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
    if (question.status !== 'pending') return this.#notPending(question);
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
      if (saved.kind === 'unknown') return { ok: false, refusal: 'unknown', text: REFUSAL_TEXT.unknown };
      if (saved.kind === 'not-pending') return this.#notPending(saved.question);
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

  #notPending(question: Question): Outcome & { ok: false } {
    return {
      ok: false,
      refusal: question.answer ? 'already-answered' : 'closed',
      text: notPendingText(question),
      question,
    };
  }

  /**
   * What Send would send now, item by item, without sending: `shown` (what the platform shows selected right now),
   * else the actor's draft, else the recommendation; notes from the draft. A set is reviewed before it is sent.
   */
  async review(ref: unknown, actor: Actor, place: Place, shown?: ShownPicks): Promise<Review> {
    const located = await this.#locate(ref, actor, place);
    if (!located.ok) return located;
    const { question } = located;
    if (question.status !== 'pending') return this.#notPending(question);
    const drafts = await this.draftsOf(question, actor);
    return reviewOf(question, drafts, shown);
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
          return { ok: true, question: result.question, text: `Sent: ${reviewed.summary} (#${question.id}).` };
        case 'unknown':
          return { ok: false, refusal: 'unknown', text: REFUSAL_TEXT.unknown };
        default:
          return this.#notPending(result.question);
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
        return { ok: true, question: result.question, text: `Removed #${result.question.id}; the agent will be told.` };
      case 'unknown':
        return { ok: false, refusal: 'unknown', text: REFUSAL_TEXT.unknown };
      default:
        return this.#notPending(result.question);
    }
  }

  /** The projects whose questions a place's inbox shows (see {@link inboxPage}). */
  async #inboxProjects(actor: Actor, place: Place): Promise<string[]> {
    const unplaced =
      place.channel === undefined ? await this.#o.membership?.[actor.platform]?.channelsOf(actor) : undefined;
    return (await this.#o.store.knownProjects()).filter((project) => {
      const channels = this.#o.routing(actor.platform, project);
      if (place.channel !== undefined) return channels.includes(place.channel);
      if (channels.length === 0 || !this.#o.access.mayAnswer(actor, project)) return false;
      return this.#o.access.grants(actor, project) || channels.some((channel) => unplaced?.has(channel));
    });
  }

  /**
   * One page of the inbox of a place: the pending questions of every project routed there (on this platform) in
   * `request.filter`, blocking first then oldest, each with the actor's draft; and the counts of every filter. Without
   * a channel (Slack's Home tab): the projects the person may answer that are routed to a channel they are in (as
   * last learnt) or that an allow-list names them for. Reads the counts and the page only, never the whole inbox.
   */
  async inboxPage(actor: Actor, place: Place, request: InboxPageRequest): Promise<InboxPage> {
    const reached = await this.#inboxProjects(actor, place);
    const projects =
      request.project === undefined ? reached : reached.filter((project) => projectTag(project) === request.project);
    const after = await this.#pendingCursor(request.after);
    const [counted, page] = await Promise.all([
      request.counts ?? this.#o.store.countAcross(projects),
      this.#o.store.pageAcross(projects, {
        view: 'pending',
        limit: request.limit,
        ...(request.filter === 'all' ? {} : { blocking: request.filter === 'blocking' }),
        ...(after === undefined ? {} : { after }),
      }),
    ]);
    let blocking = 0;
    let canWait = 0;
    for (const project of projects) {
      const count = counted.get(project);
      blocking += count?.blocking ?? 0;
      canWait += count?.canWait ?? 0;
    }
    const counts = { all: blocking + canWait, blocking, 'non-blocking': canWait };
    const items = await Promise.all(
      page.questions.map(async (question) => {
        const drafts = await this.draftsOf(question, actor);
        if (question.members !== undefined) return { question, memberDrafts: drafts };
        const draft = drafts[0];
        return draft ? { question, draft } : { question };
      }),
    );
    const last = page.questions.at(-1);
    return {
      filter: request.filter,
      items,
      counts,
      offset: Math.max(0, counts[request.filter] - page.remaining - items.length),
      remaining: page.remaining,
      ...(page.next !== undefined && last !== undefined ? { next: formatQuestionRef(last.project, last.id) } : {}),
    };
  }

  /**
   * The store's pending-view cursor for "after this question" (a ref: short enough for Discord's custom ids). A
   * question's place in the pending order never changes (blocking, parked at, id), so its ref marks the spot even
   * once it is answered; an unknown ref reads the first page.
   */
  async #pendingCursor(ref: string | undefined): Promise<string | undefined> {
    const parsed = parseQuestionRef(ref);
    const project = parsed ? await this.#o.store.projectByTag(parsed.tag) : undefined;
    const question = project && parsed ? await this.#o.store.get(project, parsed.id) : undefined;
    if (!question) return undefined;
    const cursor = cursorOf('pending', { ...question, status: 'pending' });
    return cursor === undefined ? undefined : formatCursor(cursor);
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
}

function personOf(actor: Actor): { platform: Platform; userId: string } {
  return { platform: actor.platform, userId: actor.userId };
}

/** What an item shows selected before anyone picks: its recommendations, if any (`core/inbox.ts`). */
function defaultSelection(item: QuestionItem): Pick {
  return shownSelection(item);
}

/** What each item would send: shown pick, else draft, else recommendation; notes from the draft (see `review`). */
export function reviewOf(
  question: Question,
  drafts: readonly (Draft | undefined)[],
  shown?: ShownPicks,
): Review & { ok: true } {
  const lines = itemsOf(question).map((item, member): ReviewLine => {
    const draft = drafts[member];
    const base = shown?.[member] ?? draft ?? defaultSelection(item);
    const selection: Selection = {
      choices: base.choices,
      other: base.other,
      ...(draft?.notes !== undefined ? { notes: draft.notes } : {}),
      ...(draft?.choiceNotes !== undefined ? { choiceNotes: draft.choiceNotes } : {}),
    };
    const topic = question.members?.[member]?.topic;
    return {
      member,
      ref: question.members === undefined ? `#${question.id}` : memberRef(question.id, member),
      ...(topic === undefined ? {} : { topic }),
      selection,
      answer: describeSelection(item, selection),
      readiness: answerReadiness(item, selection),
    };
  });
  const unready = lines.filter((line) => line.readiness !== 'ready');
  const reply: Reply =
    question.members === undefined
      ? (lines[0]?.selection ?? { choices: [], other: false })
      : { members: lines.map((line) => line.selection) };
  return {
    ok: true,
    question,
    lines,
    ready: unready.length === 0,
    summary: describeReply(question, reply),
    text: unreadyText(unready),
  };
}

/** What to do before Send: a single question's refusal as before; a set's names each member that is not ready. */
function unreadyText(unready: readonly ReviewLine[]): string {
  if (unready.length === 0) return '';
  const [first] = unready;
  if (unready.length === 1 && first?.topic === undefined) {
    return first?.readiness === 'needs-note' ? REFUSAL_TEXT.needsNote : REFUSAL_TEXT.pickOne;
  }
  const needs = unready.map(
    (line) =>
      `${line.topic ?? line.ref} ${line.readiness === 'needs-note' ? `needs a note (${OTHER_LABEL})` : 'needs a pick'}`,
  );
  return `Not sent: every question of the set must be ready first. ${needs.join('; ')}.`;
}
