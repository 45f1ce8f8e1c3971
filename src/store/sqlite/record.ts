import type { Question } from '../../core/question.js';
import { CorruptRecordError } from '../corrupt-record-error.js';
import { messageField, type ParsedSpecs, questionFromHash } from '../redis/record.js';

/** The record versions this code writes (the Redis adapter's: one record shape for both stores). */
export { RECORD_VERSION, specRecord } from '../redis/record.js';

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
  readonly delivered_via: unknown;
  readonly reminders: unknown;
  readonly reminded_at: unknown;
  readonly messages: unknown;
}

/** The SELECT list that yields a {@link QuestionRow} from `questions q`. */
export const QUESTION_COLUMNS = `q.project, q.id, q.v, q.status, q.spec, q.created_at, q.expires_at, q.answer,
  q.closure, q.delivered_at, q.delivered_via, q.reminders, q.reminded_at,
  (SELECT json_group_array(json_array(m.platform, m.channel, m.message_id)) FROM messages m
    WHERE m.project = q.project AND m.question_id = q.id) AS messages`;

/**
 * Build the domain question from a row. The columns are laid out as the Redis record's fields (numbers as their
 * decimal text) and read by `questionFromHash`, so both stores accept and refuse exactly the same records. With
 * `specs`, a spec read before from the same text is taken from there.
 */
export function questionFromRow(row: QuestionRow, specs?: ParsedSpecs): Question {
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
  put('deliveredVia', row.delivered_via);
  put('reminders', row.reminders);
  put('remindedAt', row.reminded_at);
  for (const [platform, channel, messageId] of messageTriples(row.messages, where)) {
    hash[messageField(platform, channel)] = messageId;
  }
  return questionFromHash(hash, where, specs);
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
