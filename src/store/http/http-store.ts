/**
 * The agent side's store over serve's agent API (`ASK_LATER_URL` + `ASK_LATER_TOKEN`): an {@link AgentStore} for
 * agents that hold a token instead of the Redis password. Each operation is one call (protocol.ts); the waits are
 * long polls repeated until the caller's deadline, and a wait outlives serve restarting or a replica going away:
 * while nothing answers it tries again with back-off, until its own deadline.
 *
 * Exactly once holds as with the other adapters: serve leases a claim's outcomes to its id, and this client confirms
 * only when the agent side says the note was written (the hook after flushing stdout, collect_answers after its
 * response left).
 */
import { askInputOf, type DeliveryPath, type Question, type QuestionSpec } from '../../core/question.js';
import type { Comparable } from '../../core/similarity.js';
import type {
  AgentStore,
  Claim,
  ClaimOptions,
  ClaimRef,
  CloseResult,
  ListFilter,
  ListPageQuery,
  ParkOptions,
  ProjectWatch,
  QuestionCounts,
  QuestionPage,
  Readiness,
  WaitOptions,
} from '../port.js';
import type { DecisionPage, SimilarDecision, SimilarOptions, TrailQuery } from '../trail.js';
import type { AgentOperationName, AgentOperations, WireClaim } from './protocol.js';
import { ServeLink, type ServeLinkOptions } from './serve-link.js';

/** Serve's URL and the token, and the calls' time-outs (serve-link.ts). */
export type HttpStoreOptions = ServeLinkOptions;

/** Open the HTTP agent store. Nothing is sent until the first call (like the minimal Redis client, no round trip). */
export async function openHttpStore(options: HttpStoreOptions): Promise<HttpStore> {
  return new HttpStore(options);
}

export class HttpStore implements AgentStore {
  readonly #link: ServeLink;

  constructor(options: HttpStoreOptions) {
    this.#link = new ServeLink(options);
  }

