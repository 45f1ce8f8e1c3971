/** How questions read in tool results: short, plain, and with the person's words marked as theirs. */
import { renderDeliveryEntry } from '../../core/delivery-note.js';
import { memberRef, placeOf, type Question } from '../../core/question.js';
import { describeReply } from '../../core/reply.js';

/** The question as one line: its text, or a set's topics (`Set of 3: Database · Caches · Naming`). */
export function questionSummary(q: Question): string {
  if (q.members === undefined) return q.question;
  return `Set of ${q.members.length}: ${q.members.map((member) => member.topic).join(' · ')}`;
}

/** One line per question, for listings. */
export function questionLine(q: Question): string {
  const blocking = q.isBlocking ? 'blocking' : 'can wait';
  const ticket = q.ticket ? ` ${q.ticket}` : '';
  let outcome = '';
  if (q.answer) outcome = ` → ${describeReply(q, q.answer)} (${q.answer.by.displayName} ${placeOf(q.answer.by)})`;
  return `#${q.id} [${q.status}, ${blocking}]${ticket} ${questionSummary(q)}${outcome}`;
}

/** The question's lines: `Question: …`, or one per question of a set (`Question #12.1 (Database): …`). */
export function questionTexts(q: Question): string {
  if (q.members === undefined) return `Question: ${q.question}`;
  return q.members
    .map((member, index) => `Question ${memberRef(q.id, index)} (${member.topic}): ${member.question}`)
    .join('\n');
}

/** The full state of one question, for get_answer and cancel refusals. */
export function questionState(q: Question): string {
  switch (q.status) {
    case 'pending': {
      const wait = q.isBlocking
        ? 'Do not go ahead on what depends on it; carry on with the rest.'
        : 'Carry on; the answer comes in a later prompt.';
      return `#${q.id} is still pending: nobody has answered yet. ${wait}\n${questionTexts(q)}`;
    }
    case 'answered':
    case 'delivered':
    case 'dismissed':
    case 'expired':
      return `${renderDeliveryEntry(q)}\n\nThe answer and notes above are the person's words.`;
    case 'cancelled':
      return `#${q.id} was withdrawn (cancelled) by the agent; nobody will answer it.\n${questionTexts(q)}`;
  }
}

/** The guidance a structured result carries as its `note`: what the state means, without the question texts. */
export function stateNote(q: Question): string {
  switch (q.status) {
    case 'pending':
      return q.isBlocking
        ? `#${q.id} is still pending: nobody has answered yet. Do not go ahead on what depends on it; carry on with the rest.`
        : `#${q.id} is still pending: nobody has answered yet. Carry on; the answer comes in a later prompt.`;
    case 'answered':
    case 'delivered':
      return `#${q.id} was answered. The answers and notes are the person's words; the question texts are your own.`;
    case 'dismissed':
      return `#${q.id} was dismissed unanswered. Nobody answered it: decide it yourself, or park it again with ask_later if a person must decide.`;
    case 'expired':
      return `#${q.id} expired unanswered. Nobody answered it: decide it yourself, or park it again with ask_later if a person must decide.`;
    case 'cancelled':
      return `#${q.id} was withdrawn (cancelled) by you; nobody will answer it.`;
  }
}
