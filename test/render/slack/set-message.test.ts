import type { ActionsBlock, Button, ContextBlock, SectionBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { parseAskInput } from '../../../src/core/ask-input.js';
import { NOTES_MAX, SET_MEMBERS_MAX, SET_TEXT_MAX, setTextLength } from '../../../src/core/limits.js';
import type { Answer, Draft, Question, Responder, Selection } from '../../../src/core/question.js';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { answerOf } from '../../../src/core/reply.js';
import { parseQuestionBlockId, questionBlockId } from '../../../src/render/slack/ids.js';
import { assertSlackMessage, blockTextLength, SLACK_LIMITS } from '../../../src/render/slack/limits.js';
import { renderQuestionMessage } from '../../../src/render/slack/question-message.js';
import { setMessageBlocks } from '../../../src/render/slack/set-message.js';
import type { MessageBlock, SlackMessage } from '../../../src/render/slack/types.js';
import {
  CREATED_AT,
  extremeSet,
  makeSet,
  mrkdwnTexts,
  type SetQuestion,
  type SetShape,
  sized,
  textObjects,
} from './fixtures.js';

const ada: Responder = { platform: 'slack', userId: 'U1', displayName: 'Ada' };
const ANSWERED_AT = CREATED_AT + 3_600_000;

function draft(choices: string[], other = false, notes?: string, choiceNotes?: Draft['choiceNotes']): Draft {
  return {
    choices,
    other,
    ...(notes === undefined ? {} : { notes }),
    ...(choiceNotes === undefined ? {} : { choiceNotes }),
    updatedAt: 1,
  };
}

/** The set's texts as `ask_later` input: what the agent would have sent. */
function askInputOf(set: SetQuestion): Record<string, unknown> {
  return {
    context: set.context,
    impact: set.impact,
    ...(set.ticket === undefined ? {} : { ticket: set.ticket }),
    questions: set.members,
  };
}

const reply: Selection[] = [
  { choices: ['SQLite'], other: false },
  {
    choices: ['Redis', 'In-process'],
    other: false,
    notes: 'Both, for now.',
    choiceNotes: [
      { choice: 'Redis', notes: 'The shared cluster.' },
      { choice: 'In-process', notes: 'Prices only.' },
    ],
  },
  { choices: [], other: true, notes: 'Call it invoices.' },
];
const answer: Answer = { members: reply, by: ada, at: ANSWERED_AT };

function inState(question: SetQuestion, status: Question['status'], withAnswer: Answer = answer): SetQuestion {
  switch (status) {
    case 'pending':
      return question;
    case 'answered':
      return { ...question, status, answer: withAnswer };
    case 'delivered':
      return { ...question, status, answer: withAnswer, deliveredAt: ANSWERED_AT + 60_000 };
    case 'cancelled':
    case 'expired':
      return { ...question, status, closure: { at: ANSWERED_AT } };
    case 'dismissed':
      return { ...question, status, closure: { at: ANSWERED_AT, by: ada } };
  }
}

const STATUSES = ['pending', 'answered', 'delivered', 'cancelled', 'dismissed', 'expired'] as const;

function actionsBlocks(message: SlackMessage): ActionsBlock[] {
  return message.blocks.filter((block): block is ActionsBlock => block.type === 'actions');
}

function contextTexts(block: MessageBlock | undefined): string {
  return ((block as ContextBlock | undefined)?.elements ?? [])
    .map((element) => ('text' in element ? element.text : ''))
    .join(' | ');
}

/** Every text the message shows (text objects and markdown blocks), joined. */
function allText(blocks: readonly MessageBlock[]): string {
  return [
    ...textObjects(blocks).map(({ text }) => text.text),
    ...blocks.flatMap((block) => (block.type === 'markdown' ? [block.text] : [])),
  ].join('\n');
}

function markdownBlocks(message: SlackMessage): string[] {
  return message.blocks.flatMap((block) => (block.type === 'markdown' ? [block.text] : []));
}

describe('renderQuestionMessage: a pending set', () => {
  const set = makeSet();
  const ref = formatQuestionRef(set.project, set.id);
  const message = renderQuestionMessage(set, { revision: 3 });

  it('GIVEN a set with a blocking member THEN the header says BLOCKING with the set id, project and ticket', () => {
    expect(message.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: '🔴 BLOCKING · #12 · shop · SHOP-12' },
    });
    expect(contextTexts(message.blocks[1])).toContain('· 3 questions');
    expect(message.text).toBe('BLOCKING #12 — 3 questions: Database, Caches, Naming');
    expect(message.metadata.event_payload).toEqual({ ref, project: set.project, id: 12 });
  });

  it('GIVEN a set THEN its shared Context and Impact come first, each member adding its own under #### headings', () => {
    expect(markdownBlocks(message)).toEqual([
      `### Context\n\n${set.context}`,
      `### Impact\n\n${set.impact}`,
      '#### Context\n\nBilling reads prices on every request.',
      '#### Impact\n\nThe name goes into every dashboard.',
    ]);
  });

  it('GIVEN a set THEN each member has its ref and topic, a blocking mark when it blocks, and its question', () => {
    const texts = mrkdwnTexts(message.blocks);
    expect(texts).toContain('#12.1 · *Database* · 🔴 blocking\n*Which database should billing use?*');
    expect(texts).toContain('#12.2 · *Caches*\n*Which caches may billing use?*');
    expect(texts).toContain('#12.3 · *Naming*\n*What do we call the new service?*');
  });

  it('GIVEN a set THEN each member lists its options, every recommended one starred', () => {
    const texts = mrkdwnTexts(message.blocks);
    expect(texts).toContain('*Options* (pick one)\n• ★ *Postgres* — What the team knows\n• *SQLite*');
    expect(texts).toContain('*Options* (pick any)\n• ★ *Redis* — Shared\n• ★ *In-process*\n• *None*');
  });

  it('GIVEN a set THEN each member has a picker with its recommendations preselected and Add notes, in a block naming the member', () => {
    const members = actionsBlocks(message).slice(0, 3);
    expect(members.map((block) => parseQuestionBlockId(block.block_id))).toEqual([
      { ref, revision: 3, member: 0 },
      { ref, revision: 3, member: 1 },
      { ref, revision: 3, member: 2 },
    ]);
    const [database, caches, naming] = members.map((block) => block.elements[0]);
    expect(database).toMatchObject({ type: 'static_select', action_id: 'al_pick', initial_option: { value: '0' } });
    expect(caches).toMatchObject({
      type: 'multi_static_select',
      initial_options: [
        { value: '0', text: { text: '★ Redis' } },
        { value: '1', text: { text: '★ In-process' } },
      ],
    });
    expect(naming?.type === 'static_select' && 'initial_option' in naming).toBe(false);
    for (const block of members) {
      expect(block.elements[1]).toEqual({
        type: 'button',
        action_id: 'al_notes',
        text: { type: 'plain_text', text: 'Add notes' },
        value: ref,
      });
    }
  });

  it('GIVEN no drafts THEN each member shows its ready mark and the set how many are ready', () => {
    const marks = message.blocks
      .map((block, index) => ({ block, next: message.blocks[index + 1] }))
      .filter(({ block }) => block.type === 'actions' && parseQuestionBlockId(block.block_id) !== undefined)
      .map(({ next }) => contextTexts(next));
    expect(marks).toEqual(['✅ ready', '✅ ready', '👉 pick one']);
    expect(mrkdwnTexts(message.blocks)).toContain(
      '*👉 2 of 3 ready* · Send shows every answer for review before the set goes.',
    );
  });

  it('GIVEN a set THEN one row holds Send and Remove for the whole set, Remove behind a confirmation', () => {
    const last = actionsBlocks(message).at(-1);
    expect(last?.block_id).toBeUndefined();
    const [send, remove] = (last?.elements ?? []) as Button[];
    expect(send).toEqual({
      type: 'button',
      action_id: 'al_send',
      text: { type: 'plain_text', text: 'Send' },
      value: ref,
      style: 'primary',
    });
    expect(remove).toMatchObject({ action_id: 'al_remove', value: ref, style: 'danger' });
    expect(remove?.confirm?.text.text).toBe(
      'Remove the set #12 without answering? The agent will be told it was dismissed.',
    );
    expect(message.blocks.at(-1)).toBe(last);
  });

  it("GIVEN the viewer's drafts THEN each member shows its own: picks, ready marks, notes preview, notes on options", () => {
    const drafts = [
      draft(['SQLite']),
      draft(['Redis'], false, 'Shared is enough', [
        { choice: 'Redis', notes: 'The big one' },
        { choice: 'None', notes: 'not picked: not counted' },
      ]),
      draft([], true),
    ];
    const rendered = renderQuestionMessage(set, { drafts, draftBy: 'Grace', revision: 4 });
    const members = actionsBlocks(rendered).slice(0, 3);
    expect(members[0]?.elements[0]).toMatchObject({ initial_option: { value: '1' } });
    expect(members[1]?.elements[0]).toMatchObject({ initial_options: [{ value: '0' }] });
    expect(members[2]?.elements[0]).toMatchObject({ initial_option: { value: 'other' } });
    const statuses = rendered.blocks
      .map((block, index) => ({ block, next: rendered.blocks[index + 1] }))
      .filter(({ block }) => block.type === 'actions' && parseQuestionBlockId(block.block_id) !== undefined)
      .map(({ next }) => contextTexts(next));
    expect(statuses).toEqual([
      '✅ ready',
      '✅ ready | Notes by Grace: Shared is enough | notes on 1 option',
      '✍️ needs a note',
    ]);
    expect(mrkdwnTexts(rendered.blocks)).toContain(
      '*👉 2 of 3 ready* · Send shows every answer for review before the set goes.',
    );
  });

  it('GIVEN a set whose members all can wait THEN the header says can wait', () => {
    const calm = makeSet({ isBlocking: false, members: makeSet().members.map((m) => ({ ...m, isBlocking: false })) });
    const rendered = renderQuestionMessage(calm, { revision: 0 });
    expect(rendered.blocks[0]).toMatchObject({ text: { text: '🟢 can wait · #12 · shop · SHOP-12' } });
    expect(allText(rendered.blocks)).not.toContain('🔴');
  });

  it('GIVEN mrkdwn characters in topics, questions and options THEN they are escaped', () => {
    const [first, ...rest] = makeSet().members;
    if (!first) throw new Error('no member');
    const sharp = makeSet({
      members: [{ ...first, topic: 'A <!channel>', question: 'Use <b> & co?', options: [{ label: 'x <y>' }] }, ...rest],
    });
    const texts = mrkdwnTexts(renderQuestionMessage(sharp, { revision: 0 }).blocks);
    expect(texts).toContain('#12.1 · *A &lt;!channel&gt;* · 🔴 blocking\n*Use &lt;b&gt; &amp; co?*');
    expect(texts).toContain('*Options* (pick one)\n• *x &lt;y&gt;*');
  });
});

