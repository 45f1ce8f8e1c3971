/**
 * One question as a Discord message, in every state, plus the two small ephemeral replies around it (the draft
 * receipt and the remove confirmation). A set of questions is one message too, drawn by `set-message.ts`. Pure: the bot posts the result with the bot token (`channel.send`, or
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
 * the channel reads, and outside the embeds' 6000; notes follow as a quote in a second embed, and on a multi-select
 * the notes of each picked option in an embed each (`**Notes on Redis**`). Fitting 6000: at the limits, context
 * 3000 + impact 1000 + notes 3000 cannot all show in one message's embeds. What gives is the context, and only when
 * it must: the person read it in full before answering and the agent has it, while the answer and notes are the
 * record. It is then cut to fit (about 1,350 of 3,000 characters remain in the extreme case), at a line break where
 * one is near, with a closed code fence, and says so. The question, impact and answer are never cut; notes only when
 * the notes per option add up past what even an empty context leaves (the longest first, saying so: the agent has
 * them in full).
 *
 * Mentions: every payload carries `allowed_mentions: { parse: [] }`, and `@everyone`/`@here` in any shown text are
 * neutralised (see `format.ts`), so no text from an agent or a person can ping or look like it did.
 */
import { type APIEmbed, type APIEmbedField, ButtonStyle, ComponentType } from 'discord-api-types/v10';
import { answerReadiness, describeSelection } from '../../core/answer.js';
import { shownMarks } from '../../core/inbox.js';
import { type Draft, memberRef, type Question, type Selection, type SingleSpec } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import { type Cuttable, fitEmbeds } from './fit.js';
import {
  discordTime,
  headerLine,
  itemMark,
  neutraliseMentions,
  oneLine,
  PROJECT_PATH_SHOWN_MAX,
  questionColor,
  readyMark,
  setReadyLine,
  truncate,
} from './format.js';
import { formatCustomId } from './ids.js';
import { assertDiscordMessage } from './limits.js';
import {
  actionButtons,
  askedBeforeFields,
  button,
  CONTEXT_HEADING,
  contextCuttable,
  notesCuttable,
  notesLines,
  optionsField,
  outcome,
} from './parts.js';
import { pickerSelect, shownSelection } from './picker.js';
import { renderSetMessage } from './set-message.js';
import { type ActionRow, type DiscordMessage, noMentions } from './types.js';

export { CONTEXT_SHORTENED_NOTE } from './parts.js';

/** A single question (not a set) in any state. */
type SingleQuestion = Question & SingleSpec;

/**
 * The channel message for `question` in its current state, checked against Discord's limits (throws
 * `DiscordPayloadError` only on a renderer bug or a question the question limits should have refused). Pending:
 * embed + answer select + Add notes / Send / Remove. Any other state: the outcome as `content`, the embed (and the
 * notes), no components (`components: []`, so an edit removes the controls).
 */
export function renderQuestionMessage(question: Question): DiscordMessage {
  if (question.members !== undefined) return renderSetMessage(question);
  return renderSingleMessage(question);
}

function renderSingleMessage(question: SingleQuestion): DiscordMessage {
  const ref = formatQuestionRef(question.project, question.id);
  const message: DiscordMessage =
    question.status === 'pending'
      ? { embeds: [pendingEmbed(question)], components: controlRows(question, ref), allowed_mentions: noMentions() }
      : {
          content: outcome(question, answerLine(question)),
          embeds: closedEmbeds(question),
          components: [],
          allowed_mentions: noMentions(),
        };
  assertDiscordMessage(message);
  return message;
}

function baseEmbed(question: SingleQuestion, context: string): APIEmbed {
  return {
    author: { name: headerLine(question) },
    title: neutraliseMentions(question.question),
    description: `${CONTEXT_HEADING}${neutraliseMentions(context)}`,
    color: questionColor(question),
    footer: { text: `📁 ${truncate(question.project, PROJECT_PATH_SHOWN_MAX)}` },
    timestamp: new Date(question.createdAt).toISOString(),
  };
}

function impactField(question: SingleQuestion): APIEmbedField {
  return { name: 'Impact', value: neutraliseMentions(question.impact) };
}

function pendingEmbed(question: SingleQuestion): APIEmbed {
  const fields = [impactField(question), optionsField(question), ...askedBeforeFields(question)];
  if (question.expiresAt !== undefined) {
    fields.push({
      name: 'Expires',
      value: `${discordTime(question.expiresAt)} (${discordTime(question.expiresAt, 'R')})`,
    });
  }
  return { ...baseEmbed(question, question.context), fields };
}

