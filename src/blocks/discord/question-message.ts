/**
 * One question as a Discord message, in every state, plus the two small ephemeral replies around it (the draft
 * receipt and the remove confirmation). Pure: the bot posts the result with the bot token (`channel.send`, or
 * `POST channels/{id}/messages`) and redraws it with `message.edit` (same function, the question's new state).
 *
 * Decision: classic embeds + action rows, not Components V2. Components V2 (`flags: 32768`) caps all text in a
 * message at 4000 characters, but an accepted question can carry ~5,300 (context 3000 + impact 1000 + question 250
 * + six options at 73 + 75); embeds allow a description of 4096, fields of 1024 and 6000 characters in total, and
 * give the colour bar: red for BLOCKING, green for can wait, grey once nobody needs to act.
 *
 * Layout of the embed: author line `🔴 BLOCKING · #7 · shop · SHOP-12` (the outcome once closed) · title = the
 * question · description = **Context** (Markdown as the agent wrote it) · field Impact · field Options (labels with
 * descriptions, the recommended one starred) · field Expires · footer = the project's full path, timestamp = when
 * it was asked. While pending: a row with the answer select (options + Other, the recommendation preselected) and a
 * row with Add notes / Send / Remove. The message is shared by everyone in the channel, so it shows no one's draft:
 * each person's pick is kept in the store and echoed to them alone (see {@link renderDraftReceipt}).
 *
 * Closed states drop the controls (`components: []`), the Options field and Expires; the outcome (who, where, when,
 * the answer; or withdrawn / dismissed / expired) becomes the message's `content`, the first line anyone scanning
 * the channel reads, and outside the embeds' 6000; notes follow in full in a second embed. Fitting 6000: at the
 * limits, context 3000 + impact 1000 + notes 3000 cannot all show in one message's embeds. What gives is the
 * context, and only when it must: the person read it in full before answering and the agent has it, while the
 * answer and notes are the record. It is then cut to fit (about 1,350 of 3,000 characters remain in the extreme
 * case), at a line break where one is near, with a closed code fence, and says so. The question, impact, answer
 * and notes are never cut.
 *
 * Mentions: every payload carries `allowed_mentions: { parse: [] }`, and `@everyone`/`@here` in any shown text are
 * neutralised (see `format.ts`), so no text from an agent or a person can ping or look like it did.
 */
import {
  type APIButtonComponentWithCustomId,
  type APIEmbed,
  type APIEmbedField,
  ButtonStyle,
  ComponentType,
} from 'discord-api-types/v10';
import { answerReadiness, describeSelection } from '../../core/answer.js';
import { RECOMMENDED_MARK } from '../../core/limits.js';
import type { Draft, Question } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import {
  discordTime,
  displayName,
  headerLine,
  neutraliseMentions,
  notesPreview,
  oneLine,
  PROJECT_PATH_SHOWN_MAX,
  platformName,
  questionColor,
  readyMark,
  truncate,
} from './format.js';
import { formatCustomId } from './ids.js';
import { assertDiscordMessage, DISCORD_LIMITS, embedTextLength } from './limits.js';
import { pickerSelect, shownSelection } from './picker.js';
import { type ActionRow, type DiscordMessage, noMentions } from './types.js';

/** Heading of the embed description. */
const CONTEXT_HEADING = '**Context**\n';

/** Appended to a context that was cut to fit (closed states only, see the module comment). */
export const CONTEXT_SHORTENED_NOTE = "\n\n*… context shortened to fit Discord's 6,000-character message limit*";

/**
 * The channel message for `question` in its current state, checked against Discord's limits (throws
 * `DiscordPayloadError` only on a renderer bug or a question the question limits should have refused). Pending:
 * embed + answer select + Add notes / Send / Remove. Any other state: the outcome as `content`, the embed (and the
 * notes), no components (`components: []`, so an edit removes the controls).
 */
export function renderQuestionMessage(question: Question): DiscordMessage {
  const ref = formatQuestionRef(question.project, question.id);
  const message: DiscordMessage =
    question.status === 'pending'
      ? { embeds: [pendingEmbed(question)], components: controlRows(question, ref), allowed_mentions: noMentions() }
      : { content: outcome(question), embeds: closedEmbeds(question), components: [], allowed_mentions: noMentions() };
  assertDiscordMessage(message);
  return message;
}

function baseEmbed(question: Question, context: string): APIEmbed {
  return {
    author: { name: headerLine(question) },
    title: neutraliseMentions(question.question),
    description: `${CONTEXT_HEADING}${neutraliseMentions(context)}`,
    color: questionColor(question),
    footer: { text: `📁 ${truncate(question.project, PROJECT_PATH_SHOWN_MAX)}` },
    timestamp: new Date(question.createdAt).toISOString(),
  };
}

function impactField(question: Question): APIEmbedField {
  return { name: 'Impact', value: neutraliseMentions(question.impact) };
}

/**
 * The options as Markdown lines, `• ★ **label** — description`. Six options at the longest label and description
 * take ~950 characters, within a field's 1024.
 */
function optionsField(question: Question): APIEmbedField {
  const lines = question.options.map((option) => {
    const mark = option.label === question.recommended ? RECOMMENDED_MARK : '';
    const description = option.description ? ` — ${option.description}` : '';
    return `• ${mark}**${option.label}**${description}`;
  });
  return {
    name: question.multiSelect ? 'Options (pick any)' : 'Options (pick one)',
    value: neutraliseMentions(lines.join('\n')),
  };
}

function pendingEmbed(question: Question): APIEmbed {
  const fields = [impactField(question), optionsField(question)];
  if (question.expiresAt !== undefined) {
    fields.push({
      name: 'Expires',
      value: `${discordTime(question.expiresAt)} (${discordTime(question.expiresAt, 'R')})`,
    });
  }
  return { ...baseEmbed(question, question.context), fields };
}

