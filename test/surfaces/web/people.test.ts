/**
 * The web inbox for a team: people sign in with a token of their own (`ask-later token create --web`) beside the
 * shared one, against the test Redis. Each sees, hears of and answers only the projects their token reaches, under
 * the token's name; a forged, revoked, agents-only or expired token is refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runToken } from '../../../src/commands/token/run.js';
import { silentLogger } from '../../../src/core/logger.js';
import { formatQuestionRef } from '../../../src/core/question-ref.js';
import { hashToken, newToken } from '../../../src/core/token-format.js';
import { startServe } from '../../../src/serve/run.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import type { TokenRecord } from '../../../src/store/token-port.js';
import { spec, uniqueProject } from '../../support/store.js';
import { startWebStack, type WebStack } from './support.js';

const SHARED = 'the shared secret of this machine';

const open: { stop: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.stop();
});

interface Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

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

function postJson(s: WebStack, path: string, body: unknown, cookie: string): Promise<Reply> {
  return send(s, path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${s.web.port}`, cookie },
    body: JSON.stringify(body),
  });
}

/** Sign in through the form; the `Cookie` header to send afterwards, or the refusal page. */
async function signIn(s: WebStack, token: string): Promise<Reply & { cookie: string }> {
  const reply = await send(s, '/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }).toString(),
  });
  return { ...reply, cookie: (reply.headers['set-cookie']?.[0] ?? '').split(';')[0] ?? '' };
}

/** Open /events with `headers` and collect what arrives. */
function listen(
  s: WebStack,
  headers: Record<string, string>,
): Promise<{ status: number; text: () => string; ended: () => boolean }> {
  return new Promise((resolve, reject) => {
    let text = '';
    let ended = false;
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: s.web.port,
        path: '/events',
        headers: { host: `127.0.0.1:${s.web.port}`, ...headers },
      },
      (res) => {
        res.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('error', () => undefined);
        res.on('end', () => {
          ended = true;
        });
        resolve({ status: res.statusCode ?? 0, text: () => text, ended: () => ended });
      },
    );
    req.on('error', reject);
    open.push({ stop: async () => void req.destroy() });
    req.end();
  });
}

/** A token kept in the stack's store, as `ask-later token create` keeps it; the token itself. */
async function createToken(s: WebStack, record: Omit<TokenRecord, 'id' | 'hash' | 'createdAt'>): Promise<string> {
  const { token, id } = newToken();
  expect(await s.store.tokens().create({ ...record, id, hash: hashToken(token), createdAt: Date.now() })).toBe(true);
  return token;
}

/** The stack with people's sign-in, two projects under one team folder, and alice's and bob's tokens. */
async function team() {
  // A short heartbeat: a person's stream checks their sign-in again at each one.
  const s = await startWebStack({ token: SHARED, people: true, heartbeatMs: 50 });
  open.push(s);
  const base = uniqueProject('team');
  const shop = `${base}/shop/api`;
  const docs = `${base}/docs/site`;
  const alice = await createToken(s, { name: 'alice', patterns: [`${base}/shop/*`], web: true });
  const bob = await createToken(s, { name: 'bob', patterns: [`${base}/docs/**`], web: true });
  return { s, shop, docs, alice, bob };
}

async function park(s: WebStack, project: string, question: string) {
  const parked = await s.store.park(project, spec({ question, isBlocking: true }));
  return { id: parked.id, ref: formatQuestionRef(project, parked.id) };
}

