/**
 * What each agent API operation does, on the token's scoped store (scope.ts): the body already checked against its
 * schema (schemas.ts), the response as protocol.ts says. Long polls hold at most {@link LONG_POLL_MAX_MS} and end
 * early when the caller goes away (`signal`).
 */
import type { z } from 'zod';
import { parseAskInput } from '../../core/ask-input.js';
import { type EarlierDecision, QUESTION_STATUSES, type Responder } from '../../core/question.js';
import { type AgentOperations, LONG_POLL_MAX_MS } from '../../store/http/protocol.js';
import type { AgentStore, QuestionCounts } from '../../store/port.js';
import type { TokenRecord } from '../../store/token-port.js';
import { AgentRequestError } from './agent-request-error.js';
import type { AgentSideOperationName, REQUEST_SCHEMAS } from './schemas.js';

export interface OperationContext {
  /** The store as the token sees it. */
  readonly store: AgentStore;
  readonly token: TokenRecord;
  /** Aborted when the caller disconnects or serve stops. */
  readonly signal: AbortSignal;
}

type Handlers = {
  [Op in AgentSideOperationName]: (
    context: OperationContext,
    body: z.infer<(typeof REQUEST_SCHEMAS)[Op]>,
  ) => Promise<AgentOperations[Op]['response']>;
};

/** A long poll's hold: what the caller asked, at most {@link LONG_POLL_MAX_MS}. */
function hold(timeoutMs: number): number {
  return Math.min(timeoutMs, LONG_POLL_MAX_MS);
}

/** The mark a watch over HTTP compares: the project's counts in every state (protocol.ts). */
function mark(counts: QuestionCounts): string {
  return JSON.stringify(QUESTION_STATUSES.map((status) => [counts[status].blocking, counts[status].canWait]));
}

/** An earlier decision as the schema read it, without the fields it left absent. */
function earlierDecision(entry: {
  id: number;
  member?: number | undefined;
  question: string;
  answer: string;
  by: Responder;
  at: number;
}): EarlierDecision {
  const { member, ...rest } = entry;
  return member === undefined ? rest : { ...rest, member };
}

