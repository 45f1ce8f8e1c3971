/**
 * `ask-later inbox` as a person uses it: the built CLI in a real terminal (tmux on a private socket, `send-keys` to
 * type, `capture-pane` to read the screen), against the embedded store and against Redis. A set of three answered
 * with keys alone reaches the agent once; a question parked meanwhile shows; one answered on Slack meanwhile leaves
 * with who answered; a resize keeps a note being typed; `q` and Ctrl-C leave the terminal as they found it.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { DELIVERY_NOTE_BUDGET } from '../../../src/core/delivery-note.js';
import { columns } from '../../../src/render/terminal/wrap.js';
import type { Store } from '../../../src/store/port.js';
import { openRedisStore } from '../../../src/store/redis/redis-store.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { freshHome } from '../../support/home.js';
import { person, setSpec, spec, sqliteTestDir, uniquePrefix, uniqueProject } from '../../support/store.js';

const cli = new URL('../../../dist/cli.js', import.meta.url).pathname;
const socket = `ask-later-inbox-${randomUUID().slice(0, 8)}`;
let sessions = 0;

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
}

/** A shell in a 100 × 40 terminal with `env` alone (no CI, so Ink draws every frame); returns its session name. */
function terminal(env: Record<string, string>): string {
  const name = `inbox-${++sessions}`;
  const vars = Object.entries({ PATH: process.env.PATH ?? '', TERM: 'xterm-256color', ...env }).map(
    ([key, value]) => `${key}=${value}`,
  );
  tmux('new-session', '-d', '-s', name, '-x', '100', '-y', '40', 'env', '-i', ...vars, 'bash', '--norc', '--noprofile');
  return name;
}

const screen = (name: string) => tmux('capture-pane', '-p', '-t', name);
const keys = (name: string, ...typed: string[]) => tmux('send-keys', '-t', name, ...typed);
const literally = (name: string, text: string) => tmux('send-keys', '-t', name, '-l', text);

/** The terminal as the shell sees it once the inbox is gone: the alternate screen off, the line discipline back. */
async function expectTerminalRestored(name: string): Promise<void> {
  await expect.poll(() => screen(name)).toMatch(/^INBOX-EXIT=\d+$/m);
  expect(tmux('display-message', '-p', '-t', name, '#{alternate_on}').trim()).toBe('0');
  literally(name, "stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo STTY-DONE");
  keys(name, 'Enter');
  await expect.poll(() => screen(name)).toMatch(/icanon echo STTY-DONE/);
}

