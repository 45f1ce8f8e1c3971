/**
 * The `/questions` inbox on Discord: one page of the pending questions routed to a channel, as an ephemeral reply
 * that every inbox interaction redraws in place (`interaction.update`). Pure.
 *
 * Discord gives a message 5 action rows, so the inbox answers one question at a time:
 * - embed 1: the page's questions, blocking first then oldest, each `🔴 **#7** · shop · SHOP-12 · ✅ ready` and the
 *   question on the next line (cut to {@link LIST_QUESTION_MAX}; the channel message has it in full); a set is one
 *   entry, `🔴 **#12** · shop · 👉 2 of 3 ready` with its topics on the next line;
 * - embed 2, when one is selected: its header, question, options (the recommended one starred), the person's
 *   current answer, notes preview and ready mark;
 * - row 1: filter select, `All (n)` / `Blocking (n)` / `Non-blocking (n)`;
 * - row 2: a select over this page's questions (≤ {@link INBOX_PAGE_SIZE}) to choose the one to answer;
 * - row 3, when one is selected: its answer select, the draft (else the recommendation) preselected;
 * - row 4: Add notes (when one is selected), Send N answers (disabled at 0), First / Next (more than one page:
 *   the page is read after a cursor, so there is no numbered page to go back to; the custom ids' 100 characters
 *   hold one cursor, not a history).
 *
 * A selected set has more selects than those rows hold beside the list's (up to 4 members + the buttons: the reason
 * a set has at most 4), so choosing a set opens the **set view** instead, drawn in the same message:
 * - embed 1: the set's header line and `👉 2 of 3 ready`; one embed per member: its topic, question (cut), the
 *   person's answer, notes previews and mark;
 * - one row per member with its answer select (`al:inbox-pick:<ref>:<member>:…`, the draft else the
 *   recommendations preselected);
 * - the last row: Add notes (as on the message), Send (`al:send:<ref>`: the review, as on the message) and
 *   ← Back to the list (the page it came from).
 *
 * The viewer's drafts are their own (drafts are kept per person), and the reply is ephemeral, so the pickers show
 * them. "Send N answers" counts the ready questions on this page (the ones the person sees), as each row's mark says.
 */

import {
  type APIButtonComponentWithCustomId,
  type APIEmbed,
  type APISelectMenuOption,
  ButtonStyle,
  ComponentType,
} from 'discord-api-types/v10';
import { describeSelection } from '../../core/answer.js';
import { type InboxItem, type InboxPage, readyItems, shownMarks, shownSelections } from '../../core/inbox.js';
import { RECOMMENDED_MARK } from '../../core/limits.js';
import { memberRef, type Question } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import { FILTER_LABELS } from '../vocabulary.js';
import {
  blockingDot,
  blockingMark,
  headerLine,
  itemMark,
  neutraliseMentions,
  notesPreview,
  oneLine,
  PROJECT_NAME_SHOWN_MAX,
  projectName,
  questionColor,
  readyMark,
  setReadyLine,
  truncate,
} from './format.js';
import { formatCustomId, type InboxFilter, type InboxState } from './ids.js';
import { assertDiscordMessage, DISCORD_LIMITS } from './limits.js';
import { button, notesLines } from './parts.js';
import { isRecommended, pickerSelect } from './picker.js';
import { memberPlaceholder } from './set-message.js';
import { type ActionRow, type DiscordMessage, noMentions } from './types.js';

export type { InboxItem, InboxPage } from '../../core/inbox.js';

/** What the inbox shows: the filter, where the page starts and the question being answered (its ref), if any. */
export interface InboxView extends InboxState {
  /** `formatQuestionRef(project, id)` of the question chosen in the question select; ignored when not on the page. */
  readonly selected?: string;
}

/**
 * Questions per page: 10. Each list entry is at most ~330 characters (header ≤ ~170, question ≤ 150), so a page's
 * list stays under the 4096 of an embed description and, with the selected question's embed (~1,500), under the
 * 6000 of a message; the question select could take 25.
 */
export const INBOX_PAGE_SIZE = 10;

/** How much of each question the list shows. */
export const LIST_QUESTION_MAX = 150;

export { inboxQuestions, readyCount } from '../../core/inbox.js';

/**
 * The inbox for `page` (one page of the pending questions routed to the channel, with the viewer's drafts) in
 * `view`, checked against Discord's limits. The caller replies with `flags: MessageFlags.Ephemeral` (the first
 * time) or `interaction.update` (from an inbox component).
 */
