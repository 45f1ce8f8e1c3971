/**
 * A set's answers shown back to the person before and after: the review that Send opens (each member's answer,
 * notes and notes per option, with "Send answers"), and the receipt after a set's notes modal. Ephemeral replies;
 * pure.
 *
 * The review's "Send answers" (`al:send-yes:<ref>:<check>`) carries a check of the answers it showed
 * ({@link reviewCheck}): the click sends only when the person's answers are still those (a pick made in another
 * tab meanwhile asks for a new review instead of sending something not reviewed).
 */
import { type APIEmbed, ButtonStyle, ComponentType } from 'discord-api-types/v10';
import { answerReadiness, describeSelection, type Readiness } from '../../core/answer.js';
import { shownSelection } from '../../core/inbox.js';
import type { Draft, Question, Selection } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import { reviewCheck } from '../../core/review-check.js';
import { itemMark, neutraliseMentions, setReadyLine } from './format.js';
import { formatCustomId } from './ids.js';
import { assertDiscordMessage, DISCORD_LIMITS, embedTextLength } from './limits.js';
import { button, notesLines } from './parts.js';
import { memberTitle } from './set-message.js';
import { type DiscordMessage, noMentions } from './types.js';

/** What one member would send, with its ready mark (the review lines of `InteractionService.review`). */
export interface ReviewEntry {
  readonly selection: Selection;
  readonly readiness: Readiness;
}

export { reviewCheck } from '../../core/review-check.js';

/** Longest and shortest note previews a review tries: it shortens them until the whole fits one message. */
const PREVIEW_MAX = 300;
const PREVIEW_MIN = 20;

/** One embed per member: its topic, answer, notes previews and mark, previews as long as the message allows. */
function memberEmbeds(question: Question, entries: readonly ReviewEntry[]): APIEmbed[] {
  const members = question.members ?? [];
  const draw = (preview: number): APIEmbed[] =>
    members.map((member, index) => {
      const entry = entries[index] ?? { selection: { choices: [], other: false }, readiness: 'pick-one' as const };
      const lines = [
        `**Answer:** ${neutraliseMentions(describeSelection(member, entry.selection))}`,
        ...notesLines(entry.selection, preview, preview),
        itemMark(entry.readiness),
      ];
      return { title: memberTitle(question, member, index), description: lines.join('\n') };
    });
  for (let preview = PREVIEW_MAX; preview > PREVIEW_MIN; preview -= 20) {
    const embeds = draw(preview);
    if (fits(embeds)) return embeds;
  }
  return draw(PREVIEW_MIN);
}

function fits(embeds: readonly APIEmbed[]): boolean {
  return (
    embedTextLength(embeds) <= DISCORD_LIMITS.embedTotal &&
    embeds.every((embed) => (embed.description?.length ?? 0) <= DISCORD_LIMITS.embedDescription)
  );
}

/**
 * The review Send opens on a set whose members are all ready: each member's answer, notes and notes per option,
 * and "Send answers" carrying the check of what it shows. The caller adds `flags: MessageFlags.Ephemeral`.
 */
export function renderSendReview(question: Question, entries: readonly ReviewEntry[]): DiscordMessage {
  const ref = formatQuestionRef(question.project, question.id);
  const check = reviewCheck(entries.map((entry) => entry.selection));
  const message: DiscordMessage = {
    content: `Send these answers to **#${question.id}**? Check each one, then press **Send answers**.`,
    embeds: memberEmbeds(question, entries),
    components: [
      {
        type: ComponentType.ActionRow,
        components: [button('Send answers', formatCustomId({ kind: 'send-yes', ref, check }), ButtonStyle.Success)],
      },
    ],
    allowed_mentions: noMentions(),
  };
  assertDiscordMessage(message);
  return message;
}

/** Each member's entry as the person's drafts show it (a draft, else the recommendation). */
export function entriesOf(question: Question, drafts: readonly (Draft | undefined)[]): ReviewEntry[] {
  return (question.members ?? []).map((member, index) => {
    const selection = shownSelection(member, drafts[index]);
    return { selection, readiness: answerReadiness(member, selection) };
  });
}

/**
 * The receipt after a set's notes were saved: how many members are ready, and each member as the review shows it.
 * The caller adds `flags: MessageFlags.Ephemeral`.
 */
export function renderSetReceipt(question: Question, drafts: readonly (Draft | undefined)[]): DiscordMessage {
  const entries = entriesOf(question, drafts);
  const marks = entries.map((entry) => entry.readiness);
  const all = marks.every((mark) => mark === 'ready');
  const message: DiscordMessage = {
    content: `Saved. **#${question.id}**: ${setReadyLine(marks)}${all ? ' — press Send' : ''}`,
    embeds: memberEmbeds(question, entries),
    components: [],
    allowed_mentions: noMentions(),
  };
  assertDiscordMessage(message);
  return message;
}
