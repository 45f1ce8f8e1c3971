/**
 * Outcomes to the agent on Redis (see `DeliverySection` in the port): they wait in the project's `outbox` zset; a
 * claim leases them on the questions themselves (`claim`, `claimUntil`: claim-1), confirm-5 delivers what is still
 * leased to that claim, release-1 gives it back, deliver-6 delivers one outcome the agent got directly, waiting-1
 * looks without taking.
 */
import { randomUUID } from 'node:crypto';
import type { DeliveryPath, Question } from '../../core/question.js';
import type { Claim, ClaimOptions, ClaimRef, DeliverySection } from '../port.js';
import { claimedIds } from '../shared.js';
import type { RedisContext } from './context.js';
import { DeliverCode, scripts } from './scripts.js';

export class RedisDelivery implements DeliverySection {
  readonly #x: RedisContext;

  constructor(context: RedisContext) {
    this.#x = context;
  }

  claimUndelivered(project: string, options: ClaimOptions): Promise<Claim> {
    const x = this.#x;
    return x.run(async () => {
      const keys = x.keys(project);
      const claimId = randomUUID();
      const now = x.now();
      const reply = (await x.evalSettled(
        scripts.claim,
        [keys.outbox],
        [
          keys.base,
          now,
          options.budget,
          claimId,
          now + options.leaseMs,
          options.blockingOnly ? 'blocking' : '',
          x.missing,
          options.questionId === undefined ? '' : String(options.questionId),
        ],
      )) as unknown[];
      const questions: Question[] = [];
      try {
        for (let i = 1; i + 1 < reply.length; i += 2) questions.push(x.read(reply[i + 1], `${project}#${reply[i]}`));
      } catch (error) {
        // A record that does not read: nothing stays leased to a claim its caller never gets.
        const ids = reply.filter((_, i) => i % 2 === 1).map(String);
        await x
          .evalSettled(scripts.release, [keys.outbox], [keys.base, x.missing, claimId, ...ids])
          .catch(() => undefined);
        throw error;
      }
      return { claimId, via: options.via ?? 'prompt', questions, remaining: Number(reply[0]) };
    });
  }

  waitingOutcomes(project: string, options: { readonly blockingOnly?: boolean } = {}): Promise<Question[]> {
    const x = this.#x;
    return x.run(async () => {
      const keys = x.keys(project);
      const reply = (await x.evalSettled(
        scripts.waiting,
        [keys.outbox],
        [keys.base, x.now(), options.blockingOnly ? 'blocking' : '', x.missing],
      )) as unknown[];
      const questions: Question[] = [];
      for (let i = 0; i + 1 < reply.length; i += 2) questions.push(x.read(reply[i + 1], `${project}#${reply[i]}`));
      return questions;
    });
  }

  confirmClaim(project: string, claim: ClaimRef, ids?: readonly number[]): Promise<number[]> {
    const x = this.#x;
    return x.run(async () => {
      const keys = x.keys(project);
      const reply = (await x.evalSettled(
        scripts.confirm,
        [keys.outbox, keys.status('answered'), keys.status('delivered'), keys.done, keys.events],
        [keys.base, x.now(), claim.claimId, x.maxLen, claim.via, x.missing, ...claimedIds(claim, ids)],
      )) as unknown[];
      if (reply.length > 0) await x.hint(keys);
      return reply.map(Number).sort((a, b) => a - b);
    });
  }

  releaseClaim(project: string, claim: ClaimRef, ids?: readonly number[]): Promise<void> {
    const x = this.#x;
    return x.run(async () => {
      const keys = x.keys(project);
      await x.evalSettled(
        scripts.release,
        [keys.outbox],
        [keys.base, x.missing, claim.claimId, ...claimedIds(claim, ids)],
      );
    });
  }

  markDelivered(
    project: string,
    id: number,
    via: DeliveryPath = 'tool-result',
  ): Promise<'delivered' | 'leased' | 'not-waiting'> {
    const x = this.#x;
    return x.run(async () => {
      const keys = x.keys(project);
      const code = Number(
        await x.eval(
          scripts.deliver,
          [keys.question(id), keys.outbox, keys.status('answered'), keys.status('delivered'), keys.done, keys.events],
          [id, x.now(), x.maxLen, via],
        ),
      );
      if (code === DeliverCode.delivered) {
        await x.hint(keys);
        return 'delivered';
      }
      return code === DeliverCode.leased ? 'leased' : 'not-waiting';
    });
  }
}
