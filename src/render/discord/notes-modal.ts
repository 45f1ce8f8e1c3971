/**
 * "Add notes": the notes modal of a question (single or set), or, when the notes to write do not fit one modal, the
 * notes menu that opens one modal per note. Pure: the bot shows a modal with `interaction.showModal(modal)` as the
 * first response to the click, and the menu as an ephemeral reply.
 *
 * Built from Label components (type 18), Discord's current modal layout: a Label holds one text input or one string
 * select (action rows in modals are deprecated); a modal holds at most 5 top-level components. Shape of a single
 * question's modal, as discord-api-types 0.38 defines it:
 *
 * ```
 * { custom_id: 'al:notes-modal:<ref>', title: 'Notes for #7', components: [
 *   { type: 10, content: '**#7** · Which store…?' },
 *   { type: 18, label: 'Answer', description: …, component: { type: 3, custom_id: 'choice', options, … } },
 *   { type: 18, label: 'Notes', description: …, component: { type: 4, custom_id: 'notes', style: 2, … } } ] }
 * ```
 *
 * What the person may write notes for (the targets): each item's answer notes (a single question, or each member of
 * a set), and on a multi-select the notes of each option it shows picked (their draft, else the recommendation).
 * Decision, within Discord's 5 components a modal:
 * - a single-select question: the modal above, as before sets existed (the select, so Other can be picked there);
 * - a multi-select question: the same with a notes field per picked option, when they fit (up to 2 picks);
 * - a set: one modal with a notes field per target (`Notes · Database`, `Caches · Redis`), when they fit (5);
 * - otherwise the **notes menu**: an ephemeral message with one select per item (a set's members: ≤ 4 rows) listing
 *   its targets, each with a preview of its notes; choosing one opens a modal for that note alone, prefilled; its
 *   submit redraws the menu with the new preview, ready for the next. Labels stay ≤ 45 characters (`Notes · ` + a
 *   topic ≤ 30; an option's label is cut there, and given in full in the Label's description).
 *
 * On submit, read the Label components' `component.values` (the select: `selectionFromValues`) and
 * `component.value` (the notes; which item and option each is for: `parseNotesField`). The select is required; the
 * notes are not, because Discord cannot make them required only when `Other` is picked: the submit handler checks
 * the selection with `answerReadiness` and, for `Other` without notes, keeps the draft and says so.
 */
import {
  type APILabelComponent,
  type APISelectMenuOption,
  type APITextDisplayComponent,
  ComponentType,
  TextInputStyle,
} from 'discord-api-types/v10';
import { NOTES_MAX } from '../../core/limits.js';
import {
  type Draft,
  memberRef,
  OTHER_LABEL,
  type Question,
  type QuestionItem,
  type SingleSpec,
} from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import { neutraliseMentions, notesPreview, oneLine, truncate } from './format.js';
import {
  ANSWER_NOTES_VALUE,
  formatCustomId,
  formatNotesField,
  type InboxState,
  NOTES_MODAL_FIELDS,
  type NotesField,
  selectValue,
} from './ids.js';
import { assertDiscordMessage, assertDiscordModal, DISCORD_LIMITS } from './limits.js';
import { pickerSelect, shownSelection } from './picker.js';
import { type ActionRow, type DiscordMessage, type DiscordModal, noMentions } from './types.js';

/** A single question (not a set). */
type SingleQuestion = Question & SingleSpec;

/** Where the modal was opened from. */
export interface NotesModalOptions {
  /**
   * The inbox state, when opened from the `/questions` inbox: it goes into the modal's custom id
   * (`al:notes-modal:<ref>:<filter>:<page>`) so the submit can redraw that inbox. Absent: opened from the message.
   */
  readonly inbox?: InboxState;
}

/**
 * The notes modal for `question`, drawn from the person's draft (its picks preselected and its notes filled in);
 * without a draft the recommendation is preselected. Checked against Discord's modal limits.
 */