describe("people's own tokens in the web inbox", () => {
  it('GIVEN alice and bob signed in with tokens for two project patterns THEN each page shows, and each stream tells, only their own projects', async () => {
    const { s, shop, docs, alice, bob } = await team();
    const aliceIn = await signIn(s, alice);
    expect(aliceIn.status).toBe(303);
    expect(aliceIn.headers['set-cookie']?.[0]).toMatch(
      /^ask_later_session=[a-z2-7]{12}\.[A-Za-z0-9_-]+; Path=\/; HttpOnly; SameSite=Strict$/,
    );
    expect(aliceIn.cookie).not.toContain(alice.slice(17));
    const bobIn = await signIn(s, bob);
    expect(bobIn.status).toBe(303);

    const aliceStream = await listen(s, { cookie: aliceIn.cookie });
    const bobStream = await listen(s, { authorization: `Bearer ${bob}` });
    expect([aliceStream.status, bobStream.status]).toEqual([200, 200]);
    await expect.poll(() => aliceStream.text()).toContain(': connected');
    await expect.poll(() => bobStream.text()).toContain(': connected');

    // One tail tells every stream in order: what each hears after the other's question proves it was not told of it.
    const docsQuestion = await park(s, docs, 'Which docs generator?');
    const shopQuestion = await park(s, shop, 'Which payment provider?');
    const laterDocs = await park(s, docs, 'Which docs host?');
    await expect.poll(() => aliceStream.text()).toContain(`data: ${shopQuestion.ref}\n\n`);
    await expect.poll(() => bobStream.text()).toContain(`data: ${laterDocs.ref}\n\n`);
    expect(aliceStream.text()).not.toContain(docsQuestion.ref);
    expect(bobStream.text()).toContain(`data: ${docsQuestion.ref}\n\n`);
    expect(bobStream.text()).not.toContain(shopQuestion.ref);
    // A blocking question just parked: the event the page notifies on, in their stream only.
    expect(aliceStream.text()).toContain(`event: blocking\ndata: {"ref":"${shopQuestion.ref}","project":"api"}\n\n`);

    const alicePage = await send(s, '/', { headers: { cookie: aliceIn.cookie } });
    expect(alicePage.status).toBe(200);
    expect(alicePage.text).toContain('Which payment provider?');
    expect(alicePage.text).not.toContain('Which docs generator?');
    expect(alicePage.text).toContain('answering as <strong>alice</strong>');
    expect(alicePage.text).toContain('<title>(1 blocking · 1) ask-later inbox</title>');
    const bobPage = await send(s, '/inbox', { headers: { cookie: bobIn.cookie } });
    expect(bobPage.text).toContain('Which docs generator?');
    expect(bobPage.text).not.toContain('Which payment provider?');
    expect(bobPage.text).toContain('data-waiting="2" data-blocking="2"');
    // The machine's own person, with the shared token, sees both.
    const shared = await send(s, '/inbox', { headers: { authorization: `Bearer ${SHARED}` } });
    expect(shared.text).toContain('Which docs generator?');
    expect(shared.text).toContain('Which payment provider?');
  });

  it("GIVEN alice signed in THEN her actions on bob's questions are refused as unknown and change nothing; her own answer is recorded under her token's name, and the trail names her", async () => {
    const { s, shop, docs, alice, bob } = await team();
    const aliceIn = await signIn(s, alice);
    const bobIn = await signIn(s, bob);
    const theirs = await park(s, docs, 'Which docs generator?');
    const hers = await park(s, shop, 'Which payment provider?');

    for (const [path, body] of [
      ['/api/send', { ref: theirs.ref }],
      ['/api/remove', { ref: theirs.ref }],
      ['/api/review', { ref: theirs.ref }],
      // An option the question does not have reads the same as any other: nothing about it leaks.
      ['/api/draft', { ref: theirs.ref, pick: { choices: [5], other: false } }],
      ['/api/draft', { ref: theirs.ref, notes: 'mine now' }],
    ] as const) {
      const refused = await postJson(s, path, body, aliceIn.cookie);
      expect([path, refused.status, JSON.parse(refused.text)]).toEqual([
        path,
        200,
        { ok: false, text: 'This question no longer exists.', refusal: 'unknown' },
      ]);
    }
    const batch = JSON.parse((await postJson(s, '/api/send-ready', { refs: [theirs.ref] }, aliceIn.cookie)).text);
    expect(batch).toMatchObject({ ok: false, sent: 0 });
    expect((await s.store.get(docs, theirs.id))?.status).toBe('pending');

    const sent = await postJson(s, '/api/send', { ref: hers.ref }, aliceIn.cookie);
    expect(JSON.parse(sent.text)).toMatchObject({ ok: true });
    const answered = await s.store.get(shop, hers.id);
    expect(answered?.answer?.by).toEqual({ platform: 'web', userId: 'alice', displayName: 'alice' });
    const trail = await send(s, '/answered', { headers: { cookie: aliceIn.cookie } });
    expect(trail.text).toContain('Answered by <strong>alice</strong>');
    expect(trail.text).toContain('Which payment provider?');
    // Bob's trail holds only his projects' decisions: not alice's answer.
    expect((await send(s, '/answered', { headers: { cookie: bobIn.cookie } })).text).not.toContain(
      'Which payment provider?',
    );
  });

  it('GIVEN a forged, an agents-only or an expired token THEN sign-in is refused, saying why, with no cookie; a revoked token ends its sessions and open streams', async () => {
    const { s, shop, alice } = await team();
    await park(s, shop, 'Which payment provider?');
    const forged = `${alice.slice(0, 17)}${'A'.repeat(43)}`;
    const agentOnly = await createToken(s, { name: 'ci', patterns: ['**'] });
    const expired = await createToken(s, { name: 'old', patterns: ['**'], web: true, expiresAt: 1 });
    for (const [token, reason] of [
      [forged, 'That token is not one this inbox accepts: it is unknown, or it was revoked.'],
      ['alt_not-even-a-token', 'That token is not one this inbox accepts: it is unknown, or it was revoked.'],
      [agentOnly, 'That token is for agents only.'],
      [expired, 'That token expired on 1970-01-01'],
    ] as const) {
      const refused = await signIn(s, token);
      expect([refused.status, refused.headers['set-cookie']]).toEqual([401, undefined]);
      expect(refused.text).toContain(reason);
      expect(refused.text).not.toContain('Which payment provider?');
      expect((await send(s, '/inbox', { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    }
    // A session cookie made up for alice's token id is refused too.
    const aliceIn = await signIn(s, alice);
    const [id] = aliceIn.cookie.slice('ask_later_session='.length).split('.');
    expect((await send(s, '/', { headers: { cookie: `ask_later_session=${id}.forged` } })).status).toBe(401);

    expect((await send(s, '/', { headers: { cookie: aliceIn.cookie } })).status).toBe(200);
    const stream = await listen(s, { cookie: aliceIn.cookie });
    await expect.poll(() => stream.text()).toContain(': ping');
    expect(stream.ended()).toBe(false);
    expect(await s.store.tokens().revoke('alice')).toBeDefined();
    await expect.poll(() => stream.ended(), { message: 'the open stream ends at the next heartbeat' }).toBe(true);
    const page = await send(s, '/', { headers: { cookie: aliceIn.cookie } });
    expect(page.status).toBe(401);
    expect(page.text).toContain('<form method="post" action="/login">');
    expect(page.text).not.toContain('Which payment provider?');
    expect((await send(s, '/events', { headers: { cookie: aliceIn.cookie } })).status).toBe(401);
    expect((await postJson(s, '/api/send', { ref: 'AAAAAAAAAAAAAAAA.1' }, aliceIn.cookie)).status).toBe(401);
    expect((await signIn(s, alice)).status).toBe(401);
  });
});

describe("people's own tokens in serve", () => {
  it('GIVEN serve with a shared token and a person’s token made by `ask-later token create --web` THEN the person signs in, sees only their project and answers under the token’s name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'al-people-'));
    open.push({ stop: async () => rmSync(dir, { recursive: true, force: true }) });
    const path = join(dir, 'inbox.db');
    const base = uniqueProject('serve');
    let printed = '';
    const code = await runToken(
      { ASK_LATER_DB: path },
      ['create', '--name', 'carol', '--projects', `${base}/shop`, '--web'],
      {
        stdout: {
          write: (text: string) => {
            printed += text;
          },
        },
        stderr: { write: () => true },
      },
    );
    expect(code).toBe(0);
    const serve = await startServe(
      { store: { kind: 'sqlite', path }, port: 0, host: '127.0.0.1', routes: [], webToken: SHARED },
      { logger: silentLogger, sweepMs: 0, bridge: { blockMs: 50, retryBaseMs: 10 } },
    );
    open.push(serve);
    const store = await openSqliteStore({ path });
    open.push({ stop: () => store.close() });
    const mine = await store.park(`${base}/shop`, spec({ question: 'Which payment provider?' }));
    await store.park(`${base}/docs`, spec({ question: 'Which docs generator?' }));

    const signedIn = await fetch(`${serve.url}login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: printed.trim() }).toString(),
      redirect: 'manual',
    });
    expect(signedIn.status).toBe(303);
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const page = await (await fetch(serve.url, { headers: { cookie } })).text();
    expect(page).toContain('answering as <strong>carol</strong>');
    expect(page).toContain('Which payment provider?');
    expect(page).not.toContain('Which docs generator?');
    const sent = await fetch(`${serve.url}api/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ ref: formatQuestionRef(`${base}/shop`, mine.id) }),
    });
    expect(await sent.json()).toMatchObject({ ok: true });
    expect((await store.get(`${base}/shop`, mine.id))?.answer?.by).toEqual({
      platform: 'web',
      userId: 'carol',
      displayName: 'carol',
    });
  });
});
