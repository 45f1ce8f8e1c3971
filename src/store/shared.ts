/**
 * The small rules and constants both adapters share, so the Redis and SQLite stores cannot drift apart (drafts.ts
 * and paging.ts hold the larger ones: drafts, and the views' orders and cursors).
 */
import { createHash } from 'node:crypto';
import {
  canTransition,
  QUESTION_STATUSES,
  type Question,
  type QuestionSpec,
  type QuestionStatus,
} from '../core/question.js';
import { CorruptRecordError } from './corrupt-record-error.js';
import type { ClaimRef, QuestionCounts } from './port.js';

/** How long delivered and cancelled questions are kept by default (`retentionMs` of either adapter): 30 days. */
export const RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** The ids of a claim to confirm or release: all it carried, or the given ones among them. */
export function claimedIds(claim: ClaimRef, only?: readonly number[]): number[] {
  const ids = claim.questions.map((q) => q.id);
  return only ? ids.filter((id) => only.includes(id)) : ids;
}

/**
 * Read records into questions, leaving out (and reporting through `onCorrupt`) each one that does not read, so a
 * listing never fails whole. `read` may return undefined for a record that is gone. Any other error is thrown.
 */
export function readEach<T>(
  records: Iterable<T>,
  read: (record: T) => Question | undefined,
  onCorrupt: ((error: CorruptRecordError) => void) | undefined,
): Question[] {
  const questions: Question[] = [];
  for (const record of records) {
    try {
      const question = read(record);
      if (question !== undefined) questions.push(question);
    } catch (error) {
      if (!(error instanceof CorruptRecordError)) throw error;
      onCorrupt?.(error);
    }
  }
  return questions;
}

/** When a question parked at `now` expires (from its `expiresInSeconds`), if ever. */
export function expiryOf(spec: QuestionSpec, now: number): number | undefined {
  return spec.expiresInSeconds === undefined ? undefined : now + spec.expiresInSeconds * 1000;
}

/**
 * How long a park of the same content with the same retry key in the same project returns the question it parked (while that one is still
 * pending) instead of a new one: a park retried after a failure or a time-out (the agent was told it failed, or the
 * reply never reached it, though the question was stored) is not a second question. Ten minutes covers the
 * refusal's advice to retry in a minute several times over.
 */
export const PARK_RETRY_WINDOW_MS = 10 * 60_000;

/** The digest a retried park is recognised by: the session's retry key and the question's stored content. */
export function parkDigest(retryKey: string, recordJson: string): string {
  return createHash('sha256').update(retryKey).update('\u0000').update(recordJson).digest('base64url').slice(0, 32);
}

/** The question a park stored, as the adapters return it without reading it back. */
export function parkedQuestion(project: string, id: number, spec: QuestionSpec, now: number): Question {
  const expiresAt = expiryOf(spec, now);
  // Object.assign rather than `{ ...spec, project, … }`: parking is a hot path, and Node 20 spreads slowly.
  const state =
    expiresAt === undefined
      ? { project, id, status: 'pending' as const, createdAt: now, messages: [] }
      : { project, id, status: 'pending' as const, createdAt: now, expiresAt, messages: [] };
  return Object.assign({}, spec, state);
}

/**
 * Why a question cannot move to `target` now, or undefined when it can. The moves themselves are core's
 * `canTransition`; a refusal is `already-answered` when an answer is there (the caller says who answered),
 * `not-pending` for every other state, and `past-expiry` for a pending question whose expiry has passed, which the
 * caller expires first (then it is `not-pending`). The Lua scripts (answer-11, close-10) decide the same; the
 * contract suite checks every adapter against `canTransition`.
 */
export function refusal(
  question: Pick<Question, 'status' | 'expiresAt'>,
  target: QuestionStatus,
  now: number,
): 'already-answered' | 'not-pending' | 'past-expiry' | undefined {
  if (!canTransition(question.status, target)) {
    return question.status === 'answered' || question.status === 'delivered' ? 'already-answered' : 'not-pending';
  }
  if (question.expiresAt !== undefined && question.expiresAt <= now) return 'past-expiry';
  return undefined;
}

/** Counts per state and blocking, from rows of (status, blocking, count); states absent count 0. */
export function tallyCounts(
  rows: Iterable<{ readonly status: string; readonly blocking: boolean; readonly n: number }>,
): QuestionCounts {
  const counts = Object.fromEntries(QUESTION_STATUSES.map((status) => [status, { blocking: 0, canWait: 0 }]));
  for (const row of rows) {
    const entry = counts[row.status];
    if (!entry) continue;
    if (row.blocking) entry.blocking += row.n;
    else entry.canWait += row.n;
  }
  return counts as unknown as QuestionCounts;
}
