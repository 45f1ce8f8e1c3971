/**
 * What both store adapters share about drafts and listings, so the Redis and SQLite stores cannot drift apart:
 * how a draft is keyed, how a change to it is checked and merged, how it is read back, and the order questions are
 * listed in.
 */
import { checkChoiceNotes } from '../core/answer.js';
import { shownSelection } from '../core/inbox.js';
import { InvalidAnswerError } from '../core/invalid-answer-error.js';
import { NOTES_MAX } from '../core/limits.js';
import { type ChoiceNote, type Draft, memberRef, type Question, type QuestionItem } from '../core/question.js';
import { CorruptRecordError } from './corrupt-record-error.js';
import type { DraftChange, PersonRef } from './port.js';

/**
 * A draft's key within a question: `<platform>:<userId>`, and for a member of a set `<platform>:<userId>#<n>`
 * (n from 1, as in `#12.1`). A question is a set or not for its whole life, so the two forms never meet.
 */
export function personKey(person: PersonRef, member?: number): string {
  const key = `${person.platform}:${person.userId}`;
  return member === undefined ? key : `${key}#${member + 1}`;
}

/**
 * The item a draft change is for: the question itself, or the member `member` names of a set. A set needs a
 * member, a single question takes none; anything else throws `InvalidAnswerError`.
 */
export function draftItem(question: Question, member: number | undefined): QuestionItem {
  if (question.members === undefined) {
    if (member !== undefined) throw new InvalidAnswerError(`Expected no member for #${question.id}: it is not a set`);
    return question;
  }
  const item = member === undefined ? undefined : question.members[member];
  if (item === undefined || member === undefined) {
    throw new InvalidAnswerError(
      `Expected one of the ${question.members.length} questions of the set #${question.id}, got ${member === undefined ? 'none' : `#${question.id}.${member + 1}`}`,
    );
  }
  return item;
}

/**
 * A change checked against its question before anything is written: a draft may be unready (nothing picked yet,
 * Other without notes) but must only name the item's options, at most one on a single-select, with notes per option
 * only on a multi-select. Returns the change with the picked labels in the options' order and every notes text
 * trimmed ("" when it is to be cleared).
 */
export function checkDraftChange(question: Question, change: DraftChange): DraftChange {
  const item = draftItem(question, change.member);
  const where = change.member === undefined ? `#${question.id}` : memberRef(question.id, change.member);
  const labels = item.options.map((o) => o.label);
  let pick: DraftChange['pick'];
  if (change.pick !== undefined) {
    const { choices, other } = change.pick;
    if (choices.some((choice) => !labels.includes(choice))) {
      throw new InvalidAnswerError(`Expected choices among the options of ${where}, got one that is not`);
    }
    if (!item.multiSelect && choices.length + (other ? 1 : 0) > 1) {
      throw new InvalidAnswerError(`Expected at most one pick for ${where} (not multi-select)`);
    }
    pick = { choices: labels.filter((label) => choices.includes(label)), other };
  }
  const notes = change.notes?.trim();
  if (notes !== undefined && notes.length > NOTES_MAX) {
    throw new InvalidAnswerError(`Expected notes of at most ${NOTES_MAX} characters, got ${notes.length}`);
  }
  let choiceNotes: ChoiceNote[] | undefined;
  if (change.choiceNotes !== undefined) {
    // Checked as an answer's would be, as if every option were picked (a draft keeps notes of unpicked ones too).
    const checked = checkChoiceNotes(item, labels, new Set(labels), change.choiceNotes);
    if (typeof checked === 'string') throw new InvalidAnswerError(`${checked} (${where})`);
    choiceNotes = change.choiceNotes.map(({ choice, notes: text }) => ({ choice, notes: text.trim() }));
  }
  return {
    ...(change.member !== undefined ? { member: change.member } : {}),
    ...(pick !== undefined ? { pick } : {}),
    ...(notes !== undefined ? { notes } : {}),
    ...(choiceNotes !== undefined ? { choiceNotes } : {}),
  };
}

/** What a person's first change starts from: what the item shows selected (its recommendations preselected). */
export function draftBase(item: QuestionItem): { choices: readonly string[]; other: boolean } {
  const { choices, other } = shownSelection(item);
  return { choices, other };
}

/**
 * The draft a checked change makes of the stored one, or of {@link draftBase} when there is none: the fields the
 * change gives replace the stored ones, the others are kept; empty notes clear them; each option's notes the change
 * gives replace that option's (empty: cleared), in the options' order. The SQLite adapter runs this inside its
 * write transaction; `redis/lua/draft-2.lua` does the same merge inside its script (the contract suite proves they
 * agree).
 */
export function mergeDraft(item: QuestionItem, stored: Draft | undefined, change: DraftChange, now: number): Draft {
  const pick = change.pick ?? stored ?? draftBase(item);
  const notes = change.notes ?? stored?.notes;
  const byChoice = new Map((stored?.choiceNotes ?? []).map(({ choice, notes: text }) => [choice, text]));
  for (const { choice, notes: text } of change.choiceNotes ?? []) byChoice.set(choice, text);
  const choiceNotes = item.options.flatMap(({ label }) => {
    const text = byChoice.get(label);
    return text ? [{ choice: label, notes: text }] : [];
  });
  return {
    choices: [...pick.choices],
    other: pick.other,
    ...(notes ? { notes } : {}),
    ...(choiceNotes.length > 0 ? { choiceNotes } : {}),
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
    (value.notes === undefined || typeof value.notes === 'string') &&
    (value.choiceNotes === undefined ||
      (Array.isArray(value.choiceNotes) &&
        value.choiceNotes.every(
          (entry: unknown) =>
            entry !== null &&
            typeof entry === 'object' &&
            typeof (entry as ChoiceNote).choice === 'string' &&
            typeof (entry as ChoiceNote).notes === 'string',
        )))
  ) {
    return value as Draft;
  }
  throw unreadableDraft(where);
}

/** A stored draft that does not read as one (`where`: the question, `project#id`); its text is never shown. */
export function unreadableDraft(where: string): CorruptRecordError {
  return new CorruptRecordError(
    where,
    'draft: expected {choices: string[], other: boolean, notes?, choiceNotes?: {choice, notes}[], updatedAt}',
  );
}

/** One project's listing order: blocking first, then by id. */
export function byBlockingThenId(a: Question, b: Question): number {
  return Number(b.isBlocking) - Number(a.isBlocking) || a.id - b.id;
}

/** Several projects' listing order (a channel's inbox): blocking first, then oldest. */
export function byBlockingThenAge(a: Question, b: Question): number {
  return Number(b.isBlocking) - Number(a.isBlocking) || a.createdAt - b.createdAt || a.id - b.id;
}