describe('renderQuestionMessage: a closed set', () => {
  const set = makeSet();

  it('GIVEN an answered set THEN the controls are gone; who answered, then each member with its answer, notes per option and notes', () => {
    const message = renderQuestionMessage(inState(set, 'answered'), { revision: 9 });
    expect(actionsBlocks(message)).toEqual([]);
    const texts = mrkdwnTexts(message.blocks);
    const date = `<!date^${ANSWERED_AT / 1000}^{date_short_pretty} at {time}|${new Date(ANSWERED_AT).toISOString()}>`;
    const start = texts.indexOf(`✅ Answered by Ada on Slack at ${date}`);
    expect(start).toBeGreaterThan(-1);
    expect(texts.slice(start + 1)).toEqual([
      '#12.1 · *Database* · 🔴 blocking\n*Which database should billing use?*',
      '*Answer:* SQLite',
      '#12.2 · *Caches*\n*Which caches may billing use?*',
      '*Answer:* Redis, In-process',
      '*Notes on Redis:*\n>>> The shared cluster.',
      '*Notes on In-process:*\n>>> Prices only.',
      '*Notes:*\n>>> Both, for now.',
      '#12.3 · *Naming*\n*What do we call the new service?*',
      '*Answer:* Other',
      '*Notes:*\n>>> Call it invoices.',
    ]);
    expect(markdownBlocks(message)).toHaveLength(4);
    expect(message.text).toBe('Answered #12 — 3 questions: Database, Caches, Naming');
  });

  it('GIVEN a delivered set THEN it says so after the answers', () => {
    const message = renderQuestionMessage(inState(set, 'delivered'), { revision: 0 });
    expect(contextTexts(message.blocks.at(-1))).toContain('📬 Delivered to the agent at');
  });

  const CLOSED: [Question['status'], string][] = [
    ['cancelled', '↩️ Withdrawn by the agent at'],
    ['dismissed', '🗑️ Dismissed by Ada at'],
    ['expired', '⌛ Expired unanswered at'],
  ];
  it.each(CLOSED)('GIVEN a %s set THEN its members and questions stay and the outcome closes it', (status, line) => {
    const message = renderQuestionMessage(inState(set, status), { revision: 0 });
    expect(actionsBlocks(message)).toEqual([]);
    const texts = mrkdwnTexts(message.blocks);
    expect(texts.at(-1)).toContain(line);
    expect(texts).toContain('#12.3 · *Naming*\n*What do we call the new service?*');
    expect(allText(message.blocks)).not.toContain('Options');
  });
});

