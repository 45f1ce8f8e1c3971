/**
 * A question's way out of `pending` on Redis (see `TransitionsSection` in the port): each move one script
 * (answer-11, close-10, expire-9, remind-2) whose status check and write are one step, following core's
 * `canTransition`; then retention (purge-9). A script that finds a pending question past its expiry writes nothing
 * and says so; the question is expired here first.
 */
import { deliveryEntryLength } from '../../core/delivery-note.js';
import type { Question, Reply, Responder } from '../../core/question.js';
import { measuredAnswerOf } from '../../core/reply.js';
import { documentsOf, encodeDocuments } from '../decided-index.js';
import type { AnswerResult, CloseResult, RemindResult, TransitionsSection } from '../port.js';
import { RETENTION_MS } from '../shared.js';
import type { RedisContext } from './context.js';
import { hashFromFlat, messagesFromHash } from './record.js';
import { ExpireCode, RemindCode, scripts, TransitionCode } from './scripts.js';

/** Questions purge-9 drops per run; it runs again while it drops this many. */
const PURGE_BATCH = 500;

export class RedisTransitions implements TransitionsSection {
  readonly #x: RedisContext;

  constructor(context: RedisContext) {
    this.#x = context;
  }

  answer(project: string, id: number, reply: Reply, by: Responder): Promise<AnswerResult> {
    const x = this.#x;
    return x.run(async () => {
      const question = await x.spec(project, id);
      if (!question) return { kind: 'unknown' };
      const now = x.now();
      const { answer, entryLength: size } = measuredAnswerOf(question, reply, { by, at: now });
      const keys = x.keys(project);
      const result = (await x.eval(
        scripts.answer,
        [
          keys.question(id),
          keys.drafts(id),
          keys.status('pending'),
          keys.status('answered'),
          keys.outbox,
          keys.expiry,
          keys.events,
          keys.inboxIndex,
          keys.closedIndex,
          keys.answeredIndex,
          keys.decisionsQueue,
        ],
        [JSON.stringify(answer), now, size, x.maxLen, encodeDocuments(documentsOf(question))],
      )) as unknown[];
      if (Number(result[0]) === TransitionCode.done) {
        await x.hint(keys);
        // Won: the script sends back only the message references; the rest is what was just written.
        const messages = messagesFromHash(hashFromFlat(result.slice(1)), `${project}#${id}`);
        return {
          kind: 'won',
          question: Object.assign({}, question, { status: 'answered', answer, messages }) as Question,
        };
      }
      return this.#refused(project, id, result, (q) => ({ kind: 'won', question: q }));
    });
  }