export function renderNotesModal(
  question: SingleQuestion,
  draft?: Draft,
  options: NotesModalOptions = {},
): DiscordModal {
  const ref = formatQuestionRef(question.project, question.id);
  const select = pickerSelect(question, shownSelection(question, draft), NOTES_MODAL_FIELDS.choice);
  // On a multi-select, a notes field per picked option, when they fit beside the question, select and notes.
  const picked = pickedOptions(question, draft);
  const optionFields =
    picked.length <= SINGLE_MODAL_OPTION_FIELDS
      ? picked.map((index) => optionNotesLabel(question, undefined, index, draft))
      : [];
  // Stored notes are ≤ NOTES_MAX (checkAnswer); the cut only guards the input's own limit against an older record.
  const notes = draft?.notes === undefined ? '' : draft.notes.slice(0, NOTES_MAX);
  const modal: DiscordModal = {
    custom_id: formatCustomId(
      options.inbox === undefined ? { kind: 'notes-modal', ref } : { kind: 'notes-modal', ref, inbox: options.inbox },
    ),
    title: truncate(`Notes for #${question.id}`, DISCORD_LIMITS.modalTitle),
    components: [
      { type: ComponentType.TextDisplay, content: `**#${question.id}** · ${neutraliseMentions(question.question)}` },
      {
        type: ComponentType.Label,
        label: question.multiSelect ? 'Answers' : 'Answer',
        description: 'Pick Other to answer in your own words (then notes are required).',
        component: { ...select, required: true },
      },
      {
        type: ComponentType.Label,
        label: 'Notes',
        description: 'Go to the agent with any answer. Required when you pick Other.',
        component: {
          type: ComponentType.TextInput,
          custom_id: NOTES_MODAL_FIELDS.notes,
          style: TextInputStyle.Paragraph,
          max_length: NOTES_MAX,
          required: false,
          placeholder: 'Anything the agent should know with your answer',
          ...(notes === '' ? {} : { value: notes }),
        },
      },
      ...optionFields,
    ],
  };
  assertDiscordModal(modal);
  return modal;
}

/** Notes fields per option a single question's modal holds beside its text, select and notes: 5 − 3. */
const SINGLE_MODAL_OPTION_FIELDS = DISCORD_LIMITS.modalComponents - 3;

/** What "Add notes" opens: a modal, or the notes menu (an ephemeral message) when the notes do not fit one. */
export type NotesView =
  | { readonly kind: 'modal'; readonly modal: DiscordModal }
  | { readonly kind: 'menu'; readonly message: DiscordMessage };

/** The indexes of the options `draft` (else the recommendation) shows picked, on a multi-select; none otherwise. */
export function pickedOptions(item: QuestionItem, draft: Draft | undefined): number[] {
  if (!item.multiSelect) return [];
  const { choices } = shownSelection(item, draft);
  return item.options.flatMap((option, index) => (choices.includes(option.label) ? [index] : []));
}

/**
 * What "Add notes" opens for `question` (the person's `drafts`, one per item): a single-select question's modal as
 * before; a multi-select's with its options' notes, or a set's with every target, when they fit one modal; else the
 * notes menu (see the module comment).
 */
export function renderNotes(
  question: Question,
  drafts: readonly (Draft | undefined)[],
  options: NotesModalOptions = {},
): NotesView {
  if (question.members === undefined) {
    const draft = drafts[0];
    if (pickedOptions(question, draft).length <= SINGLE_MODAL_OPTION_FIELDS) {
      return { kind: 'modal', modal: renderNotesModal(question, draft, options) };
    }
    return { kind: 'menu', message: renderNotesMenu(question, drafts) };
  }
  const targets = question.members.reduce(
    (sum, member, index) => sum + 1 + pickedOptions(member, drafts[index]).length,
    0,
  );
  if (targets <= DISCORD_LIMITS.modalComponents) {
    return { kind: 'modal', modal: renderSetNotesModal(question, drafts, options) };
  }
  return { kind: 'menu', message: renderNotesMenu(question, drafts) };
}

function refOf(question: Question): string {
  return formatQuestionRef(question.project, question.id);
}

