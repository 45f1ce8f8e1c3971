/**
 * How a question asked again despite an earlier decision (`askAgain`) says so on its cards, worded once for every
 * surface: `Asked before: #7, answered 2026-11-20 by Ada on Slack: Postgres`. The answer is cut at
 * {@link ASKED_BEFORE_ANSWER_MAX} characters (the whole decision is in the decision trail). Pure.
 */
import { type EarlierDecision, memberRef, placeOf } from './question.js';

/** The longest earlier answer a card quotes; the decision trail has it whole. */
export const ASKED_BEFORE_ANSWER_MAX = 120;

/** One earlier decision as one line. */
export function askedBeforeLine(earlier: EarlierDecision): string {
  const ref = earlier.member === undefined ? `#${earlier.id}` : memberRef(earlier.id, earlier.member);
  const day = new Date(earlier.at).toISOString().slice(0, 10);
  const who = earlier.by.displayName.trim() === '' ? earlier.by.userId : earlier.by.displayName.trim();
  const answer =
    earlier.answer.length > ASKED_BEFORE_ANSWER_MAX
      ? `${earlier.answer.slice(0, ASKED_BEFORE_ANSWER_MAX - 1)}…`
      : earlier.answer;
  return `Asked before: ${ref}, answered ${day} by ${who} ${placeOf(earlier.by)}: ${answer}`.replace(
    /[\p{Cc}\u2028\u2029]+/gu,
    ' ',
  );
}
