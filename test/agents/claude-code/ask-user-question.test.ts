import { describe, expect, it } from 'vitest';
import {
  askInputFor,
  plainLabel,
  readAskUserQuestion,
  toolAnswers,
} from '../../../src/agents/claude-code/ask-user-question.js';
import { parseAskInput } from '../../../src/core/ask-input.js';
import type { Question } from '../../../src/core/question.js';
import { person, setSpec } from '../../support/store.js';

const asked = {
  questions: [
    {
      question: 'Which database?',
      header: 'DB',
      options: [
        { label: 'Postgres (Recommended)', description: 'Known' },
        { label: 'SQLite', description: 'Small' },
      ],
      multiSelect: false,
    },
  ],
};

describe('AskUserQuestion as ask-later reads it', () => {
  it('GIVEN the input as an object or as the JSON text an mcp_tool hook gets THEN both read the same', () => {
    expect(readAskUserQuestion(asked)).toEqual(readAskUserQuestion(JSON.stringify(asked)));
    expect(readAskUserQuestion(asked)).toEqual([
      {
        question: 'Which database?',
        header: 'DB',
        options: [
          { label: 'Postgres (Recommended)', description: 'Known' },
          { label: 'SQLite', description: 'Small' },
        ],
        multiSelect: false,
      },
    ]);
  });

  it('GIVEN input that is not AskUserQuestion’s THEN a reason naming the part that is wrong', () => {
    expect(readAskUserQuestion('{')).toBe('the tool input is not JSON');
    expect(readAskUserQuestion({ questions: [] })).toBe('the tool input has no `questions` list');
    expect(readAskUserQuestion({ questions: [{ question: 3 }] })).toBe('questions[0].question is not text');
    expect(readAskUserQuestion({ questions: [{ question: 'Q', options: [{}] }] })).toBe(
      'questions[0].options[0].label is not text',
    );
  });

  it('GIVEN labels marked (Recommended) THEN they are recommended without the mark: the first on a single-select, every one on a multi-select', () => {
    expect(plainLabel('Lint (recommended) ')).toBe('Lint');
    const single = readAskUserQuestion({
      questions: [
        { question: 'Which?', header: 'H', options: [{ label: 'A (Recommended)' }, { label: 'B (Recommended)' }] },
      ],
    });
    if (typeof single === 'string') throw new Error(single);
    expect(askInputFor(single, 'c', 'i')).toMatchObject({
      options: [{ label: 'A' }, { label: 'B' }],
      recommended: 'A',
    });
    const multi = readAskUserQuestion({
      questions: [
        {
          question: 'Which?',
          header: 'H',
          options: [{ label: 'A (Recommended)' }, { label: 'B (Recommended)' }],
          multiSelect: true,
        },
        { question: 'And?', options: [{ label: 'C' }] },
      ],
    });
    if (typeof multi === 'string') throw new Error(multi);
    const input = askInputFor(multi, 'c', 'i');
    expect(input).toMatchObject({
      questions: [
        { topic: 'H', recommended: ['A', 'B'], multiSelect: true, isBlocking: true },
        { topic: 'Question 2', multiSelect: false, isBlocking: true },
      ],
    });
    expect(parseAskInput(input).ok).toBe(true);
  });

  it('GIVEN an answered set THEN the tool’s answers map each question text to the model’s labels, notes per option, Other’s words and notes', () => {
    const read = readAskUserQuestion({
      questions: [
        {
          question: 'Which database should billing use?',
          header: 'Database',
          options: [{ label: 'Postgres (Recommended)' }, { label: 'SQLite' }],
        },
        {
          question: 'Which caches may billing use?',
          header: 'Caches',
          options: [{ label: 'Redis' }, { label: 'In-process' }, { label: 'None' }],
          multiSelect: true,
        },
        {
          question: 'What do we call the new service?',
          header: 'Naming',
          options: [{ label: 'billing-v2' }, { label: 'ledger' }],
        },
      ],
    });
    if (typeof read === 'string') throw new Error(read);
    const question = {
      ...setSpec(),
      project: 'p',
      id: 1,
      status: 'answered',
      createdAt: 0,
      messages: [],
      answer: {
        members: [
          { choices: ['Postgres'], other: false, notes: 'Ops knows it.' },
          { choices: ['Redis', 'In-process'], other: false, choiceNotes: [{ choice: 'Redis', notes: 'shared one' }] },
          { choices: [], other: true, notes: 'payments' },
        ],
        by: person(),
        at: 1,
      },
    } as Question;
    expect(toolAnswers(read, question)).toEqual({
      'Which database should billing use?': 'Postgres (Recommended) — notes: Ops knows it.',
      'Which caches may billing use?': 'Redis (notes: shared one), In-process',
      'What do we call the new service?': 'payments',
    });
  });
});
