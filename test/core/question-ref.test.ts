import { describe, expect, it } from 'vitest';
import { formatQuestionRef, parseQuestionRef, projectTag } from '../../src/core/question-ref.js';

describe('question references', () => {
  it('GIVEN a project and id THEN the reference is short, stable, and reads back', () => {
    const ref = formatQuestionRef('/home/ada/projects/billing', 42);
    expect(ref).toMatch(/^[A-Za-z0-9_-]{16}\.42$/);
    expect(ref).toBe(formatQuestionRef('/home/ada/projects/billing', 42));
    expect(parseQuestionRef(ref)).toEqual({ tag: projectTag('/home/ada/projects/billing'), id: 42 });
  });

  it.each([
    undefined,
    7,
    '',
    'abc.1',
    'AAAAAAAAAAAAAAAA.0',
    'AAAAAAAAAAAAAAAA.-1',
    'AAAAAAAAAAAAAAAA.1x',
    'AAAAAAAAAAAAAAAA.1234567890',
  ])('GIVEN %j THEN it is not a reference', (text) => {
    expect(parseQuestionRef(text)).toBeUndefined();
  });
});
