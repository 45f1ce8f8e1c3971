/**
 * A set of questions (`#12`, members `#12.1`…) as one Discord message, in every state. Pure; `renderQuestionMessage`
 * hands sets here, so the bridge posts and redraws a set as it does a single question.
 *
 * Embeds + action rows, as for a single question (see `question-message.ts` for why not Components V2):
 * - embed 1, the set: author line `🔴 BLOCKING · #12 · shop · SHOP-12` (BLOCKING when any member is), title
 *   `3 questions · answer each, then Send`, the shared **Context**, field Impact, field Expires, footer the project's
 *   path, timestamp; red while any member blocks, else green;
 * - one embed per member: title `🔴 #12.1 · Database` (🔴 blocking, 🟢 can wait; its colour bar likewise), the
 *   question in bold and the context it adds, field Impact (what it adds), field Options (the recommended ones
 *   starred), and its ready mark as the footer: `✅ ready as preselected` or `👉 pick one`. The message is shared
 *   by everyone in the channel, so it shows no one's draft: each person's picks and marks come back to them alone
 *   (the receipt after each pick, the review before Send);
 * - one row per member with its answer select (`al:pick:<ref>:<member>`, the recommendations preselected, several
 *   on a multi-select), and one row with Add notes / Send / Remove. Discord allows 5 rows: hence at most
 *   `SET_MEMBERS_MAX` = 4 members.
 *
 * Fitting: the members' texts are bounded together by `SET_TEXT_MAX` (5000 of the 6000 an embed total allows), and
 * the renderer adds at most ~970 of its own; should a set still come out over, the footer's project path gives
 * first (it is the least needed: the author line names the project).
 *
 * Closed states drop the controls and the options; the outcome (who, where, when) is the `content`, with the
 * answer as one line (`Database: Postgres · Caches: Redis`) when it fits Discord's 2000; each member's embed shows
 * its answer, its notes and the notes of each picked option as quotes. At the limits (notes of up to 3000
 * characters per member and per option, bounded only by what one delivery note to the agent holds), what gives is,
 * in order: the project path, the shared context, the members' contexts, then the longest notes, each saying so
 * (see `fit.ts`). The questions, impacts, topics and answers are never cut.
 */
import type { APIEmbed, APIEmbedField } from 'discord-api-types/v10';
import { ComponentType } from 'discord-api-types/v10';
import { describeSelection } from '../../core/answer.js';
import { shownReadiness, shownSelection } from '../../core/inbox.js';
import { memberRef, type Question, type Selection, type SetMember, type SetSpec } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import { describeReply } from '../../core/reply.js';
import { type Cuttable, fitEmbeds } from './fit.js';
import {
  BLOCKING_COLOR,
  blockingDot,
  CAN_WAIT_COLOR,
  discordTime,
  headerLine,
  neutraliseMentions,
  oneLine,
  PROJECT_PATH_SHOWN_MAX,
  questionColor,
  quoted,
  truncate,
} from './format.js';
import { formatCustomId } from './ids.js';
import { assertDiscordMessage, DISCORD_LIMITS } from './limits.js';
import {
  actionButtons,
  askedBeforeFields,
  CONTEXT_HEADING,
  contextCuttable,
  notesCuttable,
  optionsField,
  outcome,
} from './parts.js';
import { pickerSelect } from './picker.js';
import { type ActionRow, type DiscordMessage, noMentions } from './types.js';

/** A set in any state. */
export type SetQuestion = Question & SetSpec;

/** A member's footer while pending: the mark of what its select shows preselected. */
export const PRESELECTED_READY = '✅ ready as preselected';
export const PRESELECTED_PICK = '👉 pick one';

/** The set as one channel message, checked against Discord's limits (see the module comment). */
export function renderSetMessage(question: SetQuestion): DiscordMessage {
  const message: DiscordMessage =
    question.status === 'pending'
      ? { embeds: pendingEmbeds(question), components: controlRows(question), allowed_mentions: noMentions() }
      : {
          content: closedContent(question),
          embeds: closedEmbeds(question),
          components: [],
          allowed_mentions: noMentions(),
        };
  assertDiscordMessage(message);
  return message;
}

/** The title of a member's embed: `🔴 #12.1 · Database`. */
export function memberTitle(question: Pick<Question, 'id'>, member: SetMember, index: number): string {
  return `${blockingDot(member.isBlocking)} ${memberRef(question.id, index)} · ${neutraliseMentions(oneLine(member.topic))}`;
}

/** The project path as the footer shows it: it gives first when the set must fit (tier -1). */
function pathCuttable(project: string): Cuttable {
  return {
    tier: -1,
    embed: 0,
    text: truncate(project, PROJECT_PATH_SHOWN_MAX),
    shorten: (text, by) => truncate(text, Math.max(1, text.length - by)),
  };
}

function headerEmbed(question: SetQuestion, context: string, path: string, fields: APIEmbedField[]): APIEmbed {
  const count = question.members.length;
  return {
    author: { name: headerLine(question) },
    title: question.status === 'pending' ? `${count} questions · answer each, then Send` : `${count} questions`,
    description: `${CONTEXT_HEADING}${neutraliseMentions(context)}`,
    color: questionColor(question),
    fields: [
      { name: 'Impact', value: neutraliseMentions(question.impact) },
      ...(question.status === 'pending' ? askedBeforeFields(question) : []),
      ...fields,
    ],
    footer: { text: `📁 ${path}` },
    timestamp: new Date(question.createdAt).toISOString(),
  };
}