/** The item a member index names: the single question itself (no member), or the set's member. */
function itemOf(question: Question, member: number | undefined): QuestionItem & { readonly topic?: string } {
  if (question.members === undefined) {
    if (member !== undefined) throw new RangeError(`#${question.id} is not a set`);
    return question;
  }
  const item = member === undefined ? undefined : question.members[member];
  if (item === undefined) throw new RangeError(`#${question.id} has no member ${member ?? '(none)'}`);
  return item;
}

function textInput(field: NotesField, notes: string | undefined): APILabelComponent['component'] {
  // Stored notes are ≤ NOTES_MAX (checkAnswer); the cut only guards the input's own limit against an older record.
  const value = notes === undefined ? '' : notes.slice(0, NOTES_MAX);
  return {
    type: ComponentType.TextInput,
    custom_id: formatNotesField(field),
    style: TextInputStyle.Paragraph,
    max_length: NOTES_MAX,
    required: false,
    ...(value === '' ? {} : { value }),
  };
}

function optionNotesOf(draft: Draft | undefined, label: string): string | undefined {
  return draft?.choiceNotes?.find((entry) => entry.choice === label)?.notes;
}

/** The Label of one option's notes: `Notes on Redis` (a single question) or `Caches · Redis` (a member). */
function optionNotesLabel(
  question: Question,
  member: number | undefined,
  option: number,
  draft: Draft | undefined,
): APILabelComponent {
  const item = itemOf(question, member);
  const label = item.options[option]?.label ?? '';
  const text = item.topic === undefined ? `Notes on ${oneLine(label)}` : `${oneLine(item.topic)} · ${oneLine(label)}`;
  return {
    type: ComponentType.Label,
    label: truncate(text, DISCORD_LIMITS.labelText),
    description: truncate(`About your pick "${oneLine(label)}"`, DISCORD_LIMITS.labelDescription),
    component: textInput({ ...(member === undefined ? {} : { member }), option }, optionNotesOf(draft, label)),
  };
}

/** The Label of an item's answer notes: `Notes` (a single question) or `Notes · Database` (a member). */
function answerNotesLabel(question: Question, member: number | undefined, draft: Draft | undefined): APILabelComponent {
  const item = itemOf(question, member);
  const other = shownSelection(item, draft).other;
  const about = other ? `Required: you picked ${OTHER_LABEL}. ` : '';
  return {
    type: ComponentType.Label,
    label: item.topic === undefined ? 'Notes' : truncate(`Notes · ${oneLine(item.topic)}`, DISCORD_LIMITS.labelText),
    description: truncate(`${about}${oneLine(item.question)}`, DISCORD_LIMITS.labelDescription),
    component: textInput(member === undefined ? {} : { member }, draft?.notes),
  };
}

/**
 * A set's notes modal: for each member its answer notes, and on a multi-select each picked option's notes, prefilled
 * from the drafts (at most 5 fields: {@link renderNotes} opens the menu otherwise). No select: each member's picks
 * are on the message.
 */
export function renderSetNotesModal(
  question: Question,
  drafts: readonly (Draft | undefined)[],
  options: NotesModalOptions = {},
): DiscordModal {
  const members = question.members ?? [];
  const ref = refOf(question);
  const modal: DiscordModal = {
    custom_id: formatCustomId(
      options.inbox === undefined ? { kind: 'notes-modal', ref } : { kind: 'notes-modal', ref, inbox: options.inbox },
    ),
    title: truncate(`Notes for #${question.id}`, DISCORD_LIMITS.modalTitle),
    components: members.flatMap((member, index) => [
      answerNotesLabel(question, index, drafts[index]),
      ...pickedOptions(member, drafts[index]).map((option) => optionNotesLabel(question, index, option, drafts[index])),
    ]),
  };
  assertDiscordModal(modal);
  return modal;
}

/** One note the menu opens a modal for: an item's answer notes, or one picked option's notes (its index). */
export type NotesTarget = 'answer' | number;

