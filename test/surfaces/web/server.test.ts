/**
 * The web inbox's HTTP side against the test Redis: routes, the JSON actions through the InteractionService,
 * server-sent events, the loopback host check, same-origin checks, and the token.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { selectionsOf } from '../../../src/core/question.js';
import { formatQuestionRef, projectTag } from '../../../src/core/question-ref.js';
import { StoreUnavailableError } from '../../../src/store/store-unavailable-error.js';
import { allowListPolicy, InteractionService } from '../../../src/surfaces/interactions.js';
import { isLoopbackHost, originRule } from '../../../src/surfaces/origin-rule.js';
import { createWebInbox, startWebInbox } from '../../../src/surfaces/web/server.js';
import { WEB_CHANNEL } from '../../../src/surfaces/web/surface.js';
import { setSpec, spec, uniqueProject } from '../../support/store.js';
import { RecordingLogger } from '../slack/harness.js';
import { type StackOptions, startWebStack, type WebStack } from './support.js';

const open: { stop: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.stop();
});

async function stack(options: StackOptions = {}): Promise<WebStack> {
  const started = await startWebStack({ bridge: false, ...options });
  open.push(started);
  return started;
}

interface Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/** One HTTP request with full control of the headers (fetch would not let a test set `Host`). */
function send(
  s: WebStack,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: s.web.port,
        path,
        method: options.method ?? 'GET',
        headers: { host: `127.0.0.1:${s.web.port}`, ...options.headers },
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
    req.end(options.body);
  });
}

