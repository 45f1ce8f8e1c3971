import type { APILabelComponent, APIStringSelectComponent, APITextInputComponent } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { NOTES_MODAL_FIELDS, parseCustomId } from '../../../src/blocks/discord/ids.js';
import { DISCORD_LIMITS } from '../../../src/blocks/discord/limits.js';
import { renderNotesModal } from '../../../src/blocks/discord/notes-modal.js';
import type { DiscordModal } from '../../../src/blocks/discord/types.js';
import { NOTES_MAX } from '../../../src/core/limits.js';
import type { Draft } from '../../../src/core/question.js';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { CREATED_AT, extremeAnswer, extremeQuestion, makeQuestion } from './fixtures.js';

const ref = formatQuestionRef('/home/ada/src/shop', 7);

function labels(modal: DiscordModal): APILabelComponent[] {
  return modal.components.filter((component): component is APILabelComponent => component.type === 18);
}
function choice(modal: DiscordModal): APIStringSelectComponent {
  const component = labels(modal)[0]?.component;
  if (component?.type !== 3) throw new Error('no select');
  return component;
}
function notes(modal: DiscordModal): APITextInputComponent {
  const component = labels(modal)[1]?.component;
  if (component?.type !== 4) throw new Error('no text input');
  return component;
}
const draft = (overrides: Partial<Draft>): Draft => ({
  choices: [],
  other: false,
  updatedAt: CREATED_AT,
  ...overrides,
});

describe('renderNotesModal', () => {
  it('GIVEN no draft THEN the modal has the question, an Answer select with the recommendation and an optional Notes paragraph', () => {
    const modal = renderNotesModal(makeQuestion());
    expect(modal.title).toBe('Notes for #7');
    expect(parseCustomId(modal.custom_id)).toEqual({ kind: 'notes-modal', ref });
    expect(modal.components.map((component) => component.type)).toEqual([10, 18, 18]);
    expect(modal.components[0]).toEqual({ type: 10, content: '**#7** · Which store should sessions use?' });
    expect(labels(modal).map((label) => label.label)).toEqual(['Answer', 'Notes']);
    const select = choice(modal);
    expect(select.custom_id).toBe(NOTES_MODAL_FIELDS.choice);
    expect(select.required).toBe(true);
    expect(select.options.filter((option) => option.default).map((option) => option.value)).toEqual(['0']);
    expect(select.options.at(-1)?.value).toBe('other');
    expect(notes(modal)).toEqual({
      type: 4,
      custom_id: NOTES_MODAL_FIELDS.notes,
      style: 2,
      max_length: NOTES_MAX,
      required: false,
      placeholder: 'Anything the agent should know with your answer',
    });
  });

  it('GIVEN a draft with Other and notes THEN they are preselected and filled in', () => {
    const modal = renderNotesModal(makeQuestion(), draft({ other: true, notes: 'Use files' }));
    expect(
      choice(modal)
        .options.filter((option) => option.default)
        .map((option) => option.value),
    ).toEqual(['other']);
    expect(notes(modal).value).toBe('Use files');
  });

  it('GIVEN a multi-select question and a draft of two THEN both are preselected and up to all may be picked', () => {
    const question = makeQuestion({ multiSelect: true });
    const modal = renderNotesModal(question, draft({ choices: ['Use Postgres', 'Use Redis'] }));
    expect(labels(modal)[0]?.label).toBe('Answers');
    expect(choice(modal).max_values).toBe(3);
    expect(choice(modal).options.filter((option) => option.default)).toHaveLength(2);
  });

  it('GIVEN a single-select question and a stray draft of two THEN only the first is preselected (Discord refuses more)', () => {
    const modal = renderNotesModal(makeQuestion(), draft({ choices: ['Use Postgres', 'Use Redis'] }));
    expect(
      choice(modal)
        .options.filter((option) => option.default)
        .map((option) => option.value),
    ).toEqual(['0']);
  });

  it('GIVEN it is opened from the inbox THEN its custom id carries the inbox state', () => {
    const modal = renderNotesModal(makeQuestion(), undefined, { inbox: { filter: 'blocking', after: ref } });
    expect(parseCustomId(modal.custom_id)).toEqual({
      kind: 'notes-modal',
      ref,
      inbox: { filter: 'blocking', after: ref },
    });
  });

  it('GIVEN the extreme question and 3000 characters of notes THEN the modal fits every limit', () => {
    const question = extremeQuestion();
    const modal = renderNotesModal(question, { ...extremeAnswer(question), updatedAt: CREATED_AT });
    expect(modal.title.length).toBeLessThanOrEqual(DISCORD_LIMITS.modalTitle);
    expect(modal.components.length).toBeLessThanOrEqual(DISCORD_LIMITS.modalComponents);
    expect(notes(modal).value).toHaveLength(NOTES_MAX);
    expect(choice(modal).options.filter((option) => option.default)).toHaveLength(7);
    expect(modal.components[0]).toMatchObject({ type: 10 });
    expect(JSON.stringify(modal.components[0])).not.toMatch(/@(everyone|here)/);
  });
});
