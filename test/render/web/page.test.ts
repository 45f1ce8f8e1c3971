import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { inboxCounts } from '../../../src/core/inbox.js';
import type { Question, QuestionState, SingleSpec } from '../../../src/core/question.js';
import { projectTag } from '../../../src/core/question-ref.js';
import { INBOX_CLIENT_SCRIPT } from '../../../src/generated/web-inbox-client.js';
import { renderCard, type WebInboxItem } from '../../../src/render/web/card.js';
import { escapeHtml, html } from '../../../src/render/web/html.js';
import { renderMarkdown } from '../../../src/render/web/markdown.js';
import {
  pageTitle,
  readyCount,
  renderInboxFragment,
  renderInboxPage,
  renderLoginPage,
  type WebInboxView,
  type WebProjectEntry,
} from '../../../src/render/web/page.js';
import { type InboxState, inboxQuery, parseInboxState } from '../../../src/render/web/routes.js';
import { inboxPageOf } from '../../support/inbox.js';
import { person, spec } from '../../support/store.js';

/**
 * The view the server builds, from a list in memory: one page of the waiting questions in the state's project and
 * filter (with the filters' counts in that project), each project's waiting count, the closed ones apart.
 */
function viewOf(
  items: readonly WebInboxItem[],
  state: InboxState,
  options: { readonly page?: number; readonly size?: number; readonly timeZone?: string } = {},
): WebInboxView {
  const scoped = items.filter((i) => state.project === undefined || projectTag(i.question.project) === state.project);
  const projects = new Map<string, WebProjectEntry>();
  for (const { question } of items) {
    if (question.status !== 'pending') continue;
    const entry = projects.get(question.project) ?? {
      tag: projectTag(question.project),
      project: question.project,
      waiting: 0,
      blocking: 0,
    };
    projects.set(question.project, {
      ...entry,
      waiting: entry.waiting + 1,
      blocking: entry.blocking + (question.isBlocking ? 1 : 0),
    });
  }
  return {
    page: inboxPageOf(scoped, state.filter, options.page ?? 0, options.size),
    closed: scoped.filter(
      (i) =>
        i.question.status !== 'pending' &&
        (state.filter === 'all' || i.question.isBlocking === (state.filter === 'blocking')),
    ),
    projects: [...projects.values()],
    state,
    ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
  };
}

const AT = Date.UTC(2027, 0, 15, 10, 20);

/** A single question's fields. */
type SingleQuestion = SingleSpec & QuestionState;
/** Overrides where `undefined` removes a field (e.g. `recommended: undefined`: a question without one). */
type Overrides = { [K in keyof SingleQuestion]?: SingleQuestion[K] | undefined };

function question(overrides: Overrides = {}): Question {
  const merged: Record<string, unknown> = {
    ...spec(),
    project: '/home/me/src/shop',
    id: 1,
    status: 'pending',
    createdAt: AT,
    messages: [],
    ...overrides,
  };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  return merged as unknown as Question;
}

const card = (item: WebInboxItem) => renderCard(item, { timeZone: 'UTC' }).toString();

