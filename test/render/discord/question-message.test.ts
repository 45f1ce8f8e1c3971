import type { APIButtonComponentWithCustomId, APIStringSelectComponent } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { RECOMMENDED_MARK } from '../../../src/core/limits.js';
import type { Draft, QuestionStatus } from '../../../src/core/question.js';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { formatCustomId, parseCustomId } from '../../../src/render/discord/ids.js';
import { DISCORD_LIMITS, embedTextLength } from '../../../src/render/discord/limits.js';
import {
  CONTEXT_SHORTENED_NOTE,
  renderDraftReceipt,
  renderQuestionMessage,
  renderRemoveConfirmation,
} from '../../../src/render/discord/question-message.js';
import type { DiscordMessage } from '../../../src/render/discord/types.js';
import { toDiscordJsOptions } from '../../../src/render/discord/types.js';
import {
  CREATED_AT,
  embedTexts,
  extremeAnswer,
  extremeQuestion,
  makeQuestion,
  type SingleQuestion,
  sized,
} from './fixtures.js';

const ref = formatQuestionRef('/home/ada/src/shop', 7);
const ada = { platform: 'discord', userId: '42', displayName: 'Ada' } as const;
const AT = CREATED_AT + 60_000;
const UNIX = Math.floor(AT / 1000);

/** `question` moved to `status`, with what that state carries. */
function inState<Q extends SingleQuestion>(question: Q, status: QuestionStatus, answer = extremeAnswer(question)): Q {
  switch (status) {
    case 'pending':
      return question;
    case 'answered':
      return { ...question, status, answer };
    case 'delivered':
      return { ...question, status, answer, deliveredAt: AT + 1000 };
    case 'cancelled':
    case 'expired':
      return { ...question, status, closure: { at: AT } };
    case 'dismissed':
      return { ...question, status, closure: { at: AT, by: ada } };
  }
}

const STATES: QuestionStatus[] = ['pending', 'answered', 'delivered', 'cancelled', 'dismissed', 'expired'];

function select(message: DiscordMessage): APIStringSelectComponent {
  const component = message.components[0]?.components[0];
  if (component?.type !== 3) throw new Error('no select in the first row');
  return component;
}

function buttons(message: DiscordMessage, row: number): APIButtonComponentWithCustomId[] {
  return (message.components[row]?.components ?? []).filter((c): c is APIButtonComponentWithCustomId => c.type === 2);
}

