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

/** One suggested answer. `label` is what the person picks and what the agent gets back. */
export interface QuestionOption {
  readonly label: string;
  readonly description?: string;
}

/** The question as the agent parked it, after validation and normalisation (see `ask-input.ts`). */
export interface QuestionSpec {
  readonly context: string;
  readonly question: string;
  readonly impact: string;
  readonly isBlocking: boolean;
  readonly options: readonly QuestionOption[];
  /** Exactly one of the options' labels, when given. */
  readonly recommended?: string;
  readonly multiSelect: boolean;
  readonly ticket?: string;
  readonly expiresInSeconds?: number;
}

/** The surfaces a person answers from. */
export const PLATFORMS = ['slack', 'discord', 'web'] as const;
export type Platform = (typeof PLATFORMS)[number];

const PLATFORM_NAMES: Readonly<Record<Platform, string>> = { slack: 'Slack', discord: 'Discord', web: 'the web inbox' };

/** Where something was done, as it reads after "on": `Slack`, `Discord`, `the web inbox`. */
export function platformName(platform: Platform): string {
  return PLATFORM_NAMES[platform];
}

/** Who did something on the person side. `userId` is the platform's id; `displayName` is for showing only. */
export interface Responder {
  readonly platform: Platform;
  readonly userId: string;
  readonly displayName: string;
}

/**
 * What the person picked: option labels, and/or `Other`, with notes that travel with any choice.
 * A draft is a selection that may not be ready yet; an answer is a ready one (see `answer.ts`).
 */
export interface Selection {
  readonly choices: readonly string[];
  readonly other: boolean;
  readonly notes?: string;
}

/** A selection that was sent, with who sent it and when (ms since the epoch). */
export interface Answer extends Selection {
  readonly by: Responder;
  readonly at: number;
}

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

/** A stored question with its state. `id` is per project, starts at 1 and is never reused. */
export interface Question extends QuestionSpec {
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

/** The label the person picks when no option fits; it always needs notes. */
export const OTHER_LABEL = 'Other';
