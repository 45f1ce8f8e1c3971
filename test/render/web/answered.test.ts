import { describe, expect, it } from 'vitest';
import { projectTag } from '../../../src/core/question-ref.js';
import { ANSWERED_PAGE_SIZE, renderAnsweredPage, renderDecision } from '../../../src/render/web/answered.js';
import { renderInboxPage } from '../../../src/render/web/page.js';
import { type AnsweredState, answeredHref, parseAnsweredState } from '../../../src/render/web/routes.js';
import { type Decision, type DecisionPage, decisionMatches } from '../../../src/store/decision-query.js';
import { inboxPageOf } from '../../support/inbox.js';
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

/** A trail cursor as the store writes them (the view only carries it). */
const CURSOR = `${'1'.repeat(27)}.${projectTag('/home/me/src/shop')}`;

describe('the Answered view’s state in the URL', () => {
  it('GIVEN a query THEN search, project tag and cursor read back; junk falls back to no filter, newest first', () => {
    const tag = projectTag('/home/me/src/shop');
    const state = parseAnsweredState(new URLSearchParams({ q: '  cache layer ', project: tag, after: CURSOR }));
    expect(state).toEqual({ search: 'cache layer', project: tag, after: CURSOR });
    expect(parseAnsweredState(new URLSearchParams(answeredHref(state).split('?')[1]))).toEqual(state);
    expect(answeredHref({})).toBe('/answered');
    expect(parseAnsweredState(new URLSearchParams('q=%20&project=../etc&after=12'))).toEqual({});
    expect(parseAnsweredState(new URLSearchParams({ q: 'x'.repeat(500) })).search).toHaveLength(200);
  });
});

describe('the search rule', () => {
  it('GIVEN a search THEN only decisions matching every word, anywhere in them, are kept', () => {
    const all = [
      decision(1, { question: 'Which cache layer?', answer: { ...decision(1).answer, notes: 'Redis, already there' } }),
      decision(2, { question: 'Which queue?', ticket: 'OPS-9' }),
      decision(3, { project: '/home/me/src/docs', question: 'Which cache for docs?' }),
      decision(4, { question: 'Which log format?', answer: { ...decision(4).answer, choices: [], other: true } }),
    ];
    const ids = (search: string) => all.filter((d) => decisionMatches(d, search)).map((d) => d.id);
    expect(ids('CACHE')).toEqual([1, 3]);
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
  /**
   * The page as the server reads it, from a list in memory: page `index` of the decisions the state selects (a
   * search cannot count what follows), each project's answer count, the chart's decisions in the project in view.
   */
  const page = (decisions: readonly Decision[], state: AnsweredState = {}, index = 0) => {
    const inScope = decisions.filter((d) => state.project === undefined || projectTag(d.project) === state.project);
    const matching = inScope.filter((d) => decisionMatches(d, state.search));
    const shown = matching.slice(index * ANSWERED_PAGE_SIZE, (index + 1) * ANSWERED_PAGE_SIZE);
    const rest = matching.length - index * ANSWERED_PAGE_SIZE - shown.length;
    const more = rest > 0 ? { next: CURSOR } : {};
    const trail: DecisionPage =
      state.search === undefined ? { decisions: shown, ...more, remaining: rest } : { decisions: shown, ...more };
    const counts = new Map<string, number>();
    for (const d of decisions) counts.set(d.project, (counts.get(d.project) ?? 0) + 1);
    return renderAnsweredPage({
      page: trail,
      recent: inScope,
      projects: [...counts].map(([project, answered]) => ({ project, answered })),
      state,
      now: NOW,
      timeZone: 'UTC',
    });
  };

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
    const inbox = renderInboxPage(
      { page: inboxPageOf([], 'all'), closed: [], projects: [], state: { filter: 'all' } },
      { viewer: 'Ada' },
    );
    expect(inbox).toContain('<a class="tab is-current" href="/" data-view="waiting" aria-current="page">Waiting</a>');
    expect(inbox).toContain('<a class="tab" href="/answered" data-view="answered">Answered</a>');
  });

  it('GIVEN a second page THEN Newest and Older keep the search and project, and it says where the page is', () => {
    const tag = projectTag('/home/me/src/shop');
    const none = page(many(60), { search: 'a&b', project: tag });
    expect(none).toContain('>0 answered questions matching “a&amp;b” in shop</p>');
    const second = page(many(60), { search: 'billing', project: tag, after: CURSOR }, 1);
    expect(second).toContain(`<a class="page-link" href="/answered?q=billing&amp;project=${tag}">← Newest</a>`);
    expect(second).toContain(
      `<a class="page-link" rel="next" href="/answered?q=billing&amp;project=${tag}&amp;after=${CURSOR}">Older →</a>`,
    );
    expect(second).toContain(
      '>25 answered questions shown (more follow) matching “billing” in shop, older than the last page</p>',
    );
    expect(second).toContain('value="billing"');
    expect(second).toContain('<a class="clear" href="/answered">Clear</a>');
    // Without a search the counts say where the page is.
    const middle = page(many(60), { after: CURSOR }, 1);
    expect(middle).toContain('>60 answered questions · 26–50</p>');
    expect(middle).toContain('<ol class="list decisions" start="26">');
    const last = page(many(60), { after: CURSOR }, 2);
    expect(last).toContain('<span class="page-link is-off" aria-disabled="true">Older →</span>');
    expect(last).toContain('>60 answered questions · 51–60</p>');
  });

  it('GIVEN a project filter THEN the chart covers that project only and names it', () => {
    const decisions = [...many(2), decision(9, { project: '/home/me/src/docs', isBlocking: true })];
    const markup = page(decisions, { project: projectTag('/home/me/src/docs') });
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