describe('renderQuestionMessage', () => {
  it('GIVEN a pending blocking question THEN the embed shows header, question, context, impact, options, in red', () => {
    const message = renderQuestionMessage(makeQuestion());
    const [embed] = message.embeds;
    expect(embed?.author?.name).toBe('🔴 BLOCKING · #7 · shop · SHOP-12');
    expect(embed?.title).toBe('Which store should sessions use?');
    expect(embed?.description).toBe('**Context**\nSessions live in memory, so a deploy logs everyone out.');
    expect(embed?.color).toBe(0xd93f0b);
    expect(embed?.fields).toEqual([
      { name: 'Impact', value: 'Decides what the deploy needs.' },
      {
        name: 'Options (pick one)',
        value: `• ${RECOMMENDED_MARK}**Use Postgres** — already running\n• **Use Redis** — faster, one more service`,
      },
    ]);
    expect(embed?.footer?.text).toBe('📁 /home/ada/src/shop');
    expect(embed?.timestamp).toBe(new Date(CREATED_AT).toISOString());
    expect(message.allowed_mentions).toEqual({ parse: [] });
  });

  it('GIVEN a question that can wait THEN the bar is green and the header says so', () => {
    const { ticket: _, ...noTicket } = makeQuestion({ isBlocking: false });
    const message = renderQuestionMessage(noTicket);
    expect(message.embeds[0]?.color).toBe(0x2ea043);
    expect(message.embeds[0]?.author?.name).toBe('🟢 can wait · #7 · shop');
  });

  it('GIVEN a pending question THEN the select preselects the starred recommendation and the buttons carry the ref', () => {
    const message = renderQuestionMessage(makeQuestion());
    expect(message.components).toHaveLength(2);
    const picker = select(message);
    expect(picker.custom_id).toBe(`al:pick:${ref}`);
    expect(picker.options).toEqual([
      { label: `${RECOMMENDED_MARK}Use Postgres`, value: '0', description: 'already running', default: true },
      { label: 'Use Redis', value: '1', description: 'faster, one more service' },
      { label: 'Other', value: 'other', description: 'None of these: say what in the notes' },
    ]);
    expect([picker.min_values, picker.max_values]).toEqual([1, 1]);
    expect(buttons(message, 1).map((b) => [b.label, b.style, parseCustomId(b.custom_id)])).toEqual([
      ['Add notes', 2, { kind: 'notes', ref }],
      ['Send', 3, { kind: 'send', ref }],
      ['Remove', 4, { kind: 'remove', ref }],
    ]);
  });

  it('GIVEN a multi-select question THEN max_values is the options plus Other', () => {
    const picker = select(renderQuestionMessage(makeQuestion({ multiSelect: true })));
    expect(picker.max_values).toBe(3);
    expect(picker.min_values).toBe(1);
    expect(picker.options.filter((option) => option.default)).toHaveLength(1);
  });

  it('GIVEN no recommendation THEN nothing is preselected or starred', () => {
    const { recommended: _, ...rest } = makeQuestion();
    const message = renderQuestionMessage(rest as SingleQuestion);
    expect(select(message).options.some((option) => option.default)).toBe(false);
    expect(message.embeds[0]?.fields?.[1]?.value).not.toContain(RECOMMENDED_MARK);
  });

  it('GIVEN an expiry THEN an Expires field shows it as Discord timestamps', () => {
    const message = renderQuestionMessage(makeQuestion({ expiresAt: AT }));
    expect(message.embeds[0]?.fields?.[2]).toEqual({ name: 'Expires', value: `<t:${UNIX}:f> (<t:${UNIX}:R>)` });
  });

  it('GIVEN @everyone and @here in every text THEN they are neutralised, Markdown is kept, and nothing may ping', () => {
    const question = extremeQuestion();
    for (const status of STATES) {
      const message = renderQuestionMessage(inState(question, status));
      const texts = [message.content ?? '', ...embedTexts(message.embeds)].join('\n');
      expect(texts).not.toMatch(/@(everyone|here)/);
      expect(texts).toContain('＠everyone');
      expect(message.allowed_mentions).toEqual({ parse: [] });
      expect(toDiscordJsOptions(message).allowedMentions).toEqual({ parse: [] });
    }
    const pending = renderQuestionMessage(question);
    expect(pending.embeds[0]?.description).toContain('**in memory**');
    expect(pending.embeds[0]?.description).toContain('```ts');
  });

  const ANSWERED: [string, SingleQuestion, string][] = [
    [
      'answered on Discord',
      inState(makeQuestion(), 'answered', { choices: ['Use Postgres'], other: false, by: ada, at: AT }),
      `✅ Answered by Ada on Discord at <t:${UNIX}:f>\n**Answer:** Use Postgres`,
    ],
    [
      'answered on Slack, then delivered',
      inState(makeQuestion(), 'delivered', {
        choices: ['Use Redis'],
        other: false,
        by: { ...ada, platform: 'slack' },
        at: AT,
      }),
      `✅ Answered by Ada on Slack at <t:${UNIX}:f>\n**Answer:** Use Redis\n📬 Delivered to the agent at <t:${UNIX + 1}:f>`,
    ],
    [
      'answered on the web inbox',
      inState(makeQuestion(), 'answered', {
        choices: [],
        other: true,
        notes: 'Use files',
        by: { ...ada, platform: 'web' },
        at: AT,
      }),
      `✅ Answered by Ada on the web inbox at <t:${UNIX}:f>\n**Answer:** Other`,
    ],
    ['withdrawn', inState(makeQuestion(), 'cancelled'), `↩️ Withdrawn by the agent at <t:${UNIX}:f>`],
    ['dismissed', inState(makeQuestion(), 'dismissed'), `🗑️ Dismissed by Ada at <t:${UNIX}:f>`],
    ['expired', inState(makeQuestion(), 'expired'), `⌛ Expired unanswered at <t:${UNIX}:f>`],
  ];
  it.each(
    ANSWERED,
  )('GIVEN a question %s THEN the outcome says so, in grey, with no controls', (_name, question, outcome) => {
    const message = renderQuestionMessage(question);
    expect(message.components).toEqual([]);
    const [embed] = message.embeds;
    expect(embed?.color).toBe(0x99aab5);
    expect(message.content).toBe(outcome);
    expect(embed?.fields?.map((field) => field.name)).toEqual(['Impact']);
    expect(embed?.description).toBe(`**Context**\n${question.context}`);
  });

  it('GIVEN notes with the answer THEN they follow in full as a quote, in a second embed', () => {
    const question = inState(makeQuestion(), 'answered', {
      choices: [],
      other: true,
      notes: 'Use files.\nSecond line.',
      by: ada,
      at: AT,
    });
    const message = renderQuestionMessage(question);
    expect(message.embeds[1]?.description).toBe('**Notes**\n>>> Use files.\nSecond line.');
    expect(message.embeds[0]?.author?.name).toBe('✅ Answered · #7 · shop · SHOP-12');
  });

  it.each(STATES)('GIVEN the extreme question %s THEN it fits every Discord limit', (status) => {
    const message = renderQuestionMessage(inState(extremeQuestion(), status));
    expect(embedTextLength(message.embeds)).toBeLessThanOrEqual(DISCORD_LIMITS.embedTotal);
    expect(message.components.length).toBeLessThanOrEqual(DISCORD_LIMITS.actionRows);
  });

  it('GIVEN the extreme question pending THEN every stored text shows in full', () => {
    const question = extremeQuestion();
    const message = renderQuestionMessage(question);
    const texts = embedTexts(message.embeds).join('\n').replaceAll('＠', '@');
    for (const text of [question.context, question.impact, question.question, question.ticket ?? '']) {
      expect(texts).toContain(text);
    }
    for (const option of question.options) {
      expect(texts).toContain(option.label);
      expect(texts).toContain(option.description);
    }
    expect(select(message).max_values).toBe(7);
    expect(
      select(message)
        .options.filter((option) => option.default)
        .map((option) => option.value),
    ).toEqual(['2']);
  });

  it('GIVEN the extreme question answered with 3000 characters of notes THEN notes, answer, impact and question show in full and only the context is shortened, saying so', () => {
    const answer = extremeAnswer(extremeQuestion());
    const question = inState(extremeQuestion(), 'answered', answer);
    const message = renderQuestionMessage(question);
    const texts = embedTexts(message.embeds).join('\n').replaceAll('＠', '@');
    expect(texts).toContain(answer.notes);
    expect(texts).toContain(question.impact);
    expect(texts).toContain(question.question);
    expect(message.embeds[0]?.description?.endsWith(CONTEXT_SHORTENED_NOTE)).toBe(true);
    expect(message.embeds[0]?.fields?.map((field) => field.name)).toEqual(['Impact']);
    expect(message.content?.replaceAll('＠', '@')).toContain(
      `**Answer:** ${question.options.map((o) => o.label).join(', ')}, Other`,
    );
    expect(message.content?.length).toBeLessThanOrEqual(DISCORD_LIMITS.content);
    // Only as much context as the limit takes away is cut: more than a third of it still shows.
    expect(message.embeds[0]?.description?.length).toBeGreaterThan(1000);
  });

  it('GIVEN a short answer to the extreme question THEN nothing is shortened', () => {
    const question = extremeQuestion();
    const message = renderQuestionMessage(
      inState(question, 'answered', { choices: [], other: true, notes: 'ok', by: ada, at: AT }),
    );
    expect(message.embeds[0]?.description).toBe(
      `**Context**\n${question.context.replace(/@(?=everyone|here)/g, '＠')}`,
    );
  });

  it('GIVEN a context cut inside a code fence THEN the fence is closed', () => {
    const context = `${sized('line\n', 1000)}\`\`\`\n${sized('code code code\n', 1995)}`;
    const question = inState(extremeQuestion({ context }), 'answered');
    const description = renderQuestionMessage(question).embeds[0]?.description ?? '';
    expect((description.match(/```/g) ?? []).length % 2).toBe(0);
  });
});

describe('renderDraftReceipt', () => {
  const draft = (overrides: Partial<Draft>): Draft => ({ choices: [], other: false, updatedAt: AT, ...overrides });
  const RECEIPTS: [string, SingleQuestion, Draft, string[]][] = [
    ['one option', makeQuestion(), draft({ choices: ['Use Redis'] }), ['Your answer: **Use Redis**', '✅ ready']],
    ['nothing', makeQuestion(), draft({}), ['Your answer: **nothing picked**', '👉 pick one']],
    ['Other without notes', makeQuestion(), draft({ other: true }), ['Your answer: **Other**', '✍️ needs a note']],
    [
      'Other with notes',
      makeQuestion(),
      draft({ other: true, notes: 'Use files\nplease @everyone' }),
      ['Notes: Use files please ＠everyone', '✅ ready'],
    ],
    [
      'several on a multi-select question',
      makeQuestion({ multiSelect: true }),
      draft({ choices: ['Use Redis', 'Use Postgres'] }),
      ['Your answer: **Use Postgres, Use Redis**', '✅ ready'],
    ],
  ];
  it.each(
    RECEIPTS,
  )('GIVEN a draft with %s THEN the receipt shows the choice and the ready mark', (_name, question, d, lines) => {
    const message = renderDraftReceipt(question, d);
    expect(message.content?.split('\n')[0]).toBe('**#7** · Which store should sessions use?');
    for (const line of lines) expect(message.content).toContain(line);
    expect(message.components).toEqual([]);
    expect(message.allowed_mentions).toEqual({ parse: [] });
  });

  it('GIVEN the extreme question and notes THEN the receipt fits and the notes are previewed on one line', () => {
    const question = extremeQuestion();
    const answer = extremeAnswer(question);
    const message = renderDraftReceipt(question, { ...answer, updatedAt: AT });
    expect(message.content?.length).toBeLessThanOrEqual(DISCORD_LIMITS.content);
    expect(message.content?.split('\n')).toHaveLength(4);
  });
});

describe('renderRemoveConfirmation', () => {
  it('GIVEN a question THEN it asks, with Remove and Cancel carrying the ref', () => {
    const message = renderRemoveConfirmation(makeQuestion());
    expect(message.content).toBe('Remove #7 without answering? The agent will be told it was dismissed.');
    expect(buttons(message, 0).map((b) => [b.label, b.style, b.custom_id])).toEqual([
      ['Remove', 4, formatCustomId({ kind: 'remove-yes', ref })],
      ['Cancel', 2, formatCustomId({ kind: 'remove-no', ref })],
    ]);
  });
});
