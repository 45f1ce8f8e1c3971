import { describe, expect, it } from 'vitest';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import {
  formatInboxState,
  labelForSelectValue,
  memberFromAction,
  notesMetadata,
  OTHER_SELECT_VALUE,
  optionNotesBlockId,
  pagedState,
  parseInboxFilter,
  parseInboxPaging,
  parseInboxState,
  parseNotesMetadata,
  parseQuestionBlockId,
  parseRefValue,
  parseSendRefs,
  questionBlockId,
  refFromAction,
  selectionFromSelectState,
  selectValue,
  selectValueForLabel,
} from '../../../src/render/slack/ids.js';
import { makeQuestion } from './fixtures.js';

const ref = formatQuestionRef('/home/ada/src/shop', 7);
const question = makeQuestion({
  options: [{ label: 'Use Postgres' }, { label: 'Use Redis' }, { label: 'Use SQLite' }],
});

const GARBAGE: unknown[] = [undefined, null, 42, '', {}, [], 'al_q', 'al_q:nope:1', `al_q:${ref}`, `al_q:${ref}:x`];

describe('question refs in payloads', () => {
  it('GIVEN a ref and revision THEN the block id carries both and reads back', () => {
    const blockId = questionBlockId(ref, 3);
    expect(blockId).toBe(`al_q:${ref}:3`);
    expect(blockId.length).toBeLessThanOrEqual(255);
    expect(parseQuestionBlockId(blockId)).toEqual({ ref, revision: 3 });
    expect(parseQuestionBlockId(questionBlockId(ref, 1_760_000_000_123))).toEqual({ ref, revision: 1_760_000_000_123 });
  });

  it.each(GARBAGE)('GIVEN the block id %j THEN no ref is read, and nothing throws', (blockId) => {
    expect(parseQuestionBlockId(blockId)).toBeUndefined();
    expect(refFromAction({ block_id: blockId })).toBeUndefined();
  });

  it.each([undefined, null, 7, '', 'shop.7', `${ref} `])('GIVEN the value %j THEN it is not a ref', (value) => {
    expect(parseRefValue(value)).toBeUndefined();
    expect(parseNotesMetadata(value)?.ref).toBeUndefined();
  });

  const ACTIONS: [string, unknown, string | undefined][] = [
    ['a button with the ref as value', { action_id: 'al_send', block_id: 'whatever', value: ref }, ref],
    [
      'a select with the ref in its block id',
      { action_id: 'al_pick', block_id: questionBlockId(ref, 2), selected_option: { value: '0' } },
      ref,
    ],
    ['a button with a bad value in a question block', { value: 'nope', block_id: questionBlockId(ref, 2) }, ref],
    ['an action without either', { action_id: 'al_send' }, undefined],
    ['not an object', 'al_send', undefined],
    ['null', null, undefined],
  ];
  it.each(ACTIONS)('GIVEN %s THEN refFromAction reads the ref (or nothing)', (_name, action, expected) => {
    expect(refFromAction(action)).toBe(expected);
  });
});

describe('option values', () => {
  it('GIVEN each option and Other THEN value and label map both ways', () => {
    question.options.forEach((option, index) => {
      expect(selectValue(index)).toBe(String(index));
      expect(selectValueForLabel(question, option.label)).toBe(String(index));
      expect(labelForSelectValue(question, String(index))).toBe(option.label);
    });
    expect(selectValueForLabel(question, 'Other')).toBe(OTHER_SELECT_VALUE);
    expect(labelForSelectValue(question, OTHER_SELECT_VALUE)).toBe('Other');
  });

  it.each([
    undefined,
    null,
    0,
    '3',
    '01',
    '-1',
    '1.0',
    'Use Redis',
    'Other',
    '',
  ])('GIVEN the value %j THEN it names no label', (value) => {
    expect(labelForSelectValue(question, value)).toBeUndefined();
  });

  it('GIVEN an unknown label THEN it has no value', () => {
    expect(selectValueForLabel(question, 'Use Mongo')).toBeUndefined();
  });

  const STATES: [string, unknown, ReturnType<typeof selectionFromSelectState>][] = [
    ['one option', { selected_option: { value: '1' } }, { choices: ['Use Redis'], other: false }],
    ['Other', { selected_option: { value: 'other' } }, { choices: [], other: true }],
    ['nothing (null)', { selected_option: null }, { choices: [], other: false }],
    [
      'several, out of order, with Other',
      { selected_options: [{ value: '2' }, { value: 'other' }, { value: '0' }] },
      { choices: ['Use Postgres', 'Use SQLite'], other: true },
    ],
    ['an empty multi-select', { selected_options: [] }, { choices: [], other: false }],
    ['an unknown value', { selected_option: { value: '9' } }, undefined],
    ['a malformed entry', { selected_options: ['0'] }, undefined],
    ['not an object', 'x', undefined],
  ];
  it.each(STATES)('GIVEN a select state with %s THEN the selection is read', (_name, state, expected) => {
    expect(selectionFromSelectState(question, state)).toEqual(expected);
  });
});

