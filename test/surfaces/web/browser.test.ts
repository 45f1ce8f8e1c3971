/**
 * The web inbox in real headless Chromium: questions parked through the real MCP server appear live, answers go
 * through the one InteractionService, the real built hook (`npm run build` first) delivers them, and the page
 * follows every step without reloading (a marker set on `window` after the first load must survive).
 */

import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { selectionsOf } from '../../../src/core/question.js';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { answeredIds, hookEnv, noteOf, payload, runHookCli } from '../../agents/hooks/support.js';
import { connectClient, isError, textOf } from '../../support/mcp.js';
import { spec, testClock, uniqueProject } from '../../support/store.js';
import {
  CHROMIUM,
  hasChromium,
  launchChromium,
  type ServeStack,
  startServeStack,
  startWebStack,
  type WebStack,
} from './support.js';

let browser: Browser;
beforeAll(async () => {
  if (!hasChromium()) {
    throw new Error(`the browser tests need Debian's chromium at ${CHROMIUM} (apt-get install chromium)`);
  }
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const open: { stop: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.stop();
});

async function stack(options: Parameters<typeof startWebStack>[0] = {}): Promise<WebStack> {
  const started = await startWebStack(options);
  open.push(started);
  return started;
}

async function serveStack(): Promise<ServeStack> {
  const started = await startServeStack();
  open.push(started);
  return started;
}

/** What the page tests need of either stack. */
type Inbox = Pick<WebStack | ServeStack, 'store' | 'web'>;

async function openPage(s: Inbox): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 1400 } });
  open.push({ stop: () => context.close() });
  context.setDefaultTimeout(8000);
  const page = await context.newPage();
  await page.goto(s.web.url);
  await page.locator('#live[data-live="live"]').waitFor();
  // Set once; a reload would lose it.
  await page.evaluate(() => {
    (globalThis as unknown as { __loadedMarker: string }).__loadedMarker = 'first-load';
  });
  return page;
}

async function notReloaded(page: Page): Promise<void> {
  expect(await page.evaluate(() => (globalThis as unknown as { __loadedMarker?: string }).__loadedMarker)).toBe(
    'first-load',
  );
}

async function park(s: Inbox, project: string, question: Record<string, unknown>): Promise<number> {
  const client = await connectClient({ project, store: async () => s.store, version: 'test' });
  try {
    const result = await client.callTool({ name: 'ask_later', arguments: question });
    expect(isError(result), textOf(result)).toBe(false);
    const id = /#(\d+)/.exec(textOf(result))?.[1];
    return Number(id);
  } finally {
    await client.close();
  }
}

/** An element as the in-page code below uses it. */
type InPage = { click(): void };

const card = (page: Page, project: string, id: number) =>
  page.locator(`article.card[data-ref="${formatQuestionRef(project, id)}"]`);
const cardIn = (page: Page, ref: string, state: string) => page.locator(`article.card[data-ref="${ref}"]${state}`);

