import { describe, expect, it } from 'vitest';
import { inboxCounts, inboxQuestions, readyCount, shownSelection } from '../../src/core/inbox.js';
import type { Question, SingleSpec } from '../../src/core/question.js';

type SingleQuestion = Extract<Question, SingleSpec>;

function question(id: number, overrides: Partial<SingleQuestion> = {}): SingleQuestion {
  return {
    context: 'c',
    question: `Q${id}?`,
    impact: 'i',
    isBlocking: false,
    options: [{ label: 'A' }, { label: 'B' }],
    recommended: ['A'],
    multiSelect: false,
    project: 'p',
    id,
    status: 'pending',
    createdAt: id,
    messages: [],
    ...overrides,
  };
}

describe('the inbox every surface shows', () => {
  it('GIVEN no draft THEN the recommendation shows; GIVEN a draft (even empty) THEN the draft shows', () => {
    expect(shownSelection(question(1))).toEqual({ choices: ['A'], other: false });
    const { recommended: _r, ...plain } = question(2);
    expect(shownSelection(plain as SingleQuestion)).toEqual({ choices: [], other: false });
    expect(shownSelection(question(3), { choices: [], other: false })).toEqual({ choices: [], other: false });
  });

  it('GIVEN mixed questions THEN each filter shows the pending ones, blocking first then oldest, and counts what shows ready', () => {
    const { recommended: _r, ...unrecommended } = question(4, { isBlocking: true, createdAt: 1 });
    const items = [
      { question: question(1) },
      { question: question(2, { isBlocking: true, createdAt: 5 }) },
      { question: question(3, { status: 'answered' }) },
      { question: unrecommended },
      { question: question(5), draft: { choices: [], other: true, updatedAt: 0 } },
    ];
    expect(inboxQuestions(items, 'all').map((i) => i.question.id)).toEqual([4, 2, 1, 5]);
    expect(inboxQuestions(items, 'blocking').map((i) => i.question.id)).toEqual([4, 2]);
    expect(inboxCounts(items)).toEqual({ all: 4, blocking: 2, 'non-blocking': 2 });
    expect(readyCount(items, 'all')).toBe(2); // #2 and #1 show their recommendation; #4 nothing; #5 Other, no note
    expect(readyCount(items, 'non-blocking')).toBe(1);
  });
});
