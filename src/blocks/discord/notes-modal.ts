/**
 * The "Add notes" modal: the question, an answer select and a notes field, so a person can pick and explain in one
 * place. Pure: the bot shows it with `interaction.showModal(modal)` as the first response to the click.
 *
 * Built from Label components (type 18), Discord's current modal layout: a Label holds one text input or one string
 * select (action rows in modals are deprecated). Shape, as discord-api-types 0.38 defines it:
 *
 * ```
 * { custom_id: 'al:notes-modal:<ref>', title: 'Notes for #7', components: [
 *   { type: 10, content: '**#7** · Which store…?' },
 *   { type: 18, label: 'Answer', description: …, component: { type: 3, custom_id: 'choice', options, … } },
 *   { type: 18, label: 'Notes', description: …, component: { type: 4, custom_id: 'notes', style: 2, … } } ] }
 * ```
 *
 * On submit, read the Label components' `component.values` (the select: `selectionFromValues`) and
 * `component.value` (the notes). The select is required; the notes are not, because Discord cannot make them
 * required only when `Other` is picked: the submit handler checks the selection with `answerReadiness` and, for
 * `Other` without notes, keeps the draft and replies with an ephemeral error.
 */
import { ComponentType, TextInputStyle } from 'discord-api-types/v10';
import { NOTES_MAX } from '../../core/limits.js';
import type { Draft, Question } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import { neutraliseMentions, truncate } from './format.js';
import { formatCustomId, type InboxState, NOTES_MODAL_FIELDS } from './ids.js';
import { assertDiscordModal, DISCORD_LIMITS } from './limits.js';
import { pickerSelect, shownSelection } from './picker.js';
import type { DiscordModal } from './types.js';

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
export function renderNotesModal(question: Question, draft?: Draft, options: NotesModalOptions = {}): DiscordModal {
  const ref = formatQuestionRef(question.project, question.id);
  const select = pickerSelect(question, shownSelection(question, draft), NOTES_MODAL_FIELDS.choice);
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
    ],
  };
  assertDiscordModal(modal);
  return modal;
}
