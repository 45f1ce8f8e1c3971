/**
 * One question as a Slack message, in every state. Pure: the bridge posts the result with `chat.postMessage` and
 * redraws it with `chat.update` (same function, the question's new state, a new revision).
 *
 * Layout: header (BLOCKING / can wait, #id, project, ticket) · context (full project path, asked, expires) ·
 * the question (bold) · Context and Impact as `markdown` blocks (the agent writes standard Markdown; Slack renders
 * it there, not in mrkdwn sections) · the options · then, while pending, the picker and buttons and the ready mark;
 * once closed, the outcome instead. Closed messages drop the options list and controls: the outcome names the
 * picked labels, and it keeps the worst-case message (every text at its limit, all of it `&`) under Slack's
 * total-text limit with 3,000 characters of notes shown in full.
 */
import type { ContextBlock, SectionBlock } from '@slack/types';
import { describeSelection } from '../../core/answer.js';
import { RECOMMENDED_MARK } from '../../core/limits.js';
import type { Draft, Question } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import {
  displayNameMrkdwn,
  escapeMrkdwn,
  escapeMrkdwnWithin,
  headerLine,
  notesPreview,
  PROJECT_PATH_SHOWN_MAX,
  platformName,
  questionMrkdwn,
  readyMark,
  slackDate,
} from './format.js';
import { ACTION_IDS, questionBlockId } from './ids.js';
import { assertSlackMessage, SLACK_LIMITS } from './limits.js';
import { pickerElement, shownReadiness, shownSelection } from './picker.js';
import type { MessageBlock, SlackMessage } from './types.js';

/** What the message shows besides the question: one person's draft, and the message's revision. */
export interface QuestionMessageView {
  /** The draft the picker and ready mark show (the last person who touched the message); else the recommendation. */
  readonly draft?: Draft;
  /** Display name of the draft's author, for "Notes by …". */
  readonly draftBy?: string;
  /** Bumped by the caller on every redraw; part of the picker's block_id (see `ids.ts`). */
  readonly revision: number;
}

/**
 * The message for `question` in its current state, checked against Slack's limits (throws `SlackPayloadError`
 * only on a renderer bug or a question the question limits should have refused).
 */
export function renderQuestionMessage(question: Question, view: QuestionMessageView): SlackMessage {
  const ref = formatQuestionRef(question.project, question.id);
  const blocks: MessageBlock[] = [...questionBlocks(question)];
  if (question.status === 'pending') {
    blocks.push(...optionBlocks(question), ...controlBlocks(question, ref, view));
  } else {
    blocks.push(...outcomeBlocks(question));
  }
  const message: SlackMessage = {
    text: fallbackText(question),
    blocks,
    metadata: { event_type: 'ask_later_question', event_payload: { ref, project: question.project, id: question.id } },
  };
  assertSlackMessage(message);
  return message;
}

function fallbackText(question: Question): string {
  const state: Record<Question['status'], string> = {
    pending: question.isBlocking ? 'BLOCKING' : 'Can wait',
    answered: 'Answered',
    delivered: 'Answered',
    cancelled: 'Withdrawn',
    dismissed: 'Dismissed',
    expired: 'Expired',
  };
  return `${state[question.status]} #${question.id} — ${escapeMrkdwn(question.question)}`;
}

function mrkdwnSection(text: string): SectionBlock {
  return { type: 'section', text: { type: 'mrkdwn', text } };
}

function questionBlocks(question: Question): MessageBlock[] {
  const about = [
    `📁 ${escapeMrkdwnWithin(question.project, PROJECT_PATH_SHOWN_MAX)}`,
    `asked ${slackDate(question.createdAt)}`,
  ];
  if (question.status === 'pending' && question.expiresAt !== undefined) {
    about.push(`expires ${slackDate(question.expiresAt)}`);
  }
  return [
    { type: 'header', text: { type: 'plain_text', text: headerLine(question) } },
    { type: 'context', elements: [{ type: 'mrkdwn', text: about.join(' · ') }] },
    mrkdwnSection(questionMrkdwn(question)),
    { type: 'markdown', text: `### Context\n\n${question.context}` },
    { type: 'markdown', text: `### Impact\n\n${question.impact}` },
  ];
}

/**
 * The options as mrkdwn lines (`• ★ *label* — description`), packed into as few sections as fit 3,000
 * characters each (escaping can make six long options outgrow one section).
 */