describe('escaping', () => {
  it('GIVEN the five HTML characters THEN each becomes its entity', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
    expect(html`<p title="${'"><b>'}">${'<i>'}${['<s>', 1]}${undefined}${false}</p>`.toString()).toBe(
      '<p title="&quot;&gt;&lt;b&gt;">&lt;i&gt;&lt;s&gt;1</p>',
    );
  });

  it('GIVEN <script> and <img onerror> in every text of a question THEN the card carries none of them as markup', () => {
    const evil = '<script>alert(1)</script><img src=x onerror=alert(1)>';
    const rendered = card({
      question: question({
        question: `Ship ${evil}?`,
        context: `Context ${evil}`,
        impact: `Impact ${evil}`,
        options: [{ label: `A ${evil}`.slice(0, 73), description: 'd <img src=x onerror=alert(2)>' }, { label: 'B' }],
        recommended: undefined,
        ticket: '<b onmouseover=alert(3)>T-1</b>',
        project: '/tmp/"><script>alert(4)</script>',
      }),
      draft: { choices: [], other: true, notes: `</textarea>${evil}`, updatedAt: AT },
    });
    expect(rendered).not.toMatch(/<script|<img|<b[ >]|<\/textarea>[^<]*<script/i);
    expect(rendered).toContain('Ship &lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;?');
    expect(rendered).toContain('&lt;/textarea&gt;&lt;script&gt;');
    expect(rendered).toContain('title="/tmp/&quot;&gt;&lt;script&gt;alert(4)&lt;/script&gt;"');
    expect(rendered).toContain('<span class="ticket">&lt;b onmouseover=alert(3)&gt;T-1&lt;/b&gt;</span>');
  });

  it('GIVEN a person’s display name and notes with markup on an answered card THEN they are text', () => {
    const rendered = card({
      question: question({
        status: 'answered',
        answer: {
          choices: ['Postgres'],
          other: false,
          notes: '<img src=x onerror=alert(1)>',
          by: { platform: 'slack', userId: 'U1', displayName: '<script>x</script>' },
          at: AT,
        },
      }),
    });
    expect(rendered).not.toMatch(/<script|<img/);
    expect(rendered).toContain('Answered by <strong>&lt;script&gt;x&lt;/script&gt;</strong> on Slack');
    expect(rendered).toContain('<blockquote class="answer-notes">&lt;img src=x onerror=alert(1)&gt;</blockquote>');
  });
});

describe('Markdown', () => {
  it.each([
    ['[x](javascript:alert(1))', '[x](javascript:alert(1))'],
    ['[x](JaVaScRiPt:alert(1))', '[x](JaVaScRiPt:alert(1))'],
    ['[x](data:text/html,<script>alert(1)</script>)', '[x](data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;)'],
    ['[x](/relative)', '[x](/relative)'],
    ['<javascript:alert(1)>', '&lt;javascript:alert(1)&gt;'],
  ])('GIVEN the link %s THEN it stays text', (source, shown) => {
    const out = renderMarkdown(source).toString();
    expect(out).not.toContain('<a');
    expect(out).toContain(shown);
  });

  it('GIVEN http(s) and mailto links THEN they open in a new tab with noopener noreferrer', () => {
    const out = renderMarkdown('[rfc](https://example.com/rfc) and [me](mailto:me@example.com)').toString();
    expect(out).toContain('<a href="https://example.com/rfc" target="_blank" rel="noopener noreferrer">rfc</a>');
    expect(out).toContain('<a href="mailto:me@example.com" target="_blank" rel="noopener noreferrer">me</a>');
  });

  it('GIVEN raw HTML and an image THEN neither becomes markup; Markdown itself renders', () => {
    const out = renderMarkdown(
      '**bold** `code` <script>alert(1)</script> <img src=x onerror=alert(1)> ![pixel](https://e.com/p.png)\n\n- a\n- b',
    ).toString();
    expect(out).toContain('<strong>bold</strong>');
    expect(out).toContain('<code>code</code>');
    expect(out).toContain('<ul>');
    expect(out).not.toMatch(/<script|<img/);
  });
});

