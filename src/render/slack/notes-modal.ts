/**
 * The "Add notes" modal: the question (or one member of a set), a picker and notes fields, so a person can pick and
 * explain in one place. Pure: the bridge opens it with `views.open` (the click's fresh `trigger_id`) and redraws it
 * with `views.update`.
 *
 * The picker is an input block that dispatches on change (`dispatch_action`): the handler stores the new draft and
 * redraws the modal from it, so the notes field turns required the moment `Other` is picked (and optional again
 * when it is not), and on a multi-select a notes field appears for each picked option (block id
 * `al_notes_opt:<option index>`, prefilled from the draft; Slack keeps what was typed in a field whose block and
 * action ids a redraw keeps). The required flag reflects the draft the modal was drawn from, so the
 * `view_submission` handler must still check the submitted selection (`answerReadiness`) and answer
 * `response_action: 'errors'` keyed by `NOTES_BLOCK_IDS.notes` when `Other` comes without notes.
 *
 * Blocks: at most 4 + 6 notes per option = 10, far under a modal's 100.
 */
import type { InputBlock } from '@slack/types';
import { NOTES_MAX } from '../../core/limits.js';
import { type Draft, itemsOf, memberRef, type Question, type SetMember } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import { headerMrkdwn, memberHeadingMrkdwn, questionMrkdwn, truncate } from './format.js';
import { ACTION_IDS, CALLBACK_IDS, NOTES_BLOCK_IDS, notesMetadata, optionNotesBlockId } from './ids.js';
import { assertSlackView, SLACK_LIMITS } from './limits.js';
import { pickerElement, shownSelection } from './picker.js';
import type { ModalView } from './types.js';

/**
 * The notes modal for `question` (for a set: its `member`, 0-based), drawn from the viewer's draft of it (else the
 * recommendation is preselected). Throws `RangeError` for a member the set does not have.
 */
export function renderNotesModal(question: Question, draft?: Draft, member?: number): ModalView {
  const index = question.members === undefined ? 0 : (member ?? -1);
  const item = itemsOf(question)[index];
  if (item === undefined) throw new RangeError(`#${question.id} has no member ${String(member)}`);
  const setMember = question.members === undefined ? undefined : (item as SetMember);
  const ref = formatQuestionRef(question.project, question.id);
  const shown = setMember === undefined ? `#${question.id}` : memberRef(question.id, index);
  const selection = shownSelection(item, draft);
  const required = selection.other;
  const notes = initialNotes(draft?.notes);
  const optionNotes: InputBlock[] = item.multiSelect
    ? item.options.flatMap((option, optionIndex) => {
        if (!selection.choices.includes(option.label)) return [];
        const initial = initialNotes(draft?.choiceNotes?.find((entry) => entry.choice === option.label)?.notes);
        return [
          {
            type: 'input',
            block_id: optionNotesBlockId(optionIndex),
            label: { type: 'plain_text', text: `Notes on ${option.label}` },
            element: {
              type: 'plain_text_input',
              action_id: ACTION_IDS.notesOption,
              multiline: true,
              max_length: NOTES_MAX,
              ...(initial === '' ? {} : { initial_value: initial }),
              placeholder: { type: 'plain_text', text: 'What the agent should know about this choice' },
            },
            optional: true,
          },
        ];
      })
    : [];
  const view: ModalView = {
    type: 'modal',
    callback_id: CALLBACK_IDS.notes,
    private_metadata: notesMetadata(ref, setMember === undefined ? undefined : index),
    title: { type: 'plain_text', text: truncate(`Notes for ${shown}`, SLACK_LIMITS.viewTitle) },
    submit: { type: 'plain_text', text: 'Save' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      { type: 'context', elements: [{ type: 'mrkdwn', text: headerMrkdwn(question) }] },
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text:
            setMember === undefined
              ? questionMrkdwn(item)
              : `${memberHeadingMrkdwn(question.id, index, setMember)}\n${questionMrkdwn(item)}`,
        },
      },
      {
        type: 'input',
        block_id: NOTES_BLOCK_IDS.pick,
        label: { type: 'plain_text', text: item.multiSelect ? 'Answers' : 'Answer' },
        element: pickerElement(item, selection, ACTION_IDS.notesPick),
        optional: true,
        dispatch_action: true,
      },
      ...optionNotes,
      {
        type: 'input',
        block_id: NOTES_BLOCK_IDS.notes,
        label: { type: 'plain_text', text: optionNotes.length > 0 ? 'Notes on the whole answer' : 'Notes' },
        element: {
          type: 'plain_text_input',
          action_id: ACTION_IDS.notesText,
          multiline: true,
          max_length: NOTES_MAX,
          ...(notes === '' ? {} : { initial_value: notes }),
          placeholder: { type: 'plain_text', text: 'Anything the agent should know with your answer' },
        },
        optional: !required,
        hint: {
          type: 'plain_text',
          text: required
            ? 'Required with Other: say what the answer is.'
            : 'Optional: notes go to the agent with any choice. Required when you pick Other.',
        },
      },
    ],
  };
  assertSlackView(view);
  return view;
}

/** Stored notes are ≤ NOTES_MAX (checkAnswer); the cut only guards the input's own limit against an older record. */
function initialNotes(notes: string | undefined): string {
  return notes === undefined ? '' : notes.slice(0, NOTES_MAX);
}
