/**
 * The web inbox's Answered view over HTTP against the test Redis: the decision trail newest first, paged, searched and
 * filtered by project through the URL; the time-to-answer chart from the same read; hostile text escaped; the same
 * protection as every other route (loopback Host, the token).
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { Responder, Selection, SingleSpec } from '../../../src/core/question.js';
import { projectTag } from '../../../src/core/question-ref.js';
import { StoreUnavailableError } from '../../../src/store/store-unavailable-error.js';
import { allowListPolicy, InteractionService } from '../../../src/surfaces/interactions.js';
import { startWebInbox } from '../../../src/surfaces/web/server.js';
import { WEB_CHANNEL } from '../../../src/surfaces/web/surface.js';
import { setSpec, spec, testClock, uniqueProject } from '../../support/store.js';
import { type StackOptions, startWebStack, type WebStack } from './support.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Wednesday 20 January 2027, 12:00 UTC. */
const START = Date.UTC(2027, 0, 20, 12, 0);

const open: { stop: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.stop();
});

interface Stack extends WebStack {
  /** Park a question, wait `waited`, answer it (and deliver it, unless `deliver: false`). */
  decide(
    project: string,
    overrides?: Partial<SingleSpec>,
    options?: { waited?: number; selection?: Selection; by?: Responder; deliver?: boolean },
  ): Promise<number>;
  readonly clock: ReturnType<typeof testClock>;
}

/** The inbox and the store on one test clock, starting a week and a bit before START (advance it to move on). */
async function stack(options: StackOptions = {}): Promise<Stack> {
  const clock = testClock(START - 8 * DAY);
  const started = await startWebStack({ bridge: false, storeNow: clock.now, now: clock.now, ...options });
  open.push(started);
  const ada: Responder = { platform: 'slack', userId: 'UADA', displayName: 'Ada' };
  return {
    ...started,
    clock,
    async decide(project, overrides = {}, decideOptions = {}) {
      const { id } = await started.store.park(project, spec(overrides));
      clock.advance(decideOptions.waited ?? 10 * MIN);
      const selection = decideOptions.selection ?? { choices: ['SQLite'], other: false };
      const result = await started.store.answer(project, id, selection, decideOptions.by ?? ada);
      expect(result.kind).toBe('won');
      if (decideOptions.deliver !== false) await started.store.markDelivered(project, id, 'prompt');
      return id;
    },
  };
}

