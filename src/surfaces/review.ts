/**
 * What Send would send, item by item, before it is sent: the rule every surface's Send and review follow (what the
 * platform shows selected right now, else the person's draft, else the recommendation; notes from the draft). Pure.
 */

import { answerReadiness, describeSelection, type Readiness } from '../core/answer.js';
import { shownSelection } from '../core/inbox.js';
import { type Draft, itemsOf, memberRef, type Question, type Reply, type Selection } from '../core/question.js';
import { describeReply } from '../core/reply.js';
import { REFUSALS, setNotReadyText } from '../render/vocabulary.js';

/** A selection as a platform shows it right now, without notes (Slack sends the select's state with each click). */
export interface ShownPick {
  readonly choices: readonly string[];
  readonly other: boolean;
}

/** What a platform shows selected right now per item (index 0 for a single question); undefined: not reported. */
export type ShownPicks = readonly (ShownPick | undefined)[];

/** One line of a set's review before it is sent: a member, what it would send, and whether that is ready. */
export interface ReviewLine {
  /** The member (0 for the first); a single question has one line, member 0. */
  readonly member: number;
  /** `#12.1`, or `#12` for a single question. */
  readonly ref: string;
  /** The member's topic; absent for a single question. */
  readonly topic?: string;
  readonly selection: Selection;
  /** The picked answer as one line (`describeSelection`). */
  readonly answer: string;
  readonly readiness: Readiness;
}

/** What Send would send for one question, each item with its ready mark. */
export interface ReviewOf {
  readonly question: Question;
  readonly lines: readonly ReviewLine[];
  /** Every line is ready: Send would send. */
  readonly ready: boolean;
  /** The whole as one line (`describeReply`): `Database: Postgres · Cache: Redis`. */
  readonly summary: string;
  /** When not ready, what to do first, naming the members (`Cache needs a note.`). */
  readonly text: string;
}

/** What each item would send: shown pick, else draft, else recommendation; notes from the draft. */
export function reviewOf(question: Question, drafts: readonly (Draft | undefined)[], shown?: ShownPicks): ReviewOf {
  const lines = itemsOf(question).map((item, member): ReviewLine => {
    const draft = drafts[member];
    const base = shown?.[member] ?? draft ?? shownSelection(item);
    const selection: Selection = {
      choices: base.choices,
      other: base.other,
      ...(draft?.notes !== undefined ? { notes: draft.notes } : {}),
      ...(draft?.choiceNotes !== undefined ? { choiceNotes: draft.choiceNotes } : {}),
    };
    const topic = question.members?.[member]?.topic;
    return {
      member,
      ref: question.members === undefined ? `#${question.id}` : memberRef(question.id, member),
      ...(topic === undefined ? {} : { topic }),
      selection,
      answer: describeSelection(item, selection),
      readiness: answerReadiness(item, selection),
    };
  });
  const unready = lines.filter((line) => line.readiness !== 'ready');
  const reply: Reply =
    question.members === undefined
      ? (lines[0]?.selection ?? { choices: [], other: false })
      : { members: lines.map((line) => line.selection) };
  return {
    question,
    lines,
    ready: unready.length === 0,
    summary: describeReply(question, reply),
    text: unreadyText(unready),
  };
}

/** What to do before Send: a single question's refusal; a set's names each member that is not ready. */
function unreadyText(unready: readonly ReviewLine[]): string {
  if (unready.length === 0) return '';
  const [first] = unready;
  if (unready.length === 1 && first?.topic === undefined) {
    return first?.readiness === 'needs-note' ? REFUSALS.needsNote : REFUSALS.pickOne;
  }
  return setNotReadyText(unready.map((line) => ({ name: line.topic ?? line.ref, readiness: line.readiness })));
}
