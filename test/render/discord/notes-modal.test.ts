import type { APILabelComponent, APIStringSelectComponent, APITextInputComponent } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { NOTES_MAX } from '../../../src/core/limits.js';
import type { Draft } from '../../../src/core/question.js';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { NOTES_MODAL_FIELDS, parseCustomId } from '../../../src/render/discord/ids.js';
import { DISCORD_LIMITS } from '../../../src/render/discord/limits.js';
import {
  pickedOptions,
  renderNotes,
  renderNotesModal,
  renderTargetModal,
} from '../../../src/render/discord/notes-modal.js';
import type { DiscordModal } from '../../../src/render/discord/types.js';
import {
  CREATED_AT,
  extremeAnswer,
  extremeQuestion,
  extremeSet,
  extremeSetAnswer,
  makeQuestion,
  makeSet,
} from './fixtures.js';

const ref = formatQuestionRef('/home/ada/src/shop', 7);
const setRef = formatQuestionRef('/home/ada/src/shop', 12);

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

describe('renderNotes: the modal or the notes menu', () => {
  const texts = (modal: DiscordModal) => labels(modal).map((label) => label.component);
  const ids = (modal: DiscordModal) => texts(modal).map((component) => component.custom_id);

  it('GIVEN a single-select question THEN the modal is the one it always was', () => {
    const view = renderNotes(makeQuestion(), [undefined]);
    expect(view.kind).toBe('modal');
    if (view.kind !== 'modal') return;
    expect(view.modal).toEqual(renderNotesModal(makeQuestion()));
    expect(ids(view.modal)).toEqual(['choice', 'notes']);
  });

  it('GIVEN a multi-select question with two picks THEN the modal adds a notes field per picked option, prefilled', () => {
    const question = makeQuestion({ multiSelect: true });
    const picked = draft({
      choices: ['Use Postgres', 'Use Redis'],
      choiceNotes: [{ choice: 'Use Redis', notes: 'only for sessions' }],
    });
    const view = renderNotes(question, [picked]);
    if (view.kind !== 'modal') throw new Error('expected a modal');
    expect(ids(view.modal)).toEqual(['choice', 'notes', 'option:0', 'option:1']);
    expect(labels(view.modal).map((label) => label.label)).toEqual([
      'Answers',
      'Notes',
      'Notes on Use Postgres',
      'Notes on Use Redis',
    ]);
    expect(texts(view.modal)[3]).toMatchObject({ type: 4, value: 'only for sessions', required: false });
    expect(labels(view.modal)[3]?.description).toBe('About your pick "Use Redis"');
  });

  it('GIVEN a multi-select question with three picks THEN the notes menu: one select, the answer notes then each pick', () => {
    const question = makeQuestion({
      multiSelect: true,
      options: [{ label: 'A' }, { label: 'B' }, { label: 'C' }],
      recommended: ['A', 'B', 'C'],
    });
    const view = renderNotes(question, [draft({ choices: ['A', 'B', 'C'], notes: 'all three' })]);
    if (view.kind !== 'menu') throw new Error('expected the menu');
    expect(view.message.components).toHaveLength(1);
    const select = view.message.components[0]?.components[0];
    if (select?.type !== 3) throw new Error('no select');
    expect(parseCustomId(select.custom_id)).toEqual({ kind: 'notes-for', ref });
    expect(select.options.map((option) => [option.label, option.value, option.description])).toEqual([
      ['✎ Notes on the answer', 'notes', 'all three'],
      ['Notes on A', '0', 'About this pick'],
      ['Notes on B', '1', 'About this pick'],
      ['Notes on C', '2', 'About this pick'],
    ]);
  });

  it('GIVEN the set of three with the recommendations shown THEN one modal holds all 5 notes: each answer, and each pick of Caches', () => {
    const set = makeSet();
    const view = renderNotes(set, [undefined, undefined, undefined]);
    if (view.kind !== 'modal') throw new Error('expected a modal');
    expect(view.modal.title).toBe('Notes for #12');
    expect(parseCustomId(view.modal.custom_id)).toEqual({ kind: 'notes-modal', ref: setRef });
    expect(ids(view.modal)).toEqual(['notes:0', 'notes:1', 'option:0:1', 'option:1:1', 'notes:2']);
    expect(labels(view.modal).map((label) => label.label)).toEqual([
      'Notes · Database',
      'Notes · Caches',
      'Caches · Redis',
      'Caches · In-process',
      'Notes · Naming',
    ]);
    expect(labels(view.modal)[0]?.description).toBe('Which database should billing use?');
    expect(view.modal.components.every((component) => component.type === 18)).toBe(true);
  });

  it('GIVEN Other picked on a member THEN its notes field says they are required', () => {
    const view = renderNotes(makeSet(), [undefined, undefined, draft({ other: true })]);
    if (view.kind !== 'modal') throw new Error('expected a modal');
    expect(labels(view.modal)[4]?.description).toBe('Required: you picked Other. What do we call the new service?');
  });

  it('GIVEN a set from the inbox THEN the modal carries the inbox state', () => {
    const view = renderNotes(makeSet(), [], { inbox: { filter: 'blocking' } });
    if (view.kind !== 'modal') throw new Error('expected a modal');
    expect(parseCustomId(view.modal.custom_id)).toEqual({
      kind: 'notes-modal',
      ref: setRef,
      inbox: { filter: 'blocking' },
    });
  });

  it('GIVEN a set with more notes than a modal holds THEN the menu: a select per member, each listing its answer notes and picks, ✎ where notes are', () => {
    const set = makeSet();
    const caches = draft({
      choices: ['Redis', 'In-process', 'None'],
      choiceNotes: [{ choice: 'None', notes: 'if it must' }],
    });
    const view = renderNotes(set, [undefined, caches, undefined]);
    if (view.kind !== 'menu') throw new Error('expected the menu');
    expect(view.message.content).toContain('**#12**');
    const rows = view.message.components.map((row) => row.components[0]);
    expect(rows.map((select) => parseCustomId(select?.custom_id))).toEqual([
      { kind: 'notes-for', ref: setRef, member: 0 },
      { kind: 'notes-for', ref: setRef, member: 1 },
      { kind: 'notes-for', ref: setRef, member: 2 },
    ]);
    const cachesSelect = rows[1];
    if (cachesSelect?.type !== 3) throw new Error('no select');
    expect(cachesSelect.placeholder).toBe('#12.2 · Caches: write notes on…');
    expect(cachesSelect.options.map((option) => option.label)).toEqual([
      'Notes on the answer',
      'Notes on Redis',
      'Notes on In-process',
      '✎ Notes on None',
    ]);
    expect(cachesSelect.options[3]?.description).toBe('if it must');
  });

  it('GIVEN a note chosen in the menu THEN its modal holds that note alone, prefilled, and its id says it came from the menu', () => {
    const set = makeSet();
    const caches = draft({ choices: ['Redis'], choiceNotes: [{ choice: 'Redis', notes: 'shared' }] });
    const modal = renderTargetModal(set, 1, 0, caches);
    expect(parseCustomId(modal.custom_id)).toEqual({ kind: 'notes-modal', ref: setRef, menu: true });
    expect(modal.title).toBe('Notes for #12.2');
    expect(modal.components[0]).toEqual({ type: 10, content: '**#12.2 · Caches** · Which caches may billing use?' });
    expect(labels(modal).map((label) => [label.label, label.component.custom_id])).toEqual([
      ['Caches · Redis', 'option:0:1'],
    ]);
    expect(labels(modal)[0]?.component).toMatchObject({ value: 'shared' });
    const answer = renderTargetModal(makeQuestion({ multiSelect: true }), undefined, 'answer', undefined);
    expect(labels(answer).map((label) => [label.label, label.component.custom_id])).toEqual([['Notes', 'notes']]);
  });

  it('GIVEN the largest set with every option picked and notes everywhere THEN the menu and every modal it opens fit Discord', () => {
    const set = extremeSet('options');
    const drafts = extremeSetAnswer(set).members.map((selection) => ({ ...selection, updatedAt: CREATED_AT }));
    const view = renderNotes(set, drafts);
    if (view.kind !== 'menu') throw new Error('expected the menu');
    expect(view.message.components.length).toBeLessThanOrEqual(DISCORD_LIMITS.actionRows);
    for (const [member, item] of set.members.entries()) {
      const targets: ('answer' | number)[] = ['answer', ...pickedOptions(item, drafts[member])];
      for (const target of targets) {
        const modal = renderTargetModal(set, member, target, drafts[member]);
        for (const label of labels(modal)) expect(label.label.length).toBeLessThanOrEqual(DISCORD_LIMITS.labelText);
        expect(modal.title.length).toBeLessThanOrEqual(DISCORD_LIMITS.modalTitle);
      }
    }
  });
});
