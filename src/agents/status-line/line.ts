/**
 * The text of `ask-later status`, the one line Claude Code's `statusLine` shows for the session's project. Pure.
 */
import type { QuestionCounts } from '../../store/port.js';

/** What the line says: questions waiting for a person, how many of those block, outcomes waiting for the agent. */
export interface StatusFigures {
  /** Pending questions (the person has not answered yet). */
  readonly waiting: number;
  /** Of those, the ones an agent stopped on. */
  readonly blocking: number;
  /** Answered, not yet delivered to the agent. */
  readonly answered: number;
}

export function statusFigures(counts: QuestionCounts): StatusFigures {
  return {
    waiting: counts.pending.blocking + counts.pending.canWait,
    blocking: counts.pending.blocking,
    answered: counts.answered.blocking + counts.answered.canWait,
  };
}

/**
 * `ask-later: 2 waiting, 1 blocking · 1 answered → ask-later inbox`; parts with nothing to count are left out, and the
 * pointer to the terminal inbox shows while something waits for the person. With nothing at all it
 * still says so (`ask-later: no questions waiting`): the bar then shows that the inbox was reached, so an empty line
 * keeps one meaning, "the inbox could not be read" (run the command by hand to see why).
 */
export function renderStatusLine({ waiting, blocking, answered }: StatusFigures): string {
  const parts: string[] = [];
  if (waiting > 0) parts.push(blocking > 0 ? `${waiting} waiting, ${blocking} blocking` : `${waiting} waiting`);
  if (answered > 0) parts.push(`${answered} answered`);
  if (parts.length === 0) return 'ask-later: no questions waiting';
  return `ask-later: ${parts.join(' · ')}${waiting > 0 ? ' → ask-later inbox' : ''}`;
}