describe('the web inbox in Chromium', () => {
  it('GIVEN `serve` on the embedded store and 3 questions parked through MCP THEN they appear live, blocking first; Send 1 answer sends only the ready one, the hook delivers it once, and the card shows delivered', async () => {
    const s = await serveStack();
    const page = await openPage(s);
    await expect(page.locator('#pending .empty').textContent()).resolves.toContain('Nothing waiting');

    const billing = uniqueProject('billing');
    const infra = uniqueProject('infra');
    const logFormat = await park(s, billing, {
      context: 'The new **audit log** needs a format.',
      question: 'Which log format should the audit log use?',
      impact: 'Decides the parser we ship.',
      isBlocking: false,
      options: [{ label: 'JSON lines', description: 'One object per line' }, 'logfmt'],
      recommended: 'JSON lines',
      ticket: 'AUD-7',
    });
    const database = await park(s, billing, {
      context: 'Billing moves off the monolith.\n\n- 2 GB of data\n- one writer',
      question: 'Which database should billing use?',
      impact: 'Decides the migration scripts and `docker-compose.yml`.',
      isBlocking: true,
      options: [
        { label: 'Postgres', description: 'What the team knows' },
        { label: 'SQLite', description: 'One file' },
      ],
      recommended: 'Postgres',
      ticket: 'BILL-12',
    });
    const regions = await park(s, infra, {
      context: 'The CDN can serve from several regions.',
      question: 'Which regions should the CDN serve from?',
      impact: 'Decides the monthly bill.',
      isBlocking: false,
      options: ['eu-west', 'us-east', 'ap-south'],
      multiSelect: true,
    });

    // Live: all three show up without a reload, blocking first, counts right.
    await page.locator('#pending article.card').nth(2).waitFor();
    const order = await page
      .locator('#pending article.card')
      .evaluateAll((cards) => cards.map((c) => [c.getAttribute('data-ref'), c.getAttribute('data-blocking')]));
    expect(order).toEqual([
      [formatQuestionRef(billing, database), 'true'],
      [formatQuestionRef(billing, logFormat), 'false'],
      [formatQuestionRef(infra, regions), 'false'],
    ]);
    const counts = await page.locator('.filters .filter').evaluateAll((links) => links.map((l) => l.textContent));
    expect(counts).toEqual(['All 3', 'Blocking 1', 'Non-blocking 2']);
    await expect(card(page, billing, database).locator('.badge').textContent()).resolves.toBe('BLOCKING');
    await expect(card(page, billing, logFormat).locator('.badge').textContent()).resolves.toBe('can wait');
    // The recommendation is starred and preselected; the multi-select question has checkboxes and nothing picked.
    await expect(card(page, billing, database).locator('.is-recommended .option-label').textContent()).resolves.toBe(
      '★ Postgres',
    );
    expect(await card(page, billing, database).locator('input[value="0"]').isChecked()).toBe(true);
    expect(await card(page, infra, regions).locator('.picker input[type="checkbox"]').count()).toBe(4);
    await expect(card(page, infra, regions).getAttribute('data-readiness')).resolves.toBe('pick-one');
    await notReloaded(page);

    // A non-recommended option with a note: ready. Other without a note: not ready.
    await card(page, billing, database).locator('input[value="1"]').check();
    await card(page, billing, database).locator('textarea').fill('Small data; one file is enough.');
    await card(page, billing, logFormat).locator('input[value="other"]').check();
    await cardIn(page, formatQuestionRef(billing, logFormat), '[data-readiness="needs-note"]').waitFor();
    await page.locator('button.send-ready', { hasText: 'Send 1 answer' }).waitFor();
    await expect(card(page, billing, database).getAttribute('data-readiness')).resolves.toBe('ready');
    await expect(card(page, billing, logFormat).locator('.ready').textContent()).resolves.toBe('needs a note');
    await expect(card(page, infra, regions).locator('.ready').textContent()).resolves.toBe('pick one');

    await page.locator('button.send-ready').click();
    await cardIn(page, formatQuestionRef(billing, database), '[data-status="answered"]').waitFor();
    await expect(page.locator('#flash').textContent()).resolves.toBe(`Sent 1 answer: #${database}.`);
    const answered = await s.store.get(billing, database);
    expect(answered?.answer).toMatchObject({
      choices: ['SQLite'],
      other: false,
      notes: 'Small data; one file is enough.',
      by: { platform: 'web', userId: 'local', displayName: 'Ada' },
    });
    expect((await s.store.get(billing, logFormat))?.status).toBe('pending');
    expect((await s.store.get(infra, regions))?.status).toBe('pending');
    await expect(page.locator('#pending article.card').count()).resolves.toBe(2);
    await expect(page.title()).resolves.toBe('(2) ask-later inbox');
    await expect(card(page, billing, database).locator('.outcome').textContent()).resolves.toContain(
      'Answered by Ada in the web inbox',
    );

    // The real hook delivers it with the next prompt, once.
    const env = hookEnv({ ASK_LATER_DB: s.path, ASK_LATER_PROJECT: billing });
    const first = await runHookCli(env, payload());
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const note = noteOf(first.stdout);
    expect(answeredIds(note)).toEqual([database]);
    expect(note).toContain('SQLite');
    expect(note).toContain('Small data; one file is enough.');
    const second = await runHookCli(env, payload({ prompt_id: 'prompt-2' }));
    expect(second).toMatchObject({ code: 0, stdout: '', stderr: '' });

    // The page follows: delivered, without a reload.
    const delivered = cardIn(page, formatQuestionRef(billing, database), '[data-status="delivered"]');
    await delivered.waitFor();
    await expect(delivered.locator('.state').textContent()).resolves.toBe('delivered');
    await expect(delivered.locator('.delivery').textContent()).resolves.toContain('Delivered to the agent');
    await notReloaded(page);
  });

  it('GIVEN 60 questions waiting THEN the page shows 50; Next swaps in the 10 after without a reload, keeps the page in the address, and a new question on the first page leaves this one in place', async () => {
    const s = await stack();
    const project = uniqueProject('many');
    for (let n = 0; n < 60; n += 1) await s.store.park(project, spec({ question: `Question ${n + 1}?` }));
    const page = await openPage(s);
    await expect(page.locator('#pending article.card').count()).resolves.toBe(50);
    await expect(page.locator('.pager .page-of').textContent()).resolves.toBe('1–50 of 60');
    await page.locator('a[data-page="next"]').click();
    await page.locator('.pager .page-of', { hasText: '51–60 of 60' }).waitFor();
    await expect(page.locator('#pending article.card').count()).resolves.toBe(10);
    expect(new URL(page.url()).searchParams.get('after')).toBe(formatQuestionRef(project, 50));
    await expect(page.locator('#pending article.card .question').first().textContent()).resolves.toBe('Question 51?');
    // A question parked meanwhile: the live refresh redraws this page (the counts grow), still after #50.
    await s.store.park(project, spec({ question: 'Question 61?' }));
    await page.locator('.pager .page-of', { hasText: '51–61 of 61' }).waitFor();
    await page.locator('a[data-page="first"]').click();
    await page.locator('.pager .page-of', { hasText: '1–50 of 61' }).waitFor();
    expect(new URL(page.url()).searchParams.get('after')).toBeNull();
    await notReloaded(page);
  });

  it('GIVEN question text with <script> and <img onerror> THEN the page shows it as text and runs nothing', async () => {
    const s = await stack();
    const page = await openPage(s);
    const project = uniqueProject('xss');
    const evil = 'Ship <script>window.__pwned = 1</script> or <img src=x onerror="window.__pwned = 2">?';
    const id = await park(s, project, {
      context:
        'Context <script>window.__pwned = 3</script> and [a link](javascript:window.__pwned=4) and <img src=x onerror="window.__pwned = 5">',
      question: evil,
      impact: '<iframe src="javascript:window.__pwned=6"></iframe> **bold** stays Markdown',
      isBlocking: true,
      options: ['<img src=x onerror="window.__pwned = 7">', '"><script>window.__pwned = 8</script>'],
      ticket: '<b onmouseover="window.__pwned=9">T-1</b>',
    });
    const shown = card(page, project, id);
    await shown.waitFor();
    await expect(shown.locator('.question').textContent()).resolves.toBe(evil);
    await expect(shown.locator('.ticket').textContent()).resolves.toBe('<b onmouseover="window.__pwned=9">T-1</b>');
    await expect(shown.locator('.option-label').first().textContent()).resolves.toBe(
      '<img src=x onerror="window.__pwned = 7">',
    );
    expect(await page.locator('#inbox script, #inbox img, #inbox iframe, #inbox b').count()).toBe(0);
    expect(await shown.locator('a').count()).toBe(0);
    await expect(shown.locator('.text strong').textContent()).resolves.toBe('bold');
    // Pick one to send: the click reaches nothing but our own handler.
    await shown.locator('input[value="1"]').check();
    await shown.locator('button[data-action="send"]:not([disabled])').click();
    await cardIn(page, formatQuestionRef(project, id), '[data-status="answered"]').waitFor();
    await expect(page.locator('#flash').textContent()).resolves.toBe(
      `Sent: "><script>window.__pwned = 8</script> (#${id}).`,
    );
    expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await notReloaded(page);
  });

  it('GIVEN the same question answered in the page and on Slack at the same moment THEN one answer is kept and the page and the Slack message both show it', async () => {
    const s = await stack({ slack: true });
    const slack = s.slack;
    if (!slack) throw new Error('no fake Slack');
    const page = await openPage(s);
    const project = uniqueProject('race');
    const id = await park(s, project, {
      context: 'Two people watch this one.',
      question: 'Which queue should the mailer use?',
      impact: 'Decides the worker setup.',
      isBlocking: false,
      options: ['Redis streams', 'SQS'],
      recommended: 'Redis streams',
    });
    const ref = formatQuestionRef(project, id);
    await card(page, project, id).waitFor();
    await expect.poll(async () => (await s.store.get(project, id))?.messages).toHaveLength(2);

    // Both at once. The page's click is found and dispatched in one step inside the page (a Playwright click waits
    // for the button to be stable, and by then the other answer may have redrawn the card without it).
    const [clicked, slackOutcome] = await Promise.all([
      page.evaluate((cardRef) => {
        // This runs in the page (the test's tsconfig has no DOM types).
        const { document } = globalThis as unknown as { document: { querySelector(s: string): InPage | null } };
        const button = document.querySelector(`article.card[data-ref="${cardRef}"] button[data-action="send"]`);
        button?.click();
        return button !== null;
      }, ref),
      s.interactions.send(ref, { platform: 'slack', userId: 'UBOB', displayName: 'Bob' }, { channel: 'CTEAM' }, [
        { choices: ['SQS'], other: false },
      ]),
    ]);
    expect(clicked).toBe(true);

    await cardIn(page, ref, '[data-status="answered"]').waitFor();
    await page.locator('#flash:not([hidden])').waitFor();
    // Exactly one of the two attempts won; the other was told who answered. What each side says, by winner:
    const byWinner = {
      Ada: {
        choices: ['Redis streams'],
        pageSaid: `Sent: Redis streams (#${id}).`,
        slackSaid: expect.stringMatching(
          new RegExp(`^#${id} was already answered by Ada on the web inbox at .+: Redis streams\\.$`),
        ),
        shown: 'Answered by Ada in the web inbox',
      },
      Bob: {
        choices: ['SQS'],
        pageSaid: expect.stringMatching(new RegExp(`^#${id} was already answered by Bob on Slack at .+: SQS\\.$`)),
        slackSaid: `Sent: SQS (#${id}).`,
        shown: 'Answered by Bob on Slack',
      },
    } as const;
    const stored = await s.store.get(project, id);
    const winner = stored?.answer?.by.displayName;
    expect(winner).toMatch(/^(Ada|Bob)$/);
    const expected = byWinner[winner as keyof typeof byWinner];
    expect({
      choices: stored?.answer === undefined ? undefined : selectionsOf(stored.answer)[0]?.choices,
      pageSaid: await page.locator('#flash').textContent(),
      slackSaid: slackOutcome.text,
      slackWon: slackOutcome.ok,
    }).toEqual({
      choices: expected.choices,
      pageSaid: expected.pageSaid,
      slackSaid: expected.slackSaid,
      slackWon: winner === 'Bob',
    });
    // Both surfaces show the one answer.
    await expect(card(page, project, id).locator('.outcome').textContent()).resolves.toContain(expected.shown);
    const update = await slack.waitFor(
      (call) => call.method === 'chat.update' && JSON.stringify(call.body.blocks).includes('Answered by'),
    );
    expect(JSON.stringify(update.body.blocks)).toContain(`Answered by ${winner}`);
    await notReloaded(page);
  });
  it('GIVEN filters and Remove THEN the filters swap the list in place, and Remove asks first, then dismisses', async () => {
    const s = await stack();
    const page = await openPage(s);
    const shop = uniqueProject('shop');
    const docs = uniqueProject('docs');
    const base = { context: 'c', impact: 'i', options: ['Yes', 'No'], recommended: 'Yes' };
    await park(s, shop, { ...base, question: 'Drop the legacy cart?', isBlocking: true });
    await park(s, shop, { ...base, question: 'Rename the checkout button?', isBlocking: false });
    const docsId = await park(s, docs, { ...base, question: 'Move the docs to MkDocs?', isBlocking: false });
    await page.locator('#pending article.card').nth(2).waitFor();

    await page.locator('a.filter[data-filter="blocking"]').click();
    await page.locator('a.filter.is-current[data-filter="blocking"]').waitFor();
    expect(await page.locator('#pending article.card').count()).toBe(1);
    expect(new URL(page.url()).search).toBe('?filter=blocking');
    await expect(page.locator('button.send-ready').textContent()).resolves.toBe('Send 1 answer');

    await page.locator('select[data-project-filter]').selectOption(formatQuestionRef(docs, docsId).split('.')[0] ?? '');
    await page.locator('#pending .empty', { hasText: 'Nothing blocking waiting.' }).waitFor();
    await page.locator('a.filter[data-filter="all"]').click();
    await page.locator('a.filter.is-current[data-filter="all"]').waitFor();
    const counts = await page.locator('.filters .filter').evaluateAll((links) => links.map((l) => l.textContent));
    expect(counts).toEqual(['All 1', 'Blocking 0', 'Non-blocking 1']);
    await notReloaded(page);

    const docsCard = card(page, docs, docsId);
    await expect(docsCard.locator('.confirm').isVisible()).resolves.toBe(false);
    await docsCard.locator('details.remove summary').click();
    await expect(docsCard.locator('.confirm').textContent()).resolves.toContain(
      `Remove #${docsId} without answering? The agent will be told it was dismissed.`,
    );
    await docsCard.locator('button[data-action="remove"]').click();
    await cardIn(page, formatQuestionRef(docs, docsId), '[data-status="dismissed"]').waitFor();
    await expect(docsCard.locator('.outcome').textContent()).resolves.toContain('Dismissed by Ada in the web inbox');
    expect((await s.store.get(docs, docsId))?.status).toBe('dismissed');
    await notReloaded(page);
  });
});