export const OPERATIONS: Handlers = {
  async park({ store }, { project, spec, origin, askedBefore, retryKey }) {
    const parsed = parseAskInput(spec);
    if (!parsed.ok) {
      const more = parsed.reasons.length > 3 ? `; and ${parsed.reasons.length - 3} more` : '';
      throw new AgentRequestError('bad-request', `spec: ${parsed.reasons.slice(0, 3).join('; ')}${more}`);
    }
    const { waitSeconds, askAgain: _agentSide, ...asked } = parsed.value;
    const question = askedBefore === undefined ? asked : { ...asked, askedBefore: askedBefore.map(earlierDecision) };
    if (waitSeconds !== undefined) {
      throw new AgentRequestError('bad-request', 'spec.waitSeconds: a stored question has no waitSeconds (call wait)');
    }
    const options = retryKey === undefined ? {} : { retryKey };
    if (origin === undefined) return { question: await store.park(project, question, options) };
    const { header, plan, tool } = origin;
    const kept = { tool, ...(header === undefined ? {} : { header }), ...(plan === undefined ? {} : { plan }) };
    return { question: await store.park(project, { ...question, origin: kept }, options) };
  },
  async get({ store }, { project, id }) {
    return { question: (await store.get(project, id)) ?? null };
  },
  async list({ store }, { project, filter }) {
    const shaped = filter && {
      ...(filter.status !== undefined ? { status: filter.status } : {}),
      ...(filter.blocking !== undefined ? { blocking: filter.blocking } : {}),
    };
    return { questions: await store.list(project, shaped) };
  },
  async similar({ store }, { project, items, options }) {
    const compared = items.map(({ topic, ...item }) => (topic === undefined ? item : { ...item, topic }));
    const shaped = {
      ...(options.threshold === undefined ? {} : { threshold: options.threshold }),
      ...(options.max === undefined ? {} : { max: options.max }),
    };
    return { similar: await store.similarDecisions(project, compared, shaped) };
  },
  async decisions({ store }, { project, query }) {
    const page = await store.findDecisions(project, {
      limit: query.limit,
      ...(query.search === undefined ? {} : { search: query.search }),
      ...(query.since === undefined ? {} : { since: query.since }),
      ...(query.after === undefined ? {} : { after: query.after }),
    });
    return { page };
  },
  async 'list-page'({ store }, { project, query }) {
    const page = await store.listPage(project, {
      limit: query.limit,
      ...(query.status !== undefined ? { status: query.status } : {}),
      ...(query.blocking !== undefined ? { blocking: query.blocking } : {}),
      ...(query.after !== undefined ? { after: query.after } : {}),
    });
    return { page: { ...page, questions: [...page.questions] } };
  },
  async cancel({ store }, { project, id }) {
    return { result: await store.cancel(project, id) };
  },
  async claim({ store }, { project, options }) {
    const claim = await store.claimUndelivered(project, {
      budget: options.budget,
      leaseMs: options.leaseMs,
      ...(options.blockingOnly !== undefined ? { blockingOnly: options.blockingOnly } : {}),
      ...(options.via !== undefined ? { via: options.via } : {}),
      ...(options.questionId !== undefined ? { questionId: options.questionId } : {}),
    });
    return { claimId: claim.claimId, via: claim.via, questions: [...claim.questions], remaining: claim.remaining };
  },
  async confirm({ store }, { project, claim, only }) {
    const ref = { claimId: claim.claimId, via: claim.via, questions: claim.ids.map((id) => ({ id })) };
    return { ids: await store.confirmClaim(project, ref, only) };
  },
  async release({ store }, { project, claim, only }) {
    const ref = { claimId: claim.claimId, via: claim.via, questions: claim.ids.map((id) => ({ id })) };
    await store.releaseClaim(project, ref, only);
    return {};
  },
  async waiting({ store }, { project, blockingOnly }) {
    return {
      questions: await store.waitingOutcomes(project, blockingOnly === undefined ? undefined : { blockingOnly }),
    };
  },
  async 'mark-delivered'({ store }, { project, id, via }) {
    return { result: await store.markDelivered(project, id, via) };
  },
  async count({ store }, { project }) {
    return { counts: await store.countQuestions(project) };
  },
  async 'lease-acquire'({ store }, { name, owner, ms }) {
    return { held: await store.acquireLease(name, owner, ms) };
  },
  async 'lease-release'({ store }, { name, owner }) {
    await store.releaseLease(name, owner);
    return {};
  },
  async 'lease-seize'({ store }, { name, owner, ms }) {
    await store.seizeLease(name, owner, ms);
    return {};
  },
  async watch({ store }, { project }) {
    return { mark: mark(await store.countQuestions(project)) };
  },
  async changed({ store, signal }, { project, mark: since, timeoutMs }) {
    // The watch first, then the counts: a change between the two is seen by one or the other.
    const watch = await store.watch(project);
    try {
      const now = mark(await store.countQuestions(project));
      if (now !== since) return { changed: true, mark: now };
      const changed = await watch.changed({ timeoutMs: hold(timeoutMs), signal });
      return { changed, mark: changed ? mark(await store.countQuestions(project)) : now };
    } finally {
      await watch.close().catch(() => undefined);
    }
  },
  async wait({ store, signal }, { project, id, timeoutMs }) {
    return { question: (await store.waitWhilePending(project, id, { timeoutMs: hold(timeoutMs), signal })) ?? null };
  },
  async ping({ store }) {
    await store.ping();
    return {};
  },
  async whoami({ token }) {
    return {
      name: token.name,
      id: token.id,
      patterns: [...token.patterns],
      expiresAt: token.expiresAt ?? null,
      person: token.web === true,
    };
  },
};
