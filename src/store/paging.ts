/**
 * What both store adapters share about reading one page at a time (`Store.pageAcross`, `Store.listPage`), so the
 * Redis and SQLite stores cannot drift apart: the order of each view, written as a sort key, and the cursors.
 *
 * A question's sort key in a view is a fixed-width string of digits, so that comparing two keys as strings compares
 * them in the view's order (Redis keeps the keys in lexicographic sorted sets; SQLite compares the same fields):
 *   pending   `<0 blocking | 1 can wait><createdAt, 15 digits><id, 12 digits>`, read ascending: blocking first,
 *             then oldest, then by id
 *   closed    `<closedAt, 15 digits><id, 12 digits>`, read descending: newest closing first (answered, withdrawn,
 *             dismissed or expired), then the higher id
 *   answered  the same key as closed, for answered and delivered questions only: newest answer first
 * Across projects, equal keys are ordered by project tag (ascending for pending, descending for the closed views).
 *
 * A cursor is `<key>.<tag>` of the last question a page showed: the next page starts right after it, so questions
 * that change meanwhile never make a page repeat or skip one that stayed.
 */
import { QUESTION_STATUSES, type Question, type QuestionStatus } from '../core/question.js';
import { projectTag } from '../core/question-ref.js';

/**
 * The views read one page at a time across projects ({@link Store.pageAcross}), each in its own order:
 * - `pending`: the inbox: blocking first, then oldest first (then by id, then by project tag);
 * - `closed`: every question no longer pending, newest closing first (its answer, withdrawal, dismissal or expiry);
 * - `answered`: answered and delivered questions (the decision trail), newest answer first.
 */
export type PageView = 'pending' | 'closed' | 'answered';

const TIME_DIGITS = 15;
const ID_DIGITS = 12;

function pad(value: number, digits: number): string {
  return String(Math.max(0, Math.trunc(value))).padStart(digits, '0');
}

/** The pending view's sort key. */
export function pendingKey(isBlocking: boolean, createdAt: number, id: number): string {
  return `${isBlocking ? '0' : '1'}${pad(createdAt, TIME_DIGITS)}${pad(id, ID_DIGITS)}`;
}

/** The closed (and answered) views' sort key. */
export function closedKey(closedAt: number, id: number): string {
  return `${pad(closedAt, TIME_DIGITS)}${pad(id, ID_DIGITS)}`;
}

/** The closed views' lower bound for "closed at or after `since`". */
export function closedSinceKey(since: number): string {
  return pad(since, TIME_DIGITS);
}

/** When a question left `pending` (its answer, withdrawal, dismissal or expiry); undefined while pending. */
export function closedAtOf(question: Question): number | undefined {
  if (question.status === 'pending') return undefined;
  return question.answer?.at ?? question.closure?.at ?? question.deliveredAt ?? question.createdAt;
}

/** A question's key in `view`, or undefined when the view does not hold it. */
export function viewKey(view: PageView, question: Question): string | undefined {
  if (view === 'pending') {
    return question.status === 'pending' ? pendingKey(question.isBlocking, question.createdAt, question.id) : undefined;
  }
  if (view === 'answered' && question.status !== 'answered' && question.status !== 'delivered') return undefined;
  const at = closedAtOf(question);
  return at === undefined ? undefined : closedKey(at, question.id);
}

export interface Cursor {
  readonly key: string;
  readonly tag: string;
}

const CURSOR = /^(\d{27,28})\.([A-Za-z0-9_-]{16})$/;

/** A cursor given back by a caller: undefined when it is not one (then the first page is read). */
export function parseCursor(view: PageView, text: string | undefined): Cursor | undefined {
  const match = text === undefined ? null : CURSOR.exec(text);
  const key = match?.[1];
  const tag = match?.[2];
  if (key === undefined || tag === undefined) return undefined;
  const length = view === 'pending' ? 1 + TIME_DIGITS + ID_DIGITS : TIME_DIGITS + ID_DIGITS;
  if (key.length !== length || (view === 'pending' && key[0] !== '0' && key[0] !== '1')) return undefined;
  return { key, tag };
}

export function formatCursor(cursor: Cursor): string {
  return `${cursor.key}.${cursor.tag}`;
}

/** Whether `a` comes before `b` in the view's order (key, then tag; descending for the closed views). */
export function comesBefore(view: PageView, a: Cursor, b: Cursor): boolean {
  const ascending = a.key < b.key || (a.key === b.key && a.tag < b.tag);
  const same = a.key === b.key && a.tag === b.tag;
  if (same) return false;
  return view === 'pending' ? ascending : !ascending;
}

/** Sort entries in the view's order. */
export function sortInView<T extends Cursor>(view: PageView, entries: T[]): T[] {
  return entries.sort((a, b) => (comesBefore(view, a, b) ? -1 : comesBefore(view, b, a) ? 1 : 0));
}

/** The cursor of a question shown in `view`. */
export function cursorOf(view: PageView, question: Question): Cursor | undefined {
  const key = viewKey(view, question);
  return key === undefined ? undefined : { key, tag: projectTag(question.project) };
}

/** The statuses each view holds. */
export function viewStatuses(view: PageView): readonly QuestionStatus[] {
  if (view === 'pending') return ['pending'];
  if (view === 'answered') return ['answered', 'delivered'];
  return QUESTION_STATUSES.filter((status) => status !== 'pending');
}

/**
 * `listPage`'s cursor: `<0 blocking | 1 can wait>.<id>` of the last question shown (one project: blocking first,
 * then by id).
 */
export function parseListCursor(text: string | undefined): { blockingFirst: 0 | 1; id: number } | undefined {
  const match = text === undefined ? null : /^([01])\.(\d{1,12})$/.exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  return { blockingFirst: match[1] === '0' ? 0 : 1, id: Number(match[2]) };
}

export function formatListCursor(question: Question): string {
  return `${question.isBlocking ? '0' : '1'}.${question.id}`;
}