describe('renderQuestionMessage: the largest sets at the limits', () => {
  const SHAPES: SetShape[] = ['options', 'members', 'context'];
  const FILLS: [string, string | undefined][] = [
    ['Markdown, <script> and &', undefined],
    ['every text made of &', '&'],
    ['every text made of <', '<'],
  ];

  it.each(
    SHAPES,
  )('GIVEN the extreme set shaped %s THEN ask_later accepts it, 4 members of 6 options spending SET_TEXT_MAX', (shape) => {
    for (const [, fill] of FILLS) {
      const set = extremeSet(shape, fill);
      expect(set.members).toHaveLength(SET_MEMBERS_MAX);
      expect(setTextLength(set)).toBe(SET_TEXT_MAX);
      const parsed = parseAskInput(askInputOf(set));
      expect(parsed.ok ? 'accepted' : parsed.reasons).toBe('accepted');
    }
  });

  /** Drafts for every member: every option and Other picked, notes and notes per option at NOTES_MAX. */
  const longDrafts = (set: SetQuestion): Draft[] =>
    set.members.map((member) =>
      draft(
        member.options.map((option) => option.label),
        true,
        sized('&<', NOTES_MAX),
        member.options.map((option) => ({ choice: option.label, notes: sized('<&', NOTES_MAX) })),
      ),
    );

  for (const shape of SHAPES) {
    for (const [name, fill] of FILLS) {
      it(`GIVEN the extreme set shaped ${shape}, ${name} THEN the pending message keeps every text and fits 50 blocks and the text budget`, () => {
        const set = extremeSet(shape, fill);
        const message = renderQuestionMessage(set, {
          drafts: longDrafts(set),
          draftBy: sized('<', 80),
          revision: 999_999,
        });
        expect(() => assertSlackMessage(message)).not.toThrow();
        expect(message.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.messageBlocks);
        expect(blockTextLength(message.blocks)).toBeLessThanOrEqual(SLACK_LIMITS.messageBlockText);
        // Every Context and Impact, every member's question and every option label is there.
        const contexts = 2 + set.members.filter((m) => m.context).length + set.members.filter((m) => m.impact).length;
        expect(markdownBlocks(message)).toHaveLength(contexts);
        const text = allText(message.blocks);
        for (const member of set.members) {
          expect(text.includes(member.question) || text.includes(escaped(member.question))).toBe(true);
          for (const option of member.options) {
            expect(text.includes(option.label) || text.includes(escaped(option.label))).toBe(true);
          }
        }
        // One picker per member and one Send row.
        expect(actionsBlocks(message)).toHaveLength(SET_MEMBERS_MAX + 1);
      });
    }
  }

  it('GIVEN the worst pending sets THEN drawn plain (the form that always keeps every text) they use at most 11,100 characters and 39 blocks', () => {
    const plain = { rich: false, memberContext: true, sharedContext: true };
    const sizes = SHAPES.flatMap((shape) =>
      FILLS.map(([, fill]) => {
        const set = extremeSet(shape, fill);
        const view = { drafts: longDrafts(set), draftBy: sized('&', 80), revision: 999_999 };
        const blocks = setMessageBlocks(set, view, plain);
        return { blocks: blocks.length, text: blockTextLength(blocks) };
      }),
    );
    // Plain texts cost once; option labels three times (the list, the picker's options, and again as its initial
    // options when every one is picked: 4 × 6 × 75 × 3 = 5,400); topics escaped (4 × 150); ~2,100 of our own
    // (header, path, buttons, ready marks, notes previews). Measured: 11,061 for the `members` shape of `&`.
    expect(Math.max(...sizes.map((size) => size.text))).toBeLessThanOrEqual(11_100);
    expect(Math.max(...sizes.map((size) => size.blocks))).toBeLessThanOrEqual(39);
  });

  it('GIVEN texts that escaping would blow up THEN the set is drawn plain; ordinary ones rich', () => {
    const plainSections = (message: SlackMessage) =>
      message.blocks.filter((block) => block.type === 'section' && block.text?.type === 'plain_text').length;
    expect(plainSections(renderQuestionMessage(extremeSet('options', '&'), { revision: 0 }))).toBeGreaterThan(0);
    expect(plainSections(renderQuestionMessage(makeSet(), { revision: 0 }))).toBe(0);
  });

  /** The heaviest answer the store takes for `set`: notes on every option, shrunk until one delivery note holds it. */
  function heaviestAnswer(set: SetQuestion, fill: string): Answer {
    for (let notes = NOTES_MAX; notes > 0; notes = Math.floor(notes * 0.9)) {
      const members = set.members.map((member) => ({
        choices: member.options.map((option) => option.label),
        other: true,
        notes: sized(fill, notes),
        choiceNotes: member.options.map((option) => ({ choice: option.label, notes: sized(fill, notes) })),
      }));
      try {
        return answerOf(set, { members }, { by: { ...ada, displayName: sized(fill, 80) }, at: ANSWERED_AT });
      } catch {
        // too long for one delivery note: shorter notes
      }
    }
    throw new Error('no answer fits');
  }

  for (const shape of SHAPES) {
    for (const [name, fill] of FILLS) {
      it.each(
        STATUSES,
      )(`GIVEN the extreme set shaped ${shape}, ${name} THEN the %s message fits, every note shown in full`, (status) => {
        const set = extremeSet(shape, fill);
        const heavy = heaviestAnswer(set, fill ?? '<&> notes ');
        const message = renderQuestionMessage(inState(set, status, heavy), { revision: 1 });
        expect(() => assertSlackMessage(message)).not.toThrow();
        expect(message.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.messageBlocks);
        expect(blockTextLength(message.blocks)).toBeLessThanOrEqual(SLACK_LIMITS.messageBlockText);
        if (status === 'answered' || status === 'delivered') {
          const shown = squash(allText(message.blocks));
          for (const selection of 'members' in heavy ? heavy.members : []) {
            for (const notes of [selection.notes ?? '', ...(selection.choiceNotes ?? []).map((entry) => entry.notes)]) {
              expect(shown.includes(squash(notes)) || shown.includes(squash(escaped(notes)))).toBe(true);
            }
          }
        }
      });
    }
  }

  it('GIVEN an answer too long for every member context THEN the members’ Context and Impact give way first, and a line says so', () => {
    const set = extremeSet('members');
    const heavy = heaviestAnswer(set, '&');
    const message = renderQuestionMessage(inState(set, 'answered', heavy), { revision: 1 });
    const texts = mrkdwnTexts(message.blocks);
    const kept = markdownBlocks(message);
    expect(kept.length === 2 || kept.length === 0).toBe(true);
    expect(texts.some((text) => text.includes('left out: too long for one Slack message'))).toBe(true);
  });

  it('GIVEN a rich member heading THEN its question stays within one section even when escaped fivefold', () => {
    const set = extremeSet('options', '&');
    const message = renderQuestionMessage(set, { revision: 0 });
    for (const block of message.blocks) {
      if (block.type === 'section') expect((block as SectionBlock).text?.text.length ?? 0).toBeLessThanOrEqual(3000);
    }
    expect(questionBlockId(formatQuestionRef(set.project, set.id), 999_999_999_999_999, 3).length).toBeLessThan(255);
  });
});

function escaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Text without whitespace: notes split over sections, or quoted, still read the same. */
function squash(text: string): string {
  return text.replace(/\s+/g, '');
}
