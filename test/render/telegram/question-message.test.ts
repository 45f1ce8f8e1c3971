import { describe, expect, it } from 'vitest';
import { markdownHtml } from '../../../src/render/telegram/format.js';
import { parseCallbackData } from '../../../src/render/telegram/ids.js';
import { telegramMessageIssues, visibleLength } from '../../../src/render/telegram/limits.js';
import { renderQuestion } from '../../../src/render/telegram/question-message.js';
import { plainText } from '../../support/fake-telegram.js';
import { extremeAnswer, extremeQuestion, extremeSet, makeQuestion } from '../discord/fixtures.js';

describe('a question as a Telegram message', () => {
  it('GIVEN a short question THEN one message with a button per option (the recommended starred and preselected), Other, Notes, Send and Remove, text escaped', () => {
    const question = makeQuestion({
      question: 'Use <script> & co?',
      options: [{ label: 'A<b>' }, { label: 'B' }],
      recommended: ['A<b>'],
    });
    const { message, details } = renderQuestion(question);
    expect(details).toEqual([]);
    expect(message.text).toContain('Use &lt;script&gt; &amp; co?');
    expect(message.keyboard?.map((row) => row.map((button) => button.text))).toEqual([
      ['✅ ★ 1. A<b>'],
      ['2. B'],
      ['Other', '📝 Notes'],
      ['📤 Send', '🗑 Remove'],
    ]);
    for (const button of message.keyboard?.flat() ?? []) expect(parseCallbackData(button.callback_data)).toBeDefined();
    expect(telegramMessageIssues(message)).toEqual([]);
  });

  it('GIVEN a question at every limit THEN the context moves to a reply under the message, nothing is cut, and the answered message still fits with its notes', () => {
    const question = extremeQuestion({ askedBefore: [] });
    const { message, details } = renderQuestion(question);
    expect(visibleLength(message.text)).toBeLessThanOrEqual(4096);
    expect(plainText(message.text)).toContain('Context: in the reply below.');
    expect(details.length).toBeGreaterThan(0);
    expect(plainText(details.join('')).replace(/\s+/g, '')).toContain(
      plainText(markdownHtml(question.context)).replace(/\s+/g, ''),
    );
    const answered = renderQuestion({ ...question, status: 'answered', answer: extremeAnswer(question) });
    expect(telegramMessageIssues(answered.message)).toEqual([]);
    expect(answered.message.keyboard).toBeUndefined();
    expect(answered.details).toEqual(details);
  });

  it.each([
    'options',
    'shared text',
    'member text',
  ] as const)('GIVEN a set at its limits (%s) THEN it fits, with what does not in replies', (shape) => {
    const set = extremeSet(shape);
    const { message, details } = renderQuestion(set);
    expect(telegramMessageIssues(message)).toEqual([]);
    for (const detail of details) expect(visibleLength(detail)).toBeLessThanOrEqual(4096);
    for (const member of set.members)
      expect(plainText([message.text, ...details].join('\n'))).toContain(member.question);
  });
});
