import type { ActionsBlock, Button, ContextBlock, PlainTextOption } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { NOTES_MAX } from '../../../src/core/limits.js';
import type { Answer, Draft, Question, Responder } from '../../../src/core/question.js';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { answerOf } from '../../../src/core/reply.js';
import { questionBlockId } from '../../../src/render/slack/ids.js';
import { assertSlackMessage, blockTextLength, SLACK_LIMITS } from '../../../src/render/slack/limits.js';
import { renderQuestionMessage } from '../../../src/render/slack/question-message.js';
import type { MessageBlock, SelectElement, SlackMessage } from '../../../src/render/slack/types.js';
import {
  CREATED_AT,
  extremeQuestion,
  makeQuestion,
  mrkdwnTexts,
  type SingleQuestion,
  sized,
  textObjects,
} from './fixtures.js';

const ada: Responder = { platform: 'slack', userId: 'U1', displayName: 'Ada' };
const ANSWERED_AT = CREATED_AT + 3_600_000;
const answer: Answer = { choices: ['Use Redis'], other: false, notes: 'Keep it small', by: ada, at: ANSWERED_AT };

function draft(choices: string[], other = false, notes?: string): Draft {
  return notes === undefined ? { choices, other, updatedAt: 1 } : { choices, other, notes, updatedAt: 1 };
}

/** The question in each state, as the store would hand it over. */
function inState(question: Question, status: Question['status']): Question {
  switch (status) {
    case 'pending':
      return question;
    case 'answered':
      return { ...question, status, answer };
    case 'delivered':
      return { ...question, status, answer, deliveredAt: ANSWERED_AT + 60_000 };
    case 'cancelled':
      return { ...question, status, closure: { at: ANSWERED_AT } };
    case 'dismissed':
      return { ...question, status, closure: { at: ANSWERED_AT, by: ada } };
    case 'expired':
      return { ...question, status, closure: { at: ANSWERED_AT } };
  }
}

const STATUSES = ['pending', 'answered', 'delivered', 'cancelled', 'dismissed', 'expired'] as const;

function actionsOf(message: SlackMessage): ActionsBlock | undefined {
  return message.blocks.find((block): block is ActionsBlock => block.type === 'actions');
}

/** The message's picker, with its options listed inline (Slack's type also allows option groups instead). */
function picker(message: SlackMessage): SelectElement & { options: PlainTextOption[] } {
  const element = actionsOf(message)?.elements[0];
  if (element?.type !== 'static_select' && element?.type !== 'multi_static_select') throw new Error('no picker');
  const { options } = element;
  if (options === undefined) throw new Error('no inline options');
  return { ...element, options };
}

function buttons(message: SlackMessage): Button[] {
  return (actionsOf(message)?.elements ?? []).filter((element): element is Button => element.type === 'button');
}

function lastContext(message: SlackMessage): string {
  const contexts = message.blocks.filter((block): block is ContextBlock => block.type === 'context');
  return (contexts.at(-1)?.elements ?? []).map((element) => ('text' in element ? element.text : '')).join(' | ');
}

function allText(blocks: readonly MessageBlock[]): string {
  return [
    ...textObjects(blocks).map(({ text }) => text.text),
    ...blocks.flatMap((block) => (block.type === 'markdown' ? [block.text] : [])),
  ].join('\n');
}