const stores = [
  {
    name: 'the embedded store',
    async open() {
      const dir = sqliteTestDir();
      const path = join(dir, 'inbox.db');
      const store = await openSqliteStore({ path });
      return {
        store,
        env: { ASK_LATER_DB: path, HOME: dir },
        done: () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'Redis',
    async open() {
      const prefix = uniquePrefix();
      const url = inject('redisUrl');
      const store = await openRedisStore({ url, prefix });
      return {
        store,
        env: { REDIS_URL: url, ASK_LATER_REDIS_PREFIX: prefix, HOME: freshHome() },
        done: () => undefined,
      };
    },
  },
];

afterEach(() => {
  for (let i = 1; i <= sessions; i++) {
    try {
      tmux('kill-session', '-t', `inbox-${i}`);
    } catch {
      // already gone
    }
  }
});

afterAll(() => {
  try {
    tmux('kill-server');
  } catch {
    // no server left
  }
});

describe.each(stores)('ask-later inbox in tmux on $name', ({ open }) => {
  let store: Store;
  let env: Record<string, string>;
  let done: () => void;

  afterEach(async () => {
    await store.close();
    done();
  });

  it('GIVEN a set of three THEN keys alone answer it (a note on one option, Other with notes, Send refused until ready, the review), a resize keeps the note being typed, and the agent gets it once', async () => {
    ({ store, env, done } = await open());
    const project = uniqueProject('shop');
    await store.park(project, setSpec());
    const name = terminal(env);
    literally(name, `node ${cli} inbox; echo INBOX-EXIT=$?`);
    keys(name, 'Enter');
    // The first screen waits for Node, Ink and the store to start: allow a busy machine its time.
    await expect.poll(() => screen(name), { timeout: 30_000 }).toContain('1. Database');
    expect(tmux('display-message', '-p', '-t', name, '#{alternate_on}').trim()).toBe('1');

    keys(name, 'Enter');
    await expect.poll(() => screen(name)).toContain('Naming needs a pick');

    keys(name, 'Right');
    await expect.poll(() => screen(name)).toContain('Which caches may billing use?');
    keys(name, 'Down', 'n');
    await expect.poll(() => screen(name)).toContain('Notes for In-process');
    literally(name, 'per pod');
    keys(name, 'Enter');
    await expect.poll(() => screen(name)).toContain('✎ per pod');

    keys(name, 'Right');
    await expect.poll(() => screen(name)).toContain('What do we call the new service?');
    keys(name, '3');
    await expect.poll(() => screen(name)).toContain('(•) Other');
    keys(name, 'Enter');
    await expect.poll(() => screen(name)).toContain('Naming needs a note (Other)');

    keys(name, 'n');
    await expect.poll(() => screen(name)).toContain('✎ Notes (Enter saves, Esc leaves):');
    literally(name, 'led');
    await expect.poll(() => screen(name)).toContain('led█');
    tmux('resize-window', '-t', name, '-x', '72', '-y', '30');
    // Drawn again at the new width (the keys' line cut at 72 columns), the note still there.
    await expect.poll(() => screen(name)).toContain('Enter send · S se…');
    expect(screen(name)).toContain('led█');
    expect(Math.max(...screen(name).split('\n').map(columns))).toBeLessThanOrEqual(72);
    literally(name, 'ger');
    keys(name, 'Enter');
    await expect.poll(() => screen(name)).toContain('✎ ledger');

    keys(name, 'Enter');
    await expect.poll(() => screen(name)).toContain('Review #1 before it is sent:');
    expect((await store.get(project, 1))?.status).toBe('pending');
    keys(name, 'Enter');
    // Wrapped at 72 columns: read as one line.
    await expect
      .poll(() => screen(name).replace(/\s+/g, ' '))
      .toContain('Sent: Database: Postgres · Caches: Redis, In-process · Naming: Other (#1).');

    const first = await store.claimUndelivered(project, { budget: DELIVERY_NOTE_BUDGET, leaseMs: 60_000 });
    expect(first.questions.map((question) => question.answer)).toMatchObject([
      {
        members: [
          { choices: ['Postgres'] },
          { choices: ['Redis', 'In-process'], choiceNotes: [{ choice: 'In-process', notes: 'per pod' }] },
          { choices: [], other: true, notes: 'ledger' },
        ],
        by: { platform: 'web', userId: 'local' },
      },
    ]);
    await store.confirmClaim(project, first);
    const again = await store.claimUndelivered(project, { budget: DELIVERY_NOTE_BUDGET, leaseMs: 60_000 });
    expect(again.questions).toEqual([]);

    keys(name, 'q');
    await expectTerminalRestored(name);
    expect(screen(name)).toContain('INBOX-EXIT=0');
  });

  it('GIVEN the inbox open THEN a question parked meanwhile shows, one answered on Slack leaves with who answered, and Ctrl-C restores the terminal', async () => {
    ({ store, env, done } = await open());
    const project = uniqueProject('api');
    await store.park(project, spec({ question: 'Which queue should billing use?' }));
    const name = terminal(env);
    literally(name, `node ${cli} inbox; echo INBOX-EXIT=$?`);
    keys(name, 'Enter');
    await expect.poll(() => screen(name), { timeout: 30_000 }).toContain(' All 1 ');

    await store.park(project, spec({ question: 'Parked while the inbox is open?', isBlocking: true }));
    await expect.poll(() => screen(name)).toContain(' All 2 ');
    expect(screen(name)).toContain('Parked while the inbox is open?');

    await store.answer(project, 1, { choices: ['SQLite'], other: false }, person('U7'));
    await expect.poll(() => screen(name)).toContain('#1 was already answered by Person U7 on Slack');
    // The counts come with the next page: the one that dropped the question may have counted before the answer
    // (a page's index read and record reads are not one step), and the answer's own event reads it again.
    await expect.poll(() => screen(name)).toContain(' All 1 ');

    keys(name, 'C-c');
    await expectTerminalRestored(name);
  });
});
