/**
 * Outcomes to the agent in the SQLite file (see `DeliverySection` in the port): an outcome waits while its row has
 * a `ready_at`; a claim leases rows to its id (`claim`, `claim_until`) in one transaction, confirming delivers
 * what is still leased to that claim, releasing gives it back.
 */
import { randomUUID } from 'node:crypto';
import type { DeliveryPath, Question } from '../../core/question.js';
import type { Claim, ClaimOptions, ClaimRef, DeliverySection } from '../port.js';
import { claimedIds } from '../shared.js';
import type { Row, SqliteContext } from './context.js';
import { QUESTION_COLUMNS } from './record.js';

export class SqliteDelivery implements DeliverySection {
  readonly #x: SqliteContext;

  constructor(context: SqliteContext) {
    this.#x = context;
  }

  claimUndelivered(project: string, options: ClaimOptions): Promise<Claim> {
    const { c } = this.#x;
    const claimId = randomUUID();
    return this.#x.run(() =>
      c.write((): Claim => {
        const now = this.#x.now();
        // Oldest outcome first; outcomes of the same millisecond by id.
        const waiting = c
          .statement(
            `SELECT ${QUESTION_COLUMNS}, q.size, q.claim, q.claim_until FROM questions q
             WHERE q.project = ? AND q.ready_at IS NOT NULL AND (? = 0 OR json_extract(q.spec, '$.isBlocking') = 1)
               AND (? = 0 OR q.id = ?)
             ORDER BY q.ready_at, q.id`,
          )
          .all(project, options.blockingOnly ? 1 : 0, options.questionId ?? 0, options.questionId ?? 0) as Row[];
        const lease = c.statement('UPDATE questions SET claim = ?, claim_until = ? WHERE project = ? AND id = ?');
        const questions: Question[] = [];
        let used = 0;
        let full = false;
        let remaining = 0;
        for (const row of waiting) {
          // Leased to another live claim: neither taken nor counted.
          if (row.claim != null && row.claim_until != null && row.claim_until > now) continue;
          const size = row.size ?? 0;
          // The first free outcome is always taken, so a claim never starves; after the first that does not fit,
          // the rest are counted, not taken, so the agent gets outcomes in order.
          if (!full && (questions.length === 0 || used + size <= options.budget)) {
            used += size;
            // A record that does not read throws here and the transaction rolls back: nothing stays leased.
            questions.push(this.#x.fromRow(row));
            lease.run(claimId, now + options.leaseMs, project, row.id as number);
          } else {
            full = true;
            remaining++;
          }
        }
        return { claimId, via: options.via ?? 'prompt', questions, remaining };
      }),
    );
  }

  waitingOutcomes(project: string, options: { readonly blockingOnly?: boolean } = {}): Promise<Question[]> {
    return this.#x.run(() => {
      const rows = this.#x.c
        .statement(
          `SELECT ${QUESTION_COLUMNS} FROM questions q
           WHERE q.project = ? AND q.ready_at IS NOT NULL AND (q.claim IS NULL OR q.claim_until IS NULL OR q.claim_until <= ?)
             AND (? = 0 OR json_extract(q.spec, '$.isBlocking') = 1)
           ORDER BY q.ready_at, q.id`,
        )
        .all(project, this.#x.now(), options.blockingOnly ? 1 : 0) as Row[];
      return rows.map((row) => this.#x.fromRow(row));
    });
  }

  /** Deliver one outcome in the running transaction: answers become delivered, the retention clock starts. */
  #deliver(project: string, id: number, status: string, now: number, via: DeliveryPath): void {
    this.#x.c
      .statement(
        `UPDATE questions SET status = ?, delivered_at = ?, delivered_via = ?, done_at = ?, ready_at = NULL,
           claim = NULL, claim_until = NULL
         WHERE project = ? AND id = ?`,
      )
      .run(status === 'answered' ? 'delivered' : status, now, via, now, project, id);
    this.#x.event('delivered', project, id, now);
  }

  confirmClaim(project: string, claim: ClaimRef, ids?: readonly number[]): Promise<number[]> {
    const { c } = this.#x;
    const wanted = claimedIds(claim, ids);
    return this.#x.run(() =>
      c.write(() => {
        const now = this.#x.now();
        const read = c.statement('SELECT status, claim FROM questions WHERE project = ? AND id = ?');
        const confirmed: number[] = [];
        for (const id of wanted) {
          const row = read.get(project, id) as { status: string; claim: string | null } | undefined;
          // Still leased to this claim (even past its lease, if nobody took over): the note carried it.
          if (row?.claim !== claim.claimId) continue;
          this.#deliver(project, id, row.status, now, claim.via);
          confirmed.push(id);
        }
        return confirmed.sort((a, b) => a - b);
      }),
    );
  }

  releaseClaim(project: string, claim: ClaimRef, ids?: readonly number[]): Promise<void> {
    const { c } = this.#x;
    const wanted = claimedIds(claim, ids);
    return this.#x.run(() =>
      c.write(() => {
        const release = c.statement(
          'UPDATE questions SET claim = NULL, claim_until = NULL WHERE project = ? AND id = ? AND claim = ?',
        );
        for (const id of wanted) release.run(project, id, claim.claimId);
      }),
    );
  }

  markDelivered(
    project: string,
    id: number,
    via: DeliveryPath = 'tool-result',
  ): Promise<'delivered' | 'leased' | 'not-waiting'> {
    const { c } = this.#x;
    return this.#x.run(() =>
      c.write(() => {
        const now = this.#x.now();
        const row = c
          .statement('SELECT status, ready_at, claim, claim_until FROM questions WHERE project = ? AND id = ?')
          .get(project, id) as
          | { status: string; ready_at: number | null; claim: string | null; claim_until: number | null }
          | undefined;
        if (!row || row.ready_at === null) return 'not-waiting';
        if (row.claim !== null && row.claim_until !== null && row.claim_until > now) return 'leased';
        this.#deliver(project, id, row.status, now, via);
        return 'delivered';
      }),
    );
  }
}
