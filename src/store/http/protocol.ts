/**
 * The agent API's wire contract, shared by the client (this folder, on the hook's path: no zod) and serve's side
 * (`src/serve/api/`, which validates every body with zod). Every call is `POST <base>/agent/v1/<operation>` with a
 * JSON body and `Authorization: Bearer alt_…`; a success is 200 with a JSON body, a failure a status from
 * {@link ERROR_STATUS} with `{"error": {"code", "message"}}` (one line, never a token or a question's text).
 *
 * Long waits (`wait`, `changed`) are long polls: serve holds each for at most {@link LONG_POLL_MAX_MS}, and the
 * client asks again until its own deadline, through replica restarts.
 *
 * A watch over HTTP has no state on serve: `watch` returns a mark (the project's counts per state as they were);
 * `changed` answers at once when the counts differ from the mark it is given, else waits on the store's own watch.
 * A change that leaves every count the same between two polls (a reminder) is not reported: the waiter, the one
 * user, only looks at outcomes and pending questions, which always move a count.
 */
import type { DeliveryPath, Draft, EarlierDecision, Question, QuestionOrigin, Reply } from '../../core/question.js';
import type { Comparable } from '../../core/similarity.js';
import type {
  AnswerResult,
  ClaimOptions,
  CloseResult,
  DraftChange,
  DraftResult,
  ListFilter,
  ListPageQuery,
  PageQuery,
  QuestionCounts,
  QuestionPage,
  ViewCounts,
} from '../port.js';
import type { DecisionPage, SimilarDecision, SimilarOptions, TrailQuery } from '../trail.js';

/** Where the operations live under serve's URL. */
export const AGENT_API_PATH = '/agent/v1/';

/** The longest serve holds one long-poll request. */
export const LONG_POLL_MAX_MS = 25_000;

/** The largest request body serve reads (a question at every limit is about 40 KB). */
export const AGENT_BODY_MAX_BYTES = 256 * 1024;

/** A claim as the client sends it back to confirm or release it. */
export interface WireClaim {
  readonly claimId: string;
  readonly via: DeliveryPath;
  readonly ids: readonly number[];
}

