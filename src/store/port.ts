/**
 * The Store port: the domain operations every adapter (Redis, the embedded SQLite file) provides with the same
 * guarantees. No adapter types leak through it. All times are ms since the epoch, from the adapter's clock.
 *
 * The port is read in sections, each an interface below and one file of the same name in every adapter
 * (`redis/delivery.ts` beside `sqlite/delivery.ts`): {@link QuestionsSection} (park and read),
 * {@link ViewsSection} (pages and counts), {@link DraftsSection}, {@link TransitionsSection} (answer, cancel,
 * dismiss, expire, remind, purge: the state rules of `core/question.ts`), {@link DeliverySection} (outcomes to the
 * agent, exactly once), {@link EventsSection}, {@link LeasesSection}, {@link FailuresSection} (failed events and
 * surface faults), {@link DecisionsSection} (the trail, read through the views) and {@link TokensSection}. {@link Store} is all of them plus the connection's own calls.
 */

import type {
  ChoiceNote,
  DeliveryPath,
  Draft,
  MessageRef,
  Platform,
  Question,
  QuestionSpec,
  QuestionStatus,
  Reply,
  Responder,
} from '../core/question.js';
import type { Comparable } from '../core/similarity.js';
import type { PageView } from './paging.js';
import type { TokenStore } from './token-port.js';
import type { DecisionPage, SimilarDecision, SimilarOptions, TrailQuery } from './trail-query.js';

export type { PageView } from './paging.js';

/** Which questions to list. Omitted fields do not filter. */
export interface ListFilter {
  readonly status?: readonly QuestionStatus[];
  readonly blocking?: boolean;
}

/** The person a draft belongs to. */
export interface PersonRef {
  readonly platform: Platform;
  readonly userId: string;
}

/** Outcome of an answer attempt. Only `won` changed anything. */
export type AnswerResult =
  | { readonly kind: 'won'; readonly question: Question }
  | { readonly kind: 'already-answered'; readonly question: Question }
  | { readonly kind: 'not-pending'; readonly question: Question }
  | { readonly kind: 'unknown' };

/** Outcome of a cancel (agent) or dismiss (person). Only `done` changed anything. */
export type CloseResult =
  | { readonly kind: 'done'; readonly question: Question }
  | { readonly kind: 'already-answered'; readonly question: Question }
  | { readonly kind: 'not-pending'; readonly question: Question }
  | { readonly kind: 'unknown' };

/** A change to one person's draft: each field given replaces the stored one; a field not given is kept. */
export interface DraftChange {
  /** Which question of a set the change is for (0 for the first, `#12.1`); absent for a single question. */
  readonly member?: number;
  /** What is picked: the choices (labels of the question's options) and Other. */
  readonly pick?: { readonly choices: readonly string[]; readonly other: boolean };
  /** The notes; empty or only whitespace clears them. */
  readonly notes?: string;
  /** Notes per option (multi-select): each given replaces that option's notes; empty clears them. */
  readonly choiceNotes?: readonly ChoiceNote[];
}

/** Outcome of saving a draft: drafts are kept only while the question is pending. */
export type DraftResult =
  | { readonly kind: 'saved'; readonly draft: Draft }
  | { readonly kind: 'not-pending'; readonly question: Question }
  | { readonly kind: 'unknown' };

/**
 * What confirming or releasing a claim needs of it: its id, its path and the ids it carried. A {@link Claim} is one;
 * the HTTP agent API rebuilds one from the ids its client sends back.
 */
export interface ClaimRef {
  readonly claimId: string;
  readonly via: DeliveryPath;
  readonly questions: readonly { readonly id: number }[];
}

/** Questions claimed for one delivery note, leased to one claimant until confirmed or the lease runs out. */
export interface Claim extends ClaimRef {
  readonly claimId: string;
  /** The path the claimed outcomes take to the agent, recorded on each when confirmed. */
  readonly via: DeliveryPath;
  /** Oldest outcome first. Empty when nothing waits (or everything waiting is leased to another claim). */
  readonly questions: readonly Question[];
  /** Outcomes still waiting that this claim does not carry (not counting other claims' leases). */
  readonly remaining: number;
}

