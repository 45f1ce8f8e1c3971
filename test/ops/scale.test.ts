/**
 * 10,000 pending questions over 200 projects, on Redis and on the embedded store: every view reads one page, and the
 * pages are right — the order across projects, the counts, the filters, walking every page, a page after questions
 * were answered — for Slack's inbox, Discord's, the web inbox and list_questions. Results only: speed is measured by
 * `npm run bench` (bench/scale.mjs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Question } from '../../src/core/question.js';
import { formatQuestionRef, projectTag } from '../../src/core/question-ref.js';
import { INBOX_PAGE_SIZE as DISCORD_PAGE, renderInbox as renderDiscordInbox } from '../../src/render/discord/inbox.js';
import { renderInbox as renderSlackInbox, INBOX_PAGE_SIZE as SLACK_PAGE } from '../../src/render/slack/inbox.js';
import { WEB_PAGE_SIZE } from '../../src/render/web/page.js';
import type { Store } from '../../src/store/port.js';
import { allowListPolicy, InteractionService } from '../../src/surfaces/interactions.js';
import { type StartedWebInbox, startWebInbox } from '../../src/surfaces/web/server.js';
import { WEB_CHANNEL, WebSurface } from '../../src/surfaces/web/surface.js';
import { openSqliteTestStore, openTestStore, person, spec, testClock, uniqueProject } from '../support/store.js';

const QUESTIONS = 10_000;
const PROJECTS = 200;
const CHANNEL = 'CSCALE';

/** The inbox order, written out apart from the adapters: blocking, oldest, id, project tag. */
function inboxOrder(a: Question, b: Question): number {
  const ta = projectTag(a.project);
  const tb = projectTag(b.project);
  return (
    Number(b.isBlocking) - Number(a.isBlocking) ||
    a.createdAt - b.createdAt ||
    a.id - b.id ||
    (ta < tb ? -1 : ta > tb ? 1 : 0)
  );
}

const ref = (q: Question) => formatQuestionRef(q.project, q.id);

