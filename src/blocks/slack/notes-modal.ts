/**
 * The "Add notes" modal: the question, a picker and a notes field, so a person can pick and explain in one place.
 * Pure: the bridge opens it with `views.open` (the click's fresh `trigger_id`) and redraws it with `views.update`.
 *
 * The picker is an input block that dispatches on change (`dispatch_action`): the handler stores the new draft and
 * redraws the modal from it, so the notes field turns required the moment `Other` is picked (and optional again
 * when it is not). The required flag reflects the draft the modal was drawn from, so the `view_submission` handler
 * must still check the submitted selection (`answerReadiness`) and answer `response_action: 'errors'` keyed by
 * `NOTES_BLOCK_IDS.notes` when `Other` comes without notes.
 */
import { NOTES_MAX } from '../../core/limits.js';
import type { Draft, Question } from '../../core/question.js';
import { formatQuestionRef } from '../../core/question-ref.js';
import { headerMrkdwn, questionMrkdwn, truncate } from './format.js';
import { ACTION_IDS, CALLBACK_IDS, NOTES_BLOCK_IDS } from './ids.js';
import { assertSlackView, SLACK_LIMITS } from './limits.js';
import { pickerElement, shownSelection } from './picker.js';
import type { ModalView } from './types.js';

/** The notes modal for `question`, drawn from the viewer's draft (else the recommendation is preselected). */
export function renderNotesModal(question: Question, draft?: Draft): ModalView {
  const selection = shownSelection(question, draft);
  const required = selection.other;
  // Stored notes are ≤ NOTES_MAX (checkAnswer); the cut only guards the input's own limit against an older record.
  const notes = draft?.notes === undefined ? '' : draft.notes.slice(0, NOTES_MAX);
  const view: ModalView = {
    type: 'modal',
    callback_id: CALLBACK_IDS.notes,
    private_metadata: formatQuestionRef(question.project, question.id),
    title: { type: 'plain_text', text: truncate(`Notes for #${question.id}`, SLACK_LIMITS.viewTitle) },
    submit: { type: 'plain_text', text: 'Save' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      { type: 'context', elements: [{ type: 'mrkdwn', text: headerMrkdwn(question) }] },
      { type: 'section', text: { type: 'mrkdwn', text: questionMrkdwn(question) } },
      {
        type: 'input',
        block_id: NOTES_BLOCK_IDS.pick,
        label: { type: 'plain_text', text: question.multiSelect ? 'Answers' : 'Answer' },
        element: pickerElement(question, selection, ACTION_IDS.notesPick),
        optional: true,
        dispatch_action: true,
      },
      {
        type: 'input',
        block_id: NOTES_BLOCK_IDS.notes,
        label: { type: 'plain_text', text: 'Notes' },
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