export interface ClaimOptions {
  /** Characters the claimed entries may take, measured with `deliveryEntryLength` from core. */
  readonly budget: number;
  /** How long the claim holds its questions before they come back for another claim. */
  readonly leaseMs: number;
  /** Only outcomes of blocking questions are taken (and counted in `remaining`); default every outcome. */
  readonly blockingOnly?: boolean;
  /** The path the note takes to the agent (default `prompt`), kept on each confirmed question as `deliveredVia`. */
  readonly via?: DeliveryPath;
  /** Only this question's outcome is taken (and counted): a path that hands the agent one outcome directly. */
  readonly questionId?: number;
}

/** Outcome of recording a reminder. Only `reminded` changed anything (and appended a `reminded` event). */
export type RemindResult =
  | { readonly kind: 'reminded'; readonly question: Question }
  | { readonly kind: 'already'; readonly question: Question }
  | { readonly kind: 'not-pending'; readonly question: Question }
  | { readonly kind: 'unknown' };

export interface PageQuery {
  readonly view: PageView;
  /** `pending` only: only blocking questions (true) or only those that can wait (false). Omitted: both. */
  readonly blocking?: boolean;
  /** `closed` and `answered` only: only questions that closed at or after this time (ms). */
  readonly since?: number;
  /** Most questions on the page (at least 1). */
  readonly limit: number;
  /** The `next` of the page before; omitted (or not a cursor of this view): the first page. */
  readonly after?: string;
}

/** One page of a view. */
export interface QuestionPage {
  /** In the view's order. A question that changed between reading the index and its record is left out. */
  readonly questions: readonly Question[];
  /** Pass as `after` to read the page that follows; absent when none follows. */
  readonly next?: string;
  /** How many questions of the view (within its filters) follow this page. */
  readonly remaining: number;
  /**
   * The view counts of every project the page read across, when the adapter read them with the page (Redis: one
   * script per project does both), so an inbox need not count again; absent otherwise (then `countAcross`).
   */
  readonly counts?: ReadonlyMap<string, ViewCounts>;
}

/** One project's listing page ({@link Store.listPage}): blocking first, then by id. */
export interface ListPageQuery extends ListFilter {
  /** Most questions on the page (at least 1). */
  readonly limit: number;
  /** The `next` of the page before. */
  readonly after?: string;
}

/** What the views count per project without reading questions ({@link Store.countAcross}). */
export interface ViewCounts {
  /** Pending blocking questions. */
  readonly blocking: number;
  /** Pending questions that can wait. */
  readonly canWait: number;
  /** Questions no longer pending, still kept (the `closed` view). */
  readonly closed: number;
  /** Answered and delivered questions (the `answered` view). */
  readonly answered: number;
}

/** How many of one project's questions are in each state, split by blocking. */
export type QuestionCounts = Readonly<Record<QuestionStatus, { readonly blocking: number; readonly canWait: number }>>;

/**
 * Changes to one project, followed without polling (Redis: a blocking read of its event stream; the embedded store:
 * its change watch). Nothing that happens after the watch began is missed.
 */
export interface ProjectWatch {
  /**
   * Resolves true once something changed since the watch began or since the last call that resolved true (the
   * embedded store may also report other projects' changes); false when the time ran out or the signal aborted.
   */
  changed(options: WaitOptions): Promise<boolean>;
  close(): Promise<void>;
}

