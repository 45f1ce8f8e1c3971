/**
 * Signing in to the web inbox with its own form, in real headless Chromium: the browser posts the form with the
 * Origin the page's referrer policy gives it (`no-referrer` made it `null`, refused by the origin rule), lands on the
 * live inbox, and signs out again with the page's own button.
 */
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium, launchChromium, startWebStack } from './support.js';

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

const TOKEN = 'sign-in-browser-test-token-0123456789';

describe('web inbox sign-in in Chromium', () => {
  it('GIVEN an inbox asking for a token WHEN the person submits the form THEN they land signed in, and the Sign out button signs them out', async () => {
    const stack = await startWebStack({ token: TOKEN });
    open.push(stack);
    const context = await browser.newContext();
    open.push({ stop: () => context.close() });
    context.setDefaultTimeout(8000);
    const page = await context.newPage();
    const posts: { url: string; origin: string | undefined; status: number }[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'POST') {
        posts.push({ url: response.url(), origin: response.request().headers().origin, status: response.status() });
      }
    });

    await page.goto(stack.web.url);
    await page.locator('input[name="token"]').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#live[data-live="live"]').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(posts[0]).toEqual({ url: `${stack.web.url}/login`, origin: stack.web.url, status: 303 });
    expect((await context.cookies()).map((cookie) => cookie.name)).toContain('ask_later_session');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.locator('input[name="token"]').waitFor();
    expect(posts[1]).toEqual({ url: `${stack.web.url}/logout`, origin: stack.web.url, status: 303 });
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('ask_later_session');
  });
});
