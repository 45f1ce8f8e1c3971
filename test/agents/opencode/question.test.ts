import { describe, expect, it } from 'vitest';
import { readQuestionRequest, selectionFromReply } from '../../../src/agents/opencode/question.js';

const EVENT = {
  id: 'que_1',
  sessionID: 'ses_1',
  questions: [
    {
      question: 'Which database?',
      header: 'Database',
      options: [
        { label: 'Postgres (Recommended)', description: 'relational' },
        { label: 'SQLite', description: 'embedded' },
      ],
    },
    {
      question: 'Which caches?',
      header: 'Caches',
      options: [{ label: 'Redis' }, { label: 'Memcached' }],
      multiple: true,
    },
  ],
};

describe("OpenCode's question tool", () => {
  it('GIVEN a question.asked event THEN its questions read as AskUserQuestion does, `multiple` as multi-select', () => {
    const request = readQuestionRequest(EVENT);
    expect(typeof request).toBe('object');
    if (typeof request === 'string') return;
    expect(request.id).toBe('que_1');
    expect(request.asked.map((q) => [q.header, q.multiSelect])).toEqual([
      ['Database', false],
      ['Caches', true],
    ]);
  });

  it('GIVEN an event without questions THEN the reason says what is missing', () => {
    expect(readQuestionRequest({ id: 'que_2', sessionID: 's', questions: [] })).toMatch(/no `questions`/);
    expect(readQuestionRequest({ sessionID: 's' })).toMatch(/no id/);
  });

  it('GIVEN a reply from OpenCode THEN option labels are picks and anything else is Other with its text', () => {
    const request = readQuestionRequest(EVENT);
    if (typeof request === 'string') throw new Error(request);
    const [database, caches] = request.asked;
    if (database === undefined || caches === undefined) throw new Error('two questions expected');
    expect(selectionFromReply(database, ['Postgres (Recommended)'])).toEqual({ choices: ['Postgres'], other: false });
    expect(selectionFromReply(database, ['DuckDB please'])).toEqual({
      choices: [],
      other: true,
      notes: 'DuckDB please',
    });
    expect(selectionFromReply(caches, ['Redis', 'Memcached'])).toEqual({
      choices: ['Redis', 'Memcached'],
      other: false,
    });
  });
});
