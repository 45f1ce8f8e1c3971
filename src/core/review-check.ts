/**
 * A short check of the answers a set's review showed (picks, notes and notes per option, member by member), so its
 * confirmation sends only when the person's answers are still those (a pick made in another window meanwhile asks
 * for a new review instead of sending something not reviewed). Every surface's review uses this one check. Pure
 * (hashing is not I/O).
 */
import { createHash } from 'node:crypto';
import type { Selection } from './question.js';

/** Characters of a review's check: url-safe, short enough for Discord's custom ids and Telegram's callback data. */
export const REVIEW_CHECK_LENGTH = 8;

/** {@link REVIEW_CHECK_LENGTH} url-safe characters of a SHA-256 over the answers: equal answers give equal checks. */
export function reviewCheck(selections: readonly Selection[]): string {
  const canonical = selections.map((selection) => [
    [...selection.choices],
    selection.other,
    selection.notes?.trim() ?? '',
    (selection.choiceNotes ?? [])
      .filter((entry) => entry.notes.trim() !== '' && selection.choices.includes(entry.choice))
      .map((entry) => [entry.choice, entry.notes.trim()]),
  ]);
  return createHash('sha256').update(JSON.stringify(canonical)).digest('base64url').slice(0, REVIEW_CHECK_LENGTH);
}
