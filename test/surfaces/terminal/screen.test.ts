/**
 * The keyboard inbox as Ink draws it (ink-testing-library), over a real embedded store through the one service:
 * keys pick, write notes, send, review a set, remove; a question answered elsewhere leaves with who answered.
 */
import { render } from 'ink-testing-library';
import React from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { terminalInbox } from '../../../src/commands/inbox/run.js';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { plain } from '../../../src/render/terminal/style.js';
import type { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { InboxScreen, type Redraws } from '../../../src/surfaces/terminal/app.js';
import { InboxController } from '../../../src/surfaces/terminal/controller.js';
import { openSqliteTestStore, person, setSpec, spec, uniqueProject } from '../../support/store.js';
import { noRecommendation } from './support.js';

const KEYS = {
  enter: '\r',
  escape: '\u001b',
  down: '\u001b[B',
  right: '\u001b[C',
  space: ' ',
  backspace: '\u007f',
  pageDown: '\u001b[6~',
  pageUp: '\u001b[5~',
};

let store: SqliteStore;
let project: string;

beforeEach(async () => {
  store = await openSqliteTestStore();
  project = uniqueProject('shop');
});

afterEach(async () => {
  await store.close();
});

/** The inbox drawn by Ink over the store; `screen()` is the last frame without styles. */
async function open() {
  const inbox = terminalInbox(store);
  const listeners = new Set<() => void>();
  const redraws: Redraws = {
    listen: (redraw) => {
      listeners.add(redraw);
      return () => listeners.delete(redraw);
    },
  };
  let quitted = false;
  const controller = new InboxController(inbox, {
    filter: 'all',
    changed: () => {
      for (const redraw of listeners) redraw();
    },
    quit: () => {
      quitted = true;
    },
  });
  const ink = render(React.createElement(InboxScreen, { controller, redraws }));
  await controller.start();
  const screen = () => plain(ink.lastFrame() ?? '');
  /** Types keys one at a time, each handled (and its work done) before the next. */
  const press = async (...keys: string[]) => {
    for (const key of keys) {
      ink.stdin.write(key);
      await controller.settled();
    }
  };
  return { inbox, controller, ink, screen, press, quitted: () => quitted };
}

describe('the keyboard inbox', () => {
  it('GIVEN a question THEN its card shows the recommendation starred and picked; 2 and Enter send SQLite as the OS user', async () => {
    await store.park(project, spec({ question: 'Which database?', isBlocking: true }));
    const { screen, press, ink } = await open();
    await expect.poll(screen).toContain('Which database?');
    expect(screen()).toContain(' All 1 ');
    expect(screen()).toMatch(/\(•\) ★ Postgres/);
    await press('2');
    await expect.poll(screen).toMatch(/\(•\) SQLite/);
    expect((await store.getDraft(project, 1, { platform: 'web', userId: 'local' }))?.choices).toEqual(['SQLite']);
    await press(KEYS.enter);
    await expect.poll(screen).toContain('Sent: SQLite (#1).');
    expect(screen()).toContain('Nothing waiting.');
    expect((await store.get(project, 1))?.answer).toMatchObject({
      choices: ['SQLite'],
      by: { platform: 'web', userId: 'local' },
    });
    ink.unmount();
  });

  it('GIVEN a multi-select THEN Space toggles the focused option and n writes notes for it, kept as the draft', async () => {
    await store.park(
      project,
      noRecommendation({ multiSelect: true, options: [{ label: 'Redis' }, { label: 'Memcached' }] }),
    );
    const { screen, press, ink } = await open();
    await expect.poll(screen).toContain('[ ] Memcached');
    await press(KEYS.down, KEYS.space);
    await expect.poll(screen).toContain('[x] Memcached');
    await press('n');
    await expect.poll(screen).toContain('Notes for Memcached');
    await press('f', 'a', 's', 't', 'x', KEYS.backspace, KEYS.enter);
    await expect.poll(screen).toContain('✎ fast');
    expect(await store.getDraft(project, 1, { platform: 'web', userId: 'local' })).toMatchObject({
      choices: ['Memcached'],
      choiceNotes: [{ choice: 'Memcached', notes: 'fast' }],
    });
    ink.unmount();
  });

  it('GIVEN a set THEN Enter is refused until every member is ready, then shows the review, and Enter again sends it whole', async () => {
    await store.park(project, setSpec());
    const { screen, press, ink } = await open();
    await expect.poll(screen).toContain('1. Database');
    await press(KEYS.enter);
    await expect
      .poll(screen)
      .toContain('Not sent: every question of the set must be ready first. Naming needs a pick.');
    await press(KEYS.right, KEYS.right);
    await expect.poll(screen).toContain('What do we call the new service?');
    await press('3');
    await expect.poll(screen).toContain('(•) Other');
    await press(KEYS.enter);
    await expect
      .poll(screen)
      .toContain('Not sent: every question of the set must be ready first. Naming needs a note (Other).');
    await press('n', 'l', 'e', 'd', 'g', 'e', 'r', '2', KEYS.enter, KEYS.enter);
    await expect.poll(screen).toContain('Review #1 before it is sent:');
    expect(screen()).toContain('Naming: Other (notes: ledger2)');
    expect((await store.get(project, 1))?.status).toBe('pending');
    await press(KEYS.enter);
    await expect.poll(screen).toContain('Sent: Database: Postgres · Caches: Redis, In-process · Naming: Other (#1).');
    expect((await store.get(project, 1))?.answer).toMatchObject({
      members: [{}, {}, { other: true, notes: 'ledger2' }],
    });
    ink.unmount();
  });

  it('GIVEN a question answered on Slack meanwhile THEN it leaves the list saying who answered', async () => {
    await store.park(project, spec({ question: 'Which database?' }));
    await store.park(project, spec({ question: 'Which queue?' }));
    const { screen, inbox, ink } = await open();
    await expect.poll(screen).toContain(' All 2 ');
    await store.answer(project, 1, { choices: ['SQLite'], other: false }, person('U7'));
    inbox.notify(formatQuestionRef(project, 1));
    await expect.poll(screen).toContain('#1 was already answered by Person U7 on Slack');
    expect(screen()).toContain(' All 1 ');
    expect(screen()).toContain('Which queue?');
    ink.unmount();
  });

  it('GIVEN more than a page waiting THEN j goes on past the last question onto the next page, k back, and a page emptied meanwhile gives way to the one before', async () => {
    for (let n = 1; n <= 53; n++) await store.park(project, spec({ question: `Question number ${n}?` }));
    const { screen, press, ink, inbox } = await open();
    await expect.poll(screen).toContain('project: all · 1–50 of 53');
    expect(screen()).toMatch(/… 50 more below \(j\)/);
    await press(...Array.from({ length: 49 }, () => 'j'));
    await expect.poll(screen).toMatch(/▸ .*#50 .*Question number 50\?/);
    expect(screen()).toContain('project: all · 1–50 of 53');
    await press('j');
    await expect.poll(screen).toContain('project: all · 51–53 of 53');
    await expect.poll(screen).toMatch(/▸ .*#51 /);
    await press('j', 'j', 'j'); // the last question: nothing follows
    await expect.poll(screen).toMatch(/▸ .*#53 /);
    expect(screen()).toContain('project: all · 51–53 of 53');
    await press('k', 'k', 'k');
    await expect.poll(screen).toContain('project: all · 1–50 of 53');
    await expect.poll(screen).toMatch(/▸ .*#50 /);

    await press('j');
    await expect.poll(screen).toContain('project: all · 51–53 of 53');
    for (const id of [51, 52, 53]) await store.answer(project, id, { choices: ['SQLite'], other: false }, person('U7'));
    inbox.notify(formatQuestionRef(project, 53));
    await expect.poll(screen).toContain(' All 50 ');
    await expect.poll(screen).toMatch(/▸ .*#50 .*Question number 50\?/);
    expect(screen()).not.toContain('of 53');
    expect(screen()).not.toContain('Question number 51?');
    ink.unmount();
  });

  it('GIVEN x THEN Remove asks first: any key keeps, y dismisses', async () => {
    await store.park(project, spec());
    const { screen, press, ink } = await open();
    await expect.poll(screen).toContain(' All 1 ');
    await press('x');
    await expect.poll(screen).toContain('Remove this question without answering?');
    await press('k');
    await expect.poll(screen).toContain('Kept #1: nothing was removed.');
    await press('x', 'y');
    await expect.poll(screen).toContain('Removed #1; the agent will be told.');
    expect((await store.get(project, 1))?.status).toBe('dismissed');
    ink.unmount();
  });

  it('GIVEN a card taller than the terminal THEN it shows where the focused option is, and PgUp / PgDn scroll it', async () => {
    const context = Array.from({ length: 60 }, (_, line) => `Context line ${line + 1}.`).join('\n\n');
    await store.park(project, spec({ context }));
    const { screen, press, ink } = await open();
    await expect.poll(screen).toContain('(•) ★ Postgres');
    expect(screen()).toMatch(/… \d+ lines above \(PgUp\)/);
    expect(screen()).not.toContain('Context line 1.');
    await press(KEYS.pageUp, KEYS.pageUp, KEYS.pageUp, KEYS.pageUp, KEYS.pageUp, KEYS.pageUp, KEYS.pageUp, KEYS.pageUp);
    await expect.poll(screen).toContain('Context line 1.');
    expect(screen()).toMatch(/… \d+ more lines \(PgDn\)/);
    await press(KEYS.down);
    await expect.poll(screen).not.toContain('Context line 1.');
    ink.unmount();
  });

  it('GIVEN two projects THEN Tab changes the filter and p the project, each with its counts, and S sends every ready answer shown', async () => {
    const other = uniqueProject('api');
    await store.park(project, spec({ question: 'Which database?', isBlocking: true }));
    await store.park(other, spec({ question: 'Which cache?' }));
    await store.park(other, noRecommendation({ question: 'Which queue?' }));
    const { screen, press, ink } = await open();
    await expect.poll(screen).toContain(' All 3   Blocking 1   Non-blocking 2 ');
    /** What the list shows, once read: which of the three questions are on the screen. */
    const shown = () => ['Which database?', 'Which cache?', 'Which queue?'].filter((text) => screen().includes(text));
    await press('\t');
    await expect.poll(shown).toEqual(['Which database?']);
    await press('\t');
    await expect.poll(shown).toEqual(['Which cache?', 'Which queue?']);
    await press('p');
    await expect.poll(screen).toContain(`project: ${project.split('/').at(-1)}`);
    expect(screen()).toContain(' All 1   Blocking 1   Non-blocking 0 ');
    expect(screen()).toContain('Nothing non-blocking waiting.');
    await press('p');
    await expect.poll(screen).toContain(`project: ${other.split('/').at(-1)}`);
    expect(screen()).toContain(' All 2   Blocking 0   Non-blocking 2 ');
    await press('S');
    await expect.poll(screen).toContain('Sent 1 answer: #1.');
    expect((await store.get(other, 1))?.answer).toMatchObject({ choices: ['Postgres'] });
    expect((await store.get(other, 2))?.status).toBe('pending');
    expect((await store.get(project, 1))?.status).toBe('pending');
    ink.unmount();
  });

  it('GIVEN ? THEN the keys show, any key closes them, and q quits', async () => {
    await store.park(project, spec());
    const { screen, press, quitted, ink } = await open();
    await press('?');
    await expect.poll(screen).toContain('Next / previous question');
    await press('j');
    await expect.poll(screen).not.toContain('Next / previous question');
    await press('q');
    expect(quitted()).toBe(true);
    ink.unmount();
  });
});