describe('cards', () => {
  it('GIVEN a pending question without a draft THEN the recommendation is starred and checked, ready, Send enabled', () => {
    const rendered = card({ question: question({ ticket: 'PROJ-12', isBlocking: true }) });
    expect(rendered).toContain('<span class="badge badge-blocking">BLOCKING</span>');
    expect(rendered).toContain('<span class="project" title="/home/me/src/shop">shop</span>');
    expect(rendered).toContain('<span class="ticket">PROJ-12</span><span class="qid">#1</span>');
    expect(rendered).toContain('<time datetime="2027-01-15T10:20:00.000Z">15 Jan, 10:20</time>');
    expect(rendered).toMatch(
      /<label class="option is-recommended"><input type="radio" id="opt-[^"]+-0" name="pick-[^"]+" value="0" checked><span class="option-text"><span class="option-label">★ Postgres<\/span><span class="option-desc">What the team knows<\/span><\/span><kbd class="key" aria-hidden="true">1<\/kbd><\/label>/,
    );
    expect(rendered).toContain('value="other"><span class="option-text"><span class="option-label">Other</span>');
    expect(rendered).toContain('data-readiness="ready"');
    expect(rendered).toContain('<span class="ready ready-ready">ready</span>');
    expect(rendered).toMatch(/<button type="button" id="send-[^"]+" class="primary" data-action="send">Send<\/button>/);
    expect(rendered).toContain('Remove #1 without answering? The agent will be told it was dismissed.');
  });

  it.each([
    ['nothing picked', { choices: [], other: false }, 'pick-one', 'pick one'],
    ['Other without a note', { choices: [], other: true }, 'needs-note', 'needs a note'],
    ['Other with a note', { choices: [], other: true, notes: 'DynamoDB' }, 'ready', 'ready'],
    ['a non-recommended option', { choices: ['SQLite'], other: false }, 'ready', 'ready'],
  ])('GIVEN a draft with %s THEN the mark says %s', (_, selection, readiness, mark) => {
    const rendered = card({ question: question(), draft: { ...selection, updatedAt: AT } });
    expect(rendered).toContain(`data-readiness="${readiness}"`);
    expect(rendered).toContain(`<span class="ready ready-${readiness}">${mark}</span>`);
    expect(rendered.includes('data-action="send" disabled')).toBe(readiness !== 'ready');
  });

  it('GIVEN a multi-select question THEN the picker has checkboxes and says pick any', () => {
    const rendered = card({
      question: question({ multiSelect: true }),
      draft: { choices: ['Postgres', 'SQLite'], other: false, updatedAt: AT },
    });
    expect(rendered).toContain('<legend>Pick any</legend>');
    expect(rendered.match(/type="checkbox"[^>]*checked/g)).toHaveLength(2);
  });

  it.each([
    [
      'answered',
      {
        status: 'answered',
        answer: { choices: ['SQLite'], other: false, notes: 'small', by: person('U1', 'discord'), at: AT },
      },
      ['Answered by <strong>Person U1</strong> on Discord', 'Answer: <strong>SQLite</strong>', 'next prompt'],
    ],
    [
      'delivered',
      {
        status: 'delivered',
        answer: { choices: ['SQLite'], other: false, by: { ...person('local', 'web'), displayName: 'me' }, at: AT },
        deliveredAt: AT + 60_000,
      },
      ['in the web inbox', 'Delivered to the agent · <time datetime="2027-01-15T10:21:00.000Z">'],
    ],
    ['withdrawn', { status: 'cancelled', closure: { at: AT } }, ['Withdrawn by the agent']],
    [
      'dismissed',
      { status: 'dismissed', closure: { at: AT, by: person('U2') }, deliveredAt: AT },
      ['Dismissed by <strong>Person U2</strong> on Slack', 'The agent was told'],
    ],
    ['expired', { status: 'expired', closure: { at: AT } }, ['Expired unanswered']],
  ] as const)('GIVEN a %s question THEN the card shows the state and no controls', (state, overrides, texts) => {
    const rendered = card({ question: question(overrides as Overrides) });
    expect(rendered).toContain(`<span class="state state-${overrides.status}">${state}</span>`);
    for (const text of texts) expect(rendered).toContain(text);
    expect(rendered).not.toMatch(/<input|<textarea|data-action/);
    expect(rendered).toContain('<summary>Context and impact</summary>');
  });
});