  async park(project: string, spec: QuestionSpec, options: ParkOptions = {}): Promise<Question> {
    // Sent as the tool's arguments, which serve parses again as ask_later would.
    const origin = spec.origin === undefined ? {} : { origin: spec.origin };
    const askedBefore = spec.askedBefore === undefined ? {} : { askedBefore: spec.askedBefore };
    const retryKey = options.retryKey === undefined ? {} : { retryKey: options.retryKey };
    return (await this.#call('park', { project, spec: askInputOf(spec), ...origin, ...askedBefore, ...retryKey }))
      .question;
  }

  async get(project: string, id: number): Promise<Question | undefined> {
    return (await this.#call('get', { project, id })).question ?? undefined;
  }

  async list(project: string, filter?: ListFilter): Promise<Question[]> {
    return (await this.#call('list', { project, ...(filter ? { filter } : {}) })).questions;
  }

  async similarDecisions(
    project: string,
    items: readonly Comparable[],
    options: SimilarOptions = {},
  ): Promise<SimilarDecision[][]> {
    // Only what is compared travels: the question, its options' labels, a member's topic.
    const compared = items.map((item) => ({
      question: item.question,
      options: item.options.map((option) => ({ label: option.label })),
      ...(item.topic === undefined ? {} : { topic: item.topic }),
    }));
    return (await this.#call('similar', { project, items: compared, options })).similar;
  }

  async findDecisions(project: string, query: TrailQuery): Promise<DecisionPage> {
    return (await this.#call('decisions', { project, query })).page;
  }

  async listPage(project: string, query: ListPageQuery): Promise<QuestionPage> {
    return (await this.#call('list-page', { project, query })).page;
  }

  async cancel(project: string, id: number): Promise<CloseResult> {
    return (await this.#call('cancel', { project, id })).result;
  }

  async claimUndelivered(project: string, options: ClaimOptions): Promise<Claim> {
    const reply = await this.#call('claim', { project, options });
    return { claimId: reply.claimId, via: reply.via, questions: reply.questions, remaining: reply.remaining };
  }

  async confirmClaim(project: string, claim: ClaimRef, ids?: readonly number[]): Promise<number[]> {
    return (await this.#call('confirm', { project, claim: wireClaim(claim), ...(ids ? { only: ids } : {}) })).ids;
  }

  async releaseClaim(project: string, claim: ClaimRef, ids?: readonly number[]): Promise<void> {
    await this.#call('release', { project, claim: wireClaim(claim), ...(ids ? { only: ids } : {}) });
  }

  async waitingOutcomes(project: string, options?: { readonly blockingOnly?: boolean }): Promise<Question[]> {
    const blockingOnly = options?.blockingOnly;
    return (await this.#call('waiting', { project, ...(blockingOnly !== undefined ? { blockingOnly } : {}) }))
      .questions;
  }

  async markDelivered(
    project: string,
    id: number,
    via?: DeliveryPath,
  ): Promise<'delivered' | 'leased' | 'not-waiting'> {
    return (await this.#call('mark-delivered', { project, id, ...(via ? { via } : {}) })).result;
  }

  async countQuestions(project: string): Promise<QuestionCounts> {
    return (await this.#call('count', { project })).counts;
  }

  async acquireLease(name: string, owner: string, ms: number): Promise<boolean> {
    return (await this.#call('lease-acquire', { name, owner, ms })).held;
  }

  async releaseLease(name: string, owner: string): Promise<void> {
    await this.#call('lease-release', { name, owner });
  }

  async seizeLease(name: string, owner: string, ms: number): Promise<void> {
    await this.#call('lease-seize', { name, owner, ms });
  }

  async ping(): Promise<void> {
    await this.#call('ping', {});
  }

  /** Who this store's token is (doctor). */
  whoami(): Promise<{ name: string; id: string; patterns: string[]; expiresAt: number | null }> {
    return this.#call('whoami', {});
  }

  async watch(project: string): Promise<ProjectWatch> {
    let mark = (await this.#call('watch', { project })).mark;
    const stop = new AbortController();
    return {
      changed: async ({ timeoutMs, signal }) => {
        const deadline = Date.now() + timeoutMs;
        const signals = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
        for (;;) {
          const reply = await this.#link.longPoll(
            'changed',
            (ms) => ({ project, mark, timeoutMs: ms }),
            deadline,
            signals,
          );
          if (reply === undefined) return false;
          mark = reply.mark;
          if (reply.changed) return true;
          if (Date.now() >= deadline || signals.aborted) return false;
        }
      },
      close: async () => stop.abort(),
    };
  }

  async waitWhilePending(project: string, id: number, options: WaitOptions): Promise<Question | undefined> {
    const deadline = Date.now() + options.timeoutMs;
    let last: Question | undefined;
    let known = false;
    for (;;) {
      const reply = await this.#link.longPoll(
        'wait',
        (ms) => ({ project, id, timeoutMs: ms }),
        deadline,
        options.signal,
      );
      if (reply === undefined) {
        // Out of time or aborted: the question as it is now (as last seen, when serve does not answer).
        if (known) return last;
        return this.get(project, id);
      }
      known = true;
      last = reply.question ?? undefined;
      if (last?.status !== 'pending' || Date.now() >= deadline || options.signal?.aborted) return last;
    }
  }

  /** Lost after a call found serve (or its store) away: then a `ping` every 250 ms until one answers. */
  whenReady(options: WaitOptions): Promise<Readiness> {
    return this.#link.whenReady(options);
  }

  async close(): Promise<void> {
    this.#link.close();
  }

  #call<Op extends AgentOperationName>(
    operation: Op,
    body: AgentOperations[Op]['request'],
  ): Promise<AgentOperations[Op]['response']> {
    return this.#link.call(operation, body);
  }
}

function wireClaim(claim: ClaimRef): WireClaim {
  return { claimId: claim.claimId, via: claim.via, ids: claim.questions.map((q) => q.id) };
}
