import type { ActionsBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { inboxCounts } from '../../../src/core/inbox.js';
import type { Draft } from '../../../src/core/question.js';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { type InboxFilter, parseInboxState, parseQuestionBlockId } from '../../../src/render/slack/ids.js';
import { INBOX_PAGE_SIZE, type InboxItem, readyCount, renderInbox } from '../../../src/render/slack/inbox.js';
import { assertSlackView, SLACK_LIMITS } from '../../../src/render/slack/limits.js';
import type { SlackView } from '../../../src/render/slack/types.js';
import { inboxPageOf } from '../../support/inbox.js';
import { CREATED_AT, extremeQuestion, extremeSet, makeQuestion, makeSet, mrkdwnTexts, sized } from './fixtures.js';

/** The inbox as the handlers draw it: one page of `items` in `filter`, in that state. */
function draw(items: readonly InboxItem[], filter: InboxFilter, surface: 'modal' | 'home', page = 0): SlackView {
  return renderInbox(inboxPageOf(items, filter, page, INBOX_PAGE_SIZE), { filter }, surface);
}

function pageCount(items: readonly InboxItem[], filter: InboxFilter): number {
  const { counts } = inboxPageOf(items, filter);
  return Math.max(1, Math.ceil(counts[filter] / INBOX_PAGE_SIZE));
}

function draft(choices: string[], other = false, notes?: string): Draft {
  return notes === undefined ? { choices, other, updatedAt: 42 } : { choices, other, notes, updatedAt: 42 };
}

/** The refs of the questions a view shows, in order. */
function shownRefs(view: SlackView): string[] {
  return view.blocks.flatMap((block) => {
    const parsed = block.type === 'actions' ? parseQuestionBlockId(block.block_id) : undefined;
    return parsed === undefined ? [] : [parsed.ref];
  });
}

function actionIds(view: SlackView): string[] {
  return view.blocks.flatMap((block) =>
    block.type === 'actions' || (block.type === 'section' && block.accessory)
      ? (block.type === 'actions' ? block.elements : block.accessory ? [block.accessory] : []).flatMap((element) =>
          'action_id' in element && element.action_id !== undefined ? [element.action_id] : [],
        )
      : [],
  );
}

function sendButtonText(view: SlackView): string | undefined {
  for (const block of view.blocks) {
    if (
      block.type === 'section' &&
      block.accessory?.type === 'button' &&
      block.accessory.action_id === 'al_inbox_send_all'
    ) {
      return block.accessory.text.text;
    }
  }
  return undefined;
}

function sendButtonValue(view: SlackView): string | undefined {
  for (const block of view.blocks) {
    if (
      block.type === 'section' &&
      block.accessory?.type === 'button' &&
      block.accessory.action_id === 'al_inbox_send_all'
    ) {
      return block.accessory.value;
    }
  }
  return undefined;
}

function filterLabels(view: SlackView): string[] {
  const block = view.blocks.find((candidate): candidate is ActionsBlock => candidate.block_id === 'al_inbox_filter');
  const select = block?.elements[0];
  return select?.type === 'static_select' ? (select.options ?? []).map((option) => option.text.text) : [];
}

const ref = (id: number) => formatQuestionRef('/home/ada/src/shop', id);

describe('renderInbox: empty', () => {
  it.each(['modal', 'home'] as const)('GIVEN no questions THEN the %s says so in a friendly line', (surface) => {
    const view = draw([], 'all', surface);
    expect(view.type).toBe(surface);
    expect(view.blocks).toHaveLength(2);
    expect(mrkdwnTexts(view.blocks)).toEqual([
      '🎉 Nothing waiting. When an agent parks a question for this channel, it shows up here.',
    ]);
    expect(() => assertSlackView(view)).not.toThrow();
  });
});

describe('renderInbox: three questions', () => {
  const items: InboxItem[] = [
    // Oldest, non-blocking, its recommendation preselected (no draft): ready.
    { question: makeQuestion({ id: 1, isBlocking: false, createdAt: CREATED_AT }) },
    // Blocking, newer, a draft with Other and no notes: needs a note.
    { question: makeQuestion({ id: 3, createdAt: CREATED_AT + 2000 }), draft: draft([], true) },
    // Blocking, older, a ready draft with notes.
    { question: makeQuestion({ id: 2, createdAt: CREATED_AT + 1000 }), draft: draft(['Use Redis'], false, 'small') },
  ];

  it('GIVEN three questions THEN blocking come first, then oldest, each with its picker and Add notes', () => {
    const view = draw(items, 'all', 'modal', 0);
    expect(shownRefs(view)).toEqual([ref(2), ref(3), ref(1)]);
    expect(actionIds(view)).toEqual([
      'al_inbox_filter',
      'al_inbox_send_all',
      'al_inbox_pick',
      'al_inbox_notes',
      'al_inbox_pick',
      'al_inbox_notes',
      'al_inbox_pick',
      'al_inbox_notes',
    ]);
    expect(mrkdwnTexts(view.blocks)).toContain(
      '🔴 *BLOCKING* · #2 · shop · SHOP-12\n*Which store should sessions use?*\n✅ ready · Notes: small',
    );
    expect(mrkdwnTexts(view.blocks)).toContain(
      '🔴 *BLOCKING* · #3 · shop · SHOP-12\n*Which store should sessions use?*\n✍️ needs a note',
    );
    expect(mrkdwnTexts(view.blocks)).toContain(
      '🟢 can wait · #1 · shop · SHOP-12\n*Which store should sessions use?*\n✅ ready',
    );
  });

  it('GIVEN drafts THEN each picker preselects the draft, else the recommendation, and its block id follows the draft', () => {
    const view = draw(items, 'all', 'home', 0);
    const pickers = view.blocks.filter((block): block is ActionsBlock => block.type === 'actions').slice(1);
    expect(pickers.map((block) => block.block_id)).toEqual([
      `al_q:${ref(2)}:42`,
      `al_q:${ref(3)}:42`,
      `al_q:${ref(1)}:0`,
    ]);
    expect(pickers.map((block) => block.elements[0])).toMatchObject([
      { initial_option: { value: '1' } },
      { initial_option: { value: 'other' } },
      { initial_option: { value: '0', text: { text: '★ Use Postgres' } } },
    ]);
  });

  const FILTERS: [InboxFilter, number, string | undefined, string[]][] = [
    ['all', 2, 'Send 2 answers', [ref(2), ref(3), ref(1)]],
    ['blocking', 1, 'Send 1 answer', [ref(2), ref(3)]],
    ['non-blocking', 1, 'Send 1 answer', [ref(1)]],
  ];
  it.each(
    FILTERS,
  )('GIVEN the %s filter THEN %i ready answers are counted and only its questions shown', (filter, ready, button, refs) => {
    const view = draw(items, filter, 'modal');
    expect(readyCount(items, filter)).toBe(ready);
    expect(sendButtonText(view)).toBe(button);
    expect(shownRefs(view)).toEqual(refs);
    expect(filterLabels(view)).toEqual(['All (3)', 'Blocking (2)', 'Non-blocking (1)']);
    expect(parseInboxState(view.private_metadata)).toEqual({ filter });
  });

  it('GIVEN no ready answer in the filter THEN there is no send button, and the inbox says nothing is ready', () => {
    const notReady: InboxItem[] = items.map((item) => ({ ...item, draft: draft([], true) }));
    const view = draw(notReady, 'all', 'modal', 0);
    expect(readyCount(notReady, 'all')).toBe(0);
    expect(sendButtonText(view)).toBeUndefined();
    expect(mrkdwnTexts(view.blocks)).toContain(
      'Nothing ready to send: pick an answer (Other needs a note) to send it.',
    );
  });

  it('GIVEN a filter with no questions THEN it says so and keeps the filter', () => {
    const blockingOnly = items.filter((item) => item.question.isBlocking);
    const view = draw(blockingOnly, 'non-blocking', 'modal', 0);
    expect(mrkdwnTexts(view.blocks)).toContain('Nothing non-blocking waiting.');
    expect(filterLabels(view)).toEqual(['All (2)', 'Blocking (2)', 'Non-blocking (0)']);
  });

  it('GIVEN a question no longer pending THEN it is left out of the list and the counts', () => {
    const answered: InboxItem = { question: makeQuestion({ id: 4, status: 'answered' }) };
    expect(inboxCounts([...items, answered])).toEqual({ all: 3, blocking: 2, 'non-blocking': 1 });
    expect(shownRefs(draw([...items, answered], 'all', 'modal'))).not.toContain(ref(4));
  });

  it('GIVEN the modal THEN it is al_inbox with its state as metadata; the Home tab carries the same state', () => {
    const modal = draw(items, 'blocking', 'modal', 0);
    expect(modal).toMatchObject({
      type: 'modal',
      callback_id: 'al_inbox',
      title: { type: 'plain_text', text: 'Questions' },
      close: { type: 'plain_text', text: 'Close' },
      private_metadata: '{"filter":"blocking"}',
    });
    const state = { filter: 'blocking' as const, after: ref(2), back: [''] };
    expect(renderInbox(inboxPageOf(items, 'blocking'), state, 'home')).toMatchObject({
      type: 'home',
      private_metadata: JSON.stringify(state),
    });
  });
});

describe('renderInbox: sixty questions', () => {
  // Ids 1..60; even ids blocking; every third has a ready draft, every fifth a draft with Other and no notes,
  // the rest no draft (and no recommendation when the id ends in 7, so they need a pick).
  const items: InboxItem[] = Array.from({ length: 60 }, (_, index) => {
    const id = index + 1;
    const base = makeQuestion({ id, isBlocking: id % 2 === 0, createdAt: CREATED_AT + id });
    const { recommended: _recommended, ...unrecommended } = base;
    const question = id % 10 === 7 ? unrecommended : base;
    if (id % 3 === 0) return { question, draft: draft(['Use Redis']) };
    if (id % 5 === 0) return { question, draft: draft([], true) };
    return { question };
  });
  const expectedReady = (filter: InboxFilter, among: readonly InboxItem[] = items) =>
    among.filter(
      ({ question, draft: shown }) =>
        (filter === 'all' || question.isBlocking === (filter === 'blocking')) &&
        (shown === undefined
          ? question.members === undefined && question.recommended !== undefined
          : !shown.other || shown.notes !== undefined),
    ).length;

  it('GIVEN sixty questions THEN a page holds what fits 100 blocks', () => {
    expect(INBOX_PAGE_SIZE).toBe(31);
    expect(pageCount(items, 'all')).toBe(2);
    expect(pageCount(items, 'blocking')).toBe(1);
    expect(inboxCounts(items)).toEqual({ all: 60, blocking: 30, 'non-blocking': 30 });
  });

  it.each([
    'all',
    'blocking',
    'non-blocking',
  ] as const)('GIVEN the %s filter THEN every page fits, every question shows once, and Send counts the ready ones shown', (filter) => {
    const pages = pageCount(items, filter);
    const seen: string[] = [];
    for (let page = 0; page < pages; page += 1) {
      const view = draw(items, filter, 'modal', page);
      expect(view.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.viewBlocks);
      expect(() => assertSlackView(view)).not.toThrow();
      seen.push(...shownRefs(view));
      const shownItems = items.filter(({ question }) => shownRefs(view).includes(ref(question.id)));
      const ready = expectedReady(filter, shownItems);
      expect(sendButtonText(view)).toBe(ready === 1 ? 'Send 1 answer' : `Send ${ready} answers`);
      // The button carries what it sends: the ready questions of this page, no other.
      expect(sendButtonValue(view)?.split(' ')).toHaveLength(ready);
      expect(readyCount(shownItems, filter)).toBe(ready);
    }
    const inFilter = items.filter(
      ({ question }) => filter === 'all' || question.isBlocking === (filter === 'blocking'),
    );
    expect([...seen].sort()).toEqual(inFilter.map(({ question }) => ref(question.id)).sort());
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('GIVEN several pages THEN the first has Next (after its last question), a later one Previous', () => {
    const first = draw(items, 'all', 'home', 0);
    const firstPage = inboxPageOf(items, 'all', 0, INBOX_PAGE_SIZE);
    const last = renderInbox(
      inboxPageOf(items, 'all', 1, INBOX_PAGE_SIZE),
      { filter: 'all', after: firstPage.next ?? '', back: [''] },
      'home',
    );
    const pageButtons = (view: SlackView) =>
      view.blocks.flatMap((block) =>
        block.type === 'actions'
          ? block.elements.flatMap((element) =>
              element.action_id === 'al_inbox_page' && element.type === 'button'
                ? [[element.text.text, element.value]]
                : [],
            )
          : [],
      );
    expect(pageButtons(first)).toEqual([['Next →', `next:${firstPage.next}`]]);
    expect(firstPage.next).toBe(shownRefs(first).at(-1));
    expect(pageButtons(last)).toEqual([['← Previous', 'previous']]);
    expect(mrkdwnTexts(first.blocks)).toContain('questions 1–31 of 60');
    expect(mrkdwnTexts(last.blocks)).toContain('questions 32–60 of 60');
    // Blocking first: page 1 starts with the oldest blocking question.
    expect(shownRefs(first)[0]).toBe(ref(2));
  });

  it('GIVEN a later page whose questions were all answered meanwhile THEN it says so and offers Previous', () => {
    const view = renderInbox(
      { filter: 'all', items: [], counts: { all: 40, blocking: 20, 'non-blocking': 20 }, offset: 40, remaining: 0 },
      { filter: 'all', after: ref(9), back: [''] },
      'modal',
    );
    expect(mrkdwnTexts(view.blocks)).toContain(
      'Nothing more on this page: the questions here were answered meanwhile.',
    );
    expect(actionIds(view)).toContain('al_inbox_page');
    expect(parseInboxState(view.private_metadata)).toEqual({ filter: 'all', after: ref(9), back: [''] });
  });

  it('GIVEN a filter that fits one page THEN there are no paging controls', () => {
    const view = draw(items, 'blocking', 'modal', 0);
    expect(actionIds(view)).not.toContain('al_inbox_page');
  });

  it('GIVEN a full page of extreme questions with long notes THEN the view fits Slack limits', () => {
    const extreme: InboxItem[] = Array.from({ length: 70 }, (_, index) => ({
      question: extremeQuestion('&', { id: index + 1 }),
      draft: draft([], true, sized('<&', 3000)),
    }));
    for (const filter of ['all', 'blocking'] as const) {
      const pages = pageCount(extreme, filter);
      expect(pages, filter).toBeGreaterThan(1);
      for (let page = 0; page < pages; page += 1) {
        expect(() => assertSlackView(draw(extreme, filter, 'home', page))).not.toThrow();
      }
    }
  });
});

describe('renderInbox: sets', () => {
  const set = makeSet({ id: 12 });
  const single = makeQuestion({ id: 7, isBlocking: false });
  const setDrafts = (naming?: Draft) => [undefined, undefined, naming];

  it('GIVEN a set THEN it is one entry: a section with how many members are ready, then each member with its picker and Add notes', () => {
    const view = draw([{ question: set, memberDrafts: setDrafts() }], 'all', 'modal');
    expect(mrkdwnTexts(view.blocks)).toContain('🔴 *BLOCKING* · #12 · shop · SHOP-12\n*3 questions* · 👉 2 of 3 ready');
    expect(mrkdwnTexts(view.blocks)).toContain(
      '#12.1 · *Database* · 🔴 blocking\n*Which database should billing use?*\n✅ ready',
    );
    expect(mrkdwnTexts(view.blocks)).toContain('#12.3 · *Naming*\n*What do we call the new service?*\n👉 pick one');
    const pickers = view.blocks.filter((block): block is ActionsBlock => block.type === 'actions').slice(1);
    expect(pickers.map((block) => parseQuestionBlockId(block.block_id))).toEqual([
      { ref: ref(12), revision: 0, member: 0 },
      { ref: ref(12), revision: 0, member: 1 },
      { ref: ref(12), revision: 0, member: 2 },
    ]);
    expect(pickers.map((block) => block.elements.map((element) => element.action_id))).toEqual([
      ['al_inbox_pick', 'al_inbox_notes'],
      ['al_inbox_pick', 'al_inbox_notes'],
      ['al_inbox_pick', 'al_inbox_notes'],
    ]);
    expect(pickers[1]?.elements[0]).toMatchObject({ initial_options: [{ value: '0' }, { value: '1' }] });
    expect(sendButtonText(view)).toBeUndefined();
    expect(filterLabels(view)).toEqual(['All (1)', 'Blocking (1)', 'Non-blocking (0)']);
  });

  it('GIVEN a set whose members are all ready THEN Send N counts it once, carrying its ref once', () => {
    const ready = draft(['ledger']);
    const items: InboxItem[] = [{ question: set, memberDrafts: setDrafts(ready) }, { question: single }];
    const view = draw(items, 'all', 'home');
    expect(mrkdwnTexts(view.blocks)).toContain('🔴 *BLOCKING* · #12 · shop · SHOP-12\n*3 questions* · ✅ 3 of 3 ready');
    expect(sendButtonText(view)).toBe('Send 2 answers');
    expect(sendButtonValue(view)).toBe(`${ref(12)} ${ref(7)}`);
    const marked = renderInbox(inboxPageOf(items, 'all'), { filter: 'all' }, 'home');
    const naming = marked.blocks.filter((block): block is ActionsBlock => block.type === 'actions')[3];
    expect(naming?.block_id).toBe(`al_q:${ref(12)}:42:2`);
  });

  it('GIVEN a page of 31 of the largest sets THEN the page shows the 9 that fit 100 blocks and Next starts after the 9th', () => {
    const sets: InboxItem[] = Array.from({ length: 40 }, (_, index) => ({
      question: { ...extremeSet('options', '&'), id: index + 1, createdAt: CREATED_AT + index },
      memberDrafts: Array.from({ length: 4 }, () => draft([], true, sized('<&', 3000))),
    }));
    const page = inboxPageOf(sets, 'all', 0, INBOX_PAGE_SIZE);
    const view = renderInbox(page, { filter: 'all' }, 'modal');
    expect(() => assertSlackView(view)).not.toThrow();
    expect(view.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.viewBlocks);
    const entries = view.blocks.filter((block) => block.type === 'divider').length - 1;
    expect(entries).toBe(9);
    const nextValue = view.blocks
      .flatMap((block) => (block.type === 'actions' && block.block_id === 'al_inbox_page_next' ? block.elements : []))
      .map((element) => (element.type === 'button' ? element.value : undefined));
    const project = sets[0]?.question.project ?? '';
    expect(nextValue).toEqual([`next:${formatQuestionRef(project, 9)}`]);
    expect(mrkdwnTexts(view.blocks)).toContain('questions 1–9 of 40');
  });

  it('GIVEN singles and sets mixed THEN a page takes entries while they fit and ends before one that would not', () => {
    const items: InboxItem[] = Array.from({ length: 31 }, (_, index) =>
      index % 2 === 0
        ? { question: makeQuestion({ id: index + 1, isBlocking: false, createdAt: CREATED_AT + index }) }
        : { question: { ...extremeSet('members'), id: index + 1, isBlocking: false, createdAt: CREATED_AT + index } },
    );
    const view = draw(items, 'all', 'home');
    expect(view.blocks.length).toBeLessThanOrEqual(SLACK_LIMITS.viewBlocks);
    // Singles take 3 blocks, these sets 10: 8 singles and 7 sets (94) would pass 93; 7 and 7 take 91.
    expect(shownRefs(view).length).toBe(7 * 1 + 7 * 4);
    expect(mrkdwnTexts(view.blocks)).toContain('questions 1–14 of 31');
  });
});
