/**
 * Parts every Discord question message shares, single or set: the buttons, the options field, the outcome line of
 * a closed question, what may give when a closed message must fit (`fit.ts`), and notes as preview lines. Pure.
 */
import {
  type APIButtonComponentWithCustomId,
  type APIEmbedField,
  ButtonStyle,
  ComponentType,
} from 'discord-api-types/v10';
import { askedBeforeLine } from '../../core/asked-before.js';
import { RECOMMENDED_MARK } from '../../core/limits.js';
import type { Question, QuestionItem, Selection } from '../../core/question.js';
import { type Cuttable, NOTES_SHORTENED_NOTE, shortenPlain } from './fit.js';
import { discordTime, displayName, NOTES_PREVIEW_MAX, neutraliseMentions, notesPreview, placeOf } from './format.js';
import { formatCustomId } from './ids.js';
import { isRecommended } from './picker.js';

/** Heading of the embed description. */
export const CONTEXT_HEADING = '**Context**\n';

/** Appended to a context that was cut to fit (closed states only, see the module comment). */
export const CONTEXT_SHORTENED_NOTE = "\n\n*… context shortened to fit Discord's 6,000-character message limit*";

/**
 * An item's options as Markdown lines, `• ★ **label** — description`. Six options at the longest label and
 * description take ~960 characters, within a field's 1024.
 */
/** The closest earlier decision a pending question was asked again despite, as an embed field. */
export function askedBeforeFields(question: Question): APIEmbedField[] {
  const [closest] = question.askedBefore ?? [];
  return closest === undefined ? [] : [{ name: '↩ Asked before', value: neutraliseMentions(askedBeforeLine(closest)) }];
}

export function optionsField(item: QuestionItem): APIEmbedField {
  const lines = item.options.map((option) => {
    const mark = isRecommended(item, option.label) ? RECOMMENDED_MARK : '';
    const description = option.description ? ` — ${option.description}` : '';
    return `• ${mark}**${option.label}**${description}`;
  });
  return {
    name: item.multiSelect ? 'Options (pick any)' : 'Options (pick one)',
    value: neutraliseMentions(lines.join('\n')),
  };
}

/** Add notes / Send / Remove, for every question message (single or set). */
export function actionButtons(ref: string): APIButtonComponentWithCustomId[] {
  return [
    button('Add notes', formatCustomId({ kind: 'notes', ref }), ButtonStyle.Secondary),
    button('Send', formatCustomId({ kind: 'send', ref }), ButtonStyle.Success),
    button('Remove', formatCustomId({ kind: 'remove', ref }), ButtonStyle.Danger),
  ];
}

export function button(
  label: string,
  customId: string,
  style: APIButtonComponentWithCustomId['style'],
): APIButtonComponentWithCustomId {
  return { type: ComponentType.Button, style, label, custom_id: customId };
}

function at(ms: number | undefined): string {
  return ms === undefined ? '' : ` at ${discordTime(ms)}`;
}

/**
 * The outcome line(s) of a closed question: at most ~600 characters (names ≤ 80, six labels ≤ 73), within 2000.
 * `answerLine` is the answer as one line (a single question's); a set gives none when its line would not fit.
 */
export function outcome(question: Question, answerLine?: string): string {
  switch (question.status) {
    case 'answered':
    case 'delivered': {
      const answer = question.answer;
      const lines =
        answer === undefined
          ? ['✅ Answered']
          : [
              `✅ Answered by ${displayName(answer.by.displayName)} ${placeOf(answer.by)}${at(answer.at)}`,
              ...(answerLine === undefined ? [] : [`**Answer:** ${neutraliseMentions(answerLine)}`]),
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

/** A context that gives first (tier 0) when a closed message must fit. */
export function contextCuttable(context: string, embed: number, tier = 0): Cuttable {
  return { tier, embed, text: context, shorten: shortenContext };
}

/** Notes that give last (tier 2) when a closed message must fit. */
export function notesCuttable(notes: string, embed: number): Cuttable {
  return { tier: 2, embed, text: notes, shorten: (text, by) => shortenPlain(text, by, NOTES_SHORTENED_NOTE) };
}

/** `context` shortened by at least `over` characters plus the note saying so, at a line break when one is near. */
export function shortenContext(context: string, over: number): string {
  const room = Math.max(0, context.length - over - CONTEXT_SHORTENED_NOTE.length - '\n```'.length);
  // Never end inside a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(context.charAt(room - 1)) ? room - 1 : room;
  let cut = context.slice(0, end);
  const lineBreak = cut.lastIndexOf('\n');
  if (lineBreak >= cut.length - 200 && lineBreak > 0) cut = cut.slice(0, lineBreak);
  const openFence = (cut.match(/```/g)?.length ?? 0) % 2 === 1;
  return `${cut}${openFence ? '\n```' : ''}${CONTEXT_SHORTENED_NOTE}`;
}

/** How much of each option's notes a receipt previews (six of them still fit a message's 2000). */
const CHOICE_NOTES_PREVIEW_MAX = 60;

/** The draft's notes (answer notes, then each picked option's) as preview lines. */
export function notesLines(
  selection: Selection,
  optionsMax = CHOICE_NOTES_PREVIEW_MAX,
  notesMax = NOTES_PREVIEW_MAX,
): string[] {
  const lines: string[] = [];
  if (selection.notes !== undefined && selection.notes.trim() !== '') {
    lines.push(`Notes: ${notesPreview(selection.notes, notesMax)}`);
  }
  for (const entry of selection.choiceNotes ?? []) {
    if (entry.notes.trim() === '' || !selection.choices.includes(entry.choice)) continue;
    lines.push(`Notes on ${neutraliseMentions(entry.choice)}: ${notesPreview(entry.notes, optionsMax)}`);
  }
  return lines;
}
