/**
 * Decisions for the format tests: one of each kind the log must render — a blocking single pick with a ticket and
 * Markdown notes that try to break out, a multi-select answered with options and `Other` whose texts need CSV
 * quoting and a formula guard, and an `Other`-only answer from Discord with a ticket link.
 */
import type { Decision } from '../../../src/store/decision-query.js';

const T = Date.UTC(2027, 0, 15, 8, 0, 0);
const MIN = 60_000;

/** Newest: blocking, one pick, a ticket, notes with Markdown and line breaks (and an unclosed code fence). */
export const billing: Decision = {
  project: '/srv/repos/billing',
  id: 12,
  status: 'delivered',
  createdAt: T,
  context: 'We are migrating the **billing** service.\n\n# Constraints\n\n- must keep invoices\n- no downtime',
  question: 'Which database should billing use?',
  impact: 'Decides the migration scripts.',
  isBlocking: true,
  options: [{ label: 'Postgres', description: 'What the team knows' }, { label: 'SQLite' }],
  recommended: ['Postgres'],
  multiSelect: false,
  ticket: 'BILL-42',
  answer: {
    choices: ['Postgres'],
    other: false,
    notes: 'We already run it.\r\n\r\n## Not a heading of the log\n- backups: *nightly*\n```sh\npg_dump billing',
    by: { platform: 'slack', userId: 'U0123ABCD', displayName: 'Ada Lovelace' },
    at: T + 42 * MIN,
  },
  deliveredAt: T + 43 * MIN,
  deliveredVia: 'prompt',
  messages: [
    { platform: 'slack', channel: 'C0123ABCD', messageId: '1800000000.000100' },
    { platform: 'web', channel: 'local', messageId: 'web-12' },
  ],
};

/** Multi-select answered with two options and Other; texts with commas, quotes, line breaks; not delivered yet. */
export const webApp: Decision = {
  project: '/srv/repos/web-app',
  id: 3,
  status: 'answered',
  createdAt: T - 120 * MIN,
  context: 'Users asked for both.\n\n```json\n{"flags": ["dark", "offline"]',
  question: 'Which features go into 2.0?',
  impact: '- ships in March\n- the rest waits for 2.1',
  isBlocking: false,
  options: [{ label: 'Dark mode' }, { label: 'Offline, with sync' }, { label: 'Say "hi" on start' }],
  multiSelect: true,
  answer: {
    choices: ['Dark mode', 'Offline, with sync'],
    other: true,
    notes: '=1+1, "quoted"\nand a second line',
    by: { platform: 'web', userId: 'local', displayName: 'me' },
    at: T - 30 * MIN,
  },
  messages: [{ platform: 'web', channel: 'local', messageId: 'web-3' }],
};

/** Oldest: answered with Other alone, from Discord; a ticket that is a link; inline marks in the texts. */
export const release: Decision = {
  project: '/srv/repos/web-app',
  id: 2,
  status: 'delivered',
  createdAt: T - 300 * MIN,
  context: 'QA found one flaky test.',
  question: 'Ship *today* or wait for QA?',
  impact: 'A day of delay.',
  isBlocking: true,
  options: [{ label: 'Ship today' }, { label: 'Wait for QA', description: 'one more day' }],
  recommended: ['Wait for QA'],
  multiSelect: false,
  ticket: 'https://linear.app/acme/issue/WEB-7',
  answer: {
    choices: [],
    other: true,
    notes: 'Neither: ship behind a flag.',
    by: { platform: 'discord', userId: '123456789012345678', displayName: 'Grace\nHopper' },
    at: T - 200 * MIN,
  },
  deliveredAt: T - 199 * MIN,
  deliveredVia: 'wake',
  messages: [{ platform: 'discord', channel: '223456789012345678', messageId: '323456789012345678' }],
};

/** Newest answer first, as `listDecisions` gives them. */
export const DECISIONS: readonly Decision[] = [billing, webApp, release];

/**
 * A set of three answered together: a single pick with values, a multi-select with notes on one option (notes that
 * try to break out), and Other with notes; a member adding context and one adding impact.
 */
export const ledgerSet: Decision = {
  project: '/srv/repos/billing',
  id: 14,
  status: 'answered',
  createdAt: T + 60 * MIN,
  context: 'Splitting the ledger out of billing.',
  impact: 'Decides the first milestone.',
  isBlocking: true,
  ticket: 'BILL-50',
  members: [
    {
      topic: 'Database',
      question: 'Which database for the ledger?',
      options: [
        { label: 'Postgres', value: 'pg' },
        { label: 'SQLite', value: 'sqlite' },
      ],
      recommended: ['Postgres'],
      multiSelect: false,
      isBlocking: true,
    },
    {
      topic: 'Caches',
      question: 'Which caches may it use?',
      options: [{ label: 'Redis', description: 'Shared' }, { label: 'In-process' }, { label: 'None' }],
      recommended: ['Redis', 'In-process'],
      multiSelect: true,
      isBlocking: false,
      context: 'Prices are read on every request.',
    },
    {
      topic: 'Naming',
      question: 'What do we call it?',
      options: [{ label: 'ledger' }, { label: 'billing-v2' }],
      multiSelect: false,
      isBlocking: false,
      impact: 'The name goes into every dashboard.',
    },
  ],
  answer: {
    members: [
      { choices: ['Postgres'], other: false },
      {
        choices: ['Redis', 'In-process'],
        other: false,
        choiceNotes: [{ choice: 'Redis', notes: 'Only for prices.\n## not a heading\n```' }],
      },
      { choices: [], other: true, notes: 'Call it "books"' },
    ],
    by: { platform: 'slack', userId: 'U0123ABCD', displayName: 'Ada Lovelace' },
    at: T + 90 * MIN,
  },
  messages: [{ platform: 'slack', channel: 'C0123ABCD', messageId: '1800000000.000200' }],
};
