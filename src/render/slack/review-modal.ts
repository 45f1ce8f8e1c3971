/**
 * A set's review before it is sent: Send on a set (every member ready) opens it on the click's trigger; it lists
 * each member's topic, answer, notes per picked option and notes, and its submit ("Send") sends exactly that. Pure:
 * the handler hands in the review (`InteractionService.review`) and adds what was reviewed to the metadata.
 *
 * Blocks: a header line, per member a heading and answer, its notes per option (up to 6) and notes, each at most
 * two sections (notes over 3,000 characters with their heading are split): at most 2 + 4 × (1 + 2 × 7) = 62 of a
 * modal's 100. A modal has no total-text limit beyond its blocks'.
 */
import type { SectionBlock } from '@slack/types';
import type { Question, Selection } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import { escapeMrkdwn, headerMrkdwn, truncate } from './format.js';
import { CALLBACK_IDS } from './ids.js';
import { assertSlackView, SLACK_LIMITS } from './limits.js';
import { contextLine, mrkdwnSection, selectionNotesBlocks } from './message-parts.js';
import type { ModalView, ViewBlock } from './types.js';

/** One member as reviewed: what Send would send for it (the shape of the interaction service's review lines). */
export interface ReviewItem {
  /** `#12.1`. */
  readonly ref: string;
  readonly topic?: string;
  readonly selection: Selection;
  /** The picked answer as one line. */
  readonly answer: string;
}

/** The review modal of `question` for `lines` (every member ready: the handler opens it only then). */
export function renderReviewModal(question: Question, lines: readonly ReviewItem[]): ModalView {
  const blocks: ViewBlock[] = [
    contextLine(headerMrkdwn(question)),
    mrkdwnSection(`*Send these ${lines.length} answers as one?* The agent gets them together.`),
  ];
  for (const line of lines) {
    const topic = line.topic === undefined ? '' : ` · *${escapeMrkdwn(line.topic)}*`;
    blocks.push(memberSection(`${line.ref}${topic}`, line.answer));
    blocks.push(...selectionNotesBlocks(line.selection, true, true));
  }
  const view: ModalView = {
    type: 'modal',
    callback_id: CALLBACK_IDS.review,
    private_metadata: formatQuestionRef(question.project, question.id),
    title: { type: 'plain_text', text: truncate(`Review #${question.id}`, SLACK_LIMITS.viewTitle) },
    submit: { type: 'plain_text', text: 'Send' },
    close: { type: 'plain_text', text: 'Back' },
    blocks,
  };
  assertSlackView(view);
  return view;
}

/** `#12.1 · *Database*` and `*Answer:* Postgres` (escaped; 6 labels of 73 `&` stay within a section). */
function memberSection(heading: string, answer: string): SectionBlock {
  return mrkdwnSection(`${heading}\n*Answer:* ${escapeMrkdwn(answer)}`);
}