function postJson(s: WebStack, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return send(s, path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${s.web.port}`, ...headers },
    body: JSON.stringify(body),
  });
}

async function parked(s: WebStack, overrides: Parameters<typeof spec>[0] = {}, project = uniqueProject('web')) {
  const question = await s.store.park(project, spec(overrides));
  return { project, id: question.id, ref: formatQuestionRef(project, question.id) };
}

describe('pages', () => {
  it('GIVEN pending questions THEN GET / renders them with a strict CSP, and /inbox renders the filtered fragment', async () => {
    const s = await stack();
    await parked(s, { question: 'Which cache <b>layer</b>?', isBlocking: true });
    await parked(s, { question: 'Which queue?' });
    const page = await send(s, '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.text).toContain('Which cache &lt;b&gt;layer&lt;/b&gt;?');
    expect(page.text).toContain('answering as <strong>Ada</strong>');

    const fragment = await send(s, '/inbox?filter=blocking');
    expect(fragment.status).toBe(200);
    expect(fragment.text).not.toContain('<html');
    expect(fragment.text).toContain('Which cache');
    expect(fragment.text).not.toContain('Which queue?');
  });

  it('GIVEN the assets THEN the script and stylesheet are served with their types', async () => {
    const s = await stack();
    const script = await send(s, '/assets/inbox.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.text).toContain('EventSource');
    expect((await send(s, '/assets/inbox.css')).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('GIVEN a path that is not the inbox’s THEN handle returns false and leaves the response alone', async () => {
    const s = await stack();
    expect((await send(s, '/healthz')).status).toBe(404); // startWebInbox's own fallback
    const inbox = createWebInbox({ interactions: s.interactions, surface: s.surface });
    const untouched = { writeHead: () => expect.fail('written'), end: () => expect.fail('ended') };
    for (const url of ['/healthz', '/slack/events', '/api/other', '/inbox/x']) {
      expect(inbox.handle({ url, method: 'GET', headers: {} } as never, untouched as never)).toBe(false);
    }
  });

  it('GIVEN the store unreachable THEN the page says so with 503, and actions answer 503 JSON', async () => {
    const s = await stack();
    const down = new Proxy(s.store, {
      get(target, name, receiver) {
        if (name === 'knownProjects' || name === 'projectByTag') {
          return () => Promise.reject(new StoreUnavailableError());
        }
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
    const page = await fetch(`${web.url}/`);
    expect(page.status).toBe(503);
    expect(await page.text()).toBe('The ask-later store is unreachable; try again in a moment.');
    const action = await fetch(`${web.url}/api/remove`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ref: 'AAAAAAAAAAAAAAAA.1' }),
    });
    expect(action.status).toBe(503);
    expect(await action.json()).toEqual({
      ok: false,
      text: 'The ask-later store is unreachable; try again in a moment.',
    });
  });

  it('GIVEN the wrong method THEN 405 with Allow', async () => {
    const s = await stack();
    const reply = await send(s, '/api/send');
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('POST');
    expect((await send(s, '/', { method: 'POST' })).status).toBe(405);
  });

  it('GIVEN closed questions THEN recent ones show with their state and old ones are left out', async () => {
    let now = Date.now();
    const s = await stack({ now: () => now, recentMs: 60_000 });
    const { project, id } = await parked(s, { question: 'Old enough?' });
    await s.store.cancel(project, id);
    expect((await send(s, '/inbox')).text).toContain('data-status="cancelled"');
    now += 120_000;
    expect((await send(s, '/inbox')).text).not.toContain('Old enough?');
  });
});

describe('actions', () => {
  it('GIVEN a pick and notes THEN the draft is kept; Send answers; a second Send is told who answered', async () => {
    const s = await stack();
    const { project, id, ref } = await parked(s);
    const picked = await postJson(s, '/api/draft', { ref, pick: { choices: [], other: true } });
    expect(JSON.parse(picked.text)).toEqual({ ok: true, text: '', readiness: 'needs-note' });
    const noted = await postJson(s, '/api/draft', { ref, notes: 'DynamoDB, it is there already' });
    expect(JSON.parse(noted.text)).toMatchObject({ ok: true, readiness: 'ready' });
    expect((await send(s, '/inbox')).text).toContain('DynamoDB, it is there already</textarea>');

    const sent = await postJson(s, '/api/send', { ref, pick: { choices: [1], other: false } });
    expect(JSON.parse(sent.text)).toEqual({ ok: true, text: `Sent: SQLite (#${id}).` });
    expect((await s.store.get(project, id))?.answer).toMatchObject({
      choices: ['SQLite'],
      notes: 'DynamoDB, it is there already',
      by: { platform: 'web', userId: 'local', displayName: 'Ada' },
    });
    const again = JSON.parse((await postJson(s, '/api/send', { ref })).text);
    expect(again).toMatchObject({ ok: false, refusal: 'already-answered' });
    expect(again.text).toMatch(new RegExp(`^#${id} was already answered by Ada on the web inbox at .+: SQLite\\.$`));
  });

  it('GIVEN ready and unready questions THEN send-ready sends only what shows ready', async () => {
    const s = await stack();
    const project = uniqueProject('batch');
    const recommended = await parked(s, {}, project);
    const other = await parked(s, {}, project);
    const { recommended: _none, ...plain } = spec();
    const bare = await s.store.park(project, plain);
    await postJson(s, '/api/draft', { ref: other.ref, pick: { choices: [], other: true } });
    const reply = JSON.parse(
      (
        await postJson(s, '/api/send-ready', {
          refs: [recommended.ref, other.ref, formatQuestionRef(project, bare.id)],
        })
      ).text,
    );
    expect(reply).toMatchObject({ ok: true, text: `Sent 1 answer: #${recommended.id}.`, sent: 1 });
    expect((await s.store.get(project, recommended.id))?.status).toBe('answered');
    expect((await s.store.get(project, other.id))?.status).toBe('pending');
    expect((await s.store.get(project, bare.id))?.status).toBe('pending');
    expect(JSON.parse((await postJson(s, '/api/send-ready', { refs: [other.ref] })).text)).toMatchObject({
      ok: false,
      text: 'Nothing sent: no answer shown is ready.',
      sent: 0,
    });
  });

  it('GIVEN Remove THEN the question is dismissed by the web person', async () => {
    const s = await stack();
    const { project, id, ref } = await parked(s);
    expect(JSON.parse((await postJson(s, '/api/remove', { ref })).text)).toEqual({
      ok: true,
      text: `Removed #${id}; the agent will be told.`,
    });
    expect((await s.store.get(project, id))?.closure?.by).toEqual({
      platform: 'web',
      userId: 'local',
      displayName: 'Ada',
    });
  });

  it.each([
    ['an option index past the options', { ref: 'x', pick: { choices: [9], other: false } }, 400],
    ['a pick of the wrong shape', { ref: 'x', pick: { choices: ['Postgres'], other: false } }, 400],
    ['notes over the limit', { ref: 'x', notes: 'n'.repeat(3001) }, 400],
  ])('GIVEN %s THEN 400 with a reason and nothing changes', async (_, body, status) => {
    const s = await stack();
    const { project, id, ref } = await parked(s);
    const reply = await postJson(s, '/api/draft', { ...body, ref });
    expect(reply.status).toBe(status);
    expect(JSON.parse(reply.text)).toMatchObject({ ok: false });
    expect(await s.store.getDraft(project, id, { platform: 'web', userId: 'local' })).toBeUndefined();
  });

  it('GIVEN notes over the limit THEN the reason says the limit', async () => {
    const s = await stack();
    const { ref } = await parked(s);
    const reply = await postJson(s, '/api/draft', { ref, notes: 'n'.repeat(3001) });
    expect(JSON.parse(reply.text).text).toBe('Notes can be at most 3000 characters.');
  });

  it('GIVEN an unknown ref THEN the service’s refusal comes back', async () => {
    const s = await stack();
    const reply = JSON.parse((await postJson(s, '/api/send', { ref: 'AAAAAAAAAAAAAAAA.1' })).text);
    expect(reply).toEqual({ ok: false, refusal: 'unknown', text: 'This question no longer exists.' });
  });

  it('GIVEN actions THEN the log has routes and outcomes but no question, answer or note text', async () => {
    const logger = new RecordingLogger();
    const s = await stack({ logger });
    const { ref } = await parked(s, { question: 'Secret plan question?' });
    await postJson(s, '/api/draft', { ref, notes: 'secret note text' });
    await postJson(s, '/api/send', { ref });
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(logger.text()).not.toMatch(/Secret plan|secret note|Postgres/);
  });
});

