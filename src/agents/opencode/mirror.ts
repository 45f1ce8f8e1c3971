/**
 * OpenCode's question tool mirrored into the inbox, answered from whichever side answers first, once:
 *
 * - `asked`: the request is parked (one question, or a set), blocking, and watched while it is pending;
 * - answered in the inbox first: the outcome is claimed for this request alone and pushed to the plugin as
 *   `{push: 'reply', requestID, answers}` (OpenCode's `POST /question/{id}/reply`); confirmed once the plugin says the
 *   reply went through, given back otherwise; dismissed or expired: replied with a line saying so (a rejection would
 *   end OpenCode's turn);
 * - answered in OpenCode first (`replied`): the inbox copy is answered with the same picks (by "OpenCode", on the
 *   web inbox's platform) and marked delivered, since the tool's result carried it; over serve's agent API, which has
 *   no answer operation, it is withdrawn instead; dismissed in OpenCode (`rejected`): withdrawn.
 */
import { parseAskInput } from '../../core/ask-input.js';
import type { Reply, Responder } from '../../core/question.js';
import type { AgentStore, Claim, Store } from '../../store/port.js';
import { askInputFor } from '../claude-code/ask-user-question.js';
import {
  OPENCODE_ASKED_IMPACT,
  type QuestionRequest,
  questionContext,
  readQuestionRequest,
  replyAnswers,
  selectionFromReply,
} from './question.js';

/** Who answered, when the person answered in OpenCode itself. */
export const OPENCODE_RESPONDER: Responder = { platform: 'web', userId: 'opencode', displayName: 'OpenCode' };

const WATCH_STEP_MS = 10 * 60_000;
const CLAIM_LEASE_MS = 30_000;

interface Mirrored {
  readonly request: QuestionRequest;
  readonly questionId: number;
  readonly stop: AbortController;
  /** The inbox's answer being replied to OpenCode, until the plugin says how it went. */
  replying?: Claim;
}

export interface MirrorOptions {
  readonly store: () => Promise<AgentStore>;
  readonly project: string;
  readonly push: (message: Record<string, unknown>) => unknown;
  readonly warn: (what: string, error: unknown) => unknown;
}

function canAnswer(store: AgentStore): store is AgentStore & Pick<Store, 'answer'> {
  return typeof (store as Partial<Store>).answer === 'function';
}

/** The tool's answer when nobody answered: the model decides, as with any dismissed or expired question. */
function unanswered(status: string): string {
  const how = status === 'expired' ? 'expired unanswered' : 'was dismissed without an answer';
  return `No answer: this question ${how} in ask-later's inbox. Decide it yourself, or ask again if a person must decide.`;
}

export class Mirror {
  readonly #mirrored = new Map<string, Mirrored>();
  constructor(readonly options: MirrorOptions) {}

  async asked(properties: unknown): Promise<void> {
    const request = readQuestionRequest(properties);
    if (typeof request === 'string') return void this.options.warn('a question was not mirrored', new Error(request));
    if (this.#mirrored.has(request.id)) return;
    const parsed = parseAskInput(askInputFor(request.asked, questionContext(request.asked), OPENCODE_ASKED_IMPACT));
    if (!parsed.ok) return void this.options.warn('a question breaks the inbox rules', new Error('refused'));
    const { waitSeconds: _none, ...spec } = parsed.value;
    const store = await this.options.store();
    const parked = await store.park(this.options.project, spec);
    const mirrored: Mirrored = { request, questionId: parked.id, stop: new AbortController() };
    this.#mirrored.set(request.id, mirrored);
    await this.#watch(store, mirrored);
  }

  async #watch(store: AgentStore, mirrored: Mirrored): Promise<void> {
    const { signal } = mirrored.stop;
    let outcome = await store.get(this.options.project, mirrored.questionId);
    while (outcome?.status === 'pending' && !signal.aborted) {
      outcome = await store.waitWhilePending(this.options.project, mirrored.questionId, {
        timeoutMs: WATCH_STEP_MS,
        signal,
      });
    }
    if (signal.aborted || outcome === undefined || outcome.status === 'cancelled') return;
    const claim = await store.claimUndelivered(this.options.project, {
      budget: Number.MAX_SAFE_INTEGER,
      leaseMs: CLAIM_LEASE_MS,
      questionId: mirrored.questionId,
      via: 'tool-result',
    });
    const claimed = claim.questions.find((question) => question.id === mirrored.questionId);
    if (claimed === undefined || signal.aborted) {
      if (claimed !== undefined) await store.releaseClaim(this.options.project, claim);
      return;
    }
    mirrored.replying = claim;
    // Dismissed or expired in the inbox: the tool returns saying so (OpenCode's own rejection would end the turn).
    const answers =
      claimed.status === 'answered'
        ? replyAnswers(mirrored.request.asked, claimed)
        : mirrored.request.asked.map(() => [unanswered(claimed.status)]);
    this.options.push({ push: 'reply', requestID: mirrored.request.id, answers });
  }

  /** The plugin's report on a reply pushed to it. */
  async repliedByInbox(requestID: unknown, sent: boolean): Promise<void> {
    const mirrored = typeof requestID === 'string' ? this.#mirrored.get(requestID) : undefined;
    if (mirrored?.replying === undefined) return;
    const store = await this.options.store();
    this.#mirrored.delete(mirrored.request.id);
    if (sent) await store.confirmClaim(this.options.project, mirrored.replying);
    else await store.releaseClaim(this.options.project, mirrored.replying);
  }

  /** Answered in OpenCode (also the echo of an inbox reply, which is ignored). */
  async replied(requestID: unknown, answers: unknown): Promise<void> {
    const mirrored = typeof requestID === 'string' ? this.#mirrored.get(requestID) : undefined;
    if (mirrored === undefined || mirrored.replying !== undefined) return;
    this.#mirrored.delete(mirrored.request.id);
    mirrored.stop.abort();
    const store = await this.options.store();
    const { project } = this.options;
    const lists = Array.isArray(answers) ? answers : [];
    const selections = mirrored.request.asked.map((asked, index) => {
      const list = lists[index];
      return selectionFromReply(
        asked,
        Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [],
      );
    });
    const [only] = selections;
    const reply: Reply = selections.length === 1 && only !== undefined ? only : { members: selections };
    if (canAnswer(store)) {
      const result = await store.answer(project, mirrored.questionId, reply, OPENCODE_RESPONDER).catch(() => undefined);
      if (result?.kind === 'won') {
        await store.markDelivered(project, mirrored.questionId, 'tool-result');
        return;
      }
    }
    await store.cancel(project, mirrored.questionId);
  }

  /** Dismissed in OpenCode: the inbox copy is withdrawn. */
  async rejected(requestID: unknown): Promise<void> {
    const mirrored = typeof requestID === 'string' ? this.#mirrored.get(requestID) : undefined;
    if (mirrored === undefined || mirrored.replying !== undefined) return;
    this.#mirrored.delete(mirrored.request.id);
    mirrored.stop.abort();
    await (await this.options.store()).cancel(this.options.project, mirrored.questionId);
  }

  close(): void {
    for (const mirrored of this.#mirrored.values()) mirrored.stop.abort();
  }
}