/** The element that has the focus: its id, and whether a focus ring shows on it (or on the option row it is in). */
async function focused(page: Page): Promise<{ id: string; ring: boolean }> {
  return page.evaluate(() => {
    // This runs in the page (the test's tsconfig has no DOM types).
    interface El {
      id: string;
      closest(selector: string): El | null;
    }
    const dom = globalThis as unknown as {
      document: { activeElement: El | null };
      getComputedStyle(element: El): { outlineStyle: string; outlineWidth: string };
    };
    const active = dom.document.activeElement;
    if (!active) return { id: '', ring: false };
    const drawn = active.closest('.option') ?? active;
    const style = dom.getComputedStyle(drawn);
    return { id: active.id, ring: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2 };
  });
}

/** Count what a pointer does in the page from now on (a keyboard's Enter on a button clicks, but never presses a pointer). */
async function watchPointer(page: Page): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const dom = globalThis as unknown as {
      __pointer: number;
      document: {
        addEventListener(type: string, listener: (event: { isTrusted: boolean }) => void, capture: boolean): void;
      };
    };
    dom.__pointer = 0;
    for (const type of ['pointerdown', 'mousedown', 'mousemove', 'wheel']) {
      dom.document.addEventListener(
        type,
        (event) => {
          if (event.isTrusted) dom.__pointer += 1;
        },
        true,
      );
    }
  });
  return () => page.evaluate(() => (globalThis as unknown as { __pointer: number }).__pointer);
}

