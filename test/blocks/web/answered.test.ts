import { describe, expect, it } from 'vitest';
import { answeredPage, renderAnsweredPage, renderDecision } from '../../../src/blocks/web/answered.js';
import { renderInboxPage } from '../../../src/blocks/web/page.js';
import { type AnsweredState, answeredHref, parseAnsweredState } from '../../../src/blocks/web/routes.js';
import { projectTag } from '../../../src/core/question-ref.js';
import { type Decision, decisionMatches } from '../../../src/decisions/query.js';
import { person, spec } from '../../support/store.js';
import { assertWellFormed } from './well-formed.js';

const MIN = 60_000;
/** Wednesday 20 January 2027, 15:00 UTC. */
const NOW = Date.UTC(2027, 0, 20, 15, 0);

function decision(id: number, overrides: Partial<Decision> = {}): Decision {
  return {
    ...spec(),
    project: '/home/me/src/shop',
    id,
    status: 'delivered',
    createdAt: NOW - id * 60 * MIN,
    answer: { choices: ['SQLite'], other: false, by: person('U1'), at: NOW - id * 60 * MIN + 12 * MIN },
    deliveredAt: NOW - id * 60 * MIN + 20 * MIN,
    deliveredVia: 'prompt',
    messages: [],
    ...overrides,
  };
}

/** `count` decisions of one project, newest answer first (as listDecisions gives them). */
const many = (count: number, project = '/home/me/src/shop') =>
  Array.from({ length: count }, (_, index) => decision(index + 1, { project }));

describe('the Answered view’s state in the URL', () => {
  it('GIVEN a query THEN search, project tag and page read back; junk falls back to no filter, page 1', () => {
    const tag = projectTag('/home/me/src/shop');
    const state = parseAnsweredState(new URLSearchParams({ q: '  cache layer ', project: tag, page: '3' }));
    expect(state).toEqual({ search: 'cache layer', project: tag, page: 3 });
    expect(parseAnsweredState(new URLSearchParams(answeredHref(state).split('?')[1]))).toEqual(state);
    expect(answeredHref({ page: 1 })).toBe('/answered');
    expect(parseAnsweredState(new URLSearchParams('q=%20&project=../etc&page=-2'))).toEqual({ page: 1 });
    expect(parseAnsweredState(new URLSearchParams('page=1e9'))).toEqual({ page: 1 });
    expect(parseAnsweredState(new URLSearchParams({ q: 'x'.repeat(500) })).search).toHaveLength(200);
  });
});

describe('answeredPage', () => {
  it('GIVEN 60 decisions THEN pages of 25, the last one short, and a page past the end shows the last', () => {
    const all = many(60);
    expect(answeredPage(all, { page: 1 })).toMatchObject({ total: 60, page: 1, pages: 3 });
    expect(answeredPage(all, { page: 1 }).shown.map((d) => d.id)).toEqual(all.slice(0, 25).map((d) => d.id));
    expect(answeredPage(all, { page: 3 }).shown.map((d) => d.id)).toEqual(all.slice(50).map((d) => d.id));
    expect(answeredPage(all, { page: 9 })).toMatchObject({ page: 3, pages: 3 });
    expect(answeredPage([], { page: 4 })).toEqual({ shown: [], total: 0, page: 1, pages: 1 });
  });

  it('GIVEN a search and a project THEN only decisions of that project matching every word are kept', () => {
    const all = [
      decision(1, { question: 'Which cache layer?', answer: { ...decision(1).answer, notes: 'Redis, already there' } }),
      decision(2, { question: 'Which queue?', ticket: 'OPS-9' }),
      decision(3, { project: '/home/me/src/docs', question: 'Which cache for docs?' }),
      decision(4, { question: 'Which log format?', answer: { ...decision(4).answer, choices: [], other: true } }),
    ];
    const shop = projectTag('/home/me/src/shop');
    const ids = (search: string, project?: string) =>
      answeredPage(all, { page: 1, search, ...(project === undefined ? {} : { project }) }).shown.map((d) => d.id);
    expect(ids('CACHE')).toEqual([1, 3]);
    expect(ids('cache', shop)).toEqual([1]);
    expect(ids('cache redis')).toEqual([1]); // every word, anywhere: question and notes
    expect(ids('ops-9')).toEqual([2]); // the ticket
    expect(ids('other')).toEqual([4]); // the answer as it reads
    expect(ids('sqlite')).toEqual([1, 2, 3]); // the picked label
    expect(ids('billing')).toEqual([1, 2, 3, 4]); // the context
    expect(decisionMatches(all[0] as Decision, '   ')).toBe(true);
  });
});

