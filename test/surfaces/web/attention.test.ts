/**
 * The web inbox in a background tab, in real headless Chromium: the tab title follows what waits (blocking ones
 * first) as questions are parked and answered, and desktop notifications, allowed with a click and never asked for
 * on load, come once per new blocking question and never for a can-wait one. `new Notification` is observed by an
 * init script wrapping the browser's own.
 */

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { projectName } from '../../../src/render/vocabulary.js';
import { spec, uniqueProject } from '../../support/store.js';
import { CHROMIUM, hasChromium, launchChromium, startWebStack, type WebStack } from './support.js';

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

/** What the page did with the Notification API, as the init script records it. */
interface Recorded {
  readonly shown: { title: string; body: string; tag: string }[];
  readonly asked: number;
}

/**
 * Wraps the browser's Notification before any page script runs, recording every `new Notification` and permission
 * request in `window.__attention` (browser JavaScript: the tests' TypeScript has no DOM types).
 */
const RECORD_NOTIFICATIONS = `(() => {
  const Real = window.Notification;
  const recorded = { shown: [], asked: 0 };
  window.__attention = recorded;
  class Recording extends Real {
    constructor(title, options) {
      recorded.shown.push({ title, body: options?.body ?? '', tag: options?.tag ?? '' });
      super(title, options);
    }
    static get permission() {
      return Real.permission;
    }
    static requestPermission() {
      recorded.asked++;
      return Real.requestPermission();
    }
  }
  window.Notification = Recording;
})();`;

async function stack(): Promise<WebStack> {
  const started = await startWebStack({ bridge: false });
  open.push(started);
  return started;
}

async function openPage(s: WebStack, permissions: string[]): Promise<{ context: BrowserContext; page: Page }> {
  // No `permissions` at all when none is granted: an empty list makes Chromium deny the rest rather than ask.
  const context = await browser.newContext({
    viewport: { width: 1100, height: 1400 },
    ...(permissions.length > 0 ? { permissions } : {}),
  });
  open.push({ stop: () => context.close() });
  context.setDefaultTimeout(8000);
  await context.addInitScript({ content: RECORD_NOTIFICATIONS });
  const page = await context.newPage();
  await page.goto(s.web.url);
  await page.locator('#live[data-live="live"]').waitFor();
  return { context, page };
}

const recorded = (page: Page) => page.evaluate(() => (globalThis as unknown as { __attention: Recorded }).__attention);

async function park(s: WebStack, project: string, question: string, isBlocking: boolean) {
  const parked = await s.store.park(project, spec({ question, isBlocking }));
  return { id: parked.id, ref: formatQuestionRef(project, parked.id) };
}

describe('the web inbox in a background tab', () => {
  it('GIVEN notifications granted THEN the title follows the count, blocking first, as questions are parked and answered, and each new blocking question raises one notification, a can-wait one none', async () => {
    const s = await stack();
    const project = uniqueProject('attention');
    const { page } = await openPage(s, ['notifications']);
    await expect(page.title()).resolves.toBe('ask-later inbox');
    // Allowed already: there is nothing to click.
    await expect(page.locator('#notify').isHidden()).resolves.toBe(true);

    await park(s, project, 'Which log format?', false);
    await expect.poll(() => page.title()).toBe('(1) ask-later inbox');
    const database = await park(s, project, 'Which database?', true);
    await expect.poll(() => page.title()).toBe('(1 blocking · 2) ask-later inbox');
    await park(s, project, 'Which queue?', false);
    await expect.poll(() => page.title()).toBe('(1 blocking · 3) ask-later inbox');
    const cache = await park(s, project, 'Which cache?', true);
    await expect.poll(() => page.title()).toBe('(2 blocking · 4) ask-later inbox');
    // The can-wait questions came between the blocking ones: had they raised one, it would be listed between.
    await expect.poll(async () => (await recorded(page)).shown.length).toBe(2);
    // The number and the project's name, never the question's text (a notification shows on a locked screen).
    const body = `${projectName(project)}: an agent waits for your answer.`;
    expect((await recorded(page)).shown).toEqual([
      { title: `Blocking question #${database.id}`, body, tag: database.ref },
      { title: `Blocking question #${cache.id}`, body, tag: cache.ref },
    ]);

    const ada = { platform: 'web' as const, userId: 'local', displayName: 'Ada' };
    const answer = { choices: ['Postgres'], other: false };
    expect((await s.store.answer(project, database.id, answer, ada)).kind).toBe('won');
    await expect.poll(() => page.title()).toBe('(1 blocking · 3) ask-later inbox');
    expect((await s.store.answer(project, cache.id, answer, ada)).kind).toBe('won');
    await expect.poll(() => page.title()).toBe('(2) ask-later inbox');
    expect((await recorded(page)).shown).toHaveLength(2);
    expect((await recorded(page)).asked).toBe(0);
  });

  it('GIVEN notifications not yet allowed THEN nothing is asked on load; the button asks on a click, and once allowed a blocking question raises one', async () => {
    const s = await stack();
    const project = uniqueProject('allow');
    const { context, page } = await openPage(s, []);
    await expect(page.locator('#notify').isVisible()).resolves.toBe(true);
    await park(s, project, 'Which database?', true);
    await expect.poll(() => page.title()).toBe('(1 blocking · 1) ask-later inbox');
    expect(await recorded(page)).toEqual({ shown: [], asked: 0 });

    await context.grantPermissions(['notifications']);
    await page.locator('#notify').click();
    await page.locator('#notify').waitFor({ state: 'hidden' });
    expect((await recorded(page)).asked).toBe(1);
    const cache = await park(s, project, 'Which cache?', true);
    await expect.poll(async () => (await recorded(page)).shown.map((shown) => shown.tag)).toEqual([cache.ref]);
  });
});
