/**
 * The web inbox against axe-core's WCAG 2 A and AA rules, in real headless Chromium, light and dark: the inbox with a
 * single question of each kind, a set and a closed question, the Answered view, and the sign-in page.
 */

import axe from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setSpec, spec, uniqueProject } from '../../support/store.js';
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

/** One violation as a failing test names it: the rule and the elements. */
interface Finding {
  readonly rule: string;
  readonly impact: string | null | undefined;
  readonly nodes: readonly string[];
}

/** axe-core's WCAG 2 A / AA rules over the page as it stands (the page's CSP is bypassed to inject it). */
async function audit(page: Page): Promise<Finding[]> {
  await page.addScriptTag({ content: axe.source });
  return page.evaluate(async () => {
    const run = (globalThis as unknown as { axe: typeof axe }).axe;
    const results = await run.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
    return results.violations.map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      nodes: violation.nodes.map((node) => node.target.join(' ')),
    }));
  });
}

async function openPage(s: WebStack, path: string, colorScheme: 'light' | 'dark'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 1400 }, bypassCSP: true, colorScheme });
  open.push({ stop: () => context.close() });
  context.setDefaultTimeout(8000);
  const page = await context.newPage();
  await page.goto(`${s.web.url}${path}`);
  return page;
}

/** A blocking and a can-wait question, a set, and one answered (the inbox's closed list, the Answered view). */
async function inboxWithEverything(): Promise<WebStack> {
  const s = await startWebStack({ bridge: false });
  open.push(s);
  const project = uniqueProject('a11y');
  await s.store.park(project, spec({ isBlocking: true, ticket: 'BILL-12' }));
  await s.store.park(
    project,
    spec({ question: 'Which log format?', options: [{ label: 'JSON' }, { label: 'logfmt' }] }),
  );
  await s.store.park(project, setSpec());
  const answered = await s.store.park(project, spec({ question: 'Which queue?', isBlocking: true }));
  const result = await s.store.answer(
    project,
    answered.id,
    { choices: ['Postgres'], other: false, notes: 'The team knows it.' },
    { platform: 'web', userId: 'local', displayName: 'Ada' },
  );
  expect(result.kind).toBe('won');
  return s;
}

describe('the web inbox under axe-core (WCAG 2 A and AA)', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`GIVEN single questions, a set and a closed question (${colorScheme}) THEN the inbox, the Answered view and the sign-in page have no violation`, async () => {
      const s = await inboxWithEverything();
      const inbox = await openPage(s, '/', colorScheme);
      await inbox.locator('#live[data-live="live"]').waitFor();
      await expect(inbox.locator('#pending article.card').count()).resolves.toBe(3);
      await expect(inbox.locator('#closed article.card').count()).resolves.toBe(1);
      expect(await audit(inbox)).toEqual([]);

      const answered = await openPage(s, '/answered', colorScheme);
      await expect(answered.locator('article.card.decision').count()).resolves.toBe(1);
      expect(await audit(answered)).toEqual([]);

      const login = await startWebStack({ bridge: false, token: 'a shared secret of the machine' });
      open.push(login);
      const signIn = await openPage(login, '/', colorScheme);
      await signIn.locator('form[action="/login"]').waitFor();
      expect(await audit(signIn)).toEqual([]);
    });
  }
});
