/** The place an answer was given (the terminal, the command line) is kept in its record, on both stores. */
import { afterAll, describe, expect, it } from 'vitest';
import type { AnswerPlace } from '../../src/core/question.js';
import type { Store } from '../../src/store/port.js';
import { openSqliteTestStore, openTestStore, spec, uniqueProject } from '../support/store.js';

const opened: Store[] = [];
afterAll(async () => {
  for (const store of opened) await store.close();
});

describe.each([
  ['Redis', () => openTestStore()],
  ['SQLite', () => openSqliteTestStore()],
] as const)('where an answer was given, on %s', (_name, open) => {
  it.each([
    'terminal',
    'command-line',
  ] as const)('GIVEN an answer given from the %s THEN the record read back keeps that place', async (place: AnswerPlace) => {
    const store = await open();
    opened.push(store);
    const project = uniqueProject('answer-place');
    const question = await store.park(project, spec());
    const by = { platform: 'web', userId: 'local', displayName: 'ada', place } as const;
    const result = await store.answer(project, question.id, { choices: ['Postgres'], other: false }, by);
    expect(result.kind).toBe('won');
    expect((await store.get(project, question.id))?.answer?.by).toEqual(by);
  });
});
