import type { InputBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { NOTES_MAX } from '../../../src/core/limits.js';
import type { Draft } from '../../../src/core/question.js';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { NOTES_BLOCK_IDS, optionNotesBlockId, parseNotesMetadata } from '../../../src/render/slack/ids.js';
import { assertSlackView } from '../../../src/render/slack/limits.js';
import { renderNotesModal } from '../../../src/render/slack/notes-modal.js';
import type { ModalView } from '../../../src/render/slack/types.js';
import { extremeQuestion, extremeSet, makeQuestion, makeSet, sized } from './fixtures.js';

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
    expect(parseNotesMetadata(view.private_metadata)?.ref).toBe(formatQuestionRef(question.project, 7));
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

describe('renderNotesModal: notes per option and set members', () => {
  const multi = makeQuestion({ multiSelect: true, recommended: ['Use Postgres', 'Use Redis'] });

  function optionInputs(view: ModalView): InputBlock[] {
    return view.blocks.filter(
      (block): block is InputBlock => block.type === 'input' && (block.block_id ?? '').startsWith('al_notes_opt:'),
    );
  }

  it('GIVEN a multi-select THEN each picked option has a notes field, prefilled from the draft, beside the answer notes', () => {
    const shown: Draft = {
      ...draft(['Use Redis'], false, 'overall'),
      choiceNotes: [{ choice: 'Use Redis', notes: 'the cache one' }],
    };
    const view = renderNotesModal(multi, shown);
    expect(optionInputs(view)).toEqual([
      {
        type: 'input',
        block_id: optionNotesBlockId(1),
        label: { type: 'plain_text', text: 'Notes on Use Redis' },
        element: {
          type: 'plain_text_input',
          action_id: 'al_notes_opt',
          multiline: true,
          max_length: NOTES_MAX,
          initial_value: 'the cache one',
          placeholder: { type: 'plain_text', text: 'What the agent should know about this choice' },
        },
        optional: true,
      },
    ]);
    expect(inputBlock(view, NOTES_BLOCK_IDS.notes).label.text).toBe('Notes on the whole answer');
    expect(view.blocks.at(-1)).toBe(inputBlock(view, NOTES_BLOCK_IDS.notes));
  });

  it('GIVEN a multi-select with no draft THEN every recommended option is preselected and has its notes field', () => {
    const view = renderNotesModal(multi);
    expect(optionInputs(view).map((block) => block.block_id)).toEqual([optionNotesBlockId(0), optionNotesBlockId(1)]);
    expect(inputBlock(view, NOTES_BLOCK_IDS.pick).element).toMatchObject({
      type: 'multi_static_select',
      initial_options: [{ value: '0' }, { value: '1' }],
    });
  });

  it('GIVEN a single-select THEN there are only the answer notes', () => {
    expect(optionInputs(renderNotesModal(makeQuestion(), draft(['Use Redis'])))).toEqual([]);
  });

  it('GIVEN a member of a set THEN the modal names it, carries it in the metadata and offers its own options', () => {
    const set = makeSet();
    const view = renderNotesModal(set, draft(['Redis', 'None']), 1);
    expect(view.title.text).toBe('Notes for #12.2');
    expect(parseNotesMetadata(view.private_metadata)).toEqual({ ref: formatQuestionRef(set.project, 12), member: 1 });
    expect(parseNotesMetadata(view.private_metadata)?.ref).toBe(formatQuestionRef(set.project, 12));
    expect(view.blocks[1]).toMatchObject({ text: { text: '#12.2 · *Caches*\n*Which caches may billing use?*' } });
    expect(inputBlock(view, NOTES_BLOCK_IDS.pick).element).toMatchObject({
      type: 'multi_static_select',
      initial_options: [{ value: '0' }, { value: '2' }],
    });
    expect(optionInputs(view).map((block) => block.label.text)).toEqual(['Notes on Redis', 'Notes on None']);
  });

  it('GIVEN a member a set does not have, or a set without a member THEN it throws a RangeError', () => {
    expect(() => renderNotesModal(makeSet(), undefined, 3)).toThrow(RangeError);
    expect(() => renderNotesModal(makeSet())).toThrow(RangeError);
  });

  it('GIVEN the largest set member with every option picked and every note at NOTES_MAX THEN the modal fits Slack limits', () => {
    const set = extremeSet('options', '&');
    for (const [index, member] of set.members.entries()) {
      const full: Draft = {
        ...draft(
          member.options.map((option) => option.label),
          true,
          sized('<&', NOTES_MAX),
        ),
        choiceNotes: member.options.map((option) => ({ choice: option.label, notes: sized('&', NOTES_MAX) })),
      };
      const view = renderNotesModal(set, full, index);
      expect(() => assertSlackView(view)).not.toThrow();
      expect(optionInputs(view)).toHaveLength(6);
      expect(view.title.text).toBe(`Notes for #123456789.${index + 1}`);
    }
  });
});