  /** What answer-11 or close-10 answered, as the port's result (a question past its expiry is expired first). */
  async #refused<R extends AnswerResult | CloseResult>(
    project: string,
    id: number,
    reply: unknown[],
    onDone: (question: Question) => R,
  ): Promise<R | { kind: 'already-answered' | 'not-pending'; question: Question } | { kind: 'unknown' }> {
    const x = this.#x;
    const where = `${project}#${id}`;
    switch (Number(reply[0])) {
      case TransitionCode.done:
        return onDone(x.read(reply[1], where));
      case TransitionCode.alreadyAnswered:
        return { kind: 'already-answered', question: x.read(reply[1], where) };
      case TransitionCode.notPending:
        return { kind: 'not-pending', question: x.read(reply[1], where) };
      case TransitionCode.dueToExpire: {
        await this.#expireOne(project, id);
        const question = await x.get(project, id);
        return question ? { kind: 'not-pending', question } : { kind: 'unknown' };
      }
      default:
        return { kind: 'unknown' };
    }
  }

  #close(project: string, id: number, target: 'cancelled' | 'dismissed', by?: Responder): Promise<CloseResult> {
    const x = this.#x;
    return x.run(async () => {
      const now = x.now();
      const closure = { at: now, ...(by ? { by } : {}) };
      let size = 0;
      if (target === 'dismissed') {
        const question = await x.spec(project, id);
        if (!question) return { kind: 'unknown' };
        size = deliveryEntryLength(Object.assign({}, question, { status: 'dismissed', closure }) as Question);
      }
      const keys = x.keys(project);
      const reply = (await x.eval(
        scripts.close,
        [
          keys.question(id),
          keys.drafts(id),
          keys.status('pending'),
          keys.status(target),
          keys.outbox,
          keys.expiry,
          keys.done,
          keys.events,
          keys.inboxIndex,
          keys.closedIndex,
        ],
        [target, JSON.stringify(closure), now, size, x.maxLen],
      )) as unknown[];
      if (Number(reply[0]) === TransitionCode.done) await x.hint(keys);
      return this.#refused(project, id, reply, (q) => ({ kind: 'done', question: q }));
    });
  }

  cancel(project: string, id: number): Promise<CloseResult> {
    return this.#close(project, id, 'cancelled');
  }

  dismiss(project: string, id: number, by: Responder): Promise<CloseResult> {
    return this.#close(project, id, 'dismissed', by);
  }

  async #expireOne(project: string, id: number): Promise<boolean> {
    const x = this.#x;
    const question = await x.spec(project, id);
    const now = x.now();
    const closure = { at: now };
    const size = question
      ? deliveryEntryLength(Object.assign({}, question, { status: 'expired', closure }) as Question)
      : 0;
    const keys = x.keys(project);
    const code = Number(
      await x.eval(
        scripts.expire,
        [
          keys.question(id),
          keys.drafts(id),
          keys.status('pending'),
          keys.status('expired'),
          keys.outbox,
          keys.expiry,
          keys.events,
          keys.inboxIndex,
          keys.closedIndex,
        ],
        [id, JSON.stringify(closure), now, size, x.maxLen],
      ),
    );
    if (code === ExpireCode.expired) await x.hint(keys);
    return code === ExpireCode.expired;
  }

  remind(project: string, id: number, ordinal: number): Promise<RemindResult> {
    const x = this.#x;
    return x.run(async () => {
      const keys = x.keys(project);
      const code = Number(
        await x.eval(scripts.remind, [keys.question(id), keys.events], [id, ordinal, x.now(), x.maxLen]),
      );
      if (code === RemindCode.unknown) return { kind: 'unknown' };
      if (code === RemindCode.reminded) await x.hint(keys);
      const question = await x.get(project, id);
      if (!question) return { kind: 'unknown' };
      if (code === RemindCode.reminded) return { kind: 'reminded', question };
      return code === RemindCode.already ? { kind: 'already', question } : { kind: 'not-pending', question };
    });
  }

  expireDue(): Promise<number> {
    const x = this.#x;
    return x.run(async () => {
      let expired = 0;
      for (const project of (await x.projects()).values()) {
        const due = (await x.client.sendCommand([
          'ZRANGEBYSCORE',
          x.keys(project).expiry,
          '-inf',
          String(x.now()),
        ])) as string[];
        for (const id of due) if (await this.#expireOne(project, Number(id))) expired++;
      }
      return expired;
    });
  }

  purgeExpired(): Promise<number> {
    const x = this.#x;
    return x.run(async () => {
      const cutoff = x.now() - (x.options.retentionMs ?? RETENTION_MS);
      let dropped = 0;
      for (const project of (await x.projects()).values()) {
        const keys = x.keys(project);
        for (;;) {
          const n = Number(
            await x.evalSettled(
              scripts.purge,
              [
                keys.done,
                keys.closedIndex,
                keys.answeredIndex,
                keys.status('delivered'),
                keys.status('cancelled'),
                keys.status('dismissed'),
                keys.status('expired'),
                keys.decisions,
                keys.decisionsQueue,
              ],
              [keys.base, cutoff, PURGE_BATCH, x.missing],
            ),
          );
          dropped += n;
          if (n < PURGE_BATCH) break;
        }
      }
      return dropped;
    });
  }
}
