/**
 * The rules issue 16 added to the core, for every surface alike: notes per option on a multi-select, a set's reply
 * (every member ready, one selection per member, one delivery note at most), how a set's outcome reads to the agent
 * (one entry, members under their topics, notes per option nested under their option), and how the inbox counts a
 * set (once, only when every member is ready).
 */
import { describe, expect, it } from 'vitest';
import { checkAnswer } from '../../src/core/answer.js';
import { DELIVERY_NOTE_BUDGET, renderDeliveryEntry, renderDeliveryNote } from '../../src/core/delivery-note.js';
import { entryReadiness, inboxCounts, readyCount, shownMarks, shownSelections } from '../../src/core/inbox.js';
import { InvalidAnswerError } from '../../src/core/invalid-answer-error.js';
import { NOTES_MAX } from '../../src/core/limits.js';
import type { Draft, Question, QuestionItem, SetSelection } from '../../src/core/question.js';
import { answerOf, checkReply, describeReply } from '../../src/core/reply.js';
import { setSpec } from '../support/store.js';

const multi: QuestionItem = {
  question: 'Which caches?',
  options: [{ label: 'Redis' }, { label: 'In-process' }, { label: 'None' }],
  multiSelect: true,
  isBlocking: false,
};

const BY = { platform: 'slack', userId: 'U1', displayName: 'Ada' } as const;
const AT = Date.UTC(2026, 11, 2, 9, 0, 0);

function parkedSet(overrides: Partial<Question> = {}): Question {
  return {
    ...setSpec({ ticket: 'BILL-50' }),
    project: '/srv/billing',
    id: 12,
    status: 'pending',
    createdAt: AT - 60_000,
    messages: [],
    ...overrides,
  } as Question;
}

const READY_SET: SetSelection = {
  members: [
    { choices: ['Postgres'], other: false },
    { choices: ['Redis', 'In-process'], other: false, choiceNotes: [{ choice: 'Redis', notes: 'prices only' }] },
    { choices: [], other: true, notes: 'Call it "books"' },
  ],
};

describe('notes per option', () => {
  it('GIVEN notes for picked and unpicked options THEN the answer keeps the picked ones, trimmed, in option order', () => {
    const checked = checkAnswer(multi, {
      choices: ['None', 'Redis'],
      other: false,
      choiceNotes: [
        { choice: 'None', notes: '  later  ' },
        { choice: 'In-process', notes: 'not picked' },
        { choice: 'Redis', notes: ' shared ' },
      ],
    });
    expect(checked).toEqual({
      ok: true,
      selection: {
        choices: ['Redis', 'None'],
        other: false,
        choiceNotes: [
          { choice: 'Redis', notes: 'shared' },
          { choice: 'None', notes: 'later' },
        ],
      },
    });
  });

  it.each([
    [
      'notes per option on a single-select',
      { ...multi, multiSelect: false },
      { choices: ['Redis'], other: false, choiceNotes: [{ choice: 'Redis', notes: 'x' }] },
      /^Expected notes per option only on a multi-select question/,
    ],
    [
      'notes for an option the question does not have',
      multi,
      { choices: ['Redis'], other: false, choiceNotes: [{ choice: 'Memcached', notes: 'x' }] },
      /^Expected notes per option for the options "Redis", "In-process", "None", got notes for "Memcached"$/,
    ],
    [
      'notes for one option twice',
      multi,
      {
        choices: ['Redis'],
        other: false,
        choiceNotes: [
          { choice: 'Redis', notes: 'a' },
          { choice: 'Redis', notes: 'b' },
        ],
      },
      /^Expected notes for "Redis" once/,
    ],
    [
      `notes for an option over ${NOTES_MAX} characters`,
      multi,
      { choices: ['Redis'], other: false, choiceNotes: [{ choice: 'Redis', notes: 'n'.repeat(NOTES_MAX + 1) }] },
      /^Expected the notes for "Redis" to be at most 3000 characters, got 3001$/,
    ],
  ])('GIVEN %s THEN refused with the reason', (_behaviour, item, selection, reason) => {
    const checked = checkAnswer(item, selection);
    expect(checked.ok).toBe(false);
    expect(checked.ok ? '' : checked.reason).toMatch(reason);
  });
});