export function renderInbox(page: InboxPage, view: InboxView): DiscordMessage {
  const { counts } = page;
  if (counts.all === 0 && page.items.length === 0) {
    const message: DiscordMessage = {
      embeds: [
        {
          title: '📥 Questions waiting',
          description: '🎉 Nothing waiting. When an agent parks a question for this channel, it shows up here.',
        },
      ],
      components: [],
      allowed_mentions: noMentions(),
    };
    assertDiscordMessage(message);
    return message;
  }

  const state: InboxState = { filter: page.filter, ...(view.after === undefined ? {} : { after: view.after }) };
  const shown = page.items.slice(0, INBOX_PAGE_SIZE);
  const selected = shown.find((item) => refOf(item.question) === view.selected);
  if (selected !== undefined && selected.question.members !== undefined) return renderSetView(selected, state);
  const ready = readyItems(shown, page.filter).length;

  const embeds: APIEmbed[] = [listEmbed(page, shown, ready, selected)];
  if (selected !== undefined) embeds.push(selectedEmbed(selected));

  const components: ActionRow[] = [filterRow(counts, page.filter)];
  if (shown.length > 0) components.push(questionRow(shown, state, selected));
  if (selected !== undefined && selected.question.members === undefined) {
    const ref = refOf(selected.question);
    const [selection] = shownSelections(selected);
    components.push({
      type: ComponentType.ActionRow,
      components: [
        pickerSelect(
          selected.question,
          selection ?? { choices: [], other: false },
          formatCustomId({ kind: 'inbox-pick', ref, inbox: state }),
        ),
      ],
    });
  }
  components.push(buttonRow(page, state, ready, selected));

  const message: DiscordMessage = { embeds, components, allowed_mentions: noMentions() };
  assertDiscordMessage(message);
  return message;
}

function refOf(question: Question): string {
  return formatQuestionRef(question.project, question.id);
}

/** An entry's ready mark: a single question's, or how many of a set's members are ready. */
function entryMark(item: InboxItem): string {
  const marks = shownMarks(item);
  return item.question.members === undefined ? readyMark(marks[0] ?? 'pick-one') : setReadyLine(marks);
}

/** What an entry says on its second line: the question, or a set's topics. */
function entryText(question: Question): string {
  return question.members === undefined
    ? question.question
    : question.members.map((member) => oneLine(member.topic)).join(' · ');
}

function entry(item: InboxItem, isSelected: boolean): string {
  const { question } = item;
  const mark = blockingDot(question.isBlocking);
  const project = truncate(oneLine(projectName(question.project)), PROJECT_NAME_SHOWN_MAX);
  const ticket = question.ticket === undefined ? '' : ` · ${question.ticket}`;
  const pointer = isSelected ? '▶️ ' : '';
  const head = `${pointer}${mark} **#${question.id}** · ${project}${ticket} · ${entryMark(item)}`;
  return `${neutraliseMentions(head)}\n${neutraliseMentions(truncate(oneLine(entryText(question)), LIST_QUESTION_MAX))}`;
}

function listEmbed(
  page: InboxPage,
  shown: readonly InboxItem[],
  ready: number,
  selected: InboxItem | undefined,
): APIEmbed {
  const label = FILTER_LABELS[page.filter];
  const description =
    shown.length === 0
      ? page.offset > 0
        ? 'Nothing more here: the questions of this page were answered meanwhile.'
        : `Nothing ${label.toLowerCase()} waiting.`
      : shown.map((item) => entry(item, item === selected)).join('\n\n');
  const total = page.offset + shown.length + page.remaining;
  const first = page.offset + 1;
  const paged = page.offset > 0 || page.next !== undefined;
  const footer = [
    paged && shown.length > 0 ? `${first}–${first + shown.length - 1} of ${total}` : '',
    `${ready} ready to send on this page`,
    shown.length > 0 && selected === undefined ? 'choose a question below to answer it' : '',
  ]
    .filter((part) => part !== '')
    .join(' · ');
  return {
    title: `📥 Questions waiting — ${label} (${page.counts[page.filter]})`,
    description,
    footer: { text: footer },
  };
}

function selectedEmbed(item: InboxItem): APIEmbed {
  const { question } = item;
  if (question.members !== undefined) throw new RangeError('a set is drawn by the set view');
  const options = question.options.map((option) => {
    const mark = isRecommended(question, option.label) ? RECOMMENDED_MARK : '';
    return `• ${mark}**${option.label}**${option.description ? ` — ${option.description}` : ''}`;
  });
  const [selection = { choices: [], other: false }] = shownSelections(item);
  const status = [`Your answer: **${describeSelection(question, selection)}**`];
  if (item.draft?.notes !== undefined && item.draft.notes.trim() !== '') {
    status.push(`Notes: ${notesPreview(item.draft.notes)}`);
  }
  const optionNotes = (selection.choiceNotes ?? []).filter(
    (entry) => entry.notes.trim() !== '' && selection.choices.includes(entry.choice),
  ).length;
  if (optionNotes > 0) status.push(`✎ notes on ${optionNotes === 1 ? '1 pick' : `${optionNotes} picks`}`);
  status.push(entryMark(item));
  return {
    author: { name: headerLine(question) },
    title: neutraliseMentions(question.question),
    description: neutraliseMentions([...options, '', ...status].join('\n')),
    color: questionColor(question),
  };
}

/** How much of a member's question the set view shows (the channel message has it in full). */
const SET_VIEW_QUESTION_MAX = 200;