describe('renderQuestionMessage: pending', () => {
  const question = makeQuestion();
  const ref = formatQuestionRef(question.project, question.id);
  const message = renderQuestionMessage(question, { revision: 3 });

  it('GIVEN a blocking question THEN the header is marked BLOCKING with #id, project and ticket', () => {
    expect(message.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: '🔴 BLOCKING · #7 · shop · SHOP-12' },
    });
    expect(mrkdwnTexts(message.blocks)).toContain(
      `📁 /home/ada/src/shop · asked <!date^${CREATED_AT / 1000}^{date_short_pretty} at {time}|2026-10-01T09:30:00.000Z>`,
    );
  });

  it('GIVEN a non-blocking question without a ticket THEN the header says can wait', () => {
    const { ticket: _ticket, ...rest } = makeQuestion({ isBlocking: false });
    expect(renderQuestionMessage(rest, { revision: 0 }).blocks[0]).toMatchObject({
      text: { text: '🟢 can wait · #7 · shop' },
    });
  });

  it('GIVEN a question THEN the fallback text and metadata identify it', () => {
    expect(message.text).toBe('BLOCKING #7 — Which store should sessions use?');
    expect(message.metadata).toEqual({
      event_type: 'ask_later_question',
      event_payload: { ref, project: '/home/ada/src/shop', id: 7 },
    });
  });

  it('GIVEN a question THEN it is in bold, and Context and Impact are markdown blocks with headings', () => {
    expect(message.blocks[2]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: '*Which store should sessions use?*' },
    });
    expect(message.blocks.filter((block) => block.type === 'markdown')).toEqual([
      { type: 'markdown', text: `### Context\n\n${question.context}` },
      { type: 'markdown', text: `### Impact\n\n${question.impact}` },
    ]);
  });

  it('GIVEN options THEN they are listed with descriptions, the recommended one starred', () => {
    expect(mrkdwnTexts(message.blocks)).toContain(
      '*Options* (pick one)\n• ★ *Use Postgres* — already running\n• *Use Redis* — faster, one more service',
    );
  });

  it('GIVEN no draft THEN the recommended option is preselected and starred, and Other is offered', () => {
    const select = picker(message);
    expect(select.type).toBe('static_select');
    expect(select.action_id).toBe('al_pick');
    expect(select.options.map((option) => [option.value, option.text.text])).toEqual([
      ['0', '★ Use Postgres'],
      ['1', 'Use Redis'],
      ['other', 'Other'],
    ]);
    expect(select.type === 'static_select' && select.initial_option).toEqual(select.options[0]);
    expect(lastContext(message)).toBe('✅ ready');
  });

  it('GIVEN a revision THEN the controls block id carries the ref and the revision', () => {
    expect(actionsOf(message)?.block_id).toBe(questionBlockId(ref, 3));
    expect(actionsOf(renderQuestionMessage(question, { revision: 4 }))?.block_id).toBe(questionBlockId(ref, 4));
  });

  it('GIVEN a pending question THEN Add notes, Send and Remove carry the ref, Remove behind a confirmation', () => {
    expect(buttons(message)).toEqual([
      { type: 'button', action_id: 'al_notes', text: { type: 'plain_text', text: 'Add notes' }, value: ref },
      {
        type: 'button',
        action_id: 'al_send',
        text: { type: 'plain_text', text: 'Send' },
        value: ref,
        style: 'primary',
      },
      {
        type: 'button',
        action_id: 'al_remove',
        text: { type: 'plain_text', text: 'Remove' },
        value: ref,
        style: 'danger',
        confirm: {
          title: { type: 'plain_text', text: 'Remove #7?' },
          text: { type: 'plain_text', text: 'Remove #7 without answering? The agent will be told it was dismissed.' },
          confirm: { type: 'plain_text', text: 'Remove' },
          deny: { type: 'plain_text', text: 'Keep it' },
          style: 'danger',
        },
      },
    ]);
  });

  it('GIVEN a draft THEN it overrides the recommendation', () => {
    const select = picker(renderQuestionMessage(question, { draft: draft(['Use Redis']), revision: 1 }));
    expect(select.type === 'static_select' && select.initial_option?.value).toBe('1');
  });

  it('GIVEN an empty draft THEN nothing is preselected', () => {
    const select = picker(renderQuestionMessage(question, { draft: draft([]), revision: 1 }));
    expect(select.type === 'static_select' && 'initial_option' in select).toBe(false);
  });

  const { recommended: _recommended, ...unrecommended } = question;
  const READY: [string, string, Question, Draft | undefined][] = [
    ['no draft and a recommendation', '✅ ready', question, undefined],
    ['no draft and no recommendation', '👉 pick one', unrecommended, undefined],
    ['a draft with nothing picked', '👉 pick one', question, draft([])],
    ['a draft with an option', '✅ ready', question, draft(['Use Redis'])],
    ['a draft with Other and no notes', '✍️ needs a note', question, draft([], true)],
    ['a draft with Other and notes', '✅ ready', question, draft([], true, 'use files')],
  ];
  it.each(READY)('GIVEN %s THEN the ready mark is %s', (_name, mark, target, shown) => {
    const rendered = renderQuestionMessage(
      target,
      shown === undefined ? { revision: 0 } : { draft: shown, revision: 0 },
    );
    expect(lastContext(rendered).split(' | ')[0]).toBe(mark);
  });

  it('GIVEN a draft with notes THEN a one-line preview names who wrote them, cut short; the notes are not', () => {
    const notes = `first line\nsecond ${sized('long ', 400)}`;
    const rendered = renderQuestionMessage(question, {
      draft: draft([], true, notes),
      draftBy: 'Grace <admin>',
      revision: 0,
    });
    const preview = lastContext(rendered).split(' | ')[1] ?? '';
    expect(preview.startsWith('Notes by Grace &lt;admin&gt;: first line second long')).toBe(true);
    expect(preview.endsWith('…')).toBe(true);
    expect(preview.length).toBeLessThan(200);
    expect(picker(rendered)).toMatchObject({ initial_option: { value: 'other' } });
  });

  it('GIVEN a multi-select question THEN the picker is a multi-select with the draft choices preselected', () => {
    const multi = makeQuestion({ multiSelect: true });
    const rendered = renderQuestionMessage(multi, {
      draft: draft(['Use Postgres', 'Use Redis'], true, 'x'),
      revision: 0,
    });
    const select = picker(rendered);
    expect(select.type).toBe('multi_static_select');
    expect(select.type === 'multi_static_select' && select.initial_options?.map((option) => option.value)).toEqual([
      '0',
      '1',
      'other',
    ]);
    expect(mrkdwnTexts(rendered.blocks).some((text) => text.startsWith('*Options* (pick any)'))).toBe(true);
  });

  it('GIVEN mrkdwn characters in the question THEN they are escaped', () => {
    const rendered = renderQuestionMessage(makeQuestion({ question: 'Use <!channel> & <b>?' }), { revision: 0 });
    expect(rendered.blocks[2]).toMatchObject({ text: { text: '*Use &lt;!channel&gt; &amp; &lt;b&gt;?*' } });
    expect(rendered.text).toBe('BLOCKING #7 — Use &lt;!channel&gt; &amp; &lt;b&gt;?');
  });
});