function memberDescription(member: SetMember, context: string | undefined): string {
  const head = `**${neutraliseMentions(member.question)}**`;
  return context === undefined || context === '' ? head : `${head}\n\n${neutraliseMentions(context)}`;
}

function impactFields(member: SetMember): APIEmbedField[] {
  return member.impact === undefined || member.impact === ''
    ? []
    : [{ name: 'Impact', value: neutraliseMentions(member.impact) }];
}

// ---------------------------------------------------------------------------------------------------------------
// Pending

function pendingEmbeds(question: SetQuestion): APIEmbed[] {
  const expires: APIEmbedField[] =
    question.expiresAt === undefined
      ? []
      : [{ name: 'Expires', value: `${discordTime(question.expiresAt)} (${discordTime(question.expiresAt, 'R')})` }];
  return fitEmbeds({ path: pathCuttable(question.project) }, (texts) => [
    headerEmbed(question, question.context, texts.path, expires),
    ...question.members.map(
      (member, index): APIEmbed => ({
        title: memberTitle(question, member, index),
        description: memberDescription(member, member.context),
        color: member.isBlocking ? BLOCKING_COLOR : CAN_WAIT_COLOR,
        fields: [...impactFields(member), optionsField(member)],
        footer: { text: shownReadiness(member) === 'ready' ? PRESELECTED_READY : PRESELECTED_PICK },
      }),
    ),
  ]);
}

/** The placeholder of a member's select: `#12.1 · Database: pick an answer`. */
export function memberPlaceholder(question: Pick<Question, 'id'>, member: SetMember, index: number): string {
  const verb = member.multiSelect ? 'pick answers' : 'pick an answer';
  return truncate(
    `${memberRef(question.id, index)} · ${oneLine(member.topic)}: ${verb}`,
    DISCORD_LIMITS.selectPlaceholder,
  );
}

function controlRows(question: SetQuestion): ActionRow[] {
  const ref = formatQuestionRef(question.project, question.id);
  return [
    ...question.members.map(
      (member, index): ActionRow => ({
        type: ComponentType.ActionRow,
        components: [
          pickerSelect(
            member,
            shownSelection(member),
            formatCustomId({ kind: 'pick', ref, member: index }),
            memberPlaceholder(question, member, index),
          ),
        ],
      }),
    ),
    { type: ComponentType.ActionRow, components: actionButtons(ref) },
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Closed

/** The set's answer, one selection per member, when it was answered. */
function answerSelections(question: SetQuestion): readonly Selection[] | undefined {
  const answer = question.status === 'answered' || question.status === 'delivered' ? question.answer : undefined;
  return answer !== undefined && 'members' in answer ? answer.members : undefined;
}

function closedContent(question: SetQuestion): string {
  const answer = question.answer;
  const withLine = answer === undefined ? outcome(question) : outcome(question, describeReply(question, answer));
  return withLine.length <= DISCORD_LIMITS.content ? withLine : outcome(question);
}

/** A member's answer, notes and notes per picked option, with the notes as they stand after fitting. */
function answerBlock(
  member: SetMember,
  selection: Selection,
  notes: string | undefined,
  choiceNotes: readonly { choice: string; notes: string }[],
): string {
  const parts = [`**Answer:** ${neutraliseMentions(describeSelection(member, selection))}`];
  if (notes !== undefined) parts.push(`**Notes**\n${quoted(neutraliseMentions(notes))}`);
  for (const entry of choiceNotes) {
    parts.push(`**Notes on ${neutraliseMentions(entry.choice)}**\n${quoted(neutraliseMentions(entry.notes))}`);
  }
  return parts.join('\n');
}

function closedEmbeds(question: SetQuestion): APIEmbed[] {
  const selections = answerSelections(question);
  const cuttables: Record<string, Cuttable> = {
    path: pathCuttable(question.project),
    context: contextCuttable(question.context, 0),
  };
  const shownNotes = question.members.map((member, index) => {
    const embed = index + 1;
    if (member.context !== undefined && member.context !== '') {
      cuttables[`context${index}`] = contextCuttable(member.context, embed, 1);
    }
    const selection = selections?.[index];
    const notes = selection?.notes?.trim() ? selection.notes : undefined;
    if (notes !== undefined) cuttables[`notes${index}`] = notesCuttable(notes, embed);
    const choiceNotes = (selection?.choiceNotes ?? []).filter(
      (entry) => entry.notes.trim() !== '' && selection?.choices.includes(entry.choice),
    );
    choiceNotes.forEach((entry, option) => {
      cuttables[`notes${index}.${option}`] = notesCuttable(entry.notes, embed);
    });
    return { selection, notes, choiceNotes };
  });
  return fitEmbeds(cuttables, (texts) => [
    headerEmbed(question, texts.context ?? '', texts.path ?? '', []),
    ...question.members.map((member, index): APIEmbed => {
      const shown = shownNotes[index];
      const context = member.context === undefined ? undefined : texts[`context${index}`];
      const head = memberDescription(member, context);
      const answer =
        shown?.selection === undefined
          ? undefined
          : answerBlock(
              member,
              shown.selection,
              shown.notes === undefined ? undefined : texts[`notes${index}`],
              shown.choiceNotes.map((entry, option) => ({
                choice: entry.choice,
                notes: texts[`notes${index}.${option}`] ?? '',
              })),
            );
      return {
        title: memberTitle(question, member, index),
        description: answer === undefined ? head : `${head}\n\n${answer}`,
        color: questionColor(question),
        ...(impactFields(member).length === 0 ? {} : { fields: impactFields(member) }),
      };
    }),
  ]);
}
