/**
 * The ready-answer rule for a whole parked question: a single question's selection, or a set's selections (one per
 * member, every one ready). Pure. The stores call {@link answerOf} before they answer, so nothing unready, invalid or
 * too long for one delivery note is ever stored; the surfaces show {@link overallReadiness} of a set's marks.
 */
import { checkAnswer, describeSelection, type Readiness } from './answer.js';
import { deliveryEntriesBudget, deliveryEntryLength } from './delivery-note.js';
import { InvalidAnswerError } from './invalid-answer-error.js';
import {
  type Answer,
  type AnswerMeta,
  itemsOf,
  memberRef,
  type Question,
  type QuestionSpec,
  type Reply,
  type Selection,
  selectionsOf,
} from './question.js';

/** Outcome of {@link checkReply}: the normalised reply, or why it cannot be sent. */
export type ReplyCheck = { readonly ok: true; readonly reply: Reply } | { readonly ok: false; readonly reason: string };

/**
 * Whether `reply` may be sent as the answer to `question`: a selection for a single question, one selection per
 * member for a set, each passing `checkAnswer` (the reason then names the member: `#12.2 (Cache): …`). Returns the
 * reply normalised as `checkAnswer` normalises each selection.
 */
export function checkReply(question: QuestionSpec & { readonly id: number }, reply: Reply): ReplyCheck {
  const items = itemsOf(question);
  if (question.members === undefined) {
    if ('members' in reply) {
      return { ok: false, reason: `Expected one selection for #${question.id}, got one per member of a set` };
    }
    const checked = checkAnswer(question, reply);
    return checked.ok ? { ok: true, reply: checked.selection } : checked;
  }
  if (!('members' in reply)) {
    return { ok: false, reason: `Expected a selection for each of the ${items.length} questions of #${question.id}` };
  }
  if (reply.members.length !== items.length) {
    return {
      ok: false,
      reason: `Expected ${items.length} selections for the set #${question.id}, got ${reply.members.length}`,
    };
  }
  const members: Selection[] = [];
  for (const [index, member] of question.members.entries()) {
    const checked = checkAnswer(member, reply.members[index] ?? { choices: [], other: false });
    if (!checked.ok)
      return { ok: false, reason: `${memberRef(question.id, index)} (${member.topic}): ${checked.reason}` };
    members.push(checked.selection);
  }
  return { ok: true, reply: { members } };
}

/**
 * The answer to store: `reply` checked ({@link checkReply}) with who sent it and when. Also refused: an answer whose
 * delivery entry would not fit in one delivery note (notes on every option of a set can add up), since the note
 * never splits an entry. Throws `InvalidAnswerError` with the reason.
 */
export function answerOf(question: Question, reply: Reply, meta: AnswerMeta): Answer {
  return measuredAnswerOf(question, reply, meta).answer;
}

/**
 * {@link answerOf}, with the characters the answered question's delivery entry takes (`deliveryEntryLength`), which
 * the stores keep with the outcome: the entry is rendered once.
 */
export function measuredAnswerOf(
  question: Question,
  reply: Reply,
  meta: AnswerMeta,
): { readonly answer: Answer; readonly entryLength: number } {
  const checked = checkReply(question, reply);
  if (!checked.ok) throw new InvalidAnswerError(checked.reason);
  // Object.assign rather than spread: the stores answer through here, and Node 20 spreads into a new object slowly.
  const answer: Answer = Object.assign({}, checked.reply, meta);
  const length = deliveryEntryLength(Object.assign({}, question, { status: 'answered', answer }) as Question);
  const budget = ENTRIES_BUDGET;
  if (length > budget) {
    throw new InvalidAnswerError(
      `Expected the answer to #${question.id} to fit in one delivery note to the agent (${budget} characters), got ${length}: shorten the notes by ${length - budget} characters`,
    );
  }
  return { answer, entryLength: length };
}

/** Characters a note's entries may take, reserved once (deliveryEntriesBudget renders the footers). */
const ENTRIES_BUDGET = deliveryEntriesBudget();

/** The ready mark of the whole: `ready` when every item is; else the first item's mark that is not. */
export function overallReadiness(marks: readonly Readiness[]): Readiness {
  return marks.find((mark) => mark !== 'ready') ?? 'ready';
}

/**
 * The reply as one line for people: a single question's {@link describeSelection}; a set's topics each with theirs
 * (`Database: Postgres · Cache: Other`), the review line a set is sent after.
 */
export function describeReply(question: QuestionSpec, reply: Reply): string {
  const selections = selectionsOf(reply);
  if (question.members === undefined) {
    return describeSelection(question, selections[0] ?? { choices: [], other: false });
  }
  return question.members
    .map(
      (member, index) =>
        `${member.topic}: ${describeSelection(member, selections[index] ?? { choices: [], other: false })}`,
    )
    .join(' · ');
}
