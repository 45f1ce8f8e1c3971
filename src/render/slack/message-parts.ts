/**
 * The parts a question message is made of, shared by the single question's layout (`question-message.ts`) and a
 * set's (`set-message.ts`): the header and the line under it, Context and Impact, the buttons, the outcome lines,
 * and notes shown in full. Pure.
 *
 * Text from the agent or a person goes out in one of two forms. *Rich*: escaped mrkdwn (bold question, bold option
 * labels, notes as a quote), as a single question has always been drawn. *Plain*: `plain_text` sections, which need
 * no escaping. Escaping can make mrkdwn five times longer than the text (`&` → `&amp;`), so a renderer whose texts
 * could outgrow the message's budget in mrkdwn draws them plain instead (see {@link MessageStyle}).
 */

import type { Button, ContextBlock, MarkdownBlock, SectionBlock } from '@slack/types';
import { describeSelection } from '../../core/answer.js';
import { askedBeforeLine } from '../../core/asked-before.js';
import { RECOMMENDED_MARK } from '../../core/limits.js';
import type { AnswerMeta, Question, QuestionItem, Selection } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import {
  displayNameMrkdwn,
  escapeMrkdwn,
  escapeMrkdwnWithin,
  headerLine,
  PROJECT_PATH_SHOWN_MAX,
  placeOf,
  slackDate,
} from './format.js';
import { ACTION_IDS } from './ids.js';
import { assertSlackMessage, fitsMessage, SLACK_LIMITS } from './limits.js';
import type { MessageBlock, SlackMessage } from './types.js';

/**
 * How fully a message is drawn. Renderers try their styles in order and keep the first whose blocks fit the message
 * budgets (`fitsMessage`); the last one always fits (each renderer's tests prove it at the limits).
 * - `rich`: agent and person text as escaped mrkdwn; else as plain text (never longer than the text itself).
 * - `memberContext`: a set member's own Context and Impact (`markdown` blocks).
 * - `sharedContext`: the question's (or the set's) Context and Impact.
 * What is left out is said in a line where it was; the agent has it, and the person read it before answering
 * (a pending message always keeps it: only answers with long notes need the room).
 */
export interface MessageStyle {
  readonly rich: boolean;
  readonly memberContext: boolean;
  readonly sharedContext: boolean;
}

/** The styles, fullest first. */
export const MESSAGE_STYLES: readonly MessageStyle[] = [
  { rich: true, memberContext: true, sharedContext: true },
  { rich: false, memberContext: true, sharedContext: true },
  { rich: false, memberContext: false, sharedContext: true },
  { rich: false, memberContext: false, sharedContext: false },
];

/**
 * The message for `question` (its fallback `text`, and its ref in the metadata) with the blocks `draw` makes in the
 * first of {@link MESSAGE_STYLES} that fits, checked against Slack's limits.
 */
export function fittedMessage(
  question: Question,
  text: string,
  draw: (style: MessageStyle) => MessageBlock[],
): SlackMessage {
  let blocks: MessageBlock[] = [];
  for (const style of MESSAGE_STYLES) {
    blocks = draw(style);
    if (fitsMessage(blocks)) break;
  }
  const ref = formatQuestionRef(question.project, question.id);
  const message: SlackMessage = {
    text,
    blocks,
    metadata: { event_type: 'ask_later_question', event_payload: { ref, project: question.project, id: question.id } },
  };
  assertSlackMessage(message);
  return message;
}

/** BLOCKING / Can wait while pending, else what became of it: the fallback text's first word. */
export function statusWord(question: Question): string {
  const state: Record<Question['status'], string> = {
    pending: question.isBlocking ? 'BLOCKING' : 'Can wait',
    answered: 'Answered',
    delivered: 'Answered',
    cancelled: 'Withdrawn',
    dismissed: 'Dismissed',
    expired: 'Expired',
  };
  return state[question.status];
}

export function mrkdwnSection(text: string): SectionBlock {
  return { type: 'section', text: { type: 'mrkdwn', text } };
}

/** A context block of one mrkdwn line. */
export function contextLine(text: string): ContextBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text }] };
}

