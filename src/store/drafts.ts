/**
 * What both store adapters share about drafts and listings, so the Redis and SQLite stores cannot drift apart:
 * how a draft is keyed, checked and read back, and the order questions are listed in.
 */
import { InvalidAnswerError } from '../core/invalid-answer-error.js';
import { NOTES_MAX } from '../core/limits.js';
import type { Draft, Question, Selection } from '../core/question.js';
import { CorruptRecordError } from './corrupt-record-error.js';
import type { PersonRef } from './port.js';

/** A draft's key within a question: `<platform>:<userId>`. */
export function personKey(person: PersonRef): string {
  return `${person.platform}:${person.userId}`;
}

/** A draft may be unready (nothing picked yet, Other without notes) but must only name the question's options. */
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

/** A draft read back from a store, checked by hand (the hook's path loads no zod). */
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

/** One project's listing order: blocking first, then by id. */
export function byBlockingThenId(a: Question, b: Question): number {
  return Number(b.isBlocking) - Number(a.isBlocking) || a.id - b.id;
}

/** Several projects' listing order (a channel's inbox): blocking first, then oldest. */
export function byBlockingThenAge(a: Question, b: Question): number {
  return Number(b.isBlocking) - Number(a.isBlocking) || a.createdAt - b.createdAt || a.id - b.id;
}