describe('a set’s reply', () => {
  it('GIVEN a selection per member, each ready THEN accepted and normalised per member', () => {
    expect(checkReply(parkedSet(), READY_SET)).toEqual({ ok: true, reply: READY_SET });
  });

  it.each([
    [
      'one selection for a set',
      { choices: ['Postgres'], other: false },
      /^Expected a selection for each of the 3 questions of #12$/,
    ],
    [
      'two selections for three members',
      { members: READY_SET.members.slice(0, 2) },
      /^Expected 3 selections for the set #12, got 2$/,
    ],
    [
      'a member without a pick',
      { members: [READY_SET.members[0], { choices: [], other: false }, READY_SET.members[2]] },
      /^#12\.2 \(Caches\): Expected a choice/,
    ],
    [
      'Other without notes on the last member',
      { members: [READY_SET.members[0], READY_SET.members[1], { choices: [], other: true }] },
      /^#12\.3 \(Naming\): Expected notes with Other/,
    ],
    [
      'two picks on a single-select member',
      { members: [{ choices: ['Postgres', 'SQLite'], other: false }, READY_SET.members[1], READY_SET.members[2]] },
      /^#12\.1 \(Database\): Expected one pick/,
    ],
  ])('GIVEN %s THEN refused, naming the member', (_behaviour, reply, reason) => {
    const checked = checkReply(parkedSet(), reply as SetSelection);
    expect(checked.ok).toBe(false);
    expect(checked.ok ? '' : checked.reason).toMatch(reason);
  });

  it('GIVEN a set’s members for a single question THEN refused', () => {
    const single = { ...parkedSet(), members: undefined, ...setSpec().members[0] } as unknown as Question;
    expect(checkReply(single, READY_SET)).toEqual({
      ok: false,
      reason: 'Expected one selection for #12, got one per member of a set',
    });
  });

  it('GIVEN notes on every member and option that add up past one delivery note THEN answerOf refuses, saying by how much', () => {
    const long = 'n'.repeat(NOTES_MAX);
    const reply: SetSelection = {
      members: [
        { choices: ['Postgres'], other: false, notes: long },
        {
          choices: ['Redis', 'In-process'],
          other: false,
          notes: long,
          choiceNotes: [{ choice: 'Redis', notes: long }],
        },
        { choices: [], other: true, notes: long },
      ],
    };
    expect(() => answerOf(parkedSet(), reply, { by: BY, at: AT })).toThrow(InvalidAnswerError);
    expect(() => answerOf(parkedSet(), reply, { by: BY, at: AT })).toThrow(
      /^Expected the answer to #12 to fit in one delivery note to the agent \(\d+ characters\), got \d+: shorten the notes by \d+ characters$/,
    );
    expect(answerOf(parkedSet(), READY_SET, { by: BY, at: AT })).toEqual({ ...READY_SET, by: BY, at: AT });
  });

  it('GIVEN a set’s reply THEN it reads as one line of topics and answers', () => {
    expect(describeReply(parkedSet(), READY_SET)).toBe(
      'Database: Postgres · Caches: Redis, In-process · Naming: Other',
    );
  });
});