describe('renderQuestionMessage: closed states', () => {
  const question = makeQuestion();
  const date = (ms: number) =>
    `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} at {time}|${new Date(ms).toISOString()}>`;

  const OUTCOMES: [Question['status'], string[]][] = [
    ['answered', [`✅ Answered by Ada on Slack at ${date(ANSWERED_AT)}\n*Answer:* Use Redis`, '>>> Keep it small']],
    [
      'delivered',
      [
        `✅ Answered by Ada on Slack at ${date(ANSWERED_AT)}\n*Answer:* Use Redis`,
        '>>> Keep it small',
        `📬 Delivered to the agent at ${date(ANSWERED_AT + 60_000)}`,
      ],
    ],
    ['cancelled', [`↩️ Withdrawn by the agent at ${date(ANSWERED_AT)}`]],
    ['dismissed', [`🗑️ Dismissed by Ada at ${date(ANSWERED_AT)}`]],
    ['expired', [`⌛ Expired unanswered at ${date(ANSWERED_AT)}`]],
  ];
  it.each(OUTCOMES)('GIVEN the question is %s THEN the controls are gone and the outcome is shown', (status, lines) => {
    const message = renderQuestionMessage(inState(question, status), { draft: draft(['Use Postgres']), revision: 5 });
    expect(actionsOf(message)).toBeUndefined();
    expect(mrkdwnTexts(message.blocks).slice(-lines.length)).toEqual(lines);
    expect(message.blocks[2]).toMatchObject({ text: { text: '*Which store should sessions use?*' } });
    expect(message.blocks.filter((block) => block.type === 'markdown')).toHaveLength(2);
    expect(allText(message.blocks)).not.toContain('✅ ready');
  });

  it.each([
    ['discord', 'Discord'],
    ['web', 'the web inbox'],
  ] as const)('GIVEN an answer from %s THEN it says on %s', (platform, name) => {
    const answered = { ...question, status: 'answered' as const, answer: { ...answer, by: { ...ada, platform } } };
    expect(allText(renderQuestionMessage(answered, { revision: 0 }).blocks)).toContain(`Answered by Ada on ${name} at`);
  });

  it('GIVEN an answer with Other and several choices THEN the answer lists them in order with Other last', () => {
    const multi = makeQuestion({ multiSelect: true });
    const answered: Question = {
      ...multi,
      status: 'answered',
      answer: { ...answer, choices: ['Use Redis', 'Use Postgres'], other: true },
    };
    expect(allText(renderQuestionMessage(answered, { revision: 0 }).blocks)).toContain(
      '*Answer:* Use Postgres, Use Redis, Other',
    );
  });

  it('GIVEN notes of NOTES_MAX characters that escaping would push over a section THEN they are shown in full', () => {
    const notes = sized('<&>', NOTES_MAX);
    const answered: Question = { ...question, status: 'answered', answer: { ...answer, notes } };
    const message = renderQuestionMessage(answered, { revision: 0 });
    expect(message.blocks.at(-1)).toEqual({ type: 'section', text: { type: 'plain_text', text: notes } });
  });

  it.each(STATUSES)('GIVEN the question is %s THEN the message passes assertSlackMessage', (status) => {
    expect(() => assertSlackMessage(renderQuestionMessage(inState(question, status), { revision: 0 }))).not.toThrow();
  });
});

