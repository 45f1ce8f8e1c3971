/**
 * A selection that cannot be sent as an answer: an unknown or repeated option, more than one pick on a
 * single-select question, notes too long, or not ready (nothing picked, `Other` without notes). The message says
 * what was expected and what came (see `checkAnswer` in `answer.ts`); nothing was stored.
 * Constructed like `Error`: `new InvalidAnswerError(reason)` (Error's own constructor; a pass-through one would
 * only repeat it).
 */
export class InvalidAnswerError extends Error {
  override readonly name = 'InvalidAnswerError';
}