describe('the inbox', () => {
  const shop = '/home/me/src/shop';
  const docs = '/home/me/src/docs';
  const items: WebInboxItem[] = [
    { question: question({ id: 1, createdAt: AT }) },
    { question: question({ id: 2, createdAt: AT + 1, isBlocking: true }) },
    {
      question: question({ id: 3, createdAt: AT + 2, recommended: undefined }),
    },
    {
      question: question({ id: 1, project: docs, createdAt: AT + 3 }),
      draft: { choices: [], other: true, updatedAt: AT },
    },
    {
      question: question({
        id: 4,
        status: 'delivered',
        answer: { choices: ['SQLite'], other: false, by: person(), at: AT },
        deliveredAt: AT + 5,
      }),
    },
  ];

  it('GIVEN waiting questions THEN blocking first, then oldest; counts per filter; closed ones apart', () => {
    expect(viewOf(items, { filter: 'all' }).page.items.map((i) => `${i.question.project}#${i.question.id}`)).toEqual([
      `${shop}#2`,
      `${shop}#1`,
      `${shop}#3`,
      `${docs}#1`,
    ]);
    expect(inboxCounts(items)).toEqual({ all: 4, blocking: 1, 'non-blocking': 3 });
    expect(viewOf(items, { filter: 'all', project: projectTag(docs) }).page.counts).toEqual({
      all: 1,
      blocking: 0,
      'non-blocking': 1,
    });
    const fragment = renderInboxFragment(viewOf(items, { filter: 'all' }, { timeZone: 'UTC' })).toString();
    expect(fragment).toContain('All <span class="count">4</span>');
    expect(fragment).toContain('Blocking <span class="count">1</span>');
    expect(fragment).toContain('Non-blocking <span class="count">3</span>');
    const closed = fragment.slice(fragment.indexOf('id="closed"'));
    expect(closed).toContain('data-status="delivered"');
    expect(fragment.indexOf('data-status="delivered"')).toBeGreaterThan(fragment.indexOf('id="closed"'));
  });

  it('GIVEN drafts and recommendations THEN "Send N answers" counts what shows ready on the page shown', () => {
    // shop#1 and shop#2 show their recommendation; shop#3 has none; docs#1 is Other without a note.
    expect(readyCount(viewOf(items, { filter: 'all' }).page.items)).toBe(2);
    expect(readyCount(viewOf(items, { filter: 'blocking' }).page.items)).toBe(1);
    expect(readyCount(viewOf(items, { filter: 'all', project: projectTag(docs) }).page.items)).toBe(0);
    // A page of two (shop#2, shop#1): both ready; the next page (shop#3, docs#1) has none ready.
    expect(renderInboxFragment(viewOf(items, { filter: 'all' }, { size: 2 })).toString()).toContain(
      '>Send 2 answers</button>',
    );
    expect(renderInboxFragment(viewOf(items, { filter: 'all' }, { size: 2, page: 1 })).toString()).toMatch(
      /disabled[^>]*>Nothing ready to send<\/button>/,
    );
    expect(renderInboxFragment(viewOf(items, { filter: 'all' })).toString()).toContain('>Send 2 answers</button>');
    expect(renderInboxFragment(viewOf(items, { filter: 'blocking' })).toString()).toContain('>Send 1 answer</button>');
    expect(renderInboxFragment(viewOf(items, { filter: 'all', project: projectTag(docs) })).toString()).toMatch(
      /disabled[^>]*>Nothing ready to send<\/button>/,
    );
  });

  it('GIVEN a filter and a project THEN the links keep the project, the select marks it, and the list narrows', () => {
    const tag = projectTag(docs);
    const fragment = renderInboxFragment(viewOf(items, { filter: 'blocking', project: tag })).toString();
    expect(fragment).toContain(`href="?project=${tag}" data-filter="all"`);
    expect(fragment).toContain(`href="?filter=non-blocking&amp;project=${tag}"`);
    expect(fragment).toContain(`<option value="${tag}" selected title="${docs}">docs (1)</option>`);
    expect(fragment).toContain('<option value="">All projects (4)</option>');
    expect(fragment).toContain('Nothing blocking waiting.');
  });

  it('GIVEN more waiting than a page THEN it says where the page is and links the next page after its last card', () => {
    const first = viewOf(items, { filter: 'all' }, { size: 2 });
    const fragment = renderInboxFragment(first).toString();
    expect(fragment).toContain('<span class="page-of">1–2 of 4</span>');
    expect(fragment).toContain(`href="?after=${first.page.next}" data-page="next">Next 2 →</a>`);
    expect(first.page.next).toBe(`${projectTag(shop)}.1`);
    expect(fragment).toContain('aria-disabled="true">← First page</span>');
    const second = renderInboxFragment({
      ...viewOf(items, { filter: 'all' }, { size: 2, page: 1 }),
      state: { filter: 'all', after: first.page.next ?? '' },
    }).toString();
    expect(second).toContain('<span class="page-of">3–4 of 4</span>');
    expect(second).toContain('href="/" data-page="first">← First page</a>');
    expect(second).toContain('aria-disabled="true">Next →</span>');
    expect(renderInboxFragment(viewOf(items, { filter: 'all' })).toString()).not.toContain('class="pager"');
  });

  it('GIVEN nothing at all THEN the page says so', () => {
    const page = renderInboxPage(viewOf([], { filter: 'all' }), { viewer: 'ada' });
    expect(page).toContain('Nothing waiting. When an agent parks a question, it shows up here.');
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain('<script src="/assets/inbox.js" defer></script>');
    expect(page).toContain('answering as <strong>ada</strong>');
  });

  it('GIVEN a viewer name with markup THEN the page shell escapes it', () => {
    const page = renderInboxPage(viewOf(items, { filter: 'all' }), { viewer: '<img src=x onerror=alert(1)>' });
    expect(page).toContain('answering as <strong>&lt;img src=x onerror=alert(1)&gt;</strong>');
    expect(page).toContain('<title>(1 blocking · 4) ask-later inbox</title>');
  });

  it('GIVEN what waits THEN the tab title counts it, the blocking ones first', () => {
    expect(pageTitle(0, 0)).toBe('ask-later inbox');
    expect(pageTitle(3, 0)).toBe('(3) ask-later inbox');
    expect(pageTitle(3, 1)).toBe('(1 blocking · 3) ask-later inbox');
    expect(pageTitle(2, 2)).toBe('(2 blocking · 2) ask-later inbox');
  });

  it('GIVEN the sign-in page THEN it posts the token to /login, names both kinds of token, and says why one was refused, escaped', () => {
    const form = renderLoginPage({});
    expect(form).toContain('<form method="post" action="/login">');
    expect(form).toContain('<code>ask-later token create --web</code>');
    expect(form).toContain('<code>ASK_LATER_WEB_TOKEN</code>');
    expect(form).not.toContain('role="alert"');
    expect(renderLoginPage({ refused: 'That token is <not> accepted.' })).toContain(
      '<p class="flash flash-warn" role="alert">That token is &lt;not&gt; accepted.</p>',
    );
  });
});

