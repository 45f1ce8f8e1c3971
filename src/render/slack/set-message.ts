/**
 * A set of questions as one Slack message, in every state. Pure; `renderQuestionMessage` hands sets here.
 *
 * Layout: header (BLOCKING if any member blocks, else can wait; #id, project, ticket) · context (full project path,
 * asked, expires, how many questions) · the set's Context and Impact (`markdown` blocks) · per member: a divider,
 * its heading (`#12.1 · *Database* · 🔴 blocking`) and question, its own Context and Impact if any (`markdown`,
 * `####` headings), its options (recommended ones starred), an actions block with its picker (the viewer's draft,
 * else every recommended option preselected; block id `al_q:<ref>:<revision>:<member>`) and "Add notes", and a
 * context line with its ready mark (and the notes' preview) · then how many members are ready and one actions row:
 * Send (the whole set, after a review) and Remove (the whole set, behind a confirmation). Once closed: the members'
 * questions and the outcome; answered, each member's answer with its notes per option and notes in full.
 *
 * Budget (Slack: 50 blocks, and ~13k characters of block text in all, which `limits.ts` holds at 12,000): a set
 * has at most 4 members, and its texts at most `SET_TEXT_MAX` (5,000) characters together. Drawn *rich* (escaped
 * mrkdwn, as a single question), texts made of `&` would grow fivefold, far past the budget; drawn *plain* (the
 * questions, options, answers and notes as `plain_text` sections, which need no escaping), a pending set costs its
 * texts once, the option labels three times (the list, the picker's options, and its initial options when all are
 * picked: at most 4 × 6 × 75 × 3 = 5,400), the topics escaped (≤ 150 each), and about 2,100 characters of our own:
 * at most ~11,100 at the limits (test/render/slack/set-message.test.ts measures 11,061 for the worst accepted set).
 * So a pending set is drawn rich when that fits and plain otherwise, always with every text and every Context and
 * Impact, in at most 4 + 4 × 8 + 3 = 39 blocks. An answered set adds notes: per member up to the 3,000 of its
 * notes and 3,000 per picked option, together no more than one delivery note carries (`answerOf`), so an answer
 * may need the later {@link MESSAGE_STYLES}: without the members' own Context and Impact, then without the set's (a
 * line says so); the last one is the answer's delivery entry drawn plain, ~8,500 characters, plus the headings.
 */
import type { ContextBlock } from '@slack/types';
import { answerReadiness, type Readiness } from '../../core/answer.js';
import type { Draft, Question, Selection, SetMember, SetSpec } from '../../core/question.js';
import { selectionsOf } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import {
  choiceNotesCount,
  escapeMrkdwn,
  memberHeadingMrkdwn,
  notesPreview,
  questionMrkdwn,
  readyMark,
  setReadyMark,
} from './format.js';
import { ACTION_IDS, questionBlockId } from './ids.js';
import {
  aboutBlock,
  answeredLine,
  answerText,
  askedBeforeBlocks,
  closureLine,
  contextImpactBlocks,
  contextLine,
  deliveredBlocks,
  fittedMessage,
  headerBlock,
  type MessageStyle,
  mrkdwnSection,
  notesButton,
  optionBlocks,
  plainSections,
  removeButton,
  selectionNotesBlocks,
  sendButton,
  statusWord,
} from './message-parts.js';
import type { QuestionMessageView } from './message-view.js';
import { pickerElement, shownSelection } from './picker.js';
import type { MessageBlock, SlackMessage } from './types.js';

/** A parked set. */
export type SetQuestion = Question & SetSpec;

/** The message for a set in its current state, checked against Slack's limits (see the module comment). */
export function renderSetMessage(question: SetQuestion, view: QuestionMessageView): SlackMessage {
  return fittedMessage(question, setFallbackText(question), (style) => setMessageBlocks(question, view, style));
}

/** `BLOCKING #12 — 3 questions: Database, Caches, Naming`. */
function setFallbackText(question: SetQuestion): string {
  const topics = question.members.map((member) => escapeMrkdwn(member.topic)).join(', ');
  return `${statusWord(question)} #${question.id} — ${question.members.length} questions: ${topics}`;
}

/**
 * The set's blocks drawn in one style, unchecked. {@link renderSetMessage} keeps the first style that fits; the
 * tests measure each.
 */
