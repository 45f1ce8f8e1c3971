import { describe, expect, it } from 'vitest';
import { answerReadiness, checkAnswer, describeSelection, type Readiness } from '../../src/core/answer.js';
import { NOTES_MAX } from '../../src/core/limits.js';
import type { QuestionItem, Selection } from '../../src/core/question.js';

const options = [{ label: 'Use Postgres' }, { label: 'Use Redis', description: 'faster' }, { label: 'Use SQLite' }];
const single: Pick<QuestionItem, 'options' | 'multiSelect'> = { options, multiSelect: false };
const multi: Pick<QuestionItem, 'options' | 'multiSelect'> = { options, multiSelect: true };

function pick(choices: string[], other = false, notes?: string): Selection {
  return notes === undefined ? { choices, other } : { choices, other, notes };
}

describe('answerReadiness', () => {
  const cases: [string, Pick<QuestionItem, 'options' | 'multiSelect'>, Selection, Readiness][] = [
    ['nothing picked', single, pick([]), 'pick-one'],
    ['nothing picked but notes written', single, pick([], false, 'just notes'), 'pick-one'],
    ['one option', single, pick(['Use Redis']), 'ready'],
    ['one option with notes', single, pick(['Use Redis'], false, 'keep it small'), 'ready'],
    ['Other with notes', single, pick([], true, 'use files'), 'ready'],
    ['Other without notes', single, pick([], true), 'needs-note'],
    ['Other with blank notes', single, pick([], true, ' \n\t '), 'needs-note'],
    ['two options on a single-select question', single, pick(['Use Redis', 'Use SQLite']), 'pick-one'],
    ['an option and Other on a single-select question', single, pick(['Use Redis'], true, 'x'), 'pick-one'],
    ['two options on a multi-select question', multi, pick(['Use Redis', 'Use SQLite']), 'ready'],
    ['options and Other with notes on a multi-select question', multi, pick(['Use Redis'], true, 'also x'), 'ready'],
    ['options and Other without notes on a multi-select question', multi, pick(['Use Redis'], true), 'needs-note'],
  ];
  it.each(cases)('GIVEN %s THEN the mark is as expected', (_name, question, selection, expected) => {
    expect(answerReadiness(question, selection)).toBe(expected);
  });
});

describe('checkAnswer', () => {
  it('GIVEN a ready selection THEN it is accepted with notes trimmed', () => {
    expect(checkAnswer(single, pick(['Use Redis'], false, '  keep it small \n'))).toEqual({
      ok: true,
      selection: { choices: ['Use Redis'], other: false, notes: 'keep it small' },
    });
  });

  it('GIVEN blank notes with a choice THEN the notes are dropped', () => {
    const result = checkAnswer(single, pick(['Use Redis'], false, '   '));
    expect(result).toEqual({ ok: true, selection: { choices: ['Use Redis'], other: false } });
    expect(result.ok && 'notes' in result.selection).toBe(false);
  });

  it('GIVEN choices out of order on a multi-select question THEN they come back in the options order', () => {
    expect(checkAnswer(multi, pick(['Use SQLite', 'Use Postgres'], true, 'and a cache'))).toEqual({
      ok: true,
      selection: { choices: ['Use Postgres', 'Use SQLite'], other: true, notes: 'and a cache' },
    });
  });

  it('GIVEN notes of exactly NOTES_MAX characters after trimming THEN they are accepted', () => {
    const notes = 'n'.repeat(NOTES_MAX);
    expect(checkAnswer(single, pick([], true, ` ${notes} `))).toEqual({
      ok: true,
      selection: { choices: [], other: true, notes },
    });
  });

  const refused: [string, Pick<QuestionItem, 'options' | 'multiSelect'>, Selection, RegExp][] = [
    [
      'a choice that is not an option',
      single,
      pick(['Use Mongo']),
      /^Expected each choice to be one of the options "Use Postgres", "Use Redis", "Use SQLite", got "Use Mongo"$/,
    ],
    ['a label that differs in case', single, pick(['use redis']), /got "use redis"$/],
    ['a choice given twice', multi, pick(['Use Redis', 'Use Redis']), /^Expected each choice once, got "Use Redis"/],
    [
      'two options on a single-select question',
      single,
      pick(['Use Redis', 'Use SQLite']),
      /^Expected one pick \(an option or Other\) on a single-select question, got 2: "Use Redis", "Use SQLite"$/,
    ],
    [
      'an option and Other on a single-select question',
      single,
      pick(['Use Redis'], true, 'x'),
      /got 2: "Use Redis", Other$/,
    ],
    [
      'notes over NOTES_MAX characters',
      single,
      pick(['Use Redis'], false, 'n'.repeat(NOTES_MAX + 1)),
      new RegExp(`^Expected notes of at most ${NOTES_MAX} characters, got ${NOTES_MAX + 1}$`),
    ],
    [
      'nothing picked',
      single,
      pick([]),
      /^Expected a choice \(one of "Use Postgres", .*\) or Other with notes, got nothing$/,
    ],
    ['Other without notes', multi, pick(['Use Redis'], true, '  '), /^Expected notes with Other .*, got none$/],
  ];
  it.each(
    refused,
  )('GIVEN %s THEN it is refused with what was expected and what came', (_name, question, selection, reason) => {
    const result = checkAnswer(question, selection);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.reason).toMatch(reason);
  });
});

describe('describeSelection', () => {
  const cases: [string, Selection, string][] = [
    ['one option', pick(['Use Postgres']), 'Use Postgres'],
    ['two options out of order', pick(['Use Redis', 'Use Postgres']), 'Use Postgres, Use Redis'],
    ['Other', pick([], true, 'files'), 'Other'],
    ['an option and Other', pick(['Use SQLite'], true, 'files'), 'Use SQLite, Other'],
    ['nothing', pick([]), 'nothing picked'],
  ];
  it.each(cases)('GIVEN %s THEN it reads as one line', (_name, selection, expected) => {
    expect(describeSelection(multi, selection)).toBe(expected);
  });

  it('GIVEN notes THEN they are not part of the text', () => {
    expect(describeSelection(single, pick(['Use Redis'], false, 'keep it small'))).toBe('Use Redis');
  });
});