/** Each operation's request body and response body. */
export interface AgentOperations {
  /** `spec`: the question as `ask_later`'s arguments (`askInputOf`), parsed again by serve; its origin beside it. */
  park: {
    request: {
      project: string;
      spec: Record<string, unknown>;
      origin?: QuestionOrigin;
      askedBefore?: readonly EarlierDecision[];
      /** The asking session's retry key (`ParkOptions`): a retried park returns the question already stored. */
      retryKey?: string;
    };
    response: { question: Question };
  };
  get: { request: { project: string; id: number }; response: { question: Question | null } };
  list: { request: { project: string; filter?: ListFilter }; response: { questions: Question[] } };
  'list-page': { request: { project: string; query: ListPageQuery }; response: { page: QuestionPage } };
  decisions: { request: { project: string; query: TrailQuery }; response: { page: DecisionPage } };
  similar: {
    request: { project: string; items: readonly Comparable[]; options: SimilarOptions };
    response: { similar: SimilarDecision[][] };
  };
  cancel: { request: { project: string; id: number }; response: { result: CloseResult } };
  claim: {
    request: { project: string; options: ClaimOptions };
    response: { claimId: string; via: DeliveryPath; questions: Question[]; remaining: number };
  };
  confirm: { request: { project: string; claim: WireClaim; only?: readonly number[] }; response: { ids: number[] } };
  release: {
    request: { project: string; claim: WireClaim; only?: readonly number[] };
    response: Record<string, never>;
  };
  waiting: { request: { project: string; blockingOnly?: boolean }; response: { questions: Question[] } };
  'mark-delivered': {
    request: { project: string; id: number; via?: DeliveryPath };
    response: { result: 'delivered' | 'leased' | 'not-waiting' };
  };
  count: { request: { project: string }; response: { counts: QuestionCounts } };
  'lease-acquire': { request: { name: string; owner: string; ms: number }; response: { held: boolean } };
  'lease-release': { request: { name: string; owner: string }; response: Record<string, never> };
  'lease-seize': { request: { name: string; owner: string; ms: number }; response: Record<string, never> };
  watch: { request: { project: string }; response: { mark: string } };
  changed: {
    request: { project: string; mark: string; timeoutMs: number };
    response: { changed: boolean; mark: string };
  };
  wait: { request: { project: string; id: number; timeoutMs: number }; response: { question: Question | null } };
  ping: { request: Record<string, never>; response: Record<string, never> };
  /** Who the token is (doctor, the terminal inbox): its name, id, patterns, and whether it signs a person in. */
  whoami: {
    request: Record<string, never>;
    response: { name: string; id: string; patterns: string[]; expiresAt: number | null; person?: boolean };
  };
  // The person side (`inbox-*`): only a token that signs a person in (`token create --web`). Serve answers as that
  // person (platform `web`, the token's name) and shows only the projects the token reaches: any other reads as
  // unknown (null, `unknown`, left out of pages), never as refused.
  /** The projects the person reaches, among those the store knows. */
  'inbox-projects': { request: Record<string, never>; response: { projects: string[] } };
  /** The project of a question reference's tag, when the person reaches it. */
  'inbox-project': { request: { tag: string }; response: { project: string | null } };
  'inbox-question': { request: { project: string; id: number }; response: { question: Question | null } };
  /** The person's draft. */
  'inbox-draft': {
    request: { project: string; id: number; member?: number };
    response: { draft: Draft | null };
  };
  'inbox-save-draft': {
    request: { project: string; id: number; change: DraftChange };
    response: { result: DraftResult };
  };
  /** Answer as the person; the first answer wins. */
  'inbox-answer': { request: { project: string; id: number; reply: Reply }; response: { result: AnswerResult } };
  'inbox-dismiss': { request: { project: string; id: number }; response: { result: CloseResult } };
  /** A page of a view across the projects named that the person reaches; `counts` as `[project, counts]` pairs. */
  'inbox-page': {
    request: { projects: readonly string[]; query: PageQuery };
    response: { page: WirePage };
  };
  'inbox-counts': { request: { projects: readonly string[] }; response: { counts: [string, ViewCounts][] } };
  /** A mark of everything the person's inbox shows (every reached project's view counts). */
  'inbox-watch': { request: Record<string, never>; response: { mark: string } };
  /** Long poll: at once when the mark moved, else when a reached project changes or the time runs out. */
  'inbox-changed': {
    request: { mark: string; timeoutMs: number };
    response: { changed: boolean; mark: string };
  };
}

/** A page of a view as it travels: its counts (a Map in the port) as `[project, counts]` pairs. */
export interface WirePage {
  readonly questions: readonly Question[];
  readonly next?: string;
  readonly remaining: number;
  readonly counts?: readonly (readonly [string, ViewCounts])[];
}

/** The person side's operations. */
export type PersonOperationName = Extract<keyof AgentOperations, `inbox-${string}`>;

export type AgentOperationName = keyof AgentOperations;

/** Error codes and their HTTP statuses. */
export const ERROR_STATUS = {
  'bad-request': 400,
  unauthorized: 401,
  forbidden: 403,
  /** The request named a host serve does not answer as, or came from a foreign page (`surfaces/origin-rule.ts`). */
  'host-refused': 403,
  /** The token is for agents only: the person side needs one made with `token create --web`. */
  'agents-only': 403,
  'not-found': 404,
  'method-not-allowed': 405,
  'too-large': 413,
  'unsupported-media-type': 415,
  /** An answer or a draft the question cannot take (`InvalidAnswerError`): the message says why. */
  'invalid-answer': 422,
  'store-unavailable': 503,
  internal: 500,
} as const;
export type AgentErrorCode = keyof typeof ERROR_STATUS;

export interface AgentErrorBody {
  readonly error: { readonly code: AgentErrorCode; readonly message: string };
}

/** What an agents-only token is told by the person side (serve's refusal, and the terminal's line). */
export const AGENTS_ONLY_TEXT =
  "this token is for agents only; a person's token is made with ask-later token create --name NAME --projects PATTERN --web";

/** The project header of `/mcp` (see `serve/api/mcp.ts`). */
export const PROJECT_HEADER = 'x-ask-later-project';