/** What happened, for the bridge and for waiters. Carries ids and statuses only, never text. */
export const EVENT_TYPES = [
  'parked',
  'answered',
  'cancelled',
  'dismissed',
  'expired',
  'delivered',
  'reminded',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface StoreEvent {
  /** Opaque, unique per event; used to acknowledge it. */
  readonly eventId: string;
  readonly type: EventType;
  readonly project: string;
  readonly questionId: number;
  readonly at: number;
}

export interface ReadEventsOptions {
  readonly count?: number;
  /** Wait up to this long for new events when none are ready; 0 returns at once. */
  readonly blockMs?: number;
}

/**
 * A consumer group over every project's events: each event goes to one consumer of the group, stays pending
 * until acknowledged, and is reclaimed by another consumer when its consumer stays silent (at-least-once).
 */
export interface EventConsumer {
  /** New events for this consumer, oldest first. */
  read(options?: ReadEventsOptions): Promise<StoreEvent[]>;
  /** Take over events another consumer read but did not acknowledge for at least `minIdleMs`. */
  reclaim(minIdleMs: number, count?: number): Promise<StoreEvent[]>;
  /** Mark events done; they are never handed out again. */
  ack(events: readonly StoreEvent[]): Promise<void>;
  /** Stop reading; events read and not acknowledged go to another consumer after their idle time. */
  close(): Promise<void>;
}

/**
 * Every project's events from the moment the tail began, for views that only need to know what changed (each `serve`
 * replica's web inbox): no group and no acknowledgement, so every tail sees every event, whichever replica's bridge
 * handles it. Events from before the start are never handed out. A tail suits work that is safe to repeat or to miss
 * while its process restarts (a page refreshing what it shows): it keeps its place in memory only.
 */
export interface EventTail {
  /**
   * The events since the last call, oldest first per project; waits up to `timeoutMs` for one; [] when none came or
   * the signal aborted (a Redis tail is then spent). `StoreUnavailableError` once the tail or its store is closed.
   */
  next(options: WaitOptions & { readonly count?: number }): Promise<StoreEvent[]>;
  close(): Promise<void>;
}

/**
 * An event a consumer group gave up on after its attempts (the bridge: a platform that kept refusing), kept until a
 * person replays it (`ask-later retry-failed`). Ids, types, counts and a short error code only: never text.
 */
export interface FailedEvent {
  /** The consumer group that gave up, e.g. `bridge:slack`. */
  readonly group: string;
  readonly event: StoreEvent;
  readonly attempts: number;
  /** What went wrong, as a short code (`channel_not_found`, `HTTP 403`, `StoreUnavailableError`). */
  readonly error: string;
  readonly failedAt: number;
}

/** One group's failed events: how many, and a few of them (newest first). */
export interface FailedEventsOfGroup {
  readonly group: string;
  readonly count: number;
  readonly sample: readonly FailedEvent[];
}

/**
 * A surface the bridge found refusing for good (a permanent failure: a channel the app is not in, a revoked token),
 * kept until a post there succeeds again; `/healthz` and `ask-later doctor` show the surface degraded meanwhile.
 * Codes and the fix only: never a question's text, never a token.
 */
export interface SurfaceFault {
  /** The consumer group of the refused surface, e.g. `bridge:slack`. */
  readonly group: string;
  /** The channel refused; absent when the whole platform refuses (its token, a missing scope). */
  readonly channel?: string;
  /** The platform's code (`not_in_channel`, `HTTP 403 (50001)`). */
  readonly error: string;
  /** What a person must do, one line ("invite the app to the channel: /invite @app"). */
  readonly fix: string;
  /** When it was recorded. */
  readonly since: number;
}

export interface ConsumerOptions {
  /**
   * Where a group created now starts, when a group of this name exists: just before the oldest event that group
   * handed out and never acknowledged, else after the last it handed out (a group that replaces another picks up
   * where that one stopped). Otherwise a new group starts at the oldest event kept.
   */
  readonly inheritFrom?: string;
}

export interface WaitOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/**
 * What {@link Store.whenReady} found: `ready`, nothing is lost (a failure just seen had another cause, so the caller
 * backs off as it would); `reconnected`, a lost connection is ready again (the caller tries again now); `lost`, still
 * lost when the time ran out or the signal aborted.
 */
export type Readiness = 'ready' | 'reconnected' | 'lost';

/**
 * The part of the store the agent side uses (the MCP server, the hook, the status line, the waiter): every
 * adapter gives it, the HTTP client (`http/`, agents holding a token instead of the Redis password) gives only it.
 * `close` ends the client; `ping` is a round trip to wherever the questions are kept.
 */
export type AgentStore = Pick<Store, AgentOperation>;

/** The operations of {@link AgentStore}. */
export type AgentOperation =
  | 'park'
  | 'get'
  | 'list'
  | 'listPage'
  | 'findDecisions'
  | 'similarDecisions'
  | 'cancel'
  | 'claimUndelivered'
  | 'confirmClaim'
  | 'releaseClaim'
  | 'waitingOutcomes'
  | 'markDelivered'
  | 'countQuestions'
  | 'acquireLease'
  | 'releaseLease'
  | 'seizeLease'
  | 'watch'
  | 'waitWhilePending'
  | 'ping'
  | 'whenReady'
  | 'close';

/**
 * The part of the store a person's inbox uses (`InteractionService`: read pages and drafts, answer, remove): every
 * adapter gives it, and so does the HTTP client for a person's token (`store/http/inbox-store.ts`, where serve decides who
 * the person is and which projects they reach).
 */
export type PersonStore = Pick<Store, PersonOperation>;

/** The operations of {@link PersonStore}. */
export type PersonOperation =
  | 'projectByTag'
  | 'get'
  | 'knownProjects'
  | 'getDraft'
  | 'saveDraft'
  | 'answer'
  | 'dismiss'
  | 'pageAcross'
  | 'countAcross'
  | 'whenReady'
  | 'close';

/** Park and read questions; the projects that parked them. Adapters: `redis/questions.ts`, `sqlite/questions.ts`. */
export interface QuestionsSection {
  /** Store a validated question as `pending` with the project's next id. */
  park(project: string, spec: QuestionSpec): Promise<Question>;
  get(project: string, id: number): Promise<Question | undefined>;
  /** One project's questions, blocking first, then by id. */
  list(project: string, filter?: ListFilter): Promise<Question[]>;
  /** Several projects' questions (a channel's inbox), blocking first, then oldest first. */
  listAcross(projects: readonly string[], filter?: ListFilter): Promise<Question[]>;
  /** Every project that ever parked a question. */
  knownProjects(): Promise<string[]>;
  /** The project a question reference's tag (`core/question-ref.ts`) belongs to, if any parked here. */
  projectByTag(tag: string): Promise<string | undefined>;
  /** Remember where a copy of the question was posted. False when the question is unknown. */
  recordMessage(project: string, id: number, ref: MessageRef): Promise<boolean>;
}

/**
 * The views read a page at a time, and what they count, bounded by the page and the number of projects, never by how
 * many questions are stored (`store/paging.ts` holds their orders and cursors). Adapters: `redis/views.ts`,
 * `sqlite/views.ts`.
 */
export interface ViewsSection {
  /**
   * One page of a view over several projects (a channel's inbox, the web inbox, the decision trail), read from
   * per-project indexes in the view's order: the work is bounded by the page and the number of projects, not by how
   * many questions are stored.
   */
  pageAcross(projects: readonly string[], query: PageQuery): Promise<QuestionPage>;
  /** Per project (every one asked about, with zeros when it has nothing), the counts of the views. */
  countAcross(projects: readonly string[]): Promise<ReadonlyMap<string, ViewCounts>>;
  /** One page of one project's questions (`list_questions`), blocking first, then by id; `remaining` follow it. */
  listPage(project: string, query: ListPageQuery): Promise<QuestionPage>;
  /** How many of the project's questions are in each state, blocking and not (metrics, the status line). */
  countQuestions(project: string): Promise<QuestionCounts>;
}

/** One person's draft of an answer, kept while the question is pending. Adapters: `redis/drafts.ts`, `sqlite/drafts.ts`. */
export interface DraftsSection {
  /**
   * Change one person's draft of a pending question, atomically: the fields `change` gives replace the stored ones,
   * the others are kept, so changes arriving together (a pick and a notes submit) all land. With no draft yet, the
   * base is what the question shows selected (`shownSelection` in core: its recommendations preselected). A set's
   * members have a draft each (`change.member`). Labels that are not the question's, two picks on a single-select,
   * notes per option on a single-select, or a member that is not there throw `InvalidAnswerError` and change nothing.
   */
  saveDraft(project: string, id: number, person: PersonRef, change: DraftChange): Promise<DraftResult>;
  /** One person's draft of a question (of a set's `member`, 0 for the first), if they have one. */
  getDraft(project: string, id: number, person: PersonRef, member?: number): Promise<Draft | undefined>;
}

/**
 * A question's way out of `pending`, each move one atomic step that follows `canTransition` (`core/question.ts`, the
 * one statement of the state rules; the contract suite checks every adapter against it): the first answer wins,
 * cancel and dismiss only from pending, a question past its expiry is expired by whichever call touches it first.
 * Then retention. Adapters: `redis/transitions.ts`, `sqlite/transitions.ts`.
 */
export interface TransitionsSection {
  /**
   * Answer atomically; the first answer wins. The reply (a selection, or one per member of a set) must be ready and
   * fit one delivery note (`answerOf` in core): an unready or invalid one throws `InvalidAnswerError` and changes
   * nothing.
   */
  answer(project: string, id: number, reply: Reply, by: Responder): Promise<AnswerResult>;
  /** The agent withdraws a pending question. */
  cancel(project: string, id: number): Promise<CloseResult>;
  /** The person removes a pending question without answering. */
  dismiss(project: string, id: number, by: Responder): Promise<CloseResult>;
  /**
   * Record the `ordinal`-th reminder (1 for the first) of a pending question, atomically: only while it is pending
   * and exactly `ordinal - 1` reminders are recorded, so replicas deciding at once record (and send) each reminder
   * once. A recorded reminder appends a `reminded` event, which the bridge turns into a message in each copy's thread.
   */
  remind(project: string, id: number, ordinal: number): Promise<RemindResult>;
  /** Expire every pending question whose `expiresAt` has passed, in every project. Returns how many. */
  expireDue(): Promise<number>;
  /** Drop questions delivered (or cancelled) more than the retention period ago (the adapter's `retentionMs`, default 30 days). Returns how many. */
  purgeExpired(): Promise<number>;
}

/**
 * Outcomes (answered, dismissed, expired) to the agent, each exactly once: claimed under a lease, confirmed once the
 * note was written, given back otherwise. Adapters: `redis/delivery.ts`, `sqlite/delivery.ts`.
 */
export interface DeliverySection {
  /**
   * Lease the outcomes waiting for the agent (answered, dismissed, expired; oldest first) that fit in the budget.
   * The first waiting outcome is always taken, so a claim never starves. Two claims never share a question.
   */
  claimUndelivered(project: string, options: ClaimOptions): Promise<Claim>;
  /**
   * Mark a claim's questions delivered (all of them, or those in `ids`, the ones the note carried). Returns the ids
   * it confirmed; a question whose lease ran out and was taken by another claim is not confirmed here.
   */
  confirmClaim(project: string, claim: ClaimRef, ids?: readonly number[]): Promise<number[]>;
  /**
   * The outcomes waiting for the agent that no live claim holds, oldest first (`blockingOnly`: those of blocking
   * questions only). A look that takes nothing: for waiters deciding whether to wake a session.
   */
  waitingOutcomes(project: string, options?: { readonly blockingOnly?: boolean }): Promise<Question[]>;
  /** Give a claim's questions (all, or those in `ids`) back at once, for the next claim. */
  releaseClaim(project: string, claim: ClaimRef, ids?: readonly number[]): Promise<void>;
  /**
   * Mark one outcome delivered because the agent received it directly (a tool result), so no prompt carries it
   * again. `leased`: a delivery claim holds it right now and will report it; `not-waiting`: nothing to deliver.
   */
  markDelivered(project: string, id: number, via?: DeliveryPath): Promise<'delivered' | 'leased' | 'not-waiting'>;
}

/**
 * What happened, followed without polling: consumer groups (the bridge), tails (every replica's web inbox), one
 * project's watch and one question's wait (the agent side). Adapters: `redis/events.ts`, `sqlite/events.ts`.
 */
export interface EventsSection {
  /** A consumer in a named group over all projects' events; the group is created if missing. */
  consumer(group: string, consumerName: string, options?: ConsumerOptions): Promise<EventConsumer>;
  /** Follow every project's events from now on, outside any group (see {@link EventTail}); close it when done. */
  tail(): Promise<EventTail>;
  /** Follow one project's changes from now on (see {@link ProjectWatch}); close it when done. */
  watch(project: string): Promise<ProjectWatch>;
  /**
   * Wait, without polling, until the question is no longer pending or the time runs out or the signal aborts.
   * Resolves with the question as it then is (possibly still pending), or undefined when it is unknown.
   */
  waitWhilePending(project: string, id: number, options: WaitOptions): Promise<Question | undefined>;
}

/** Named leases: work one process at a time should do. Adapters: `redis/leases.ts`, `sqlite/leases.ts`. */
export interface LeasesSection {
  /**
   * Take or renew a named lease for `ms`: true when `owner` holds it now (it was free, had lapsed, or was already
   * this owner's, whose lease then runs `ms` from now); false while another owner holds it. For work that one
   * process at a time should do (serve's expiry and retention sweep). Holding a lease guards nothing by itself:
   * the work under it must stay safe to run twice, as the lease can lapse while its owner is paused.
   */
  acquireLease(name: string, owner: string, ms: number): Promise<boolean>;
  /** Give a lease up at once if `owner` holds it (a stopping process), so another owner need not wait it out. */
  releaseLease(name: string, owner: string): Promise<void>;
  /**
   * Take a lease for `ms` whoever holds it: for a state that overrides the holder (a session's turn starting takes
   * the session from its idle-time waiter, which finds it lost the lease and ends).
   */
  seizeLease(name: string, owner: string, ms: number): Promise<void>;
}

/**
 * Failure as a state someone can see: events a group gave up on (kept until replayed) and surfaces refusing for good
 * (kept until a post there succeeds). Adapters: `redis/failed-events.ts`, `sqlite/failed-events.ts`.
 */
export interface FailuresSection {
  /** Keep an event `group` gave up on (replacing an earlier record of the same event). */
  recordFailedEvent(group: string, event: StoreEvent, failure: { attempts: number; error: string }): Promise<void>;
  /** The groups with failed events, each with its count and a sample of up to `sample` (default 5) records. */
  failedEvents(options?: { readonly sample?: number }): Promise<FailedEventsOfGroup[]>;
  /**
   * Hand failed events back to their groups (every group, or one): each is removed from the failed records and
   * queued for {@link takeReplayedEvents}. Returns how many.
   */
  replayFailedEvents(group?: string): Promise<number>;
  /** Up to `count` events handed back to `group`, each to one caller only. */
  takeReplayedEvents(group: string, count: number): Promise<FailedEvent[]>;
  /** Keep a surface's permanent refusal (replacing one recorded for the same group and channel). */
  recordSurfaceFault(fault: Omit<SurfaceFault, 'since'>): Promise<void>;
  /** A post on the surface succeeded: drop its platform-wide fault and those of `channels`. */
  clearSurfaceFaults(group: string, channels: readonly string[]): Promise<void>;
  /** Every fault recorded, by group then channel (a platform-wide one first). */
  surfaceFaults(): Promise<SurfaceFault[]>;
}

/** The agents' tokens (`token-port.ts`). Adapters: `redis/tokens.ts`, `sqlite/tokens.ts`. */
export interface TokensSection {
  /** The agents' tokens kept in this store (`ask-later token`, serve's agent API). */
  tokens(): TokenStore;
}

/** Every section, and the calls about the store's connection itself. */
/** The decisions taken before, read from the trail (`find_decisions`). */
export interface DecisionsSection {
  /** One page of one project's decision trail, newest answer first, narrowed by a search (`store/trail.ts`). */
  findDecisions(project: string, query: TrailQuery): Promise<DecisionPage>;
  /**
   * The earlier decisions of `project` like each of `items` (a new question's: one, or a set's members), per item
   * best first: those at least `threshold` alike (default `DECIDED_THRESHOLD`), at most `max` (default 3).
   */
  similarDecisions(
    project: string,
    items: readonly Comparable[],
    options?: SimilarOptions,
  ): Promise<SimilarDecision[][]>;
}

export interface Store
  extends QuestionsSection,
    ViewsSection,
    DecisionsSection,
    DraftsSection,
    TransitionsSection,
    DeliverySection,
    EventsSection,
    LeasesSection,
    FailuresSection,
    TokensSection {
  /** A cheap round trip to the store (health checks). Throws `StoreUnavailableError` when it is not there. */
  ping(): Promise<void>;
  /**
   * For loops that back off after a failed call: wait while the store's connection is lost, and wake the moment it
   * is ready again rather than at the end of the back-off step (Redis: every connection of this store reconnected,
   * its `ready`; the HTTP client: a probe answered; the embedded store is never lost). At once `ready` when
   * nothing is lost now. Never throws.
   */
  whenReady(options: WaitOptions): Promise<Readiness>;
  close(): Promise<void>;
}