interface Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/** One GET with full control of the headers (fetch would not let a test set `Host`). */
function get(s: WebStack, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: s.web.port,
        path,
        method,
        headers: { host: `127.0.0.1:${s.web.port}`, ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The question refs the page lists, in order. */
const refsOf = (text: string) =>
  [...text.matchAll(/<article class="card decision[^"]*" id="[^"]+" data-ref="([^"]+)"/g)].map((m) => m[1]);
/** The question ids the page lists, in order. */
const idsOf = (text: string) => refsOf(text).map((ref) => Number(ref?.split('.')[1]));

describe('the Answered view', () => {
  it('GIVEN 30 answered questions THEN /answered lists the 25 newest answers first with a link to the older 5, as a page with a strict CSP', async () => {
    const s = await stack();
    const project = uniqueProject('trail');
    const ids: number[] = [];
    for (let n = 1; n <= 30; n += 1) ids.push(await s.decide(project, { question: `Decision number ${n}?` }));
    // One more still pending, and one dismissed: neither is a decision.
    await s.store.park(project, spec({ question: 'Still waiting?' }));
    const dismissed = await s.store.park(project, spec({ question: 'Dismissed one?' }));
    await s.store.dismiss(project, dismissed.id, { platform: 'web', userId: 'local', displayName: 'Ada' });

    const first = await get(s, '/answered');
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(first.headers['content-security-policy']).toContain("default-src 'none'");
    expect(first.headers['content-security-policy']).toContain("script-src 'self'");
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    const newestFirst = [...ids].reverse();
    expect(idsOf(first.text)).toEqual(newestFirst.slice(0, 25));
    expect(first.text).toContain('>30 answered questions · 1–25</p>');
    expect(first.text).not.toMatch(/Still waiting\?|Dismissed one\?/);
    const older = /<a class="page-link" rel="next" href="(\/answered\?after=[^"]+)">Older →<\/a>/.exec(first.text)?.[1];
    expect(older).toBeDefined();
    expect(first.text).toContain('aria-current="page">Answered</a>');

    const second = await get(s, older ?? '');
    expect(idsOf(second.text)).toEqual(newestFirst.slice(25));
    expect(second.text).toContain('>30 answered questions · 26–30</p>');
    expect(second.text).toContain('<a class="page-link" href="/answered">← Newest</a>');
    expect(second.text).toContain('<span class="page-link is-off" aria-disabled="true">Older →</span>');
    // A cursor that is not one shows the newest page.
    expect(idsOf((await get(s, '/answered?after=two')).text)).toEqual(newestFirst.slice(0, 25));
  });

  it('GIVEN a search over 30 decisions THEN the page holds the newest matches and Older continues after the last', async () => {
    const s = await stack();
    const project = uniqueProject('trail');
    const ids: number[] = [];
    for (let n = 1; n <= 30; n += 1) {
      ids.push(await s.decide(project, { question: n % 3 === 0 ? `Cache question ${n}?` : `Other question ${n}?` }));
    }
    const caches = ids.filter((_, index) => (index + 1) % 3 === 0).reverse();
    const page = await get(s, '/answered?q=cache');
    expect(idsOf(page.text)).toEqual(caches);
    expect(page.text).toContain('>10 answered questions matching “cache”</p>');
    expect(page.text).not.toContain('rel="next"');
  });

  it('GIVEN a decision THEN it shows the answer (Other), the notes, who answered where, and when it was asked, answered and delivered', async () => {
    const s = await stack();
    const project = uniqueProject('shop');
    const asked = s.clock.now();
    await s.decide(
      project,
      { question: 'Which cache layer?', ticket: 'SHOP-4', isBlocking: true },
      {
        waited: 75 * MIN,
        selection: { choices: [], other: true, notes: 'DynamoDB: it is there already' },
        by: { platform: 'discord', userId: '42', displayName: 'Bob' },
      },
    );
    const { text } = await get(s, '/answered');
    expect(text).toContain('<span class="ticket">SHOP-4</span><span class="qid">#1</span>');
    expect(text).toContain('<h2 class="question">Which cache layer?</h2>');
    expect(text).toContain('Answer: <strong>Other</strong>');
    expect(text).toContain('<blockquote class="answer-notes">DynamoDB: it is there already</blockquote>');
    expect(text).toContain('Answered by <strong>Bob</strong> on Discord');
    expect(text).toContain(`<dt>Asked</dt><dd><time datetime="${new Date(asked).toISOString()}">`);
    expect(text).toContain('· after 1 h 15 min</dd>');
    expect(text).toContain(' · with a prompt the person typed</dd>');
  });

  it('GIVEN a search and a project filter in the URL THEN only matching decisions show, and the form keeps both', async () => {
    const s = await stack();
    const shop = uniqueProject('shop');
    const docs = uniqueProject('docs');
    const cache = await s.decide(shop, { question: 'Which cache layer?' });
    await s.decide(
      shop,
      { question: 'Which queue?' },
      { selection: { choices: ['Postgres'], other: false, notes: 'Keep one database' } },
    );
    const docsCache = await s.decide(docs, { question: 'Cache the docs build?' });

    const searched = await get(s, '/answered?q=CACHE');
    expect(refsOf(searched.text)).toEqual([`${projectTag(docs)}.${docsCache}`, `${projectTag(shop)}.${cache}`]);
    expect(searched.text).toContain('>2 answered questions matching “CACHE”</p>');
    expect(searched.text).toContain('name="q" value="CACHE"');

    const inShop = await get(s, `/answered?q=cache&project=${projectTag(shop)}`);
    expect(refsOf(inShop.text)).toEqual([`${projectTag(shop)}.${cache}`]);
    expect(inShop.text).toContain(`<option value="${projectTag(shop)}" selected`);
    // The notes and the picked label are searched too.
    expect(idsOf((await get(s, '/answered?q=one+database')).text)).toEqual([2]);
    expect(idsOf((await get(s, `/answered?q=postgres&project=${projectTag(shop)}`)).text)).toEqual([2]);
    const none = await get(s, '/answered?q=nothing-like-this');
    expect(none.text).toContain('No answered question matches that search.');
    expect(none.text).toContain('<a class="clear" href="/answered">Clear</a>');
  });

  it('GIVEN hostile text in the question, notes, ticket, name, project and search THEN the page shows it as text', async () => {
    const s = await stack();
    const evil = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const project = uniqueProject(`x"><svg onload=alert(3)>`);
    await s.decide(
      project,
      {
        question: `Ship ${evil}?`,
        context: `Context ${evil} [x](javascript:alert(4))`,
        ticket: `T-${evil}`.slice(0, 60),
      },
      {
        selection: { choices: ['SQLite'], other: false, notes: `Notes ${evil}` },
        by: { platform: 'slack', userId: 'U1', displayName: `Eve ${evil}` },
      },
    );
    const { text } = await get(s, `/answered?q=${encodeURIComponent('"><script>alert(5)</script>')}`);
    expect(text).toContain('value="&quot;&gt;&lt;script&gt;alert(5)&lt;/script&gt;"');
    const page = await get(s, '/answered');
    expect(page.text).toContain('Ship &lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;?');
    expect(page.text).toContain('Notes &lt;script&gt;');
    expect(page.text).toContain('<strong>Eve &lt;script&gt;');
    for (const body of [text, page.text]) {
      expect(body).not.toMatch(/<script|<img|<svg onload|href="javascript/i);
    }
  });

  it('GIVEN answers over the last week THEN the chart shows both kinds with their median and p90, from the same read', async () => {
    const s = await stack();
    const project = uniqueProject('chart');
    s.clock.advance(2 * DAY); // six days before START
    await s.decide(project, { isBlocking: true }, { waited: 10 * MIN });
    await s.decide(project, { isBlocking: true }, { waited: 30 * MIN });
    await s.decide(project, { isBlocking: false }, { waited: 2 * HOUR });
    s.clock.advance(START - s.clock.now());
    const { text } = await get(s, '/answered');
    expect(text).toContain('Time to answer · last 7 days</h2>');
    expect(text).toContain('</span>Blocking: median 10 min, p90 30 min (2 answered)</li>');
    expect(text).toContain('</span>Can wait: median 2 h, p90 2 h (1 answered)</li>');
    expect(text.match(/<rect class="bar bar-/g)).toHaveLength(2);
    expect(text.match(/>no answers<\/text>/g)).toHaveLength(6);

    // A week later nothing was answered in the window.
    s.clock.advance(7 * DAY);
    expect((await get(s, '/answered')).text).toContain('No answers in the last 7 days.');
  });

  it('GIVEN a project filter THEN the chart covers that project only', async () => {
    const s = await stack();
    s.clock.advance(START - s.clock.now() - 2 * HOUR);
    const shop = uniqueProject('shop');
    const docs = uniqueProject('docs');
    await s.decide(shop, { isBlocking: true }, { waited: 5 * MIN });
    await s.decide(docs, { isBlocking: false }, { waited: 50 * MIN });
    const { text } = await get(s, `/answered?project=${projectTag(docs)}`);
    expect(text).toContain('<span class="chart-scope">docs-');
    expect(text).toContain('</span>Blocking: no answers</li>');
    expect(text).toContain('</span>Can wait: median 50 min, p90 50 min (1 answered)</li>');
  });

  it('GIVEN the inbox page THEN its tabs link to the Answered view', async () => {
    const s = await stack();
    const { text } = await get(s, '/');
    expect(text).toContain('<a class="tab" href="/answered" data-view="answered">Answered</a>');
  });
});

describe('the Answered view with sets', () => {
  it('GIVEN an answered set THEN the trail shows it once, titled by its topics, each question’s answer with notes per option nested under the option; a search finds it by a topic', async () => {
    const s = await stack();
    const project = uniqueProject('sets');
    const { id } = await s.store.park(project, setSpec());
    s.clock.advance(5 * MIN);
    const result = await s.store.answer(
      project,
      id,
      {
        members: [
          { choices: ['SQLite'], other: false, notes: 'One file <b>is</b> enough.' },
          { choices: ['Redis'], other: false, choiceNotes: [{ choice: 'Redis', notes: 'Shared across pods' }] },
          { choices: [], other: true, notes: 'payments' },
        ],
      },
      { platform: 'web', userId: 'local', displayName: 'Ada' },
    );
    expect(result.kind).toBe('won');
    await s.decide(project, { question: 'Which queue?' });

    const page = await get(s, '/answered');
    expect(idsOf(page.text)).toEqual([id + 1, id]);
    const card = page.text.slice(page.text.indexOf(`#${id}</span>`));
    expect(card).toContain('<span class="set-size">3 questions</span>');
    expect(card).toContain('<h2 class="question">Database · Caches · Naming</h2>');
    expect(card).toContain(
      `<span class="qid">#${id}.1</span><span class="topic">Database</span></p><p class="member-question">Which database should billing use?</p><p class="answer">Answer: <strong>SQLite</strong></p><blockquote class="answer-notes">One file &lt;b&gt;is&lt;/b&gt; enough.</blockquote>`,
    );
    expect(card).toContain(
      '<p class="answer">Answer: <strong>Redis</strong></p><ul class="choice-notes-list"><li><span class="choice">Redis</span><blockquote class="choice-note">Shared across pods</blockquote></li></ul>',
    );
    expect(card).toContain('Answer: <strong>Other</strong></p><blockquote class="answer-notes">payments</blockquote>');
    expect(card).toContain('after 5 min');
    expect(idsOf((await get(s, '/answered?q=naming')).text)).toEqual([id]);
  });
});

describe('the Answered view’s protection', () => {
  it('GIVEN a Host that is not loopback THEN 403 and nothing of the trail', async () => {
    const s = await stack();
    await s.decide(uniqueProject('private'), { question: 'Private decision?' });
    const reply = await get(s, '/answered', { host: `evil.example:${s.web.port}` });
    expect(reply.status).toBe(403);
    expect(reply.text).not.toContain('Private decision?');
    expect((await get(s, '/answered', { host: `localhost:${s.web.port}` })).status).toBe(200);
  });

  it('GIVEN a token THEN /answered asks to sign in without it, and shows the trail with it', async () => {
    const token = 'correct horse battery staple';
    const s = await stack({ token });
    await s.decide(uniqueProject('private'), { question: 'Behind the token?' });
    const anonymous = await get(s, '/answered');
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).toContain('<form method="post" action="/login">');
    expect(anonymous.text).not.toContain('Behind the token?');
    expect((await get(s, '/answered', { cookie: 'ask_later_session=forged' })).status).toBe(401);
    const signedIn = await get(s, '/answered', { authorization: `Bearer ${token}` });
    expect(signedIn.status).toBe(200);
    expect(signedIn.text).toContain('Behind the token?');
  });

  it('GIVEN another method THEN 405 with Allow: GET', async () => {
    const s = await stack();
    const reply = await get(s, '/answered', {}, 'POST');
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('GET');
  });

  it('GIVEN the store unreachable THEN the page says so with 503', async () => {
    const s = await stack();
    const down = new Proxy(s.store, {
      get(target, name, receiver) {
        if (name === 'knownProjects') return () => Promise.reject(new StoreUnavailableError());
        return Reflect.get(target, name, receiver);
      },
    });
    const interactions = new InteractionService({
      store: down,
      access: allowListPolicy({}),
      routing: () => [WEB_CHANNEL],
    });
    const web = await startWebInbox({ interactions, surface: s.surface });
    open.push(web);
    const page = await fetch(`${web.url}/answered`);
    expect(page.status).toBe(503);
    expect(await page.text()).toBe('The ask-later store is unreachable; try again in a moment.');
  });
});