describe('renderQuestionMessage: the extreme question', () => {
  const VARIANTS: [string, SingleQuestion][] = [
    ['Markdown, <script> and & at every limit', extremeQuestion()],
    ['every text made of & (escapes to 5 characters)', extremeQuestion('&')],
    ['every text made of <', extremeQuestion('<')],
  ];
  const longNotes = (question: SingleQuestion): Draft => ({
    choices: question.options.map((option) => option.label),
    other: true,
    notes: sized('&<', NOTES_MAX),
    updatedAt: 1,
  });

  for (const [name, question] of VARIANTS) {
    it.each(STATUSES)(`GIVEN ${name} THEN the %s message renders within Slack's limits`, (status) => {
      const base = inState(question, status);
      const rendered =
        status === 'answered' || status === 'delivered'
          ? renderQuestionMessage(
              { ...base, answer: { ...longNotes(question), by: { ...ada, displayName: sized('&', 80) }, at: 1 } },
              { revision: 999_999 },
            )
          : renderQuestionMessage(base, { draft: longNotes(question), draftBy: sized('<', 80), revision: 999_999 });
      expect(() => assertSlackMessage(rendered)).not.toThrow();
      expect(rendered.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.messageBlocks);
      expect(blockTextLength(rendered.blocks)).toBeLessThanOrEqual(SLACK_LIMITS.messageBlockText);
      const header = rendered.blocks[0];
      expect(header?.type === 'header' && header.text.text.length).toBeLessThanOrEqual(SLACK_LIMITS.headerText);
      expect(header?.type === 'header' && header.text.text).toContain(question.ticket ?? '');
    });
  }

  it('GIVEN the extreme question THEN its context and impact are kept whole in markdown blocks', () => {
    const question = extremeQuestion();
    const rendered = renderQuestionMessage(question, { revision: 0 });
    const markdown = rendered.blocks.flatMap((block) => (block.type === 'markdown' ? [block.text] : []));
    expect(markdown).toEqual([`### Context\n\n${question.context}`, `### Impact\n\n${question.impact}`]);
    expect(question.context).toContain('**in memory**');
  });

  it('GIVEN Markdown context and impact THEN no mrkdwn text carries a raw ** or an unescaped <script>', () => {
    const question = extremeQuestion();
    expect(question.context).toContain('**');
    expect(question.context).toContain('<script>');
    const rendered = renderQuestionMessage(question, { draft: draft([], true, 'plain <script> & notes'), revision: 0 });
    for (const text of mrkdwnTexts(rendered.blocks)) {
      expect(text).not.toContain('**');
      expect(text).not.toContain('<script>');
    }
  });

  it('GIVEN the extreme question THEN every option fits the select and the recommended one is starred', () => {
    const question = extremeQuestion();
    const select = picker(renderQuestionMessage(question, { revision: 0 }));
    expect(select.options).toHaveLength(7);
    expect(select.options[2]?.text.text).toBe(`★ ${question.options[2]?.label}`);
    expect(select.options[2]?.text.text.length).toBe(SLACK_LIMITS.optionText);
    expect(select.type === 'multi_static_select' && select.initial_options).toEqual([select.options[2]]);
  });
});