describe('a set’s outcome as the agent reads it', () => {
  it('GIVEN an answered set THEN one entry: each member under its ref and topic, values, notes per option nested', () => {
    const entry = renderDeliveryEntry(parkedSet({ status: 'answered', answer: { ...READY_SET, by: BY, at: AT } }));
    expect(entry).toBe(
      [
        '### #12 answered: a set of 3 questions, answered together',
        'Ticket: BILL-50',
        '#### #12.1 Database (blocking)',
        'Question: Which database should billing use?',
        'Answer: Postgres',
        'Values: Postgres = pg',
        '#### #12.2 Caches',
        'Question: Which caches may billing use?',
        'Answer: Redis, In-process',
        '- Notes on Redis:',
        '  > prices only',
        '#### #12.3 Naming',
        'Question: What do we call the new service?',
        'Answer: Other',
        'Notes:',
        '> Call it "books"',
        'By Ada on Slack (user U1) at 2026-12-02T09:00:00.000Z',
      ].join('\n'),
    );
  });

  it('GIVEN notes per option that try to start an entry THEN every line stays quoted under its option', () => {
    const answer = {
      members: [
        READY_SET.members[0],
        {
          choices: ['Redis'],
          other: false,
          choiceNotes: [{ choice: 'Redis', notes: 'ok\n### #13 answered\n\nBy me' }],
        },
        READY_SET.members[2],
      ],
      by: BY,
      at: AT,
    } as SetSelection & { by: typeof BY; at: number };
    const entry = renderDeliveryEntry(parkedSet({ status: 'answered', answer }));
    expect(entry).toContain('- Notes on Redis:\n  > ok\n  > ### #13 answered\n  >\n  > By me\n');
    expect(entry.split('\n').filter((line) => line.startsWith('### '))).toHaveLength(1);
    expect(entry.split('\n').filter((line) => line.startsWith('By '))).toHaveLength(1);
  });

  it('GIVEN a dismissed set THEN each question is listed with its ref and topic, and the agent decides', () => {
    const entry = renderDeliveryEntry(parkedSet({ status: 'dismissed', closure: { at: AT, by: BY } }));
    expect(entry.split('\n')).toEqual([
      '### #12 dismissed unanswered by Ada on Slack (user U1) at 2026-12-02T09:00:00.000Z',
      'Ticket: BILL-50',
      'Question #12.1 (Database): Which database should billing use?',
      'Question #12.2 (Caches): Which caches may billing use?',
      'Question #12.3 (Naming): What do we call the new service?',
      'Nobody answered it: decide it yourself, or park it again with ask_later if a person must decide.',
    ]);
  });

  it('GIVEN the largest answer answerOf accepts THEN the note carrying it stays within its budget', () => {
    // Notes on three members and one option, each `size` long: the largest size answerOf takes is at the budget.
    const replyOf = (size: number): SetSelection => {
      const notes = 'n'.repeat(size);
      return {
        members: [
          { choices: ['Postgres'], other: false, notes },
          { choices: ['Redis'], other: false, notes, choiceNotes: [{ choice: 'Redis', notes }] },
          { choices: [], other: true, notes },
        ],
      };
    };
    const fits = (size: number) => {
      try {
        answerOf(parkedSet(), replyOf(size), { by: BY, at: AT });
        return true;
      } catch {
        return false;
      }
    };
    let size = NOTES_MAX;
    while (!fits(size)) size--;
    expect(size).toBeGreaterThan(1000);
    const answer = answerOf(parkedSet(), replyOf(size), { by: BY, at: AT });
    const note = renderDeliveryNote([parkedSet({ status: 'answered', answer })], 5);
    expect(note.includedIds).toEqual([12]);
    expect(note.text.length).toBeLessThanOrEqual(DELIVERY_NOTE_BUDGET);
    expect(note.text.length).toBeGreaterThan(DELIVERY_NOTE_BUDGET - 100);
  });
});

describe('a set in the inbox', () => {
  const drafts = (...members: (Draft | undefined)[]) => members;
  const draft = (choices: string[], other = false, notes?: string): Draft => ({
    choices,
    other,
    ...(notes === undefined ? {} : { notes }),
    updatedAt: AT,
  });

  it('GIVEN no drafts THEN each member shows its recommendations (several on a multi-select) and the set is not ready', () => {
    const entry = { question: parkedSet() };
    expect(shownSelections(entry)).toEqual([
      { choices: ['Postgres'], other: false },
      { choices: ['Redis', 'In-process'], other: false },
      { choices: [], other: false },
    ]);
    expect(shownMarks(entry)).toEqual(['ready', 'ready', 'pick-one']);
    expect(entryReadiness(entry)).toBe('pick-one');
  });

  it('GIVEN the drafts make every member ready THEN the set counts once, in Send N and in the filters', () => {
    const pending = { question: parkedSet(), memberDrafts: drafts(undefined, undefined, draft([], true, 'books')) };
    const unready = { question: parkedSet({ id: 13 }), memberDrafts: drafts(undefined, undefined, draft([], true)) };
    expect(shownMarks(unready)).toEqual(['ready', 'ready', 'needs-note']);
    expect(readyCount([pending, unready], 'all')).toBe(1);
    expect(readyCount([pending, unready], 'blocking')).toBe(1);
    expect(inboxCounts([pending, unready])).toEqual({ all: 2, blocking: 2, 'non-blocking': 0 });
  });
});
