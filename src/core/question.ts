/**
 * The domain: a parked question, the person's answer, and the states a question moves through.
 * Pure types and rules; no I/O.
 */

/** Every state a question can be in. See {@link canTransition} for the allowed moves. */
export const QUESTION_STATUSES = ['pending', 'answered', 'delivered', 'cancelled', 'dismissed', 'expired'] as const;
export type QuestionStatus = (typeof QUESTION_STATUSES)[number];

/**
 * Allowed transitions. `dismissed` and `expired` are reported to the agent once, like answers, but keep their
 * status: the report is recorded as `deliveredAt`, not as a move to `delivered` (which means "the agent has the
 * person's answer").
 */
const TRANSITIONS: Readonly<Record<QuestionStatus, readonly QuestionStatus[]>> = {
  pending: ['answered', 'cancelled', 'dismissed', 'expired'],
  answered: ['delivered'],
  delivered: [],
  cancelled: [],
  dismissed: [],
  expired: [],
};

/** Whether a question in `from` may move to `to`. */
export function canTransition(from: QuestionStatus, to: QuestionStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** States whose outcome still has to be reported to the agent (until `deliveredAt` is set). */
export const REPORTABLE_STATUSES: readonly QuestionStatus[] = ['answered', 'dismissed', 'expired'];

/** One suggested answer. `label` is what the person picks and sees; `value` is what a program gets back for it. */
export interface QuestionOption {
  readonly label: string;
  /** A stable value beside the label (`pg`, `PROJ-12`); absent: the label is the value (see {@link optionValue}). */
  readonly value?: string;
  readonly description?: string;
}

/** The value an option stands for: its `value`, else its label. */
export function optionValue(option: QuestionOption): string {
  return option.value ?? option.label;
}

/** The part of a question a person picks an answer for: a single question, or one member of a set. */
export interface QuestionItem {
  /** The question itself, one line. */
  readonly question: string;
  readonly options: readonly QuestionOption[];
  /** Labels of the recommended options, in the options' order: at most one unless `multiSelect`. */
  readonly recommended?: readonly string[];
  readonly multiSelect: boolean;
  readonly isBlocking: boolean;
}

/** One question of a set: a short topic, its own options and rules, and text it adds to the set's context and impact. */
export interface SetMember extends QuestionItem {
  /** A short name for the question (a tab, a section heading, the review line). */
  readonly topic: string;
  /** Context this question adds to the set's. */
  readonly context?: string;
  /** Impact this question adds to the set's. */
  readonly impact?: string;
}

/** The agents' own tools whose questions ask-later parks (see `agents/`). */
export const ORIGIN_TOOLS = ['AskUserQuestion', 'ExitPlanMode'] as const;
export type OriginTool = (typeof ORIGIN_TOOLS)[number];

/**
 * Where a question came from when the agent did not park it with `ask_later` itself: it asked with a tool of its
 * own (Claude Code's AskUserQuestion, or ExitPlanMode: a plan to approve) and ask-later's hook parked that instead.
 */
export interface QuestionOrigin {
  readonly tool: OriginTool;
  /** AskUserQuestion: a single question's header (a set's headers are its members' topics). */
  readonly header?: string;
  /** ExitPlanMode: a digest of the plan, so the same plan's next ExitPlanMode call is let through once approved. */
  readonly plan?: string;
}

/**
 * An earlier decision a question was asked again despite (`ask_later` with `askAgain`): shown on its card so the
 * person sees what was decided before.
 */
export interface EarlierDecision {
  readonly id: number;
  /** The matching member of an earlier set (0 for its first). */
  readonly member?: number;
  /** The earlier question's text. */
  readonly question: string;
  /** The answer as it reads (`Postgres`, `Other`, `Redis, In-process`). */
  readonly answer: string;
  readonly by: Responder;
  readonly at: number;
}

/** What every parked question (single or set) has. */
interface SpecCommon {
  readonly context: string;
  readonly impact: string;
  /** Whether part of the agent's work waits on it: for a set, whether any member is blocking. */
  readonly isBlocking: boolean;
  readonly ticket?: string;
  readonly expiresInSeconds?: number;
  /** Absent when the agent parked it with `ask_later`. */
  readonly origin?: QuestionOrigin;
  /** The decisions like it taken before, when the agent asked again anyway (`askAgain`); at most three. */
  readonly askedBefore?: readonly EarlierDecision[];
}

/** One question as the agent parked it, after validation and normalisation (see `ask-input.ts`). */
export interface SingleSpec extends SpecCommon, QuestionItem {
  readonly members?: undefined;
}

/** Several related questions parked as one (2 to `SET_MEMBERS_MAX`), answered and sent together. */
export interface SetSpec extends SpecCommon {
  readonly members: readonly SetMember[];
}

/** A parked question: one question, or a set of them sharing context and impact. */
export type QuestionSpec = SingleSpec | SetSpec;

/** What the person answers, in order: the question itself, or each member of a set. */
export function itemsOf(spec: QuestionSpec): readonly (QuestionItem | SetMember)[] {
  return spec.members ?? [spec];
}

/**
 * A parked question as `ask_later`'s arguments again (a set's `members` become `questions`, its derived
 * `isBlocking` and its `origin`, which no tool call sets, are left out), for passing one on to where it is parsed
 * again (serve's agent API, which takes the origin beside it).
 */
export function askInputOf(spec: QuestionSpec): Record<string, unknown> {
  const { origin: _notAnArgument, askedBefore: _found, ...rest } = spec;
  if (rest.members === undefined) return { ...rest };
  const { members, isBlocking: _derived, ...common } = rest;
  return { ...common, questions: members };
}

/** How a set member is referred to: `#12.1` (members count from 1). */
export function memberRef(id: number, member: number): string {
  return `#${id}.${member + 1}`;
}

/** The surfaces a person answers from. */
export const PLATFORMS = ['slack', 'discord', 'telegram', 'web'] as const;
export type Platform = (typeof PLATFORMS)[number];

const PLATFORM_NAMES: Readonly<Record<Platform, string>> = {
  slack: 'Slack',
  discord: 'Discord',
  telegram: 'Telegram',
  web: 'the web inbox',
};

/** Where something was done, as it reads after "on": `Slack`, `Discord`, `Telegram`, `the web inbox`. */
export function platformName(platform: Platform): string {
  return PLATFORM_NAMES[platform];
}

/**
 * Where a person acted when it was not a platform's own page: the terminal inbox (`ask-later inbox`), or one
 * command (`ask-later answer`). Both act as the local person of the web inbox (`web`, user `local`), whose drafts
 * they share; the place keeps the record, the trail and the exports true about where the answer came from.
 */
export const ANSWER_PLACES = ['terminal', 'command-line'] as const;
export type AnswerPlace = (typeof ANSWER_PLACES)[number];

/** Who did something on the person side. `userId` is the platform's id; `displayName` is for showing only. */
export interface Responder {
  readonly platform: Platform;
  readonly userId: string;
  readonly displayName: string;
  /** The terminal or the command line, when the person acted there (absent: on the platform itself). */
  readonly place?: AnswerPlace;
}

const PLACE_PHRASES: Readonly<Record<AnswerPlace, string>> = {
  terminal: 'in the terminal',
  'command-line': 'from the command line',
};

/** Where someone acted, as it reads after their name: `on Slack`, `on the web inbox`, `in the terminal`, `from the command line`. */
export function placeOf(by: Responder): string {
  return by.place === undefined ? `on ${platformName(by.platform)}` : PLACE_PHRASES[by.place];
}

/**
 * Where and who for the model: `on Slack (user U123)`; the web inbox, the terminal and the command line have no
 * user ids worth reading (the local person is `local`), so only the place.
 */
export function placeAndUserOf(by: Responder): string {
  const user = by.platform === 'web' ? '' : ` (user ${by.userId.replace(/\s+/g, ' ').trim()})`;
  return `${placeOf(by)}${user}`;
}

/** Notes the person wrote for one picked option of a multi-select. */
export interface ChoiceNote {
  /** The option's label. */
  readonly choice: string;
  readonly notes: string;
}

/**
 * What the person picked for one question: option labels, and/or `Other`, with notes that travel with any choice,
 * and on a multi-select notes per picked option. A draft is a selection that may not be ready yet; an answer is a
 * ready one (see `answer.ts`).
 */
export interface Selection {
  readonly choices: readonly string[];
  readonly other: boolean;
  readonly notes?: string;
  /** Notes per picked option (multi-select only), in the options' order. */
  readonly choiceNotes?: readonly ChoiceNote[];
}

/** What the person picked for each member of a set, in the members' order. */
export interface SetSelection {
  readonly members: readonly Selection[];
}

/** What is sent as the answer: a selection for a single question, one per member for a set. */
export type Reply = Selection | SetSelection;

/** The selections of a reply, one per item of its question (see {@link itemsOf}). */
export function selectionsOf(reply: Reply): readonly Selection[] {
  return 'members' in reply ? reply.members : [reply];
}

/** Who sent an answer and when (ms since the epoch). */
export interface AnswerMeta {
  readonly by: Responder;
  readonly at: number;
}

/** A reply that was sent, with who sent it and when. */
export type Answer = (Selection & AnswerMeta) | (SetSelection & AnswerMeta);

/** A person's unsent selection for one question, kept so a restart or a redraw loses nothing. */
export interface Draft extends Selection {
  readonly updatedAt: number;
}

/** Where a copy of the question was posted, so every copy can be updated later. */
export interface MessageRef {
  readonly platform: Platform;
  readonly channel: string;
  /** The platform's message id (Slack `ts`, Discord snowflake). */
  readonly messageId: string;
}

/** How a question left `pending` without an answer. */
export interface Closure {
  readonly at: number;
  /** The person who dismissed it; absent for `cancelled` (the agent) and `expired` (the clock). */
  readonly by?: Responder;
}

/**
 * How an outcome reached the agent: with a prompt the person typed (`prompt`), inside a tool result while the agent
 * worked (`tool-call`), through `collect_answers` called by the model, which a waiter's wake asks for (`wake`), or
 * as the direct result of `get_answer` / a waiting `ask_later` (`tool-result`).
 */
export const DELIVERY_PATHS = ['prompt', 'tool-call', 'wake', 'tool-result'] as const;
export type DeliveryPath = (typeof DELIVERY_PATHS)[number];

/** A stored question's state. `id` is per project, starts at 1 and is never reused. */
export interface QuestionState {
  readonly project: string;
  readonly id: number;
  readonly status: QuestionStatus;
  readonly createdAt: number;
  /** When it expires if still pending (ms since the epoch). */
  readonly expiresAt?: number;
  readonly answer?: Answer;
  /** Set for `cancelled`, `dismissed` and `expired`. */
  readonly closure?: Closure;
  /** When the outcome reached the agent (answers, dismissals and expiries). */
  readonly deliveredAt?: number;
  /** How the outcome reached the agent; absent before delivery and for records delivered before it was kept. */
  readonly deliveredVia?: DeliveryPath;
  /** Reminders sent while it was pending (see `Store.remind`); absent: none. */
  readonly reminders?: number;
  /** When the last reminder was recorded. */
  readonly remindedAt?: number;
  readonly messages: readonly MessageRef[];
}

/** A stored question (single or set) with its state. */
export type Question = QuestionSpec & QuestionState;

/** The label the person picks when no option fits; it always needs notes. */
export const OTHER_LABEL = 'Other';