/** `text` whole, in as many `plain_text` sections as Slack's 3,000 characters each need (see {@link splitText}). */
export function plainSections(text: string): SectionBlock[] {
  return splitText(text, SLACK_LIMITS.sectionText).map((part) => ({
    type: 'section',
    text: { type: 'plain_text', text: part },
  }));
}

/**
 * `text` cut into parts of at most `max` UTF-16 units, at the last line break (else space) in the last third of
 * each part, never inside a surrogate pair. Nothing is lost but whitespace-only parts (Slack refuses empty text).
 */
export function splitText(text: string, max: number): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    const floor = Math.floor((max * 2) / 3);
    const newline = window.lastIndexOf('\n');
    const space = window.lastIndexOf(' ');
    let cut = newline >= floor ? newline + 1 : space >= floor ? space + 1 : max;
    const before = rest.charCodeAt(cut - 1);
    if (before >= 0xd800 && before <= 0xdbff) cut -= 1;
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  parts.push(rest);
  return parts.filter((part) => part.trim() !== '');
}

/** The plain-text header block: `🔴 BLOCKING · #7 · shop · PROJ-12`. */
export function headerBlock(question: Question): MessageBlock {
  return { type: 'header', text: { type: 'plain_text', text: headerLine(question) } };
}

/** The line under the header: the project's full path, when it was asked, when it expires, and `extra`. */
/** The closest earlier decision a question was asked again despite, as a context line (the web card lists them all). */
export function askedBeforeBlocks(question: Question): ContextBlock[] {
  const [closest] = question.askedBefore ?? [];
  return closest === undefined ? [] : [contextLine(`↩ ${escapeMrkdwnWithin(askedBeforeLine(closest), 400)}`)];
}

export function aboutBlock(question: Question, extra?: string): ContextBlock {
  const about = [
    `📁 ${escapeMrkdwnWithin(question.project, PROJECT_PATH_SHOWN_MAX)}`,
    `asked ${slackDate(question.createdAt)}`,
  ];
  if (question.status === 'pending' && question.expiresAt !== undefined) {
    about.push(`expires ${slackDate(question.expiresAt)}`);
  }
  if (extra !== undefined) about.push(extra);
  return contextLine(about.join(' · '));
}

/**
 * Context and Impact as `markdown` blocks (the agent writes standard Markdown; Slack renders it there, not in
 * mrkdwn sections), under headings of `level` (`###` for the question, `####` for a set member's additions).
 */
export function contextImpactBlocks(
  texts: { readonly context?: string | undefined; readonly impact?: string | undefined },
  level: '###' | '####',
): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  if (texts.context !== undefined) blocks.push({ type: 'markdown', text: `${level} Context\n\n${texts.context}` });
  if (texts.impact !== undefined) blocks.push({ type: 'markdown', text: `${level} Impact\n\n${texts.impact}` });
  return blocks;
}

