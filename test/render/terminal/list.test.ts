/**
 * `ask-later inbox --list` and `--json` as pure renderers of one inbox page: plain text a script can read (no escape
 * sequences, every option by label), and a JSON document with stable field names.
 */
import { describe, expect, it } from 'vitest';
import type { InboxPage } from '../../../src/core/inbox.js';
import type { Question } from '../../../src/core/question.js';
import { inboxListJson, inboxListText } from '../../../src/render/terminal/list.js';
import { setSpec, spec } from '../../support/store.js';

const AT = Date.UTC(2027, 0, 15, 8, 30);

function question(id: number, overrides: Partial<Question> = {}): Question {
  return {
    ...spec(),
    project: '/srv/repos/shop',
    id,
    status: 'pending',
    createdAt: AT,
    messages: [],
    ...overrides,
  } as Question;
}

const page: InboxPage = {
  filter: 'all',
  counts: { all: 3, blocking: 1, 'non-blocking': 2 },
  offset: 0,
  remaining: 1,
  items: [
    {
      question: {
        ...setSpec(),
        project: '/srv/repos/shop',
        id: 3,
        status: 'pending',
        createdAt: AT,
        messages: [],
      } as Question,
    },
    {
      question: question(1, { ticket: 'SHOP-1' }),
      draft: { choices: [], other: true, notes: 'the one we run', updatedAt: AT },
    },
  ],
};

describe('the inbox as a list', () => {
  it('GIVEN a page THEN plain lines: counts, each question with its options by number and label, what more waits', () => {
    expect(inboxListText(page)).toBe(
      [
        '3 waiting: 1 blocking, 2 can wait.',
        '',
        '#3 · BLOCKING · shop · parked 2027-01-15 08:30 UTC · pick one',
        '  #3.1 Database: Which database should billing use? (ready)',
        '    1. ★ Postgres (picked) — What the team knows',
        '    2. SQLite',
        '    3. Other',
        '  #3.2 Caches: Which caches may billing use? (ready)',
        '    1. ★ Redis (picked) — Shared',
        '    2. ★ In-process (picked)',
        '    3. None',
        '    4. Other',
        '  #3.3 Naming: What do we call the new service? (pick one)',
        '    1. billing-v2',
        '    2. ledger',
        '    3. Other',
        '',
        '#1 · can wait · shop · SHOP-1 · parked 2027-01-15 08:30 UTC · ready',
        '  Which database should billing use?',
        '    1. ★ Postgres — What the team knows',
        '    2. SQLite',
        '    3. Other (picked)',
        '',
        '… and 1 more (ask-later inbox --list --limit N).',
        '',
        'Answer one: ask-later answer <id> --pick <label>… [--other TEXT] [--notes TEXT]',
        '',
      ].join('\n'),
    );
  });

  it('GIVEN a page THEN one JSON document: counts, each question with its items, options, what is picked and the ready mark', () => {
    const document = JSON.parse(inboxListJson(page));
    expect(document).toMatchObject({ filter: 'all', counts: { all: 3, blocking: 1, nonBlocking: 2 }, remaining: 1 });
    expect(document.questions[1]).toEqual({
      ref: expect.stringMatching(/^[A-Za-z0-9_-]{16}\.1$/),
      id: 1,
      project: '/srv/repos/shop',
      ticket: 'SHOP-1',
      isBlocking: false,
      createdAt: '2027-01-15T08:30:00.000Z',
      context: spec().context,
      impact: spec().impact,
      readiness: 'ready',
      items: [
        {
          ref: '#1',
          question: 'Which database should billing use?',
          multiSelect: false,
          options: [
            { label: 'Postgres', description: 'What the team knows', recommended: true },
            { label: 'SQLite', recommended: false },
          ],
          picked: { choices: [], other: true, notes: 'the one we run' },
          readiness: 'ready',
        },
      ],
    });
    expect(
      document.questions[0].items.map((item: { ref: string; topic: string }) => `${item.ref} ${item.topic}`),
    ).toEqual(['#3.1 Database', '#3.2 Caches', '#3.3 Naming']);
  });

  it('GIVEN an empty inbox THEN the list says so in one line', () => {
    expect(
      inboxListText({ ...page, items: [], counts: { all: 0, blocking: 0, 'non-blocking': 0 }, remaining: 0 }),
    ).toBe('0 waiting: 0 blocking, 0 can wait.\n');
  });
});
