/**
 * A question's way out of `pending` in the SQLite file (see `TransitionsSection` in the port): each move one
 * `BEGIN IMMEDIATE` transaction that reads the state it decides on under the write lock and follows core's
 * `canTransition` (store/shared.ts's `refusal`); a question past its expiry is expired in the same transaction.
 * Then retention.
 */
import { deliveryEntryLength } from '../../core/delivery-note.js';
import type { Closure, Question, QuestionStatus, Reply, Responder } from '../../core/question.js';
import { measuredAnswerOf } from '../../core/reply.js';
import type { AnswerResult, CloseResult, RemindResult, TransitionsSection } from '../port.js';
import { RETENTION_MS, refusal } from '../shared.js';
import type { Row, SqliteContext } from './context.js';
import { indexDecision, unindexDecision } from './decisions.js';
import { QUESTION_COLUMNS } from './record.js';

export class SqliteTransitions implements TransitionsSection {
  readonly #x: SqliteContext;

  constructor(context: SqliteContext) {
    this.#x = context;
  }

  /**
   * Expire a pending question in the running transaction (its expiry passed): it waits in the outbox to be
   * reported to the agent, like an answer.
   */
  #expire(question: Question, now: number): Question {
    const closure: Closure = { at: now };
    const expired = Object.assign({}, question, { status: 'expired', closure }) as Question;
    this.#x.c
      .statement(
        `UPDATE questions SET status = 'expired', closure = ?, size = ?, ready_at = ?
         WHERE project = ? AND id = ? AND status = 'pending'`,
      )
      .run(JSON.stringify(closure), deliveryEntryLength(expired), now, question.project, question.id);
    this.#x.dropDrafts(question.project, question.id);
    this.#x.event('expired', question.project, question.id, now);
    return expired;
  }

  /** Why a question cannot move to `target` now, or undefined when it can. Expires it when its time has passed. */
  #refused(
    question: Question,
    target: QuestionStatus,
    now: number,
  ): { kind: 'already-answered' | 'not-pending'; question: Question } | undefined {
    switch (refusal(question, target, now)) {
      case undefined:
        return undefined;
      case 'already-answered':
        return { kind: 'already-answered', question };
      case 'not-pending':
        return { kind: 'not-pending', question };
      case 'past-expiry':
        return { kind: 'not-pending', question: this.#expire(question, now) };
    }
  }

  answer(project: string, id: number, reply: Reply, by: Responder): Promise<AnswerResult> {
    const { c } = this.#x;
    return this.#x.run(() =>
      c.write((): AnswerResult => {
        const question = this.#x.get(project, id);
        if (!question) return { kind: 'unknown' };
        const now = this.#x.now();
        const { answer, entryLength } = measuredAnswerOf(question, reply, { by, at: now });
        const refused = this.#refused(question, 'answered', now);
        if (refused) return refused;
        const answered = Object.assign({}, question, { status: 'answered', answer }) as Question;
        c.statement(
          `UPDATE questions SET status = 'answered', answer = ?, size = ?, ready_at = ?
             WHERE project = ? AND id = ?`,
        ).run(JSON.stringify(answer), entryLength, now, project, id);
        this.#x.dropDrafts(project, id);
        indexDecision(this.#x, answered);
        this.#x.event('answered', project, id, now);
        return { kind: 'won', question: answered };
      }),
    );
  }

  #close(project: string, id: number, target: 'cancelled' | 'dismissed', by?: Responder): Promise<CloseResult> {
    const { c } = this.#x;
    return this.#x.run(() =>
      c.write((): CloseResult => {
        const question = this.#x.get(project, id);
        if (!question) return { kind: 'unknown' };
        const now = this.#x.now();
        const refused = this.#refused(question, target, now);
        if (refused) return refused;
        const closure: Closure = by ? { at: now, by } : { at: now };
        const closed = Object.assign({}, question, { status: target, closure }) as Question;
        // A dismissal waits in the outbox to be reported to the agent; a cancellation does not (the agent knows)
        // and starts its retention clock at once.
        const dismissed = target === 'dismissed';
        c.statement(
          `UPDATE questions SET status = ?, closure = ?, size = ?, ready_at = ?, done_at = ?
             WHERE project = ? AND id = ?`,
        ).run(
          target,
          JSON.stringify(closure),
          dismissed ? deliveryEntryLength(closed) : null,
          dismissed ? now : null,
          dismissed ? null : now,
          project,
          id,
        );
        this.#x.dropDrafts(project, id);
        this.#x.event(target, project, id, now);
        return { kind: 'done', question: closed };
      }),
    );
  }

  cancel(project: string, id: number): Promise<CloseResult> {
    return this.#close(project, id, 'cancelled');
  }

  dismiss(project: string, id: number, by: Responder): Promise<CloseResult> {
    return this.#close(project, id, 'dismissed', by);
  }

  remind(project: string, id: number, ordinal: number): Promise<RemindResult> {
    const { c } = this.#x;
    return this.#x.run(() =>
      c.write((): RemindResult => {
        const now = this.#x.now();
        const question = this.#x.get(project, id);
        if (!question) return { kind: 'unknown' };
        if (question.status !== 'pending' || (question.expiresAt !== undefined && question.expiresAt <= now)) {
          return { kind: 'not-pending', question };
        }
        if ((question.reminders ?? 0) !== ordinal - 1) return { kind: 'already', question };
        c.statement('UPDATE questions SET reminders = ?, reminded_at = ? WHERE project = ? AND id = ?').run(
          ordinal,
          now,
          project,
          id,
        );
        this.#x.event('reminded', project, id, now);
        return { kind: 'reminded', question: Object.assign({}, question, { reminders: ordinal, remindedAt: now }) };
      }),
    );
  }

  expireDue(): Promise<number> {
    const { c } = this.#x;
    return this.#x.run(() =>
      c.write(() => {
        const now = this.#x.now();
        const rows = c
          .statement(
            `SELECT ${QUESTION_COLUMNS} FROM questions q
             WHERE q.status = 'pending' AND q.expires_at IS NOT NULL AND q.expires_at <= ?`,
          )
          .all(now) as Row[];
        const due = this.#x.readMany(rows);
        for (const question of due) this.#expire(question, now);
        return due.length;
      }),
    );
  }

  purgeExpired(): Promise<number> {
    const { c } = this.#x;
    return this.#x.run(() =>
      c.write(() => {
        const cutoff = this.#x.now() - (this.#x.options.retentionMs ?? RETENTION_MS);
        // Only finished questions: delivered, cancelled, or dismissed/expired and reported. Nothing pending or
        // waiting for the agent has a done_at, and the status check says so again.
        const finished = c
          .statement(
            `SELECT project, id FROM questions
             WHERE done_at IS NOT NULL AND done_at <= ?
               AND (status IN ('delivered', 'cancelled')
                    OR (status IN ('dismissed', 'expired') AND delivered_at IS NOT NULL))`,
          )
          .all(cutoff) as { project: string; id: number }[];
        const dropQuestion = c.statement('DELETE FROM questions WHERE project = ? AND id = ?');
        const dropMessages = c.statement('DELETE FROM messages WHERE project = ? AND question_id = ?');
        for (const { project, id } of finished) {
          dropQuestion.run(project, id);
          dropMessages.run(project, id);
          this.#x.dropDrafts(project, id);
          unindexDecision(this.#x, project, id);
        }
        // Events age out with the questions they tell about (ids are never reused: AUTOINCREMENT).
        c.statement('DELETE FROM events WHERE at <= ?').run(cutoff);
        c.statement('DELETE FROM event_pending WHERE event_id NOT IN (SELECT id FROM events)').run();
        return finished.length;
      }),
    );
  }
}
