import type { APIButtonComponentWithCustomId, APIStringSelectComponent } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { inboxCounts } from '../../../src/core/inbox.js';
import type { Draft, Question } from '../../../src/core/question.js';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { parseCustomId } from '../../../src/render/discord/ids.js';
import {
  INBOX_PAGE_SIZE,
  type InboxItem,
  type InboxView,
  inboxQuestions,
  readyCount,
  renderInbox,
} from '../../../src/render/discord/inbox.js';
import { DISCORD_LIMITS, embedTextLength } from '../../../src/render/discord/limits.js';
import { shownSelection } from '../../../src/render/discord/picker.js';
import type { DiscordMessage } from '../../../src/render/discord/types.js';
import { afterOf, inboxPageOf } from '../../support/inbox.js';
import { CREATED_AT, extremeQuestion, extremeSet, extremeSetAnswer, makeQuestion, makeSet } from './fixtures.js';

/** The inbox as the handlers draw it: page `page` of `items` in the view's filter. */
function draw(items: readonly InboxItem[], view: InboxView, page = 0): DiscordMessage {
  const after = afterOf(items, view.filter, page, INBOX_PAGE_SIZE);
  return renderInbox(inboxPageOf(items, view.filter, page, INBOX_PAGE_SIZE), {
    ...view,
    ...(after === undefined ? {} : { after }),
  });
}

const draft = (overrides: Partial<Draft>): Draft => ({
  choices: [],
  other: false,
  updatedAt: CREATED_AT,
  ...overrides,
});
const refOf = (question: Question): string => formatQuestionRef(question.project, question.id);

/**
 * Three questions: #1 blocking with the recommendation (ready), #2 can wait with Other and no notes (needs a
 * note), #3 blocking without a recommendation (pick one), asked in the order 2, 1, 3.
 */
function three(): InboxItem[] {
  const { recommended: _, ...noRecommendation } = makeQuestion({ id: 3, createdAt: CREATED_AT + 3 });
  return [
    { question: makeQuestion({ id: 1, createdAt: CREATED_AT + 2 }) },
    { question: makeQuestion({ id: 2, isBlocking: false, createdAt: CREATED_AT + 1 }), draft: draft({ other: true }) },
    { question: noRecommendation as Question },
  ];
}

/** 80 extreme questions, alternately blocking, every third with an empty draft (pick one). */
function eighty(): InboxItem[] {
  return Array.from({ length: 80 }, (_, index) => {
    const question = extremeQuestion({ id: index + 1, isBlocking: index % 2 === 0, createdAt: CREATED_AT + index });
    return index % 3 === 0 ? { question, draft: draft({}) } : { question };
  });
}

function selects(message: DiscordMessage): APIStringSelectComponent[] {
  return message.components.flatMap((row) => row.components.filter((c): c is APIStringSelectComponent => c.type === 3));
}
function buttons(message: DiscordMessage): APIButtonComponentWithCustomId[] {
  return message.components.flatMap((row) =>
    row.components.filter((c): c is APIButtonComponentWithCustomId => c.type === 2),
  );
}
function button(message: DiscordMessage, label: RegExp): APIButtonComponentWithCustomId | undefined {
  return buttons(message).find((b) => label.test(b.label ?? ''));
}

function expectWithinLimits(message: DiscordMessage): void {
  expect(message.components.length).toBeLessThanOrEqual(DISCORD_LIMITS.actionRows);
  for (const select of selects(message))
    expect(select.options.length).toBeLessThanOrEqual(DISCORD_LIMITS.selectOptions);
  expect(embedTextLength(message.embeds)).toBeLessThanOrEqual(DISCORD_LIMITS.embedTotal);
  expect(message.allowed_mentions).toEqual({ parse: [] });
}