/** The heading line of an item: `**#12.2 · Caches** · Which caches…?` / `**#7** · Which store…?`. */
function itemHeading(question: Question, member: number | undefined): string {
  const item = itemOf(question, member);
  const ref =
    member === undefined || item.topic === undefined
      ? `#${question.id}`
      : `${memberRef(question.id, member)} · ${oneLine(item.topic)}`;
  return `**${neutraliseMentions(ref)}** · ${neutraliseMentions(truncate(oneLine(item.question), 300))}`;
}

/**
 * The modal for one note chosen in the notes menu (`al:notes-modal:<ref>:menu`): the item's heading, then its
 * answer notes or one option's notes, prefilled from the draft.
 */
export function renderTargetModal(
  question: Question,
  member: number | undefined,
  target: NotesTarget,
  draft: Draft | undefined,
): DiscordModal {
  const item = itemOf(question, member);
  const heading: APITextDisplayComponent = { type: ComponentType.TextDisplay, content: itemHeading(question, member) };
  const where = member === undefined ? `#${question.id}` : memberRef(question.id, member);
  const modal: DiscordModal = {
    custom_id: formatCustomId({ kind: 'notes-modal', ref: refOf(question), menu: true }),
    title: truncate(`Notes for ${where}`, DISCORD_LIMITS.modalTitle),
    components: [
      heading,
      target === 'answer'
        ? answerNotesLabel(question, member, draft)
        : optionNotesLabel(question, member, target, draft),
    ],
  };
  if (target !== 'answer' && item.options[target] === undefined) {
    throw new RangeError(`${where} has no option ${target}`);
  }
  assertDiscordModal(modal);
  return modal;
}

/** How much of a note the menu previews in an option's description. */
const MENU_PREVIEW_MAX = DISCORD_LIMITS.optionDescription;

function menuOption(label: string, value: string, notes: string | undefined, empty: string): APISelectMenuOption {
  const has = notes !== undefined && notes.trim() !== '';
  return {
    label: truncate(`${has ? '✎ ' : ''}${oneLine(label)}`, DISCORD_LIMITS.optionLabel),
    value,
    description: has ? notesPreview(notes, MENU_PREVIEW_MAX) : empty,
  };
}

/**
 * The notes menu (an ephemeral reply): one select per item (`al:notes-for:<ref>[:<member>]`) listing its targets,
 * the answer notes first, then each picked option of a multi-select; a target with notes is marked ✎ and previewed.
 * Choosing one opens {@link renderTargetModal}.
 */
export function renderNotesMenu(question: Question, drafts: readonly (Draft | undefined)[]): DiscordMessage {
  const ref = refOf(question);
  const items: (number | undefined)[] =
    question.members === undefined ? [undefined] : question.members.map((_, i) => i);
  const rows: ActionRow[] = items.map((member) => {
    const item = itemOf(question, member);
    const draft = drafts[member ?? 0];
    const where =
      member === undefined ? `#${question.id}` : `${memberRef(question.id, member)} · ${oneLine(item.topic ?? '')}`;
    const other = shownSelection(item, draft).other;
    const options = [
      menuOption(
        'Notes on the answer',
        ANSWER_NOTES_VALUE,
        draft?.notes,
        other ? `Required: you picked ${OTHER_LABEL}` : 'Go to the agent with your answer',
      ),
      ...pickedOptions(item, draft).map((index) => {
        const label = item.options[index]?.label ?? '';
        return menuOption(`Notes on ${label}`, selectValue(index), optionNotesOf(draft, label), 'About this pick');
      }),
    ];
    return {
      type: ComponentType.ActionRow,
      components: [
        {
          type: ComponentType.StringSelect,
          custom_id: formatCustomId(
            member === undefined ? { kind: 'notes-for', ref } : { kind: 'notes-for', ref, member },
          ),
          placeholder: truncate(`${where}: write notes on…`, DISCORD_LIMITS.selectPlaceholder),
          options,
        },
      ],
    };
  });
  const message: DiscordMessage = {
    content: `**#${question.id}** · Which notes? Choose one below and a form opens. Notes go to the agent with the answer${question.members === undefined ? '' : 's'}.`,
    embeds: [],
    components: rows,
    allowed_mentions: noMentions(),
  };
  assertDiscordMessage(message);
  return message;
}