function optionBlocks(question: Question): SectionBlock[] {
  const heading = question.multiSelect ? '*Options* (pick any)' : '*Options* (pick one)';
  const lines = question.options.map((option) => {
    const mark = option.label === question.recommended ? RECOMMENDED_MARK : '';
    const description = option.description ? ` — ${escapeMrkdwn(option.description)}` : '';
    return `• ${mark}*${escapeMrkdwn(option.label)}*${description}`;
  });
  const sections: string[] = [];
  let current = heading;
  for (const line of lines) {
    if (current.length + 1 + line.length > SLACK_LIMITS.sectionText) {
      sections.push(current);
      current = line;
    } else {
      current = `${current}\n${line}`;
    }
  }
  sections.push(current);
  return sections.map(mrkdwnSection);
}

function controlBlocks(question: Question, ref: string, view: QuestionMessageView): MessageBlock[] {
  const selection = shownSelection(question, view.draft);
  const status = [readyMark(shownReadiness(question, view.draft))];
  const notes = view.draft?.notes;
  if (notes !== undefined && notes.trim() !== '') status.push(notesPreview(notes, view.draftBy));
  const ready: ContextBlock = { type: 'context', elements: status.map((text) => ({ type: 'mrkdwn', text })) };
  return [
    {
      type: 'actions',
      block_id: questionBlockId(ref, view.revision),
      elements: [
        pickerElement(question, selection, ACTION_IDS.pick, { descriptions: false }),
        { type: 'button', action_id: ACTION_IDS.notes, text: { type: 'plain_text', text: 'Add notes' }, value: ref },
        {
          type: 'button',
          action_id: ACTION_IDS.send,
          text: { type: 'plain_text', text: 'Send' },
          value: ref,
          style: 'primary',
        },
        {
          type: 'button',
          action_id: ACTION_IDS.remove,
          text: { type: 'plain_text', text: 'Remove' },
          value: ref,
          style: 'danger',
          confirm: {
            title: { type: 'plain_text', text: `Remove #${question.id}?` },
            text: {
              type: 'plain_text',
              text: `Remove #${question.id} without answering? The agent will be told it was dismissed.`,
            },
            confirm: { type: 'plain_text', text: 'Remove' },
            deny: { type: 'plain_text', text: 'Keep it' },
            style: 'danger',
          },
        },
      ],
    },
    ready,
  ];
}

function at(ms: number | undefined): string {
  return ms === undefined ? '' : ` at ${slackDate(ms)}`;
}

function outcomeBlocks(question: Question): MessageBlock[] {
  switch (question.status) {
    case 'answered':
    case 'delivered': {
      const blocks = answerBlocks(question);
      if (question.status === 'delivered') {
        blocks.push({
          type: 'context',
          elements: [{ type: 'mrkdwn', text: `📬 Delivered to the agent${at(question.deliveredAt)}` }],
        });
      }
      return blocks;
    }
    case 'cancelled':
      return [mrkdwnSection(`↩️ Withdrawn by the agent${at(question.closure?.at)}`)];
    case 'dismissed': {
      const by = question.closure?.by;
      const who = by === undefined ? '' : ` by ${displayNameMrkdwn(by.displayName)}`;
      return [mrkdwnSection(`🗑️ Dismissed${who}${at(question.closure?.at)}`)];
    }
    case 'expired':
      return [mrkdwnSection(`⌛ Expired unanswered${at(question.closure?.at)}`)];
    case 'pending':
      return [];
  }
}

function answerBlocks(question: Question): MessageBlock[] {
  const answer = question.answer;
  if (answer === undefined) return [mrkdwnSection('✅ Answered')];
  const who = `✅ Answered by ${displayNameMrkdwn(answer.by.displayName)} on ${platformName(answer.by.platform)}${at(answer.at)}`;
  const blocks: MessageBlock[] = [
    mrkdwnSection(`${who}\n*Answer:* ${escapeMrkdwn(describeSelection(question, answer))}`),
  ];
  const notes = answer.notes;
  if (notes !== undefined && notes.trim() !== '') blocks.push(notesBlock(notes));
  return blocks;
}

/**
 * The notes in full, as a mrkdwn quote (`>>>` quotes everything after it); when escaping would push them past a
 * section's 3,000 characters, as plain text instead (plain text needs no escaping, so ≤ 3,000 notes always fit).
 */
function notesBlock(notes: string): SectionBlock {
  const quoted = `>>> ${escapeMrkdwn(notes)}`;
  return quoted.length <= SLACK_LIMITS.sectionText
    ? mrkdwnSection(quoted)
    : { type: 'section', text: { type: 'plain_text', text: notes } };
}