describe('renderQuestionMessage: several recommended and notes per option', () => {
  const multi = makeQuestion({ multiSelect: true, recommended: ['Use Postgres', 'Use Redis'] });

  it('GIVEN a multi-select with two recommended options THEN both are starred and preselected', () => {
    const message = renderQuestionMessage(multi, { revision: 0 });
    expect(mrkdwnTexts(message.blocks)).toContain(
      '*Options* (pick any)\n• ★ *Use Postgres* — already running\n• ★ *Use Redis* — faster, one more service',
    );
    const select = picker(message);
    expect(select.type === 'multi_static_select' && select.initial_options).toEqual([
      select.options[0],
      select.options[1],
    ]);
    expect(select.options.map((option) => option.text.text)).toEqual(['★ Use Postgres', '★ Use Redis', 'Other']);
    expect(lastContext(message)).toBe('✅ ready');
  });

  it('GIVEN a draft with notes on picked options THEN the ready line counts them (not those of options not picked)', () => {
    const shown: Draft = {
      ...draft(['Use Redis'], false, 'overall'),
      choiceNotes: [
        { choice: 'Use Redis', notes: 'the cache one' },
        { choice: 'Use Postgres', notes: 'not picked' },
      ],
    };
    const message = renderQuestionMessage(multi, { draft: shown, draftBy: 'Ada', revision: 0 });
    expect(lastContext(message)).toBe('✅ ready | Notes by Ada: overall | notes on 1 option');
  });

  it('GIVEN an answer with notes per option THEN each follows the answer under its option, then the notes under a heading', () => {
    const answered: SingleQuestion = {
      ...multi,
      status: 'answered',
      answer: {
        choices: ['Use Postgres', 'Use Redis'],
        other: false,
        notes: 'Both.',
        choiceNotes: [
          { choice: 'Use Postgres', notes: 'for the rows' },
          { choice: 'Use Redis', notes: 'for <sessions> & more' },
        ],
        by: ada,
        at: ANSWERED_AT,
      },
    };
    const texts = mrkdwnTexts(renderQuestionMessage(answered, { revision: 0 }).blocks);
    expect(texts.slice(-3)).toEqual([
      '*Notes on Use Postgres:*\n>>> for the rows',
      '*Notes on Use Redis:*\n>>> for &lt;sessions&gt; &amp; more',
      '*Notes:*\n>>> Both.',
    ]);
  });

  it('GIVEN an answer without notes per option THEN it reads as it always has (notes bare, no heading)', () => {
    const answered: Question = { ...makeQuestion(), status: 'answered', answer };
    expect(mrkdwnTexts(renderQuestionMessage(answered, { revision: 0 }).blocks).at(-1)).toBe('>>> Keep it small');
  });

  /** The heaviest answer the store takes: every option and Other, notes on each, as long as one delivery note holds. */
  function heaviestAnswer(question: SingleQuestion, fill: string): Answer {
    for (let length = NOTES_MAX; length > 0; length = Math.floor(length * 0.9)) {
      const selection = {
        choices: question.options.map((option) => option.label),
        other: true,
        notes: sized(fill, length),
        choiceNotes: question.options.map((option) => ({ choice: option.label, notes: sized(fill, length) })),
      };
      try {
        return answerOf(question, selection, { by: { ...ada, displayName: sized(fill, 80) }, at: ANSWERED_AT });
      } catch {
        // too long for one delivery note: shorter notes
      }
    }
    throw new Error('no answer fits');
  }

  const EXTREMES: [string, SingleQuestion][] = [
    ['Markdown, <script> and &', extremeQuestion()],
    ['every text made of &', extremeQuestion('&')],
    ['every text made of <', extremeQuestion('<')],
  ];
  it.each(
    EXTREMES,
  )('GIVEN the extreme question (%s) answered with notes on every option THEN the message fits and shows every note in full', (_name, question) => {
    const heavy = heaviestAnswer(question, question.question.startsWith('&') ? '&' : '<&> notes ');
    for (const status of ['answered', 'delivered'] as const) {
      const message = renderQuestionMessage(
        { ...question, status, answer: heavy, deliveredAt: ANSWERED_AT },
        { revision: 0 },
      );
      expect(() => assertSlackMessage(message)).not.toThrow();
      expect(blockTextLength(message.blocks)).toBeLessThanOrEqual(SLACK_LIMITS.messageBlockText);
      const shown = allText(message.blocks).replace(/\s+/g, '');
      const notes =
        'members' in heavy ? [] : [heavy.notes ?? '', ...(heavy.choiceNotes ?? []).map((entry) => entry.notes)];
      for (const text of notes) {
        const squashed = text.replace(/\s+/g, '');
        const escapedText = squashed.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
        expect(shown.includes(squashed) || shown.includes(escapedText)).toBe(true);
      }
    }
  });
});
