import { describe, expect, it } from 'vitest';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { REVIEW_CHECK_LENGTH } from '../../../src/core/review-check.js';
import {
  CUSTOM_ID_MAX,
  type DiscordCustomId,
  formatCustomId,
  formatNotesField,
  labelForSelectValue,
  type NotesField,
  OTHER_SELECT_VALUE,
  parseCustomId,
  parseNotesField,
  selectionFromValues,
  selectValue,
  selectValueForLabel,
} from '../../../src/render/discord/ids.js';
import { makeQuestion } from './fixtures.js';

const ref = formatQuestionRef('/home/ada/src/shop', 7);
const longRef = formatQuestionRef('/home/ada/src/shop', 999_999_999);

const IDS: [string, DiscordCustomId][] = [
  [`al:pick:${ref}`, { kind: 'pick', ref }],
  [`al:notes:${ref}`, { kind: 'notes', ref }],
  [`al:send:${ref}`, { kind: 'send', ref }],
  [`al:remove:${ref}`, { kind: 'remove', ref }],
  [`al:remove-yes:${ref}`, { kind: 'remove-yes', ref }],
  [`al:remove-no:${ref}`, { kind: 'remove-no', ref }],
  [`al:notes-modal:${ref}`, { kind: 'notes-modal', ref }],
  [
    `al:notes-modal:${ref}:non-blocking:${ref}`,
    { kind: 'notes-modal', ref, inbox: { filter: 'non-blocking', after: ref } },
  ],
  ['al:inbox-filter', { kind: 'inbox-filter' }],
  ['al:inbox-question:all:-', { kind: 'inbox-question', inbox: { filter: 'all' } }],
  [`al:inbox-pick:${ref}:blocking:${ref}`, { kind: 'inbox-pick', ref, inbox: { filter: 'blocking', after: ref } }],
  [`al:inbox-notes:${ref}:all:-`, { kind: 'inbox-notes', ref, inbox: { filter: 'all' } }],
  ['al:inbox-send:non-blocking:-', { kind: 'inbox-send', inbox: { filter: 'non-blocking' } }],
  [`al:inbox-page:all:${longRef}`, { kind: 'inbox-page', inbox: { filter: 'all', after: longRef } }],
  [`al:pick:${ref}:0`, { kind: 'pick', ref, member: 0 }],
  [`al:pick:${ref}:3`, { kind: 'pick', ref, member: 3 }],
  [`al:notes-for:${ref}`, { kind: 'notes-for', ref }],
  [`al:notes-for:${ref}:2`, { kind: 'notes-for', ref, member: 2 }],
  [`al:send-yes:${ref}:aB3_-x9Z`, { kind: 'send-yes', ref, check: 'aB3_-x9Z' }],
  [`al:notes-modal:${ref}:menu`, { kind: 'notes-modal', ref, menu: true }],
  [
    `al:inbox-pick:${ref}:1:blocking:${ref}`,
    { kind: 'inbox-pick', ref, member: 1, inbox: { filter: 'blocking', after: ref } },
  ],
];

