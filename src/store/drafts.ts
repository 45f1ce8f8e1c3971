/**
 * What both store adapters share about drafts and listings, so the Redis and SQLite stores cannot drift apart:
 * how a draft is keyed, how a change to it is checked and merged, how it is read back, and the order questions are
 * listed in.
 */
import { shownSelection } from '../core/inbox.js';
import { InvalidAnswerError } from '../core/invalid-answer-error.js';
import { NOTES_MAX } from '../core/limits.js';
import type { Draft, Question } from '../core/question.js';
import { CorruptRecordError } from './corrupt-record-error.js';
import type { DraftChange, PersonRef } from './port.js';

/** A draft's key within a question: `<platform>:<userId>`. */
export function personKey(person: PersonRef): string {
  return `${person.platform}:${person.userId}`;
}

/**
 * A change checked against its question before anything is written: a draft may be unready (nothing picked yet,
 * Other without notes) but must only name the question's options, at most one on a single-select. Returns the
 * change with the picked labels in the options' order and the notes trimmed ("" when they are to be cleared).
 */
export function checkDraftChange(question: Question, change: DraftChange): DraftChange {
  let pick: DraftChange['pick'];
  if (change.pick !== undefined) {
    const { choices, other } = change.pick;
    const labels = question.options.map((o) => o.label);
    if (choices.some((choice) => !labels.includes(choice))) {
      throw new InvalidAnswerError(`Expected choices among the options of #${question.id}, got one that is not`);
    }
    if (!question.multiSelect && choices.length + (other ? 1 : 0) > 1) {
      throw new InvalidAnswerError(`Expected at most one pick for #${question.id} (not multi-select)`);
    }
    pick = { choices: labels.filter((label) => choices.includes(label)), other };
  }
  const notes = change.notes?.trim();
  if (notes !== undefined && notes.length > NOTES_MAX) {
    throw new InvalidAnswerError(`Expected notes of at most ${NOTES_MAX} characters, got ${notes.length}`);
  }
  return { ...(pick !== undefined ? { pick } : {}), ...(notes !== undefined ? { notes } : {}) };
}

/** What a person's first change starts from: what the question shows selected (its recommendation preselected). */
export function draftBase(question: Question): { choices: readonly string[]; other: boolean } {
  const { choices, other } = shownSelection(question);
  return { choices, other };
}

/**
 * The draft a checked change makes of the stored one, or of {@link draftBase} when there is none: the fields the
 * change gives replace the stored ones, the others are kept; empty notes clear them. The SQLite adapter runs this
 * inside its write transaction; `redis/lua/draft-2.lua` does the same merge inside its script (the contract suite
 * proves they agree).
 */
export function mergeDraft(question: Question, stored: Draft | undefined, change: DraftChange, now: number): Draft {
  const pick = change.pick ?? stored ?? draftBase(question);
  const notes = change.notes ?? stored?.notes;
  return { choices: [...pick.choices], other: pick.other, ...(notes ? { notes } : {}), updatedAt: now };
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
  throw unreadableDraft(where);
}

/** A stored draft that does not read as one (`where`: the question, `project#id`); its text is never shown. */
export function unreadableDraft(where: string): CorruptRecordError {
  return new CorruptRecordError(where, 'draft: expected {choices: string[], other: boolean, notes?, updatedAt}');
}

/** One project's listing order: blocking first, then by id. */
export function byBlockingThenId(a: Question, b: Question): number {
  return Number(b.isBlocking) - Number(a.isBlocking) || a.id - b.id;
}

/** Several projects' listing order (a channel's inbox): blocking first, then oldest. */
export function byBlockingThenAge(a: Question, b: Question): number {
  return Number(b.isBlocking) - Number(a.isBlocking) || a.createdAt - b.createdAt || a.id - b.id;
}
