/**
 * One question as a Slack message, in every state. Pure: the bridge posts the result with `chat.postMessage` and
 * redraws it with `chat.update` (same function, the question's new state, a new revision). A set of questions is
 * one message too, drawn by `set-message.ts`; {@link renderQuestionMessage} draws either.
 *
 * Layout: header (BLOCKING / can wait, #id, project, ticket) · context (full project path, asked, expires) ·
 * the question (bold) · Context and Impact as `markdown` blocks (the agent writes standard Markdown; Slack renders
 * it there, not in mrkdwn sections) · the options (every recommended one starred) · then, while pending, the picker
 * (every recommended option preselected) and buttons and the ready mark; once closed, the outcome instead. Closed
 * messages drop the options list and controls: the outcome names the picked labels, then the notes per picked
 * option (a multi-select) and the answer's notes, in full.
 *
 * Budget: a pending message and an answer with notes of up to 3,000 characters keep the worst-case message (every
 * text at its limit, all of it `&`) under Slack's total-text limit in the full form. Notes per option can add up to
 * what one delivery note carries (`answerOf` refuses more); an answer that would not fit is drawn in the next
 * {@link MESSAGE_STYLES} that does: notes as plain text, then without Context and Impact (a line says so).
 */
import type { ContextBlock } from '@slack/types';
import type { Question, SingleSpec } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import { choiceNotesCount, escapeMrkdwn, notesPreview, questionMrkdwn, readyMark } from './format.js';
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
import { pickerElement, shownReadiness, shownSelection } from './picker.js';
import { renderSetMessage } from './set-message.js';
import type { MessageBlock, SlackMessage } from './types.js';

export type { QuestionMessageView } from './message-view.js';

type SingleQuestion = Question & SingleSpec;

/**
 * The message for `question` (a single question or a set) in its current state, checked against Slack's limits
 * (throws `SlackPayloadError` only on a renderer bug or a question the question limits should have refused).
 */
export function renderQuestionMessage(question: Question, view: QuestionMessageView): SlackMessage {
  if (question.members !== undefined) return renderSetMessage(question, view);
  const single = question as SingleQuestion;
  const ref = formatQuestionRef(question.project, question.id);
  const draft = view.draft ?? view.drafts?.[0];
  const shown = { ...view, ...(draft === undefined ? {} : { draft }) };
  return fittedMessage(single, fallbackText(single), (style) => singleBlocks(single, ref, shown, style));
}

function fallbackText(question: SingleQuestion): string {
  return `${statusWord(question)} #${question.id} — ${escapeMrkdwn(question.question)}`;
}

function singleBlocks(
  question: SingleQuestion,
  ref: string,
  view: QuestionMessageView,
  style: MessageStyle,
): MessageBlock[] {
  const blocks: MessageBlock[] = [
    headerBlock(question),
    aboutBlock(question),
    ...askedBeforeBlocks(question),
    ...(style.rich ? [mrkdwnSection(questionMrkdwn(question))] : plainSections(question.question)),
    ...(style.sharedContext
      ? contextImpactBlocks(question, '###')
      : [contextLine('_Context and Impact are left out: too long for one Slack message with these notes._')]),
  ];
  if (question.status === 'pending') {
    blocks.push(...optionBlocks(question, style.rich), ...controlBlocks(question, ref, view));
  } else {
    blocks.push(...outcomeBlocks(question, style));
  }
  return blocks;
}

function controlBlocks(question: SingleQuestion, ref: string, view: QuestionMessageView): MessageBlock[] {
  const selection = shownSelection(question, view.draft);
  const status = [readyMark(shownReadiness(question, view.draft))];
  const notes = view.draft?.notes;
  if (notes !== undefined && notes.trim() !== '') status.push(notesPreview(notes, view.draftBy));
  const optionNotes = (view.draft?.choiceNotes ?? []).filter(
    (entry) => entry.notes.trim() !== '' && selection.choices.includes(entry.choice),
  ).length;
  if (optionNotes > 0) status.push(choiceNotesCount(optionNotes));
  const ready: ContextBlock = { type: 'context', elements: status.map((text) => ({ type: 'mrkdwn', text })) };
  return [
    {
      type: 'actions',
      block_id: questionBlockId(ref, view.revision),
      elements: [
        pickerElement(question, selection, ACTION_IDS.pick, { descriptions: false }),
        notesButton(ACTION_IDS.notes, ref),
        sendButton(ref),
        removeButton(question, ref),
      ],
    },
    ready,
  ];
}

function outcomeBlocks(question: SingleQuestion, style: MessageStyle): MessageBlock[] {
  const closed = closureLine(question);
  if (closed !== undefined) return [mrkdwnSection(closed)];
  if (question.status !== 'answered' && question.status !== 'delivered') return [];
  const answer = question.answer;
  const blocks: MessageBlock[] = [];
  if (answer === undefined || 'members' in answer) {
    blocks.push(mrkdwnSection(answeredLine(answer)));
  } else {
    const headed = (answer.choiceNotes ?? []).length > 0;
    if (style.rich) {
      blocks.push(mrkdwnSection(`${answeredLine(answer)}\n${answerText(question, answer, true)}`));
    } else {
      blocks.push(mrkdwnSection(answeredLine(answer)), ...plainSections(answerText(question, answer, false)));
    }
    blocks.push(...selectionNotesBlocks(answer, style.rich, headed));
  }
  blocks.push(...deliveredBlocks(question));
  return blocks;
}