describe('custom ids', () => {
  it.each(IDS)('GIVEN %s THEN it is formatted that way, fits 100 characters and parses back', (text, id) => {
    expect(formatCustomId(id)).toBe(text);
    expect(text.length).toBeLessThanOrEqual(CUSTOM_ID_MAX);
    expect(parseCustomId(text)).toEqual(id);
  });

  it('GIVEN the longest ref, filter and cursor THEN every id stays within 100 characters', () => {
    const inbox = { filter: 'non-blocking', after: longRef } as const;
    for (const id of [
      formatCustomId({ kind: 'inbox-pick', ref: longRef, inbox }),
      formatCustomId({ kind: 'inbox-pick', ref: longRef, member: 3, inbox }),
      formatCustomId({ kind: 'send-yes', ref: longRef, check: 'x'.repeat(REVIEW_CHECK_LENGTH) }),
      formatCustomId({ kind: 'notes-for', ref: longRef, member: 3 }),
      formatCustomId({ kind: 'notes-modal', ref: longRef, inbox }),
      formatCustomId({ kind: 'remove-yes', ref: longRef }),
    ]) {
      expect(id.length).toBeLessThanOrEqual(CUSTOM_ID_MAX);
      expect(parseCustomId(id)).toBeDefined();
    }
  });

  const GARBAGE: unknown[] = [
    undefined,
    null,
    42,
    {},
    [],
    '',
    'al',
    'al:',
    'al:pick',
    'al:pick:',
    `al:pick:${ref}:extra`,
    'al:pick:shop.7',
    `xx:pick:${ref}`,
    `al:unknown:${ref}`,
    `AL:pick:${ref}`,
    'al:inbox-filter:all',
    'al:inbox-send:all',
    'al:inbox-send:everything:-',
    'al:inbox-send:all:0',
    'al:inbox-send:all:shop.7',
    'al:inbox-send:all:--',
    `al:inbox-pick:${ref}`,
    `al:inbox-pick:${ref}:all`,
    'al:inbox-pick:nope:all:-',
    `al:notes-modal:${ref}:all`,
    `al:notes-modal:${ref}:all:-:1`,
    `al:send:${ref}${'x'.repeat(100)}`,
    `al:pick:${ref}:x`,
    `al:pick:${ref}:01`,
    `al:pick:${ref}:1:2`,
    `al:notes-for:${ref}:-1`,
    `al:send-yes:${ref}`,
    `al:send-yes:${ref}:short`,
    `al:send-yes:${ref}:has/slash`,
    `al:notes-modal:${ref}:menus`,
    `al:inbox-pick:${ref}:x:all:-`,
    `al:inbox-pick:${ref}:1:2:all:-`,
  ];
  it.each(GARBAGE)('GIVEN %j THEN parseCustomId says undefined and does not throw', (value) => {
    expect(parseCustomId(value)).toBeUndefined();
  });
});

describe('select values', () => {
  const question = makeQuestion({
    options: [{ label: 'Use Postgres' }, { label: 'Use Redis' }, { label: 'Use SQLite' }],
  });

  it('GIVEN each option and Other THEN value and label map both ways', () => {
    question.options.forEach((option, index) => {
      expect(selectValue(index)).toBe(String(index));
      expect(selectValueForLabel(question, option.label)).toBe(String(index));
      expect(labelForSelectValue(question, String(index))).toBe(option.label);
    });
    expect(selectValueForLabel(question, 'Other')).toBe(OTHER_SELECT_VALUE);
    expect(labelForSelectValue(question, 'other')).toBe('Other');
  });

  it.each([
    undefined,
    null,
    3,
    '3',
    '-1',
    '01',
    ' 0',
    'Use Redis',
    'Other',
  ])('GIVEN the value %j THEN it stands for no label', (value) => {
    expect(labelForSelectValue(question, value)).toBeUndefined();
  });

  it('GIVEN an unknown label THEN it has no value', () => {
    expect(selectValueForLabel(question, 'Use Mongo')).toBeUndefined();
  });

  const VALUES: [string, unknown, ReturnType<typeof selectionFromValues>][] = [
    ['nothing', [], { choices: [], other: false }],
    ['one option', ['1'], { choices: ['Use Redis'], other: false }],
    ['options out of order, and Other', ['2', 'other', '0'], { choices: ['Use Postgres', 'Use SQLite'], other: true }],
    ['a repeated value', ['1', '1'], { choices: ['Use Redis'], other: false }],
    ['an unknown value', ['0', '9'], undefined],
    ['a number', [0], undefined],
    ['not an array', '0', undefined],
    ['null', null, undefined],
  ];
  it.each(
    VALUES,
  )('GIVEN values with %s THEN selectionFromValues reads them (or refuses)', (_name, values, expected) => {
    expect(selectionFromValues(question, values)).toEqual(expected);
  });
});

describe('notes modal fields', () => {
  const FIELDS: [string, NotesField][] = [
    ['notes', {}],
    ['notes:2', { member: 2 }],
    ['option:5', { option: 5 }],
    ['option:0:3', { member: 3, option: 0 }],
  ];
  it.each(FIELDS)('GIVEN %s THEN it is formatted that way and parses back', (text, field) => {
    expect(formatNotesField(field)).toBe(text);
    expect(parseNotesField(text)).toEqual(field);
  });

  it.each([
    'choice',
    'notes:',
    'notes:x',
    'notes:1:2',
    'option',
    'option:',
    'option:a',
    'option:1:2:3',
    42,
    undefined,
  ])('GIVEN %j THEN it names no notes field', (value) => {
    expect(parseNotesField(value)).toBeUndefined();
  });
});