describe('a decision', () => {
  it('GIVEN an answer with Other and notes THEN it shows project, ticket, #id, question, answer, notes, who and where, and when asked, answered (after how long) and delivered (how)', () => {
    const markup = renderDecision(
      decision(7, {
        isBlocking: true,
        ticket: 'BILL-12',
        answer: {
          choices: [],
          other: true,
          notes: 'DynamoDB:\nit is **there** already',
          by: person('U9', 'discord'),
          at: NOW - 7 * 60 * MIN + 75 * MIN,
        },
        deliveredAt: NOW - 7 * 60 * MIN + 80 * MIN,
        deliveredVia: 'wake',
      }),
      { timeZone: 'UTC' },
    ).toString();
    assertWellFormed(markup);
    expect(markup).toContain('<span class="badge badge-blocking">BLOCKING</span>');
    expect(markup).toContain('<span class="project" title="/home/me/src/shop">shop</span>');
    expect(markup).toContain('<span class="ticket">BILL-12</span><span class="qid">#7</span>');
    expect(markup).toContain('<h2 class="question">Which database should billing use?</h2>');
    expect(markup).toContain('<p class="answer">Answer: <strong>Other</strong></p>');
    expect(markup).toContain('<blockquote class="answer-notes">DynamoDB:\nit is **there** already</blockquote>');
    expect(markup).toContain('Answered by <strong>Person U9</strong> on Discord');
    expect(markup).toContain('<dt>Asked</dt><dd><time datetime="2027-01-20T08:00:00.000Z">20 Jan, 08:00</time></dd>');
    expect(markup).toContain(
      '<dt>Answered</dt><dd><time datetime="2027-01-20T09:15:00.000Z">20 Jan, 09:15</time> · after 1 h 15 min</dd>',
    );
    expect(markup).toContain(
      '<time datetime="2027-01-20T09:20:00.000Z">20 Jan, 09:20</time> · after waking the session</dd>',
    );
    // Context goes through the Markdown renderer, folded away.
    expect(markup).toContain('<summary>Context and impact</summary>');
    expect(markup).toContain('<strong>billing</strong>');
  });

  it('GIVEN an answer not delivered yet THEN it says so', () => {
    const { deliveredAt: _at, deliveredVia: _via, ...rest } = decision(2);
    const markup = renderDecision({ ...rest, status: 'answered' }).toString();
    expect(markup).toContain('data-status="answered"');
    expect(markup).toContain(
      '<dd class="delivery">not yet: reaches the agent with the next prompt in its session</dd>',
    );
  });

  it('GIVEN hostile text in every field THEN none of it becomes markup', () => {
    const evil = '<script>alert(1)</script><img src=x onerror=alert(1)>';
    const markup = renderDecision(
      decision(3, {
        project: `/home/<b>${evil}`,
        question: `Ship ${evil}?`,
        context: `Context ${evil} [x](javascript:alert(2))`,
        impact: `Impact ${evil}`,
        ticket: evil,
        options: [{ label: evil }],
        answer: { choices: [evil], other: false, notes: evil, by: { ...person(), displayName: evil }, at: NOW },
      }),
    ).toString();
    assertWellFormed(markup);
    expect(markup).not.toMatch(/<script|<img|<b>|<a /);
    expect(markup).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

describe('the Answered page', () => {
  const page = (decisions: readonly Decision[], state: AnsweredState = { page: 1 }) =>
    renderAnsweredPage({ decisions, state, now: NOW, timeZone: 'UTC' });

  it('GIVEN decisions THEN the page has the Waiting | Answered tabs, the chart, the search form and the list; the inbox page links back', () => {
    const markup = page(many(3));
    expect(markup).toContain(
      '<nav class="tabs" aria-label="Views"><a class="tab" href="/" data-view="waiting">Waiting</a><a class="tab is-current" href="/answered" data-view="answered" aria-current="page">Answered</a></nav>',
    );
    expect(markup).toContain('<svg class="chart"');
    expect(markup).toContain('<form class="toolbar search" method="get" action="/answered" role="search">');
    expect(markup).toContain('>3 answered questions</p>');
    expect(markup.match(/<article class="card decision/g)).toHaveLength(3);
    expect(markup).not.toContain('<script');
    expect(markup).not.toContain('class="pager"');
    const inbox = renderInboxPage({ items: [], state: { filter: 'all' } }, { viewer: 'Ada' });
    expect(inbox).toContain('<a class="tab is-current" href="/" data-view="waiting" aria-current="page">Waiting</a>');
    expect(inbox).toContain('<a class="tab" href="/answered" data-view="answered">Answered</a>');
  });

  it('GIVEN a second page of a search THEN Newer and Older keep the search and project; the first and last pages have no link past them', () => {
    const tag = projectTag('/home/me/src/shop');
    const middle = page(many(60), { search: 'a&b', project: tag, page: 2 });
    expect(middle).toContain('>0 answered questions matching “a&amp;b” in shop</p>');
    const second = page(many(60), { search: 'billing', project: tag, page: 2 });
    expect(second).toContain(
      `<a class="page-link" rel="prev" href="/answered?q=billing&amp;project=${tag}">← Newer</a>`,
    );
    expect(second).toContain(
      `<a class="page-link" rel="next" href="/answered?q=billing&amp;project=${tag}&amp;page=3">Older →</a>`,
    );
    expect(second).toContain('<ol class="list decisions" start="26">');
    expect(second).toContain('value="billing"');
    expect(second).toContain('<a class="clear" href="/answered">Clear</a>');
    const last = page(many(60), { page: 3 });
    expect(last).toContain('<span class="page-link is-off" aria-disabled="true">Older →</span>');
    expect(last).toContain('page 3 of 3');
  });

  it('GIVEN a project filter THEN the chart covers that project only and names it', () => {
    const decisions = [...many(2), decision(9, { project: '/home/me/src/docs', isBlocking: true })];
    const markup = page(decisions, { page: 1, project: projectTag('/home/me/src/docs') });
    expect(markup).toContain('<span class="chart-scope">docs</span>');
    expect(markup).toContain('Blocking: median 12 min, p90 12 min (1 answered)');
    expect(markup).toContain('Can wait: no answers');
    expect(markup).toContain(
      `<option value="${projectTag('/home/me/src/docs')}" selected title="/home/me/src/docs">docs (1)</option>`,
    );
    expect(markup).toContain('<option value="">All projects (3)</option>');
  });

  it('GIVEN nothing answered THEN the page says so, and the chart says no answers in the last 7 days', () => {
    const markup = page([]);
    expect(markup).toContain('No answers in the last 7 days.');
    expect(markup).toContain('Nothing answered yet.');
  });
});
