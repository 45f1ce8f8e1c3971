import type { InputBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { NOTES_BLOCK_IDS, refFromNotesMetadata } from '../../../src/blocks/slack/ids.js';
import { assertSlackView } from '../../../src/blocks/slack/limits.js';
import { renderNotesModal } from '../../../src/blocks/slack/notes-modal.js';
import type { ModalView } from '../../../src/blocks/slack/types.js';
import { NOTES_MAX } from '../../../src/core/limits.js';
import type { Draft } from '../../../src/core/question.js';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { extremeQuestion, makeQuestion, sized } from './fixtures.js';

function draft(choices: string[], other = false, notes?: string): Draft {
  return notes === undefined ? { choices, other, updatedAt: 1 } : { choices, other, notes, updatedAt: 1 };
}

function inputBlock(view: ModalView, blockId: string): InputBlock {
  const block = view.blocks.find((candidate) => candidate.type === 'input' && candidate.block_id === blockId);
  if (block?.type !== 'input') throw new Error(`no input ${blockId}`);
  return block;
}

describe('renderNotesModal', () => {
  const question = makeQuestion();

  it('GIVEN a question THEN the modal is al_notes with the ref as metadata, Save and Cancel', () => {
    const view = renderNotesModal(question);
    expect(view).toMatchObject({
      type: 'modal',
      callback_id: 'al_notes',
      title: { type: 'plain_text', text: 'Notes for #7' },
      submit: { type: 'plain_text', text: 'Save' },
      close: { type: 'plain_text', text: 'Cancel' },
    });
    expect(refFromNotesMetadata(view.private_metadata)).toBe(formatQuestionRef(question.project, 7));
    expect(view.blocks[1]).toMatchObject({ type: 'section', text: { text: '*Which store should sessions use?*' } });
  });

  const REQUIRED: [string, Draft | undefined, boolean][] = [
    ['no draft', undefined, false],
    ['a draft picking an option', draft(['Use Redis']), false],
    ['a draft picking nothing', draft([]), false],
    ['a draft picking Other', draft([], true), true],
    ['a draft picking Other with notes', draft([], true, 'use files'), true],
  ];
  it.each(REQUIRED)('GIVEN %s THEN the notes are required: %s', (_name, shown, required) => {
    const notes = inputBlock(renderNotesModal(question, shown), NOTES_BLOCK_IDS.notes);
    expect(notes.optional).toBe(!required);
    expect(notes.hint?.text).toBe(
      required
        ? 'Required with Other: say what the answer is.'
        : 'Optional: notes go to the agent with any choice. Required when you pick Other.',
    );
  });

  it('GIVEN a draft with notes THEN the multiline input holds them, up to NOTES_MAX', () => {
    const notes = sized('a note ', NOTES_MAX);
    const view = renderNotesModal(question, draft(['Use Redis'], false, notes));
    expect(inputBlock(view, NOTES_BLOCK_IDS.notes).element).toEqual({
      type: 'plain_text_input',
      action_id: 'al_notes_text',
      multiline: true,
      max_length: NOTES_MAX,
      initial_value: notes,
      placeholder: { type: 'plain_text', text: 'Anything the agent should know with your answer' },
    });
  });

  it('GIVEN a draft THEN the picker in the modal preselects it and dispatches on change', () => {
    const picker = inputBlock(renderNotesModal(question, draft(['Use Redis'])), NOTES_BLOCK_IDS.pick);
    expect(picker).toMatchObject({ optional: true, dispatch_action: true });
    expect(picker.element).toMatchObject({
      type: 'static_select',
      action_id: 'al_notes_pick',
      initial_option: { value: '1' },
    });
  });

  it('GIVEN no draft THEN the picker preselects the recommendation', () => {
    const picker = inputBlock(renderNotesModal(question), NOTES_BLOCK_IDS.pick);
    expect(picker.element).toMatchObject({ initial_option: { value: '0', text: { text: '★ Use Postgres' } } });
  });

  it('GIVEN the extreme question with the longest id and notes THEN the modal fits Slack limits', () => {
    const extreme = extremeQuestion('&');
    const view = renderNotesModal(extreme, draft([], true, sized('<&', NOTES_MAX)));
    expect(() => assertSlackView(view)).not.toThrow();
    expect(view.title.text).toBe('Notes for #123456789');
    expect(inputBlock(view, NOTES_BLOCK_IDS.pick).element.type).toBe('multi_static_select');
  });
});