describe('inbox state', () => {
  const r1 = formatQuestionRef('/p/one', 7);
  const r2 = formatQuestionRef('/p/two', 12);

  it('GIVEN a state THEN private_metadata holds it as JSON and reads back', () => {
    expect(formatInboxState({ filter: 'non-blocking' })).toBe('{"filter":"non-blocking"}');
    const text = formatInboxState({ filter: 'all', after: r2, back: ['', r1] });
    expect(text).toBe(`{"filter":"all","after":"${r2}","back":["","${r1}"]}`);
    expect(parseInboxState(text)).toEqual({ filter: 'all', after: r2, back: ['', r1] });
  });

  it.each([
    undefined,
    '',
    'not json',
    'null',
    '[]',
    '{"filter":"x"}',
    '{"filter":"all","after":"nope"}',
    '{"filter":"all","back":["nope"]}',
    `{"filter":"all","back":${JSON.stringify(Array.from({ length: 21 }, () => ''))}}`,
  ])('GIVEN the metadata %j THEN no state is read', (metadata) => {
    expect(parseInboxState(metadata)).toBeUndefined();
  });

  it('GIVEN filter and paging values THEN only valid ones are read', () => {
    expect(parseInboxFilter('blocking')).toBe('blocking');
    expect(parseInboxFilter('Blocking')).toBeUndefined();
    expect(parseInboxPaging('previous')).toEqual({ to: 'previous' });
    expect(parseInboxPaging(`next:${r1}`)).toEqual({ to: 'next', after: r1 });
    expect(parseInboxPaging('next:nope')).toBeUndefined();
    expect(parseInboxPaging(3)).toBeUndefined();
    expect(parseSendRefs(`${r1} ${r2} junk`)).toEqual([r1, r2]);
    expect(parseSendRefs(undefined)).toEqual([]);
  });

  it('GIVEN Next then Previous THEN the state walks forward and back to the first page', () => {
    const second = pagedState({ filter: 'blocking' }, { to: 'next', after: r1 });
    expect(second).toEqual({ filter: 'blocking', after: r1, back: [''] });
    const third = pagedState(second, { to: 'next', after: r2 });
    expect(third).toEqual({ filter: 'blocking', after: r2, back: ['', r1] });
    expect(pagedState(third, { to: 'previous' })).toEqual({ filter: 'blocking', after: r1, back: [''] });
    expect(pagedState(second, { to: 'previous' })).toEqual({ filter: 'blocking' });
    expect(pagedState({ filter: 'all' }, { to: 'previous' })).toEqual({ filter: 'all' });
  });
});

describe('members of a set in payloads', () => {
  it('GIVEN a member THEN its block id carries ref, revision and member, and reads back; a single question’s does not', () => {
    const blockId = questionBlockId(ref, 3, 2);
    expect(blockId).toBe(`al_q:${ref}:3:2`);
    expect(parseQuestionBlockId(blockId)).toEqual({ ref, revision: 3, member: 2 });
    expect(parseQuestionBlockId(questionBlockId(ref, 3))).toEqual({ ref, revision: 3 });
    expect(memberFromAction({ action_id: 'al_pick', block_id: blockId })).toBe(2);
    expect(memberFromAction({ action_id: 'al_notes', block_id: questionBlockId(ref, 3), value: ref })).toBeUndefined();
    expect(refFromAction({ action_id: 'al_notes', block_id: blockId, value: ref })).toBe(ref);
  });

  it.each([
    `al_q:${ref}:3:`,
    `al_q:${ref}:3:10`,
    `al_q:${ref}:3:x`,
    `al_q:${ref}:3:1:1`,
  ])('GIVEN the block id %j THEN no member is read', (blockId) => {
    expect(parseQuestionBlockId(blockId)).toBeUndefined();
    expect(memberFromAction({ block_id: blockId })).toBeUndefined();
  });

  it('GIVEN the notes modal of a member THEN its metadata carries ref and member; a single question’s stays the bare ref', () => {
    expect(notesMetadata(ref)).toBe(ref);
    expect(parseNotesMetadata(ref)).toEqual({ ref });
    const member = notesMetadata(ref, 1);
    expect(JSON.parse(member)).toEqual({ ref, member: 1 });
    expect(parseNotesMetadata(member)).toEqual({ ref, member: 1 });
    expect(parseNotesMetadata(JSON.stringify({ ref, member: 'x' }))).toEqual({ ref });
    expect(parseNotesMetadata(JSON.stringify({ ref: 'nope', member: 1 }))).toBeUndefined();
    expect(parseNotesMetadata('{')).toBeUndefined();
    expect(optionNotesBlockId(4)).toBe('al_notes_opt:4');
  });

  it('GIVEN a set member THEN its select values map to its own labels', () => {
    const member = { options: [{ label: 'Redis' }, { label: 'In-process' }] };
    expect(selectionFromSelectState(member, { selected_options: [{ value: '1' }, { value: 'other' }] })).toEqual({
      choices: ['In-process'],
      other: true,
    });
    expect(selectionFromSelectState(member, { selected_options: [{ value: '2' }] })).toBeUndefined();
  });
});