/** The options as lines (`• ★ *label* — description`), rich (escaped mrkdwn, packed in sections) or plain. */
export function optionBlocks(
  item: Pick<QuestionItem, 'options' | 'recommended' | 'multiSelect'>,
  rich: boolean,
): SectionBlock[] {
  const how = item.multiSelect ? '(pick any)' : '(pick one)';
  const lines = item.options.map((option) => {
    const mark = item.recommended?.includes(option.label) ? RECOMMENDED_MARK : '';
    if (!rich) return `• ${mark}${option.label}${option.description ? ` — ${option.description}` : ''}`;
    const description = option.description ? ` — ${escapeMrkdwn(option.description)}` : '';
    return `• ${mark}*${escapeMrkdwn(option.label)}*${description}`;
  });
  if (!rich) return plainSections([`Options ${how}`, ...lines].join('\n'));
  const sections: string[] = [];
  let current = `*Options* ${how}`;
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

export function notesButton(actionId: string, ref: string): Button {
  return { type: 'button', action_id: actionId, text: { type: 'plain_text', text: 'Add notes' }, value: ref };
}

export function sendButton(ref: string): Button {
  return {
    type: 'button',
    action_id: ACTION_IDS.send,
    text: { type: 'plain_text', text: 'Send' },
    value: ref,
    style: 'primary',
  };
}

/** "Remove", behind a confirmation: the whole question (a set: every member) is dismissed. */
export function removeButton(question: Question, ref: string): Button {
  const what = question.members === undefined ? `#${question.id}` : `the set #${question.id}`;
  return {
    type: 'button',
    action_id: ACTION_IDS.remove,
    text: { type: 'plain_text', text: 'Remove' },
    value: ref,
    style: 'danger',
    confirm: {
      title: { type: 'plain_text', text: `Remove #${question.id}?` },
      text: {
        type: 'plain_text',
        text: `Remove ${what} without answering? The agent will be told it was dismissed.`,
      },
      confirm: { type: 'plain_text', text: 'Remove' },
      deny: { type: 'plain_text', text: 'Keep it' },
      style: 'danger',
    },
  };
}

export function at(ms: number | undefined): string {
  return ms === undefined ? '' : ` at ${slackDate(ms)}`;
}

/** `✅ Answered by Ada on Slack at …` (mrkdwn, the name escaped). */
export function answeredLine(meta: AnswerMeta | undefined): string {
  if (meta === undefined) return '✅ Answered';
  return `✅ Answered by ${displayNameMrkdwn(meta.by.displayName)} ${placeOf(meta.by)}${at(meta.at)}`;
}

/** `📬 Delivered to the agent at …`, for a delivered question. */
export function deliveredBlocks(question: Question): ContextBlock[] {
  return question.status === 'delivered' ? [contextLine(`📬 Delivered to the agent${at(question.deliveredAt)}`)] : [];
}

/** The outcome line of a question closed without an answer (withdrawn, dismissed, expired); else undefined. */
export function closureLine(question: Question): string | undefined {
  switch (question.status) {
    case 'cancelled':
      return `↩️ Withdrawn by the agent${at(question.closure?.at)}`;
    case 'dismissed': {
      const by = question.closure?.by;
      const who = by === undefined ? '' : ` by ${displayNameMrkdwn(by.displayName)}`;
      return `🗑️ Dismissed${who}${at(question.closure?.at)}`;
    }
    case 'expired':
      return `⌛ Expired unanswered${at(question.closure?.at)}`;
    default:
      return undefined;
  }
}

/** The picked answer as text: `*Answer:* Postgres, Redis` (rich, escaped) or `Answer: Postgres, Redis` (plain). */
export function answerText(item: Pick<QuestionItem, 'options'>, selection: Selection, rich: boolean): string {
  const answer = describeSelection(item, selection);
  return rich ? `*Answer:* ${escapeMrkdwn(answer)}` : `Answer: ${answer}`;
}

/**
 * Notes in full, never cut. Rich: a mrkdwn quote (`>>>` quotes everything after it) under the heading, when the
 * escaped text fits one section; else, and when not rich, plain text (which needs no escaping), split over sections
 * only when the heading and 3,000 characters of notes outgrow one.
 */
export function notesBlocks(notes: string, heading: string | undefined, rich: boolean): SectionBlock[] {
  if (rich) {
    const head = heading === undefined ? '' : `*${escapeMrkdwn(heading)}:*\n`;
    const quoted = `${head}>>> ${escapeMrkdwn(notes)}`;
    if (quoted.length <= SLACK_LIMITS.sectionText) return [mrkdwnSection(quoted)];
  }
  return plainSections(heading === undefined ? notes : `${heading}:\n${notes}`);
}

/**
 * A selection's notes in the delivery note's order: each picked option's notes (`Notes on Redis`), then the
 * answer's notes (under `Notes` when `headed`; a single question without notes per option shows them bare, as it
 * always has).
 */
export function selectionNotesBlocks(selection: Selection, rich: boolean, headed: boolean): SectionBlock[] {
  const blocks: SectionBlock[] = [];
  for (const { choice, notes } of selection.choiceNotes ?? []) {
    if (notes.trim() !== '') blocks.push(...notesBlocks(notes, `Notes on ${choice}`, rich));
  }
  const notes = selection.notes;
  if (notes !== undefined && notes.trim() !== '')
    blocks.push(...notesBlocks(notes, headed ? 'Notes' : undefined, rich));
  return blocks;
}