function controlRows(question: SingleQuestion, ref: string): ActionRow[] {
  return [
    {
      type: ComponentType.ActionRow,
      components: [pickerSelect(question, shownSelection(question), formatCustomId({ kind: 'pick', ref }))],
    },
    {
      type: ComponentType.ActionRow,
      components: actionButtons(ref),
    },
  ];
}

function answerLine(question: SingleQuestion): string | undefined {
  const answer = answerOfSingle(question);
  return answer === undefined ? undefined : describeSelection(question, answer);
}

/**
 * The answer of a closed question, if it has one: a single question's selection (sets: see `set-message.ts`).
 */
function answerOfSingle(question: SingleQuestion): Selection | undefined {
  const answer = question.status === 'answered' || question.status === 'delivered' ? question.answer : undefined;
  return answer === undefined || 'members' in answer ? undefined : answer;
}

/**
 * A closed single question's embeds: the question with its context and impact, then its notes in full as a quote,
 * then the notes of each picked option (a multi-select), an embed each. What gives to fit: the context first, then
 * the longest notes (see `fit.ts`).
 */
function closedEmbeds(question: SingleQuestion): APIEmbed[] {
  const answer = answerOfSingle(question);
  const notes = answer?.notes?.trim() ? answer.notes : undefined;
  const choiceNotes = (answer?.choiceNotes ?? []).filter((entry) => entry.notes.trim() !== '');
  const cuttables: Record<string, Cuttable> = { context: contextCuttable(question.context, 0) };
  if (notes !== undefined) cuttables.notes = notesCuttable(notes, 1);
  choiceNotes.forEach((entry, index) => {
    cuttables[`choice${index}`] = notesCuttable(entry.notes, 2 + index);
  });
  const color = questionColor(question);
  return fitEmbeds(cuttables, (texts) => [
    { ...baseEmbed(question, texts.context ?? ''), fields: [impactField(question)] },
    ...(notes === undefined ? [] : [{ description: `**Notes**\n>>> ${neutraliseMentions(texts.notes ?? '')}`, color }]),
    ...choiceNotes.map((entry, index) => ({
      description: `**Notes on ${neutraliseMentions(entry.choice)}**\n>>> ${neutraliseMentions(texts[`choice${index}`] ?? '')}`,
      color,
    })),
  ]);
}

/** Which member of a set a receipt is for, and the person's drafts of every member (for the set's count). */
export interface ReceiptMember {
  readonly member: number;
  readonly drafts: readonly (Draft | undefined)[];
}

/**
 * The ephemeral reply after a person picks in a select or saves notes: the question (one line), their choice(s) as
 * `describeSelection` says them, notes previews (the answer's and each picked option's), and the ready mark of the
 * draft itself (`✅ ready — press Send` / `👉 pick one` / `✍️ needs a note (Other)`). For a member of a set
 * (`set`), the member's ref and topic, its mark, and how many of the set's members are ready. Content only; the
 * caller adds `flags: MessageFlags.Ephemeral`.
 */
export function renderDraftReceipt(question: Question, draft: Draft, set?: ReceiptMember): DiscordMessage {
  const lines: string[] = [];
  if (question.members === undefined) {
    lines.push(
      `**#${question.id}** · ${neutraliseMentions(truncate(oneLine(question.question), 120))}`,
      `Your answer: **${neutraliseMentions(describeSelection(question, draft))}**`,
      ...notesLines(draft),
      readyMark(answerReadiness(question, draft)),
    );
  } else {
    if (set === undefined) throw new RangeError(`#${question.id} is a set: a receipt names its member`);
    const member = question.members[set.member];
    if (member === undefined) throw new RangeError(`#${question.id} has no member ${set.member}`);
    const drafts = question.members.map((_, index) => (index === set.member ? draft : set.drafts[index]));
    const marks = shownMarks({ question, memberDrafts: drafts });
    const all = marks.every((mark) => mark === 'ready');
    lines.push(
      `**${memberRef(question.id, set.member)} · ${neutraliseMentions(oneLine(member.topic))}** · ${neutraliseMentions(truncate(oneLine(member.question), 100))}`,
      `Your answer: **${neutraliseMentions(describeSelection(member, draft))}**`,
      ...notesLines(draft),
      `${itemMark(answerReadiness(member, draft))} · #${question.id}: ${setReadyLine(marks)}${all ? ' — press Send' : ''}`,
    );
  }
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
