/**
 * A `questions` row (with its message references) <-> the domain Question. The record's shape is the one the Redis
 * adapter writes (`questions.v` is the same record version, and every version still reads), so rows are checked by
 * the same hand-written validation as Redis hashes (`questionFromHash`, no zod: this runs in the per-prompt hook).
 * A row that does not read raises `CorruptRecordError` naming `project#id` and the column, never its text.
 */
import { InvalidAnswerError } from '../../core/invalid-answer-error.js';
import { NOTES_MAX } from '../../core/limits.js';
import type { Draft, Question, Selection } from '../../core/question.js';
import { CorruptRecordError } from '../corrupt-record-error.js';
import type { PersonRef } from '../port.js';
import { messageField, questionFromHash } from '../redis/record.js';

/** The record version this code writes (the Redis adapter's: one record shape for both stores). */
export { RECORD_VERSION } from '../redis/record.js';

/** The columns a question is read from. `messages` is a JSON list of [platform, channel, messageId] (a subquery). */
export interface QuestionRow {
  readonly project: unknown;
  readonly id: unknown;
  readonly v: unknown;
  readonly status: unknown;
  readonly spec: unknown;
  readonly created_at: unknown;
  readonly expires_at: unknown;
  readonly answer: unknown;
  readonly closure: unknown;
  readonly delivered_at: unknown;
  readonly messages: unknown;
}

/** The SELECT list that yields a {@link QuestionRow} from `questions q`. */
export const QUESTION_COLUMNS = `q.project, q.id, q.v, q.status, q.spec, q.created_at, q.expires_at, q.answer,
  q.closure, q.delivered_at,
  (SELECT json_group_array(json_array(m.platform, m.channel, m.message_id)) FROM messages m
    WHERE m.project = q.project AND m.question_id = q.id) AS messages`;

/**
 * Build the domain question from a row. The columns are laid out as the Redis record's fields (numbers as their
 * decimal text) and read by `questionFromHash`, so both stores accept and refuse exactly the same records.
 */
export function questionFromRow(row: QuestionRow): Question {
  const where = `${String(row.project)}#${String(row.id)}`;
  const hash: Record<string, string> = {};
  const put = (field: string, value: unknown) => {
    if (value !== null && value !== undefined) hash[field] = String(value);
  };
  put('v', row.v);
  put('project', row.project);
  put('id', row.id);
  put('status', row.status);
  put('spec', row.spec);
  put('createdAt', row.created_at);
  put('expiresAt', row.expires_at);
  put('answer', row.answer);
  put('closure', row.closure);
  put('deliveredAt', row.delivered_at);
  for (const [platform, channel, messageId] of messageTriples(row.messages, where)) {
    hash[messageField(platform, channel)] = messageId;
  }
  return questionFromHash(hash, where);
}

function messageTriples(value: unknown, where: string): [string, string, string][] {
  if (value === null || value === undefined) return [];
  let list: unknown;
  try {
    list = JSON.parse(String(value));
  } catch (error) {
    throw new CorruptRecordError(where, '`messages`: expected JSON', { cause: error });
  }
  if (
    !Array.isArray(list) ||
    !list.every((item) => Array.isArray(item) && item.length === 3 && item.every((part) => typeof part === 'string'))
  ) {
    throw new CorruptRecordError(where, '`messages`: expected [platform, channel, messageId] triples');
  }
  return list as [string, string, string][];
}

/** A draft's key within a question: `<platform>:<userId>`. */
export function personKey(person: PersonRef): string {
  return `${person.platform}:${person.userId}`;
}

/**
 * A draft may be unready (nothing picked yet, Other without notes) but must only name the question's options.
 * Same rule as the Redis adapter's (kept in step by the shared contract suite).
 */
export function toDraft(question: Question, selection: Selection, now: number): Draft {
  const labels = new Set(question.options.map((o) => o.label));
  const unknown = selection.choices.find((choice) => !labels.has(choice));
  if (unknown !== undefined) {
    throw new InvalidAnswerError(`Expected choices among the options of #${question.id}, got one that is not`);
  }
  if (!question.multiSelect && selection.choices.length + (selection.other ? 1 : 0) > 1) {
    throw new InvalidAnswerError(`Expected at most one pick for #${question.id} (not multi-select)`);
  }
  const notes = selection.notes?.trim();
  if (notes && notes.length > NOTES_MAX) {
    throw new InvalidAnswerError(`Expected notes of at most ${NOTES_MAX} characters, got ${notes.length}`);
  }
  return {
    choices: question.options.map((o) => o.label).filter((label) => selection.choices.includes(label)),
    other: selection.other,
    ...(notes ? { notes } : {}),
    updatedAt: now,
  };
}

export function parseDraft(text: string, where: string): Draft {
  let value: Partial<Draft>;
  try {
    value = JSON.parse(text) as Partial<Draft>;
  } catch (error) {
    throw new CorruptRecordError(where, 'draft: expected JSON', { cause: error });
  }
  if (
    value !== null &&
    typeof value === 'object' &&
    Array.isArray(value.choices) &&
    value.choices.every((c) => typeof c === 'string') &&
    typeof value.other === 'boolean' &&
    typeof value.updatedAt === 'number' &&
    (value.notes === undefined || typeof value.notes === 'string')
  ) {
    return value as Draft;
  }
  throw new CorruptRecordError(where, 'draft: expected {choices: string[], other: boolean, notes?, updatedAt}');
}

export function byBlockingThenId(a: Question, b: Question): number {
  return Number(b.isBlocking) - Number(a.isBlocking) || a.id - b.id;
}

export function byBlockingThenAge(a: Question, b: Question): number {
  return Number(b.isBlocking) - Number(a.isBlocking) || a.createdAt - b.createdAt || a.id - b.id;
}