describe('the URL state and the client script', () => {
  it.each([
    ['', { filter: 'all' }],
    ['?filter=blocking', { filter: 'blocking' }],
    ['?filter=nonsense&project=short', { filter: 'all' }],
    ['?filter=non-blocking&project=AAAAAAAAAAAAAAAA', { filter: 'non-blocking', project: 'AAAAAAAAAAAAAAAA' }],
    ['?after=AAAAAAAAAAAAAAAA.12', { filter: 'all', after: 'AAAAAAAAAAAAAAAA.12' }],
    ['?after=nope', { filter: 'all' }],
  ])('GIVEN the query %s THEN the state reads back and round-trips', (query, state) => {
    const parsed = parseInboxState(new URLSearchParams(query));
    expect(parsed).toEqual(state);
    expect(parseInboxState(new URLSearchParams(inboxQuery(parsed)))).toEqual(parsed);
  });

  it('GIVEN the client script THEN it parses, knows the routes, and never writes markup from data', () => {
    expect(() => new Script(INBOX_CLIENT_SCRIPT)).not.toThrow();
    expect(INBOX_CLIENT_SCRIPT).toContain('sendReady: "/api/send-ready"');
    // The one innerHTML is the swap of the server-rendered fragment; messages go through textContent.
    expect(INBOX_CLIENT_SCRIPT.match(/innerHTML/g)).toEqual(['innerHTML']);
    expect(INBOX_CLIENT_SCRIPT).toContain('template.innerHTML = markup;');
    expect(INBOX_CLIENT_SCRIPT).not.toMatch(/insertAdjacentHTML|outerHTML|document\.write|eval\(/);
  });
});