function controlRows(question: Question, ref: string): ActionRow[] {
  return [
    {
      type: ComponentType.ActionRow,
      components: [pickerSelect(question, shownSelection(question), formatCustomId({ kind: 'pick', ref }))],
    },
    {
      type: ComponentType.ActionRow,
      components: [
        button('Add notes', formatCustomId({ kind: 'notes', ref }), ButtonStyle.Secondary),
        button('Send', formatCustomId({ kind: 'send', ref }), ButtonStyle.Success),
        button('Remove', formatCustomId({ kind: 'remove', ref }), ButtonStyle.Danger),
      ],
    },
  ];
}

function button(
  label: string,
  customId: string,
  style: APIButtonComponentWithCustomId['style'],
): APIButtonComponentWithCustomId {
  return { type: ComponentType.Button, style, label, custom_id: customId };
}

function at(ms: number | undefined): string {
  return ms === undefined ? '' : ` at ${discordTime(ms)}`;
}

/** The outcome line(s) of a closed question: at most ~600 characters (names ≤ 80, six labels ≤ 73), within 2000. */
function outcome(question: Question): string {
  switch (question.status) {
    case 'answered':
    case 'delivered': {
      const answer = question.answer;
      const lines =
        answer === undefined
          ? ['✅ Answered']
          : [
              `✅ Answered by ${displayName(answer.by.displayName)} on ${platformName(answer.by.platform)}${at(answer.at)}`,
              `**Answer:** ${neutraliseMentions(describeSelection(question, answer))}`,
            ];
      if (question.status === 'delivered') lines.push(`📬 Delivered to the agent${at(question.deliveredAt)}`);
      return lines.join('\n');
    }
    case 'cancelled':
      return `↩️ Withdrawn by the agent${at(question.closure?.at)}`;
    case 'dismissed': {
      const by = question.closure?.by;
      return `🗑️ Dismissed${by === undefined ? '' : ` by ${displayName(by.displayName)}`}${at(question.closure?.at)}`;
    }
    case 'expired':
      return `⌛ Expired unanswered${at(question.closure?.at)}`;
    case 'pending':
      return '';
  }
}

function closedEmbeds(question: Question): APIEmbed[] {
  const notes = question.status === 'answered' || question.status === 'delivered' ? question.answer?.notes : undefined;
  const notesEmbeds: APIEmbed[] =
    notes === undefined || notes.trim() === ''
      ? []
      : [{ description: `**Notes**\n>>> ${neutraliseMentions(notes)}`, color: questionColor(question) }];
  const build = (context: string): APIEmbed[] => [
    { ...baseEmbed(question, context), fields: [impactField(question)] },
    ...notesEmbeds,
  ];
  const full = build(question.context);
  const over = embedTextLength(full) - DISCORD_LIMITS.embedTotal;
  return over <= 0 ? full : build(shortenContext(question.context, over));
}

/** `context` shortened by at least `over` characters plus the note saying so, at a line break when one is near. */
function shortenContext(context: string, over: number): string {
  const room = Math.max(0, context.length - over - CONTEXT_SHORTENED_NOTE.length - '\n```'.length);
  // Never end inside a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(context.charAt(room - 1)) ? room - 1 : room;
  let cut = context.slice(0, end);
  const lineBreak = cut.lastIndexOf('\n');
  if (lineBreak >= cut.length - 200 && lineBreak > 0) cut = cut.slice(0, lineBreak);
  const openFence = (cut.match(/```/g)?.length ?? 0) % 2 === 1;
  return `${cut}${openFence ? '\n```' : ''}${CONTEXT_SHORTENED_NOTE}`;
}

/**
 * The ephemeral reply after a person picks in the select or saves the notes modal: the question (one line), their
 * choice(s) as `describeSelection` says them, a notes preview, and the ready mark of the draft itself
 * (`✅ ready — press Send` / `👉 pick one` / `✍️ needs a note (Other)`). Content only; the caller adds
 * `flags: MessageFlags.Ephemeral`.
 */
export function renderDraftReceipt(question: Question, draft: Draft): DiscordMessage {
  const lines = [
    `**#${question.id}** · ${neutraliseMentions(truncate(oneLine(question.question), 120))}`,
    `Your answer: **${neutraliseMentions(describeSelection(question, draft))}**`,
  ];
  if (draft.notes !== undefined && draft.notes.trim() !== '') lines.push(`Notes: ${notesPreview(draft.notes)}`);
  lines.push(readyMark(answerReadiness(question, draft)));
  const message: DiscordMessage = {
    content: lines.join('\n'),
    embeds: [],
    components: [],
    allowed_mentions: noMentions(),
  };
  assertDiscordMessage(message);
  return message;
}

/**
 * The ephemeral "Remove #7 without answering? The agent will be told it was dismissed." with Remove
 * (`al:remove-yes:<ref>`, danger) and Cancel (`al:remove-no:<ref>`). The caller adds `flags: MessageFlags.Ephemeral`.
 */
export function renderRemoveConfirmation(question: Question): DiscordMessage {
  const ref = formatQuestionRef(question.project, question.id);
  const message: DiscordMessage = {
    content: `Remove #${question.id} without answering? The agent will be told it was dismissed.`,
    embeds: [],
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          button('Remove', formatCustomId({ kind: 'remove-yes', ref }), ButtonStyle.Danger),
          button('Cancel', formatCustomId({ kind: 'remove-no', ref }), ButtonStyle.Secondary),
        ],
      },
    ],
    allowed_mentions: noMentions(),
  };
  assertDiscordMessage(message);
  return message;
}