describe('renderInbox', () => {
  it('GIVEN no questions THEN it says nothing is waiting, with no controls', () => {
    const message = draw([], { filter: 'all' });
    expect(message.embeds[0]?.description).toContain('Nothing waiting');
    expect(message.components).toEqual([]);
  });

  it('GIVEN 3 questions THEN the list is blocking first then oldest, each with its ready mark', () => {
    const message = draw(three(), { filter: 'all' });
    expect(message.embeds).toHaveLength(1);
    const entries = message.embeds[0]?.description?.split('\n\n') ?? [];
    expect(entries.map((entry) => entry.split('\n')[0])).toEqual([
      '🔴 **#1** · shop · SHOP-12 · ✅ ready',
      '🔴 **#3** · shop · SHOP-12 · 👉 pick one',
      '🟢 **#2** · shop · SHOP-12 · ✍️ needs a note',
    ]);
    expect(message.embeds[0]?.title).toBe('📥 Questions waiting — All (3)');
    expectWithinLimits(message);
  });

  const FILTERS: ['all' | 'blocking' | 'non-blocking', string[], number][] = [
    ['all', ['All (3)', 'Blocking (2)', 'Non-blocking (1)'], 1],
    ['blocking', ['All (3)', 'Blocking (2)', 'Non-blocking (1)'], 1],
    ['non-blocking', ['All (3)', 'Blocking (2)', 'Non-blocking (1)'], 0],
  ];
  it.each(
    FILTERS,
  )('GIVEN 3 questions and the filter %s THEN counts, default and Send N are right', (filter, labels, ready) => {
    const message = draw(three(), { filter });
    const [filterSelect, questionSelect] = selects(message);
    expect(parseCustomId(filterSelect?.custom_id)).toEqual({ kind: 'inbox-filter' });
    expect(filterSelect?.options.map((option) => option.label)).toEqual(labels);
    expect(filterSelect?.options.filter((option) => option.default).map((option) => option.value)).toEqual([filter]);
    expect(questionSelect?.options).toHaveLength(inboxCounts(three())[filter]);
    expect(readyCount(three(), filter)).toBe(ready);
    const send = button(message, /^Send/);
    expect(send?.label).toBe(ready === 1 ? 'Send 1 answer' : `Send ${ready} answers`);
    expect(send?.disabled === true).toBe(ready === 0);
    expect(parseCustomId(send?.custom_id)).toEqual({ kind: 'inbox-send', inbox: { filter } });
    expectWithinLimits(message);
  });

  it('GIVEN 3 questions and none selected THEN there is no answer picker and no Add notes', () => {
    const message = draw(three(), { filter: 'all' });
    expect(message.components).toHaveLength(3);
    expect(button(message, /Add notes/)).toBeUndefined();
    expect(button(message, /Previous|Next/)).toBeUndefined();
  });

  it('GIVEN a selected question THEN its answer picker shows the draft and Add notes carries its ref and the state', () => {
    const items = three();
    const second = items[1];
    if (second === undefined) throw new Error('fixture');
    const ref = refOf(second.question);
    const message = draw(items, { filter: 'all', selected: ref });
    expect(message.components).toHaveLength(4);
    const [, questionSelect, picker] = selects(message);
    expect(questionSelect?.options.filter((option) => option.default).map((option) => option.value)).toEqual([ref]);
    expect(parseCustomId(picker?.custom_id)).toEqual({ kind: 'inbox-pick', ref, inbox: { filter: 'all' } });
    expect(picker?.options.filter((option) => option.default).map((option) => option.value)).toEqual(['other']);
    expect(parseCustomId(button(message, /Add notes/)?.custom_id)).toEqual({
      kind: 'inbox-notes',
      ref,
      inbox: { filter: 'all' },
    });
    expect(message.embeds).toHaveLength(2);
    expect(message.embeds[1]?.description).toContain('Your answer: **Other**');
    expect(message.embeds[1]?.description).toContain('✍️ needs a note');
  });

  it('GIVEN a selected question outside the filter THEN it is ignored', () => {
    const items = three();
    const canWait = items[1]?.question;
    if (canWait === undefined) throw new Error('fixture');
    const message = draw(items, { filter: 'blocking', selected: refOf(canWait) });
    expect(message.embeds).toHaveLength(1);
    expect(button(message, /Add notes/)).toBeUndefined();
  });

  it('GIVEN 80 extreme questions THEN every page fits: 10 per page, rows ≤ 5, selects ≤ 25, embeds ≤ 6000', () => {
    const items = eighty();
    const pages = Math.ceil(80 / INBOX_PAGE_SIZE);
    for (let page = 0; page < pages; page++) {
      const first = inboxQuestions(items, 'all')[page * INBOX_PAGE_SIZE];
      if (first === undefined) throw new Error('fixture');
      for (const selected of [undefined, refOf(first.question)]) {
        const message = draw(items, { filter: 'all', ...(selected === undefined ? {} : { selected }) }, page);
        expectWithinLimits(message);
        expect(message.components).toHaveLength(selected === undefined ? 3 : 4);
        expect(selects(message)[1]?.options).toHaveLength(INBOX_PAGE_SIZE);
        expect(message.embeds[0]?.footer?.text).toContain(
          `${page * INBOX_PAGE_SIZE + 1}–${(page + 1) * INBOX_PAGE_SIZE} of 80`,
        );
      }
    }
  });

  it('GIVEN 80 questions THEN Send N counts the ready ones on the page shown', () => {
    const items = eighty();
    const page = inboxPageOf(items, 'all', 3, INBOX_PAGE_SIZE);
    const ready = readyCount(page.items, 'all');
    expect(ready).toBeLessThan(INBOX_PAGE_SIZE);
    expect(ready).toBeGreaterThan(0);
    const message = draw(items, { filter: 'all' }, 3);
    expect(button(message, /^Send/)?.label).toBe(`Send ${ready} answers`);
    expect(message.embeds[0]?.footer?.text).toContain(`${ready} ready to send on this page`);
  });

  const PAGING: [number, boolean, boolean][] = [
    [0, true, false],
    [3, false, false],
    [7, false, true],
  ];
  it.each(
    PAGING,
  )('GIVEN 80 questions on page %i THEN First disabled=%s, Next disabled=%s, Next after the last shown', (page, firstOff, nextOff) => {
    const message = draw(eighty(), { filter: 'all' }, page);
    const first = button(message, /First/);
    const next = button(message, /Next/);
    expect(first?.disabled === true).toBe(firstOff);
    expect(next?.disabled === true).toBe(nextOff);
    expect(parseCustomId(first?.custom_id)).toEqual({ kind: 'inbox-page', inbox: { filter: 'all' } });
    const shown = inboxPageOf(eighty(), 'all', page, INBOX_PAGE_SIZE);
    const expectedAfter = shown.next ?? afterOf(eighty(), 'all', page, INBOX_PAGE_SIZE);
    expect(parseCustomId(next?.custom_id)).toEqual({
      kind: 'inbox-page',
      inbox: { filter: 'all', after: expectedAfter },
    });
    expect(new Set(buttons(message).map((b) => b.custom_id)).size).toBe(buttons(message).length);
  });

  it('GIVEN questions no longer pending THEN they are left out', () => {
    const items: InboxItem[] = [...three(), { question: makeQuestion({ id: 9, status: 'answered' }) }];
    expect(inboxCounts(items)).toEqual({ all: 3, blocking: 2, 'non-blocking': 1 });
  });

  it('GIVEN a draft THEN the shown selection is the draft, else the recommendation', () => {
    const question = makeQuestion();
    expect(shownSelection(question)).toEqual({ choices: ['Use Postgres'], other: false });
    expect(shownSelection(question, draft({}))).toEqual(draft({}));
  });
});