describe('the web inbox by keyboard alone', () => {
  it('GIVEN a set of three parked through MCP THEN keys alone answer it: Send is refused in place until every question is ready, a multi-select gets notes on an option, Other gets notes, the review lists each topic, Enter sends it, the store holds one answer and the hook delivers it once as one entry', async () => {
    const s = await serveStack();
    const page = await openPage(s);
    const pointer = await watchPointer(page);
    const project = uniqueProject('billing');
    const id = await park(s, project, {
      context: 'Billing moves off the monolith.',
      impact: 'Decides the migration scripts.',
      ticket: 'BILL-12',
      questions: [
        {
          topic: 'Database',
          question: 'Which database should billing use?',
          options: [{ label: 'Postgres', value: 'pg' }, 'SQLite'],
          recommended: 'Postgres',
          isBlocking: true,
        },
        {
          topic: 'Caches',
          question: 'Which caches may billing use?',
          options: [{ label: 'Redis', description: 'Shared' }, 'In-process', 'None'],
          recommended: ['Redis', 'In-process'],
          multiSelect: true,
          isBlocking: false,
          context: 'Billing reads prices on every request.',
        },
        {
          topic: 'Naming',
          question: 'What do we call the new service?',
          options: ['billing-v2', 'ledger'],
          isBlocking: false,
          impact: 'The name goes into every dashboard.',
        },
      ],
    });
    const ref = formatQuestionRef(project, id);
    const key = ref.replace('.', '-');
    const set = card(page, project, id);
    await set.waitFor();
    await expect(set.locator('.set-progress').textContent()).resolves.toBe('2 of 3 ready');
    await expect(page.locator('.filters .filter').first().textContent()).resolves.toBe('All 1');

    // j: the set's card has the focus, and shows it.
    await page.keyboard.press('j');
    expect(await focused(page)).toEqual({ id: `q-${key}`, ring: true });

    // Enter: refused in place, naming what is missing; nothing is sent.
    await page.keyboard.press('Enter');
    const notReady = 'Not sent: every question of the set must be ready first. Naming needs a pick.';
    await set.locator('.notice:not([hidden])', { hasText: notReady }).waitFor();
    await expect(page.locator('#flash').textContent()).resolves.toBe(notReady);
    expect((await s.store.get(project, id))?.status).toBe('pending');

    // → the Caches tab; 2 unpicks In-process (said in the live region); ↑ to Redis; n opens Redis's notes.
    await page.keyboard.press('ArrowRight');
    expect(await focused(page)).toEqual({ id: `tab-${key}-1`, ring: true });
    await expect(set.locator(`#tab-${key}-1`).getAttribute('aria-selected')).resolves.toBe('true');
    expect(await set.locator(`#panel-${key}-1`).isVisible()).toBe(true);
    expect(await set.locator(`#panel-${key}-0`).isVisible()).toBe(false);
    await page.keyboard.press('2');
    await page.locator('#flash', { hasText: 'In-process unpicked · Caches: ready · 2 of 3 ready' }).waitFor();
    expect(await focused(page)).toEqual({ id: `opt-${key}-1-1`, ring: true });
    await page.keyboard.press('ArrowUp');
    expect((await focused(page)).id).toBe(`opt-${key}-1-0`);
    await page.keyboard.press('n');
    expect((await focused(page)).id).toBe(`cnotes-${key}-1-0`);
    // Keys typed in a field stay text (1, n, j, ? and Enter included).
    await page.keyboard.type('Shared across pods; 1 n j ?');
    await page.keyboard.press('Escape');
    expect(await focused(page)).toEqual({ id: `q-${key}`, ring: true });
    await expect
      .poll(async () => (await s.store.getDraft(project, id, { platform: 'web', userId: 'local' }, 1))?.choiceNotes)
      .toEqual([{ choice: 'Redis', notes: 'Shared across pods; 1 n j ?' }]);
    await expect(page.locator('#keys-help').isVisible()).resolves.toBe(false);

    // → the Naming tab; 3 picks Other; Enter is refused again: Other needs a note; n opens the answer's notes.
    await page.keyboard.press('ArrowRight');
    expect((await focused(page)).id).toBe(`tab-${key}-2`);
    await page.keyboard.press('3');
    await page.locator('#flash', { hasText: 'Other picked · Naming: needs a note · 2 of 3 ready' }).waitFor();
    await page.keyboard.press('Enter');
    await set
      .locator('.notice:not([hidden])', {
        hasText: 'Not sent: every question of the set must be ready first. Naming needs a note (Other).',
      })
      .waitFor();
    await page.keyboard.press('n');
    expect((await focused(page)).id).toBe(`notes-${key}-2`);
    await page.keyboard.type('payments');
    await page.keyboard.press('Escape');
    await set.locator('.set-progress', { hasText: '3 of 3 ready' }).waitFor();
    expect((await s.store.get(project, id))?.status).toBe('pending');

    // Enter: the review, each topic with its answer and notes; the focus on its Send.
    await page.keyboard.press('Enter');
    const review = set.locator('.review');
    await review.waitFor({ state: 'visible' });
    expect(await focused(page)).toEqual({ id: `confirm-${key}`, ring: true });
    await expect(set.locator('.notice').isVisible()).resolves.toBe(false);
    const lines = await review.locator('.review-lines > li').evaluateAll((items) => items.map((li) => li.textContent));
    expect(lines).toEqual([
      `#${id}.1DatabaseAnswer: Postgres`,
      `#${id}.2CachesAnswer: RedisRedisShared across pods; 1 n j ?`,
      `#${id}.3NamingAnswer: Otherpayments`,
    ]);
    await expect(page.locator('#flash').textContent()).resolves.toBe(
      'Review: Database: Postgres · Caches: Redis · Naming: Other. Enter sends all, Escape goes back.',
    );
    // Escape goes back to Send; Enter on Send opens the review again.
    await page.keyboard.press('Escape');
    await review.waitFor({ state: 'hidden' });
    expect((await focused(page)).id).toBe(`send-${key}`);
    await page.keyboard.press('Enter');
    await review.waitFor({ state: 'visible' });
    expect((await focused(page)).id).toBe(`confirm-${key}`);

    // Enter sends the set, whole.
    await page.keyboard.press('Enter');
    await cardIn(page, ref, '[data-status="answered"]').waitFor();
    await expect(page.locator('#flash').textContent()).resolves.toBe(
      `Sent: Database: Postgres · Caches: Redis · Naming: Other (#${id}).`,
    );
    const stored = await s.store.get(project, id);
    expect(stored?.answer).toEqual({
      members: [
        { choices: ['Postgres'], other: false },
        { choices: ['Redis'], other: false, choiceNotes: [{ choice: 'Redis', notes: 'Shared across pods; 1 n j ?' }] },
        { choices: [], other: true, notes: 'payments' },
      ],
      by: { platform: 'web', userId: 'local', displayName: 'Ada' },
      at: expect.any(Number),
    });
    // The answered card shows each question's answer, notes per option nested under the option.
    const answers = await set.locator('.member-answer').evaluateAll((items) => items.map((li) => li.textContent));
    expect(answers).toEqual([
      `#${id}.1DatabaseWhich database should billing use?Answer: Postgres`,
      `#${id}.2CachesWhich caches may billing use?Answer: RedisRedisShared across pods; 1 n j ?`,
      `#${id}.3NamingWhat do we call the new service?Answer: Otherpayments`,
    ]);
    expect(await set.locator('.choice-notes-list .choice-note').textContent()).toBe('Shared across pods; 1 n j ?');

    // The real hook delivers it once, as one entry with the answers under their topics.
    const env = hookEnv({ ASK_LATER_DB: s.path, ASK_LATER_PROJECT: project });
    const first = await runHookCli(env, payload());
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const note = noteOf(first.stdout);
    expect(note.match(/^### #\d+ answered/gm)).toEqual([`### #${id} answered`]);
    expect(note).toContain(
      `#### #${id}.1 Database (blocking)\nQuestion: Which database should billing use?\nAnswer: Postgres`,
    );
    expect(note).toContain(`#### #${id}.2 Caches\n`);
    expect(note).toContain('- Notes on Redis:');
    expect(note).toContain(`#### #${id}.3 Naming\nQuestion: What do we call the new service?\nAnswer: Other\nNotes:`);
    const second = await runHookCli(env, payload({ prompt_id: 'prompt-2' }));
    expect(second).toMatchObject({ code: 0, stdout: '', stderr: '' });
    await cardIn(page, ref, '[data-status="delivered"]').waitFor();

    expect(await pointer()).toBe(0);
    await notReloaded(page);
  });

  it('GIVEN a single question THEN keys alone answer it (a pick, notes, Enter), the ? overlay opens and closes with Escape, and the focus always shows', async () => {
    const s = await stack();
    const page = await openPage(s);
    const pointer = await watchPointer(page);
    const project = uniqueProject('logs');
    const id = await park(s, project, {
      context: 'The new audit log needs a format.',
      question: 'Which log format should the audit log use?',
      impact: 'Decides the parser we ship.',
      isBlocking: false,
      options: [{ label: 'JSON lines', description: 'One object per line' }, 'logfmt'],
      recommended: 'JSON lines',
    });
    const ref = formatQuestionRef(project, id);
    const key = ref.replace('.', '-');
    await card(page, project, id).waitFor();

    // ? opens the overlay (a modal dialog listing the keys); Escape closes it and the focus goes back.
    await page.keyboard.press('j');
    expect(await focused(page)).toEqual({ id: `q-${key}`, ring: true });
    await page.keyboard.press('?');
    const help = page.locator('#keys-help');
    await help.waitFor({ state: 'visible' });
    await expect(help.getAttribute('open')).resolves.toBe('');
    await expect(help.locator('h2').textContent()).resolves.toBe('Keyboard');
    expect(await help.locator('dt').count()).toBeGreaterThanOrEqual(8);
    // Keys do nothing behind the overlay.
    await page.keyboard.press('2');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    expect(await focused(page)).toEqual({ id: `q-${key}`, ring: true });
    expect(await card(page, project, id).locator('input[value="0"]').isChecked()).toBe(true);

    // 2 picks logfmt (said in the live region), with a ring on its row; n opens the notes; Escape, Enter sends.
    await page.keyboard.press('2');
    await page.locator('#flash', { hasText: 'logfmt picked · ready' }).waitFor();
    expect(await focused(page)).toEqual({ id: `opt-${key}-1`, ring: true });
    await page.keyboard.press('n');
    expect((await focused(page)).id).toBe(`notes-${key}`);
    await page.keyboard.type('Greppable, and Enter stays text.');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Second line.');
    await page.keyboard.press('Escape');
    expect(await focused(page)).toEqual({ id: `q-${key}`, ring: true });
    await page.keyboard.press('Enter');
    await cardIn(page, ref, '[data-status="answered"]').waitFor();
    await expect(page.locator('#flash').textContent()).resolves.toBe(`Sent: logfmt (#${id}).`);
    expect((await s.store.get(project, id))?.answer).toMatchObject({
      choices: ['logfmt'],
      other: false,
      notes: 'Greppable, and Enter stays text.\nSecond line.',
    });
    expect(await pointer()).toBe(0);
    await notReloaded(page);
  });
});

/** The DOM pieces the in-page code below uses (the test's tsconfig has no DOM types). */
interface InPageDom {
  getComputedStyle(element: unknown): { fill: string };
  XMLSerializer: new () => { serializeToString(node: unknown): string };
  DOMParser: new () => {
    parseFromString(
      text: string,
      type: string,
    ): { getElementsByTagName(name: string): { length: number }; documentElement: { nodeName: string } };
  };
}

describe('the Answered view in Chromium', () => {
  it('GIVEN answers over the last week THEN the Answered tab shows the time-to-answer chart as visible inline SVG, the search narrows the list, and the page made no request beyond its own origin', async () => {
    const clock = testClock(Date.UTC(2027, 0, 14, 12, 0));
    const s = await stack({ bridge: false, storeNow: clock.now, now: clock.now });
    const project = uniqueProject('decided');
    const ada = { platform: 'web', userId: 'local', displayName: 'Ada' } as const;
    const decide = async (question: string, isBlocking: boolean, waitedMinutes: number) => {
      const { id } = await s.store.park(project, spec({ question, isBlocking }));
      clock.advance(waitedMinutes * 60_000);
      await s.store.answer(project, id, { choices: ['SQLite'], other: false, notes: `Notes for ${question}` }, ada);
      return id;
    };
    await decide('Which cache layer?', true, 10);
    await decide('Which queue?', true, 30);
    clock.advance(3 * 24 * 60 * 60_000);
    await decide('Which log format?', false, 120);
    await decide('Ship <img src=x onerror="window.__pwned = 1">?', false, 5);

    const context = await browser.newContext({ viewport: { width: 1100, height: 1400 } });
    open.push({ stop: () => context.close() });
    context.setDefaultTimeout(8000);
    const requests: string[] = [];
    context.on('request', (request) => requests.push(request.url()));
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));

    // From the inbox, the Answered tab.
    await page.goto(s.web.url);
    await page.locator('#live[data-live="live"]').waitFor();
    await page.locator('a.tab[data-view="answered"]').click();
    await page.waitForURL(`${s.web.url}/answered`);
    await expect(page.locator('a.tab.is-current').textContent()).resolves.toBe('Answered');

    // The chart: visible, drawn, both kinds, the figures in text.
    const chart = page.locator('svg.chart');
    await chart.waitFor();
    expect(await chart.isVisible()).toBe(true);
    const box = await chart.boundingBox();
    expect(box?.width).toBeGreaterThan(300);
    expect(box?.height).toBeGreaterThan(100);
    expect(await page.locator('svg.chart rect.bar-blocking').count()).toBe(1);
    expect(await page.locator('svg.chart rect.bar-canWait').count()).toBe(1);
    expect(await page.locator('svg.chart rect.bar-blocking').isVisible()).toBe(true);
    expect(await page.locator('svg.chart rect.bar-canWait').isVisible()).toBe(true);
    await expect(page.locator('.chart-figures').textContent()).resolves.toBe(
      'Blocking: median 10 min, p90 30 min (2 answered)Can wait: median 5 min, p90 2 h (2 answered)',
    );
    expect(await page.locator('svg.chart .chart-none').count()).toBe(5);
    // The stylesheet (not inline styles, which the CSP forbids) colours the bars.
    const fills = await page
      .locator('svg.chart rect.bar')
      .evaluateAll((rects) => rects.map((rect) => (globalThis as unknown as InPageDom).getComputedStyle(rect).fill));
    expect(fills).toHaveLength(2);
    expect(new Set(fills).size).toBe(2);
    // The accessible text is there, the table hidden from sight only.
    await expect(chart.getAttribute('aria-labelledby')).resolves.toBe('tta-title tta-desc');
    await expect(page.locator('#tta-desc').textContent()).resolves.toContain('Blocking: median 10 min, p90 30 min');
    expect(await page.locator('.visually-hidden table tbody tr').count()).toBe(7);
    expect((await page.locator('.chart-panel .visually-hidden').boundingBox())?.width).toBeLessThanOrEqual(1);
    // What the server drew is well-formed SVG by the browser's own XML parser.
    const parsed = await chart.evaluate((svg) => {
      const dom = globalThis as unknown as InPageDom;
      const xml = new dom.XMLSerializer().serializeToString(svg);
      const doc = new dom.DOMParser().parseFromString(xml, 'image/svg+xml');
      return { error: doc.getElementsByTagName('parsererror').length, root: doc.documentElement.nodeName };
    });
    expect(parsed).toEqual({ error: 0, root: 'svg' });

    // The list, newest first; hostile text stays text; the search narrows it and lives in the URL.
    const questions = () => page.locator('article.decision .question').allTextContents();
    await expect(questions()).resolves.toEqual([
      'Ship <img src=x onerror="window.__pwned = 1">?',
      'Which log format?',
      'Which queue?',
      'Which cache layer?',
    ]);
    await page.locator('input[name="q"]').fill('queue');
    await page.locator('form.search button[type="submit"]').click();
    await page.waitForURL(`${s.web.url}/answered?q=queue&project=`);
    await expect(questions()).resolves.toEqual(['Which queue?']);
    await expect(page.locator('.result-count').textContent()).resolves.toBe('1 answered question matching “queue”');
    expect(await page.locator('svg.chart').isVisible()).toBe(true);

    expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(problems).toEqual([]);
    // Every request went to the page's own origin (a data: URL is no request on the network).
    const origin = new URL(s.web.url).origin;
    const elsewhere = requests.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin);
    expect(elsewhere).toEqual([]);
    expect(requests.filter((url) => url.startsWith(origin)).map((url) => new URL(url).pathname)).toContain('/answered');
  });
});
