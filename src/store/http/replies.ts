/**
 * What serve's answers must look like before the agent side trusts them (an edge, like records read back from
 * Redis): the fields each operation returns, with their types; a question must at least carry its project, id and a
 * known status. Anything else (a proxy's page with status 200, another service at ASK_LATER_URL) is AgentApiError
 * `bad-response`. Hand-written: this file is on the hook's path, which loads no zod.
 */
import { QUESTION_STATUSES } from '../../core/question.js';
import { AgentApiError } from './agent-api-error.js';
import type { AgentOperationName, AgentOperations } from './protocol.js';

type Check = (value: unknown) => boolean;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const isString: Check = (value) => typeof value === 'string';
const isNumber: Check = (value) => typeof value === 'number' && Number.isFinite(value);
const isBoolean: Check = (value) => typeof value === 'boolean';
const arrayOf =
  (check: Check): Check =>
  (value) =>
    Array.isArray(value) && value.every(check);
const orNull =
  (check: Check): Check =>
  (value) =>
    value === null || check(value);
const isQuestion: Check = (value) =>
  isObject(value) &&
  isString(value.project) &&
  isNumber(value.id) &&
  (QUESTION_STATUSES as readonly unknown[]).includes(value.status);
const isCounts: Check = (value) =>
  isObject(value) &&
  QUESTION_STATUSES.every((status) => {
    const entry = value[status];
    return isObject(entry) && isNumber(entry.blocking) && isNumber(entry.canWait);
  });
const isResult: Check = (value) => isObject(value) && isString(value.kind);
const isPage: Check = (value) =>
  isObject(value) &&
  arrayOf(isQuestion)(value.questions) &&
  isNumber(value.remaining) &&
  (value.next === undefined || isString(value.next));

const isDecisionPage: Check = (value) =>
  isObject(value) &&
  arrayOf((decision) => isQuestion(decision) && isObject((decision as { answer?: unknown }).answer))(value.decisions) &&
  (value.next === undefined || isString(value.next)) &&
  (value.remaining === undefined || isNumber(value.remaining));

const isDraft: Check = (value) => isObject(value) && arrayOf(isString)(value.choices) && isBoolean(value.other);
const isViewCounts: Check = (value) =>
  isObject(value) && isNumber(value.blocking) && isNumber(value.canWait) && isNumber(value.closed);
const isCountsEntry: Check = (value) =>
  Array.isArray(value) && value.length === 2 && isString(value[0]) && isViewCounts(value[1]);
/** An answer's, a removal's or a draft's outcome: its kind, and the question (or the draft) it names. */
const isOutcome: Check = (value) =>
  isObject(value) &&
  isString(value.kind) &&
  (value.kind === 'unknown' || (value.kind === 'saved' ? isDraft(value.draft) : isQuestion(value.question)));
const isWirePage: Check = (value) =>
  isPage(value) && isObject(value) && (value.counts === undefined || arrayOf(isCountsEntry)(value.counts));

const FIELDS: { readonly [Op in AgentOperationName]: Readonly<Record<string, Check>> } = {
  park: { question: isQuestion },
  get: { question: orNull(isQuestion) },
  list: { questions: arrayOf(isQuestion) },
  'list-page': { page: isPage },
  decisions: { page: isDecisionPage },
  similar: {
    similar: arrayOf(
      arrayOf(
        (found) =>
          isObject(found) &&
          isNumber(found.score) &&
          isQuestion(found.decision) &&
          (found.member === undefined || isNumber(found.member)),
      ),
    ),
  },
  cancel: { result: isResult },
  claim: { claimId: isString, via: isString, questions: arrayOf(isQuestion), remaining: isNumber },
  confirm: { ids: arrayOf(isNumber) },
  release: {},
  waiting: { questions: arrayOf(isQuestion) },
  'mark-delivered': { result: isString },
  count: { counts: isCounts },
  'lease-acquire': { held: isBoolean },
  'lease-release': {},
  'lease-seize': {},
  watch: { mark: isString },
  changed: { changed: isBoolean, mark: isString },
  wait: { question: orNull(isQuestion) },
  ping: {},
  whoami: { name: isString, id: isString, patterns: arrayOf(isString), expiresAt: orNull(isNumber) },
  'inbox-projects': { projects: arrayOf(isString) },
  'inbox-project': { project: orNull(isString) },
  'inbox-question': { question: orNull(isQuestion) },
  'inbox-draft': { draft: orNull(isDraft) },
  'inbox-save-draft': { result: isOutcome },
  'inbox-answer': { result: isOutcome },
  'inbox-dismiss': { result: isOutcome },
  'inbox-page': { page: isWirePage },
  'inbox-counts': { counts: arrayOf(isCountsEntry) },
  'inbox-watch': { mark: isString },
  'inbox-changed': { changed: isBoolean, mark: isString },
};

/** `body` as the operation's reply, or AgentApiError naming the first field that is not what it should be. */
export function checkReply<Op extends AgentOperationName>(
  operation: Op,
  body: unknown,
): AgentOperations[Op]['response'] {
  if (!isObject(body)) throw new AgentApiError('bad-response', `serve's answer to ${operation} is not a JSON object`);
  for (const [field, check] of Object.entries(FIELDS[operation])) {
    if (!check(body[field])) {
      throw new AgentApiError('bad-response', `serve's answer to ${operation} has no valid \`${field}\``);
    }
  }
  return body as AgentOperations[Op]['response'];
}