export function setMessageBlocks(
  question: SetQuestion,
  view: QuestionMessageView,
  style: MessageStyle,
): MessageBlock[] {
  const ref = formatQuestionRef(question.project, question.id);
  const blocks: MessageBlock[] = [
    headerBlock(question),
    aboutBlock(question, `${question.members.length} questions`),
    ...askedBeforeBlocks(question),
  ];
  if (style.sharedContext) {
    blocks.push(...contextImpactBlocks(question, '###'));
  } else {
    blocks.push(contextLine('_Context and Impact are left out: too long for one Slack message with these notes._'));
  }
  const memberTexts = question.members.some((member) => member.context !== undefined || member.impact !== undefined);
  if (style.sharedContext && !style.memberContext && memberTexts) {
    blocks.push(
      contextLine(
        "_Each question's own Context and Impact are left out: too long for one Slack message with these notes._",
      ),
    );
  }
  if (question.status === 'pending') {
    blocks.push(...pendingBlocks(question, ref, view, style));
  } else if (question.status === 'answered' || question.status === 'delivered') {
    blocks.push(...answeredBlocks(question, style), ...deliveredBlocks(question));
  } else {
    for (const [index, member] of question.members.entries()) {
      blocks.push(...memberQuestionBlocks(question, index, member, style));
    }
    const closed = closureLine(question);
    if (closed !== undefined) blocks.push(mrkdwnSection(closed));
  }
  return blocks;
}

/** A member's heading and question, and its own Context and Impact when the style keeps them. */
function memberQuestionBlocks(
  question: SetQuestion,
  index: number,
  member: SetMember,
  style: MessageStyle,
): MessageBlock[] {
  const heading = memberHeadingMrkdwn(question.id, index, member);
  return [
    ...(style.rich
      ? [mrkdwnSection(`${heading}\n${questionMrkdwn(member)}`)]
      : [mrkdwnSection(heading), ...plainSections(member.question)]),
    ...(style.memberContext ? contextImpactBlocks(member, '####') : []),
  ];
}

function pendingBlocks(
  question: SetQuestion,
  ref: string,
  view: QuestionMessageView,
  style: MessageStyle,
): MessageBlock[] {
  const blocks: MessageBlock[] = [];
  const marks: Readiness[] = [];
  question.members.forEach((member, index) => {
    const draft = view.drafts?.[index];
    const selection = shownSelection(member, draft);
    const readiness = answerReadiness(member, selection);
    marks.push(readiness);
    blocks.push(
      { type: 'divider' },
      ...memberQuestionBlocks(question, index, member, style),
      ...optionBlocks(member, style.rich),
      {
        type: 'actions',
        block_id: questionBlockId(ref, view.revision, index),
        elements: [
          pickerElement(member, selection, ACTION_IDS.pick, { descriptions: false }),
          notesButton(ACTION_IDS.notes, ref),
        ],
      },
      statusBlock(readyMark(readiness), selection, draft, view.draftBy),
    );
  });
  blocks.push(
    { type: 'divider' },
    contextLine(`*${setReadyMark(marks)}* · Send shows every answer for review before the set goes.`),
    { type: 'actions', elements: [sendButton(ref), removeButton(question, ref)] },
  );
  return blocks;
}

/** A member's ready mark, its notes' preview and how many picked options have notes. */
function statusBlock(
  mark: string,
  selection: Selection,
  draft: Draft | undefined,
  by: string | undefined,
): ContextBlock {
  const status = [mark];
  const notes = draft?.notes;
  if (notes !== undefined && notes.trim() !== '') status.push(notesPreview(notes, by));
  const optionNotes = (draft?.choiceNotes ?? []).filter(
    (entry) => entry.notes.trim() !== '' && selection.choices.includes(entry.choice),
  ).length;
  if (optionNotes > 0) status.push(choiceNotesCount(optionNotes));
  return { type: 'context', elements: status.map((text) => ({ type: 'mrkdwn', text })) };
}

function answeredBlocks(question: SetQuestion, style: MessageStyle): MessageBlock[] {
  const answer = question.answer;
  const blocks: MessageBlock[] = [mrkdwnSection(answeredLine(answer))];
  const selections = answer === undefined ? [] : selectionsOf(answer);
  question.members.forEach((member, index) => {
    blocks.push(...memberQuestionBlocks(question, index, member, style));
    const selection = selections[index];
    if (selection === undefined) return;
    blocks.push(
      ...(style.rich
        ? [mrkdwnSection(answerText(member, selection, true))]
        : plainSections(answerText(member, selection, false))),
      ...selectionNotesBlocks(selection, style.rich, true),
    );
  });
  return blocks;
}
