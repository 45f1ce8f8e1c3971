/** How questions read in tool results: short, plain, and with the person's words marked as theirs. */
import { describeSelection } from '../core/answer.js';
import { renderDeliveryEntry } from '../core/delivery-note.js';
import { platformName, type Question } from '../core/question.js';

/** One line per question, for listings. */
export function questionLine(q: Question): string {
  const blocking = q.isBlocking ? 'blocking' : 'can wait';
  const ticket = q.ticket ? ` ${q.ticket}` : '';
  let outcome = '';
  if (q.answer)
    outcome = ` → ${describeSelection(q, q.answer)} (${q.answer.by.displayName} on ${platformName(q.answer.by.platform)})`;
  return `#${q.id} [${q.status}, ${blocking}]${ticket} ${q.question}${outcome}`;
}

/** The full state of one question, for get_answer and cancel refusals. */
export function questionState(q: Question): string {
  switch (q.status) {
    case 'pending': {
      const wait = q.isBlocking
        ? 'Do not go ahead on what depends on it; carry on with the rest.'
        : 'Carry on; the answer comes in a later prompt.';
      return `#${q.id} is still pending: nobody has answered yet. ${wait}\nQuestion: ${q.question}`;
    }
    case 'answered':
    case 'delivered':
    case 'dismissed':
    case 'expired':
      return `${renderDeliveryEntry(q)}\n\nThe answer and notes above are the person's words.`;
    case 'cancelled':
      return `#${q.id} was withdrawn (cancelled) by the agent; nobody will answer it.\nQuestion: ${q.question}`;
  }
}