describe('sets in the inbox', () => {
  /** #1 a single question (ready), #12 the set of three (Naming has no recommendation: 2 of 3 ready). */
  function withSet(memberDrafts?: (Draft | undefined)[]): InboxItem[] {
    return [
      { question: makeQuestion({ id: 1, createdAt: CREATED_AT }) },
      { question: makeSet({ createdAt: CREATED_AT + 1 }), ...(memberDrafts === undefined ? {} : { memberDrafts }) },
    ];
  }

  it('GIVEN a set THEN it is one entry, showing how many of its members are ready and its topics', () => {
    const message = draw(withSet(), { filter: 'all' });
    const entries = message.embeds[0]?.description?.split('\n\n') ?? [];
    expect(entries).toEqual([
      '🔴 **#1** · shop · SHOP-12 · ✅ ready\nWhich store should sessions use?',
      '🔴 **#12** · shop · SHOP-12 · 👉 2 of 3 ready\nDatabase · Caches · Naming',
    ]);
    expect(message.embeds[0]?.title).toBe('📥 Questions waiting — All (2)');
    const questionSelect = selects(message)[1];
    expect(questionSelect?.options[1]).toMatchObject({
      label: '#12 · Database · Caches · Naming',
      description: '🔴 BLOCKING · shop · SHOP-12 · 👉 2 of 3 ready',
    });
  });

  it('GIVEN a set THEN Send N counts it once, and only when every member is ready', () => {
    expect(button(draw(withSet(), { filter: 'all' }), /^Send/)?.label).toBe('Send 1 answer');
    const ready = withSet([undefined, undefined, draft({ choices: ['ledger'] })]);
    const message = draw(ready, { filter: 'all' });
    expect(button(message, /^Send/)?.label).toBe('Send 2 answers');
    expect(message.embeds[0]?.description).toContain('✅ 3 of 3 ready');
  });

  it('GIVEN a set selected THEN the set view: its members with the answers shown, a select per member, and Add notes / Send / Back', () => {
    const items = withSet([undefined, draft({ choices: ['None'], notes: 'none at all' }), undefined]);
    const set = items[1]?.question;
    if (set === undefined) throw new Error('fixture');
    const ref = refOf(set);
    const message = draw(items, { filter: 'blocking', selected: ref });
    expect(message.components).toHaveLength(4);
    expect(message.embeds[0]).toMatchObject({
      author: { name: '🔴 BLOCKING · #12 · shop · SHOP-12' },
      title: '#12 · 👉 2 of 3 ready',
    });
    expect(message.embeds.slice(1).map((embed) => [embed.title, embed.description])).toEqual([
      ['🔴 #12.1 · Database', 'Which database should billing use?\nYour answer: **Postgres**\n✅ ready'],
      ['🟢 #12.2 · Caches', 'Which caches may billing use?\nYour answer: **None**\nNotes: none at all\n✅ ready'],
      ['🟢 #12.3 · Naming', 'What do we call the new service?\nYour answer: **nothing picked**\n👉 pick one'],
    ]);
    const pickers = selects(message);
    expect(pickers.map((picker) => parseCustomId(picker.custom_id))).toEqual(
      [0, 1, 2].map((member) => ({
        kind: 'inbox-pick',
        ref,
        member,
        inbox: { filter: 'blocking' },
      })),
    );
    expect(pickers[1]?.options.filter((option) => option.default).map((option) => option.value)).toEqual(['2']);
    expect(buttons(message).map((b) => [b.label, parseCustomId(b.custom_id)])).toEqual([
      ['Add notes', { kind: 'inbox-notes', ref, inbox: { filter: 'blocking' } }],
      ['Send', { kind: 'send', ref }],
      ['← Back to the list', { kind: 'inbox-page', inbox: { filter: 'blocking' } }],
    ]);
  });

  it('GIVEN a page of 10 of the largest sets, and each selected THEN every view fits Discord: rows ≤ 5, embeds ≤ 6000', () => {
    const items: InboxItem[] = Array.from({ length: 10 }, (_, index) => {
      const question = extremeSet(index % 3 === 0 ? 'options' : index % 3 === 1 ? 'shared text' : 'member text', {
        id: index + 1,
        createdAt: CREATED_AT + index,
      });
      const answer = extremeSetAnswer(question);
      return { question, memberDrafts: answer.members.map((selection) => ({ ...selection, updatedAt: CREATED_AT })) };
    });
    expectWithinLimits(draw(items, { filter: 'all' }));
    for (const item of items) {
      const message = draw(items, { filter: 'all', selected: refOf(item.question) });
      expectWithinLimits(message);
      expect(message.components).toHaveLength(5);
    }
  });
});