describe('protection', () => {
  it.each([
    ['a cross-site Origin', 'https://evil.example'],
    ['a null Origin', 'null'],
  ])('GIVEN a POST with %s THEN 403 by the rule of every entry point and nothing changes', async (_, origin) => {
    const s = await stack();
    const { project, id, ref } = await parked(s);
    const reply = await postJson(s, '/api/send', { ref }, { origin });
    expect(reply.status).toBe(403);
    expect(reply.text).toMatch(/^Refused: a page of another site may not call serve/);
    expect((await s.store.get(project, id))?.status).toBe('pending');
  });

  it.each([
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site' }],
  ])('GIVEN a POST with %s THEN 403 and nothing changes', async (_, headers) => {
    const s = await stack();
    const { project, id, ref } = await parked(s);
    const reply = await postJson(s, '/api/send', { ref }, headers);
    expect(reply.status).toBe(403);
    expect(JSON.parse(reply.text)).toEqual({ ok: false, text: 'Only the inbox page itself can do that.' });
    expect((await s.store.get(project, id))?.status).toBe('pending');
  });

  it('GIVEN a POST that is not JSON (what a cross-site form can send) THEN 415 and nothing changes', async () => {
    const s = await stack();
    const { project, id, ref } = await parked(s);
    const reply = await send(s, '/api/send', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ ref }),
    });
    expect(reply.status).toBe(415);
    expect((await s.store.get(project, id))?.status).toBe('pending');
  });

  it('GIVEN a POST without Origin from a non-browser client THEN it is accepted (it is JSON and same host)', async () => {
    const s = await stack();
    const { ref } = await parked(s);
    const reply = await send(s, '/api/send', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ref }),
    });
    expect(JSON.parse(reply.text)).toMatchObject({ ok: true });
  });

  it('GIVEN a Host that is not loopback (DNS rebinding) THEN every route answers 403; loopback names are served', async () => {
    const s = await stack();
    await parked(s, { question: 'Private?' });
    for (const path of ['/', '/inbox', '/events', '/assets/inbox.js']) {
      const reply = await send(s, path, { headers: { host: `evil.example:${s.web.port}` } });
      expect(reply.status, path).toBe(403);
      expect(reply.text).not.toContain('Private?');
    }
    for (const host of [`localhost:${s.web.port}`, `127.0.0.1:${s.web.port}`, `[::1]:${s.web.port}`]) {
      expect((await send(s, '/inbox', { headers: { host } })).status, host).toBe(200);
    }
    // A foreign page's Origin is refused on a loopback Host too (a GET included).
    const foreign = await send(s, '/inbox', { headers: { origin: 'http://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.text).not.toContain('Private?');
    expect(isLoopbackHost('127.0.0.1.evil.example')).toBe(false);
    expect(isLoopbackHost('localhost.evil.example:80')).toBe(false);
    expect(isLoopbackHost(undefined)).toBe(false);
  });
});

describe('the token', () => {
  const TOKEN = 'correct horse battery staple';

  it('GIVEN a token THEN nothing is served without it; the sign-in form sets a session cookie that works', async () => {
    const s = await stack({ token: TOKEN });
    await parked(s, { question: 'Behind the token?' });
    const anonymous = await send(s, '/');
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).toContain('<form method="post" action="/login">');
    expect(anonymous.text).not.toContain('Behind the token?');
    for (const path of ['/inbox', '/events']) expect((await send(s, path)).status, path).toBe(401);
    expect((await postJson(s, '/api/send', { ref: 'AAAAAAAAAAAAAAAA.1' })).status).toBe(401);
    // The assets hold no data; the sign-in page needs its stylesheet.
    expect((await send(s, '/assets/inbox.css')).status).toBe(200);

    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const wrong = await send(s, '/login', { method: 'POST', headers: form, body: 'token=guess' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const right = await send(s, '/login', {
      method: 'POST',
      headers: form,
      body: new URLSearchParams({ token: TOKEN }).toString(),
    });
    expect(right.status).toBe(303);
    expect(right.headers.location).toBe('/');
    const cookie = right.headers['set-cookie']?.[0] ?? '';
    expect(cookie).toMatch(/^ask_later_session=[A-Za-z0-9_-]+; Path=\/; HttpOnly; SameSite=Strict$/);
    expect(cookie).not.toContain(encodeURIComponent(TOKEN).slice(0, 8));
    expect(cookie).not.toContain('horse');

    const session = cookie.split(';')[0] ?? '';
    const signedIn = await send(s, '/', { headers: { cookie: session } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.text).toContain('Behind the token?');
    expect((await send(s, '/inbox', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    expect((await send(s, '/inbox', { headers: { cookie: 'ask_later_session=forged' } })).status).toBe(401);
  });

  it('GIVEN a token and a public URL THEN its host and IP addresses are served, only with the token; any other name is 403 even with it', async () => {
    const s = await stack({ token: TOKEN, origins: originRule({ publicUrl: 'https://inbox.example.com' }) });
    const bearer = { authorization: `Bearer ${TOKEN}` };
    for (const host of ['inbox.example.com', 'Inbox.Example.com:443', `10.0.0.7:${s.web.port}`, '[fd00::7]:7420']) {
      expect((await send(s, '/inbox', { headers: { host } })).status, host).toBe(401);
      expect((await send(s, '/inbox', { headers: { host, ...bearer } })).status, host).toBe(200);
    }
    const rebound = await send(s, '/inbox', { headers: { host: `inbox.lan:${s.web.port}`, ...bearer } });
    expect(rebound.status).toBe(403);
    expect(rebound.text).toContain('ASK_LATER_PUBLIC_URL');
    // A page of the public origin may call it; one of another site may not.
    const fromPublic = { host: 'inbox.example.com', origin: 'https://inbox.example.com', ...bearer };
    expect((await send(s, '/inbox', { headers: fromPublic })).status).toBe(200);
    const foreign = { host: 'inbox.example.com', origin: 'https://evil.example', ...bearer };
    expect((await send(s, '/inbox', { headers: foreign })).status).toBe(403);
  });
});

describe('server-sent events', () => {
  /** Open /events and collect what arrives. */
  function listen(s: WebStack): Promise<{ text: () => string; close: () => void; headers: IncomingHttpHeaders }> {
    return new Promise((resolve, reject) => {
      let text = '';
      const req = httpRequest(
        { host: '127.0.0.1', port: s.web.port, path: '/events', headers: { host: `127.0.0.1:${s.web.port}` } },
        (res) => {
          res.setEncoding('utf8').on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('error', () => undefined);
          resolve({ text: () => text, close: () => req.destroy(), headers: res.headers });
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  it('GIVEN an open stream and the bridge THEN a parked question and its answer each send its ref', async () => {
    const s = await stack({ bridge: true });
    const stream = await listen(s);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    await expect.poll(() => stream.text()).toContain(': connected');
    const { project, id, ref } = await parked(s);
    await expect.poll(() => stream.text()).toContain(`data: ${ref}\n\n`);
    const before = stream.text().length;
    await s.interactions.send(ref, { platform: 'slack', userId: 'U1', displayName: 'Bob' }, { channel: 'CTEAM' });
    await expect.poll(() => stream.text().slice(before)).toContain(`data: ${ref}\n\n`);
    expect((await s.store.get(project, id))?.status).toBe('answered');
    stream.close();
    await expect.poll(() => s.surface.listenerCount).toBe(0);
  });

  it('GIVEN a quiet stream THEN heartbeats keep it open; stopping the inbox ends it', async () => {
    const s = await stack({ heartbeatMs: 30 });
    const stream = await listen(s);
    await expect.poll(() => (stream.text().match(/: ping\n\n/g) ?? []).length).toBeGreaterThanOrEqual(2);
    expect(s.surface.listenerCount).toBe(1);
    s.web.inbox.close();
    await expect.poll(() => s.surface.listenerCount).toBe(0);
  });
});

describe('the inbox a page at a time', () => {
  /** The refs of the waiting cards a page shows, in order. */
  const waitingRefs = (text: string): string[] => {
    const start = text.indexOf('id="pending"');
    const ends = [text.indexOf('class="pager"', start), text.indexOf('id="closed"', start), text.length];
    const pending = text.slice(start, Math.min(...ends.filter((end) => end >= 0)));
    return [...pending.matchAll(/<article class="card[^"]*" id="[^"]+" data-ref="([^"]+)"/g)].map((m) => m[1] ?? '');
  };

  it('GIVEN 120 waiting over three projects THEN a page shows 50 with every count, Next reads the next 50, and the project and blocking filters narrow both', async () => {
    const s = await stack();
    const projects = [uniqueProject('alpha'), uniqueProject('beta'), uniqueProject('gamma')];
    const parked: { project: string; id: number; isBlocking: boolean }[] = [];
    for (let n = 0; n < 120; n += 1) {
      const project = projects[n % 3] ?? '';
      const isBlocking = n % 4 === 0;
      const q = await s.store.park(project, spec({ isBlocking, question: `Question ${n}?` }));
      parked.push({ project, id: q.id, isBlocking });
    }
    const blocking = parked.filter((q) => q.isBlocking).length;

    const first = await send(s, '/inbox');
    expect(first.status).toBe(200);
    expect(waitingRefs(first.text)).toHaveLength(50);
    expect(first.text).toContain(`All <span class="count">120</span>`);
    expect(first.text).toContain(`Blocking <span class="count">${blocking}</span>`);
    expect(first.text).toContain('<option value="">All projects (120)</option>');
    expect(first.text).toContain('<span class="page-of">1–50 of 120</span>');
    // Blocking first: the first page opens with every blocking question.
    const refs = waitingRefs(first.text);
    const blockingRefs = new Set(parked.filter((q) => q.isBlocking).map((q) => formatQuestionRef(q.project, q.id)));
    expect(refs.slice(0, blocking).every((ref) => blockingRefs.has(ref))).toBe(true);
    // "Send N": the ready answers of this page (every card shows its recommendation preselected).
    expect(first.text).toContain('data-count="50"');

    const next = /href="(\?after=[^"]+)" data-page="next"/.exec(first.text)?.[1]?.replaceAll('&amp;', '&');
    expect(next).toBe(`?after=${refs.at(-1)}`);
    const second = await send(s, `/inbox${next}`);
    const secondRefs = waitingRefs(second.text);
    expect(secondRefs).toHaveLength(50);
    expect(secondRefs.filter((ref) => refs.includes(ref))).toEqual([]);
    expect(second.text).toContain('<span class="page-of">51–100 of 120</span>');

    const tag = projectTag(projects[1] ?? '');
    const narrowed = await send(s, `/inbox?filter=blocking&project=${tag}`);
    const beta = parked.filter((q) => q.project === projects[1]);
    expect(waitingRefs(narrowed.text)).toEqual(
      beta.filter((q) => q.isBlocking).map((q) => formatQuestionRef(q.project, q.id)),
    );
    expect(narrowed.text).toContain(`All <span class="count">${beta.length}</span>`);
    expect(narrowed.text).not.toContain('class="pager"');
  });

  it('GIVEN a page whose questions get answered THEN the same page reads the ones after it, and Send N sends only what it was given', async () => {
    const s = await stack();
    const project = uniqueProject('shop');
    for (let n = 0; n < 60; n += 1) await s.store.park(project, spec({ question: `Question ${n}?` }));
    const page = await send(s, '/inbox');
    const refs = waitingRefs(page.text);
    const sent = await postJson(s, '/api/send-ready', { refs: refs.slice(0, 3) });
    expect(JSON.parse(sent.text)).toMatchObject({ sent: 3 });
    const counts = await s.store.countAcross([project]);
    expect(counts.get(project)).toMatchObject({ canWait: 57, answered: 3 });
    const again = waitingRefs((await send(s, '/inbox')).text);
    expect(again.slice(0, 47)).toEqual(refs.slice(3));
    expect(again).toHaveLength(50);
  });
});

describe('sets and the richer answers', () => {
  const web = { platform: 'web', userId: 'local' } as const;

  async function parkedSet(s: WebStack, project = uniqueProject('set')) {
    const question = await s.store.park(project, setSpec());
    return { project, id: question.id, ref: formatQuestionRef(project, question.id) };
  }

  const json = async (reply: Promise<Reply>) => JSON.parse((await reply).text);

  it('GIVEN a set THEN drafts are kept per member, notes per option by the option’s index, and the inbox shows one card with its marks', async () => {
    const s = await stack();
    const { project, id, ref } = await parkedSet(s);
    expect(await json(postJson(s, '/api/draft', { ref, member: 2, pick: { choices: [], other: true } }))).toEqual({
      ok: true,
      text: '',
      readiness: 'needs-note',
    });
    expect(await json(postJson(s, '/api/draft', { ref, member: 2, notes: 'payments' }))).toMatchObject({
      readiness: 'ready',
    });
    expect(
      await json(
        postJson(s, '/api/draft', {
          ref,
          member: 1,
          pick: { choices: [0], other: false },
          choiceNotes: [{ choice: 0, notes: 'Shared across pods' }],
        }),
      ),
    ).toMatchObject({ ok: true, readiness: 'ready' });
    expect(await s.store.getDraft(project, id, web, 1)).toMatchObject({
      choices: ['Redis'],
      choiceNotes: [{ choice: 'Redis', notes: 'Shared across pods' }],
    });
    expect(await s.store.getDraft(project, id, web, 2)).toMatchObject({ choices: [], other: true, notes: 'payments' });
    expect(await s.store.getDraft(project, id, web, 0)).toBeUndefined();

    const inbox = (await send(s, '/inbox')).text;
    expect(inbox.match(/<article /g)).toHaveLength(1);
    expect(inbox).toContain('All <span class="count">1</span>');
    expect(inbox).toContain('<span class="set-progress ready-ready">3 of 3 ready</span>');
    expect(inbox).toContain('>Shared across pods</textarea>');
    expect(inbox).toContain('>payments</textarea>');
    expect(inbox).toContain('>Send 1 answer</button>');
  });

  it('GIVEN a set not all ready THEN review and Send refuse naming the members, nothing is sent; once all are ready the review lists each and Send sends the whole set once', async () => {
    const s = await stack();
    const { project, id, ref } = await parkedSet(s);
    const refused = await json(postJson(s, '/api/review', { ref }));
    expect(refused).toMatchObject({
      ok: true,
      ready: false,
      text: 'Not sent: every question of the set must be ready first. Naming needs a pick.',
    });
    expect(refused.lines.map((line: { readiness: string }) => line.readiness)).toEqual(['ready', 'ready', 'pick-one']);
    expect(await json(postJson(s, '/api/send', { ref }))).toEqual({
      ok: false,
      refusal: 'not-ready',
      text: 'Not sent: every question of the set must be ready first. Naming needs a pick.',
    });
    await postJson(s, '/api/draft', { ref, member: 2, pick: { choices: [], other: true } });
    expect((await json(postJson(s, '/api/send', { ref }))).text).toBe(
      'Not sent: every question of the set must be ready first. Naming needs a note (Other).',
    );
    expect((await s.store.get(project, id))?.status).toBe('pending');

    await postJson(s, '/api/draft', { ref, member: 2, notes: 'payments' });
    await postJson(s, '/api/draft', { ref, member: 1, choiceNotes: [{ choice: 1, notes: 'per pod' }] });
    // What the page shows picked goes with it (the draft of Caches still holds the recommendation).
    const picks = [{ choices: [1], other: false }, { choices: [0, 1], other: false }, null];
    const review = await json(postJson(s, '/api/review', { ref, picks }));
    expect(review).toEqual({
      ok: true,
      ready: true,
      text: '',
      summary: 'Database: SQLite · Caches: Redis, In-process · Naming: Other',
      lines: [
        { ref: `#${id}.1`, topic: 'Database', answer: 'SQLite', readiness: 'ready' },
        { ref: `#${id}.2`, topic: 'Caches', answer: 'Redis, In-process', readiness: 'ready' },
        { ref: `#${id}.3`, topic: 'Naming', answer: 'Other', readiness: 'ready' },
      ],
    });
    expect(await json(postJson(s, '/api/send', { ref, picks }))).toEqual({
      ok: true,
      text: `Sent: Database: SQLite · Caches: Redis, In-process · Naming: Other (#${id}).`,
    });
    const answered = await s.store.get(project, id);
    expect(answered?.answer).toEqual({
      members: [
        { choices: ['SQLite'], other: false },
        { choices: ['Redis', 'In-process'], other: false, choiceNotes: [{ choice: 'In-process', notes: 'per pod' }] },
        { choices: [], other: true, notes: 'payments' },
      ],
      by: { platform: 'web', userId: 'local', displayName: 'Ada' },
      at: expect.any(Number),
    });
    const again = await json(postJson(s, '/api/send', { ref, picks }));
    expect(again).toMatchObject({ ok: false, refusal: 'already-answered' });
    expect((await json(postJson(s, '/api/review', { ref }))).refusal).toBe('already-answered');
    const inbox = (await send(s, '/inbox')).text;
    expect(inbox).toContain('<blockquote class="choice-note">per pod</blockquote>');
  });

  it('GIVEN Send N with a ready set, an unready set and a ready single question THEN the ready set is sent whole and counted once', async () => {
    const s = await stack();
    const project = uniqueProject('batch');
    const ready = await parkedSet(s, project);
    const unready = await parkedSet(s, project);
    const single = await parked(s, {}, project);
    await postJson(s, '/api/draft', { ref: ready.ref, member: 2, pick: { choices: [1], other: false } });
    const reply = await json(postJson(s, '/api/send-ready', { refs: [ready.ref, unready.ref, single.ref] }));
    expect(reply).toMatchObject({ ok: true, text: `Sent 2 answers: #${ready.id}, #${single.id}.`, sent: 2 });
    expect(selectionsOf((await s.store.get(project, ready.id))?.answer ?? { members: [] })).toEqual([
      { choices: ['Postgres'], other: false },
      { choices: ['Redis', 'In-process'], other: false },
      { choices: ['ledger'], other: false },
    ]);
    expect((await s.store.get(project, unready.id))?.status).toBe('pending');
    expect((await s.store.get(project, single.id))?.status).toBe('answered');
  });

  it.each([
    [
      'no member for a set',
      { pick: { choices: [0], other: false } },
      'Say which question of the set; reload the page.',
    ],
    ['a member the set does not have', { member: 3, pick: { choices: [0], other: false } }, 'Say which question'],
    ['a member past the largest set', { member: 4, notes: 'x' }, 'not one the inbox understands'],
    ['an option the member does not have', { member: 0, pick: { choices: [2], other: false } }, 'not one of'],
    [
      'notes for an option the member does not have',
      { member: 1, choiceNotes: [{ choice: 3, notes: 'x' }] },
      'not one of',
    ],
    [
      'notes per option over the limit',
      { member: 1, choiceNotes: [{ choice: 0, notes: 'n'.repeat(3001) }] },
      'at most 3000',
    ],
  ])('GIVEN a set and a draft with %s THEN 400 with a reason and no draft', async (_, body, reason) => {
    const s = await stack();
    const { project, id, ref } = await parkedSet(s);
    const reply = await postJson(s, '/api/draft', { ref, ...body });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.text)).toMatchObject({ ok: false, text: expect.stringContaining(reason) });
    for (const member of [0, 1, 2]) expect(await s.store.getDraft(project, id, web, member)).toBeUndefined();
  });

  it('GIVEN a single question THEN a member is refused (400), and notes per option on a single-select are the service’s refusal', async () => {
    const s = await stack();
    const { project, id, ref } = await parked(s);
    const member = await postJson(s, '/api/draft', { ref, member: 0, notes: 'x' });
    expect(member.status).toBe(400);
    expect(JSON.parse(member.text).text).toBe('That question is not a set; reload the page.');
    const perOption = await json(postJson(s, '/api/draft', { ref, choiceNotes: [{ choice: 0, notes: 'x' }] }));
    expect(perOption).toMatchObject({ ok: false, refusal: 'invalid' });
    expect(await s.store.getDraft(project, id, web)).toBeUndefined();
    const tooMany = await postJson(s, '/api/send', { ref, picks: [null, { choices: [0], other: false }] });
    expect(tooMany.status).toBe(400);
    expect((await s.store.get(project, id))?.status).toBe('pending');
  });

  it('GIVEN a multi-select single question THEN notes per option are kept and sent with it', async () => {
    const s = await stack();
    const { project, id, ref } = await parked(s, { multiSelect: true, recommended: ['Postgres', 'SQLite'] });
    await postJson(s, '/api/draft', { ref, choiceNotes: [{ choice: 1, notes: 'tests only' }] });
    expect(await json(postJson(s, '/api/send', { ref, pick: { choices: [0, 1], other: false } }))).toMatchObject({
      ok: true,
    });
    expect((await s.store.get(project, id))?.answer).toMatchObject({
      choices: ['Postgres', 'SQLite'],
      choiceNotes: [{ choice: 'SQLite', notes: 'tests only' }],
    });
  });

  it('GIVEN set actions THEN the log has routes and outcomes but no topic, question, answer or note text', async () => {
    const logger = new RecordingLogger();
    const s = await stack({ logger });
    const { ref } = await parkedSet(s);
    await postJson(s, '/api/draft', { ref, member: 1, choiceNotes: [{ choice: 0, notes: 'secret per-option note' }] });
    await postJson(s, '/api/draft', { ref, member: 2, pick: { choices: [], other: true } });
    await postJson(s, '/api/draft', { ref, member: 2, notes: 'secret note text' });
    await postJson(s, '/api/review', { ref });
    await postJson(s, '/api/send', { ref });
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(logger.text()).not.toMatch(/secret|Naming|Caches|Redis|billing/);
  });
});