/** The set view: the set's members with the person's answers and marks, a select per member, and the buttons. */
function renderSetView(item: InboxItem, state: InboxState): DiscordMessage {
  const { question } = item;
  const members = question.members ?? [];
  const ref = refOf(question);
  const selections = shownSelections(item);
  const marks = shownMarks(item);
  const embeds: APIEmbed[] = [
    {
      author: { name: headerLine(question) },
      title: `#${question.id} · ${setReadyLine(marks)}`,
      description: 'Pick an answer for each question below, add notes if you like, then Send: the set goes as one.',
      color: questionColor(question),
    },
    ...members.map((member, index): APIEmbed => {
      const selection = selections[index] ?? { choices: [], other: false };
      const lines = [
        neutraliseMentions(truncate(oneLine(member.question), SET_VIEW_QUESTION_MAX)),
        `Your answer: **${neutraliseMentions(describeSelection(member, selection))}**`,
        ...notesLines(selection),
        itemMark(marks[index] ?? 'pick-one'),
      ];
      return {
        title: `${blockingDot(member.isBlocking)} ${memberRef(question.id, index)} · ${neutraliseMentions(oneLine(member.topic))}`,
        description: lines.join('\n'),
      };
    }),
  ];
  const components: ActionRow[] = [
    ...members.map(
      (member, index): ActionRow => ({
        type: ComponentType.ActionRow,
        components: [
          pickerSelect(
            member,
            selections[index] ?? { choices: [], other: false },
            formatCustomId({ kind: 'inbox-pick', ref, member: index, inbox: state }),
            memberPlaceholder(question, member, index),
          ),
        ],
      }),
    ),
    {
      type: ComponentType.ActionRow,
      components: [
        button('Add notes', formatCustomId({ kind: 'inbox-notes', ref, inbox: state }), ButtonStyle.Secondary),
        button('Send', formatCustomId({ kind: 'send', ref }), ButtonStyle.Success),
        button('← Back to the list', formatCustomId({ kind: 'inbox-page', inbox: state }), ButtonStyle.Secondary),
      ],
    },
  ];
  const message: DiscordMessage = { embeds, components, allowed_mentions: noMentions() };
  assertDiscordMessage(message);
  return message;
}

function filterRow(counts: Record<InboxFilter, number>, filter: InboxFilter): ActionRow {
  const options = (Object.keys(FILTER_LABELS) as InboxFilter[]).map(
    (name): APISelectMenuOption => ({
      label: `${FILTER_LABELS[name]} (${counts[name]})`,
      value: name,
      ...(name === filter ? { default: true } : {}),
    }),
  );
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.StringSelect,
        custom_id: formatCustomId({ kind: 'inbox-filter' }),
        placeholder: 'Show',
        options,
      },
    ],
  };
}

function questionRow(shown: readonly InboxItem[], state: InboxState, selected: InboxItem | undefined): ActionRow {
  const options = shown.map((item): APISelectMenuOption => {
    const { question } = item;
    const ticket = question.ticket === undefined ? '' : ` · ${question.ticket}`;
    const about = `${blockingMark(question.isBlocking)} · ${projectName(question.project)}${ticket}`;
    return {
      label: truncate(oneLine(`#${question.id} · ${entryText(question)}`), DISCORD_LIMITS.optionLabel),
      value: refOf(question),
      description: truncate(oneLine(`${about} · ${entryMark(item)}`), DISCORD_LIMITS.optionDescription),
      ...(item === selected ? { default: true } : {}),
    };
  });
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.StringSelect,
        custom_id: formatCustomId({ kind: 'inbox-question', inbox: state }),
        placeholder: 'Choose a question to answer',
        options,
      },
    ],
  };
}

function buttonRow(page: InboxPage, state: InboxState, ready: number, selected: InboxItem | undefined): ActionRow {
  const buttons: APIButtonComponentWithCustomId[] = [];
  if (selected !== undefined) {
    buttons.push({
      type: ComponentType.Button,
      style: ButtonStyle.Secondary,
      label: 'Add notes',
      custom_id: formatCustomId({ kind: 'inbox-notes', ref: refOf(selected.question), inbox: state }),
    });
  }
  buttons.push({
    type: ComponentType.Button,
    style: ButtonStyle.Success,
    label: ready === 1 ? 'Send 1 answer' : `Send ${ready} answers`,
    custom_id: formatCustomId({ kind: 'inbox-send', inbox: state }),
    ...(ready === 0 ? { disabled: true } : {}),
  });
  const first = state.after === undefined;
  if (!first || page.next !== undefined) {
    const pageButton = (
      label: string,
      after: string | undefined,
      disabled: boolean,
    ): APIButtonComponentWithCustomId => ({
      type: ComponentType.Button,
      style: ButtonStyle.Secondary,
      label,
      custom_id: formatCustomId({
        kind: 'inbox-page',
        inbox: { filter: state.filter, ...(after === undefined ? {} : { after }) },
      }),
      ...(disabled ? { disabled: true } : {}),
    });
    // First on the first page and Next on the last are disabled; their targets still differ, so the ids stay unique.
    buttons.push(pageButton('⏮ First', undefined, first));
    buttons.push(pageButton('Next →', page.next ?? state.after, page.next === undefined));
  }
  return { type: ComponentType.ActionRow, components: buttons };
}