describe.each([
  ['Redis', (now: () => number) => openTestStore({ now })],
  ['the embedded store', (now: () => number) => openSqliteTestStore({ now })],
] as const)('10,000 pending questions over 200 projects on %s', (_name, open) => {
  const clock = testClock();
  let store: Store;
  let parked: Question[];
  let expected: string[];
  let service: InteractionService;
  let web: StartedWebInbox;
  const projects = Array.from({ length: PROJECTS }, (_, i) => uniqueProject(`scale-${i}`));
  const actor = { platform: 'slack' as const, userId: 'USCALE', displayName: 'Scale' };

  beforeAll(async () => {
    store = await open(clock.now);
    parked = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < QUESTIONS) {
          const n = next++;
          // Ten questions a millisecond: ties on time, and on id across projects.
          if (n % 10 === 0) clock.advance(1);
          parked.push(await store.park(projects[n % PROJECTS] ?? '', spec({ isBlocking: n % 4 === 0 })));
        }
      }),
    );
    expected = [...parked].sort(inboxOrder).map(ref);
    service = new InteractionService({
      store,
      access: allowListPolicy({}),
      routing: (platform) => (platform === 'web' ? [WEB_CHANNEL] : [CHANNEL]),
    });
    web = await startWebInbox({ interactions: service, surface: new WebSurface(), timeZone: 'UTC' });
  }, 300_000);

  afterAll(async () => {
    await web?.stop();
    await store?.close();
  });

  it('GIVEN every page of the pending view walked THEN each question shows once, in the inbox order, and the counts agree', async () => {
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const page = await store.pageAcross(projects, { view: 'pending', limit: 500, ...(after ? { after } : {}) });
      seen.push(...page.questions.map(ref));
      expect(page.remaining).toBe(QUESTIONS - seen.length);
      after = page.next;
      pages++;
    } while (after !== undefined);
    expect(pages).toBe(QUESTIONS / 500);
    expect(seen).toEqual(expected);
    const counts = [...(await store.countAcross(projects)).values()];
    expect(counts.reduce((sum, c) => sum + c.blocking, 0)).toBe(QUESTIONS / 4);
    expect(counts.reduce((sum, c) => sum + c.canWait, 0)).toBe((QUESTIONS * 3) / 4);
  });

  it('GIVEN /questions on Slack THEN the first page shows the 31 first questions with every count; Next shows the 31 after', async () => {
    const first = await service.inboxPage(actor, { channel: CHANNEL }, { filter: 'all', limit: SLACK_PAGE });
    expect(first.items.map((i) => ref(i.question))).toEqual(expected.slice(0, SLACK_PAGE));
    expect(first.counts).toEqual({ all: QUESTIONS, blocking: QUESTIONS / 4, 'non-blocking': (QUESTIONS * 3) / 4 });
    const view = renderSlackInbox(first, { filter: 'all' }, 'modal');
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    expect(JSON.stringify(view)).toContain(`questions 1–${SLACK_PAGE} of ${QUESTIONS}`);
    const second = await service.inboxPage(
      actor,
      { channel: CHANNEL },
      { filter: 'all', limit: SLACK_PAGE, ...(first.next ? { after: first.next } : {}) },
    );
    expect(second.items.map((i) => ref(i.question))).toEqual(expected.slice(SLACK_PAGE, 2 * SLACK_PAGE));
    expect(second.offset).toBe(SLACK_PAGE);
  });

  it('GIVEN the non-blocking filter on Discord THEN its first page of 10 is the oldest that can wait', async () => {
    const page = await service.inboxPage(actor, { channel: CHANNEL }, { filter: 'non-blocking', limit: DISCORD_PAGE });
    const canWait = [...parked]
      .sort(inboxOrder)
      .filter((q) => !q.isBlocking)
      .map(ref);
    expect(page.items.map((i) => ref(i.question))).toEqual(canWait.slice(0, DISCORD_PAGE));
    const message = renderDiscordInbox(page, { filter: 'non-blocking' });
    expect(message.embeds[0]?.title).toBe(`📥 Questions waiting — Non-blocking (${(QUESTIONS * 3) / 4})`);
  });

  it('GIVEN the web inbox THEN the page holds 50 cards and every count, under 1 MB; a project filter narrows it to that project', async () => {
    const response = await fetch(`${web.url}/`);
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text.match(/<article class="card /g)).toHaveLength(WEB_PAGE_SIZE);
    expect(text).toContain(`All <span class="count">${QUESTIONS}</span>`);
    expect(text).toContain(`<option value="">All projects (${QUESTIONS})</option>`);
    expect(Buffer.byteLength(text)).toBeLessThan(1024 * 1024);
    const project = projects[7] ?? '';
    const narrowed = await (await fetch(`${web.url}/inbox?project=${projectTag(project)}`)).text();
    expect(narrowed.match(/<article class="card /g)).toHaveLength(QUESTIONS / PROJECTS);
    expect(narrowed).toContain(`All <span class="count">${QUESTIONS / PROJECTS}</span>`);
  });

  it('GIVEN list_questions for one project THEN its 50 questions come in pages, blocking first', async () => {
    const project = projects[3] ?? '';
    const first = await store.listPage(project, { limit: 20 });
    expect(first.remaining).toBe(30);
    const mine = parked.filter((q) => q.project === project);
    const order = [...mine].sort((a, b) => Number(b.isBlocking) - Number(a.isBlocking) || a.id - b.id).map((q) => q.id);
    expect(first.questions.map((q) => q.id)).toEqual(order.slice(0, 20));
  });

  it('GIVEN the first page answered from Slack THEN the first page afterwards starts right after it, and the closed view holds them newest first', async () => {
    const first = await service.inboxPage(actor, { channel: CHANNEL }, { filter: 'all', limit: SLACK_PAGE });
    clock.advance(1000);
    for (const { question } of first.items) {
      await store.answer(question.project, question.id, { choices: ['SQLite'], other: false }, person());
    }
    const now = await service.inboxPage(actor, { channel: CHANNEL }, { filter: 'all', limit: SLACK_PAGE });
    expect(now.items.map((i) => ref(i.question))).toEqual(expected.slice(SLACK_PAGE, 2 * SLACK_PAGE));
    expect(now.counts.all).toBe(QUESTIONS - SLACK_PAGE);
    const closed = await store.pageAcross(projects, { view: 'answered', limit: 100 });
    expect(closed.questions).toHaveLength(SLACK_PAGE);
    expect(new Set(closed.questions.map(ref))).toEqual(new Set(first.items.map((i) => ref(i.question))));
  });
});
