/**
 * serve against hostile or careless clients (issue 36's findings): Slack's endpoint answers anything but POST with
 * 405 and refuses requests stamped in the future; a client going away mid-body is a 4xx logged at info, never a 500;
 * `/login` is rate-limited per address; the session cookie is `Secure` behind an https public URL; a sign-out clears
 * it; and no person's name reaches the logs.
 */
import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServeConfig } from '../../src/config/serve.js';
import { formatQuestionRef } from '../../src/core/question-ref.js';
import { hashToken, newToken } from '../../src/core/token-format.js';
import { type ServeHandle, startServe } from '../../src/serve/run.js';
import type { Store } from '../../src/store/port.js';
import { FakeSlackApi } from '../fakes/slack-api.js';
import { openSqliteTestStore, spec, uniqueProject } from '../support/store.js';
import { RecordingLogger } from '../surfaces/slack/harness.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const WEB_TOKEN = 'hostile-test-web-token-0123456789abcdef';
const SECRET = 'hostile-test-signing-secret';

interface Started {
  readonly handle: ServeHandle;
  readonly store: Store;
  readonly logger: RecordingLogger;
  readonly base: string;
}

async function serve(overrides: Partial<ServeConfig> = {}): Promise<Started> {
  const store = await openSqliteTestStore();
  cleanup.push(() => store.close());
  const slack = await new FakeSlackApi().start();
  cleanup.push(() => slack.stop());
  const logger = new RecordingLogger();
  const handle = await startServe(
    {
      store: { kind: 'sqlite', path: '/unused/the-store-is-handed-in.db' },
      port: 0,
      host: '127.0.0.1',
      webToken: WEB_TOKEN,
      slack: { botToken: 'xoxb-1', signingSecret: SECRET, channel: 'C123', apiUrl: slack.url, allowedUsers: [] },
      ...overrides,
    },
    {
      store,
      logger,
      sweepMs: 0,
      botId: 'B1',
      botUserId: 'U0BOT',
      retryConfig: { retries: 0 },
      bridge: { blockMs: 50, retryBaseMs: 5 },
    },
  );
  cleanup.push(() => handle.stop());
  return { handle, store, logger, base: handle.url.replace(/\/$/, '') };
}

/** A person's own web token in the store, named `name`; the token itself. */
async function personToken(store: Store, name: string, patterns: string[]): Promise<string> {
  const { token, id } = newToken();
  expect(
    await store.tokens().create({ name, patterns, web: true, id, hash: hashToken(token), createdAt: Date.now() }),
  ).toBe(true);
  return token;
}

/** An agent's token in the store; the token itself. */
async function agentToken(store: Store, patterns: string[]): Promise<string> {
  const { token, id } = newToken();
  expect(
    await store.tokens().create({ name: 'ci-agent', patterns, id, hash: hashToken(token), createdAt: Date.now() }),
  ).toBe(true);
  return token;
}

/** Send the headers and part of a `length`-byte body, then drop the connection; resolves once it is dropped. */
function abortMidBody(url: string, headers: Record<string, string>, length: number): Promise<void> {
  return new Promise((resolve) => {
    const request = httpRequest(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(length) },
    });
    request.on('error', () => resolve());
    request.on('close', () => resolve());
    request.write('{"project":', () => {
      // Give the server the headers and the first bytes, then go away.
      setImmediate(() => request.destroy());
    });
  });
}

async function metricsText(base: string): Promise<string> {
  const response = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${WEB_TOKEN}` } });
  expect(response.status).toBe(200);
  return response.text();
}

function signedSlackHeaders(body: string, timestampS: number): Record<string, string> {
  const signature = createHmac('sha256', SECRET).update(`v0:${timestampS}:${body}`).digest('hex');
  return {
    'content-type': 'application/x-www-form-urlencoded',
    'x-slack-request-timestamp': String(timestampS),
    'x-slack-signature': `v0=${signature}`,
  };
}

function signIn(base: string, token: string): Promise<Response> {
  return fetch(`${base}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: base,
      'sec-fetch-site': 'same-origin',
    },
    body: new URLSearchParams({ token }).toString(),
  });
}

describe('serve against hostile input', () => {
  it.each([
    'GET',
    'PUT',
    'DELETE',
    'PATCH',
  ])('GIVEN Slack in HTTP mode WHEN /slack/events is sent %s THEN 405 with Allow: POST, logged below error', async (method) => {
    const { base, logger } = await serve();
    const response = await fetch(`${base}/slack/events`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(logger.lines.filter((line) => line.level === 'error')).toEqual([]);
    expect(logger.lines.some((line) => line.message === 'slack: not a POST' && line.level === 'info')).toBe(true);
  });

  it('GIVEN a Slack request correctly signed but stamped ten minutes ahead THEN 401, logged as a warning', async () => {
    const { base, logger } = await serve();
    const body = `payload=${encodeURIComponent(JSON.stringify({ type: 'block_actions' }))}`;
    const ahead = Math.floor(Date.now() / 1000) + 10 * 60;
    const response = await fetch(`${base}/slack/events`, {
      method: 'POST',
      headers: signedSlackHeaders(body, ahead),
      body,
    });
    expect(response.status).toBe(401);
    expect(logger.lines.some((line) => line.message === 'slack: request stamped in the future')).toBe(true);
    expect(logger.lines.filter((line) => line.level === 'error')).toEqual([]);
  });

  it('GIVEN an agent that drops its connection mid-body THEN the call counts as a 400, logged at info, never a 500', async () => {
    const { base, store, logger } = await serve();
    const token = await agentToken(store, ['**']);
    await abortMidBody(
      `${base}/agent/v1/park`,
      { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      4096,
    );
    await expect.poll(() => logger.lines.some((line) => line.message === 'agent api: call')).toBe(true);
    const call = logger.lines.find((line) => line.message === 'agent api: call');
    expect(call?.fields).toMatchObject({ operation: 'park', status: 400 });
    expect(call?.level).toBe('info');
    expect(logger.lines.filter((line) => line.level === 'error')).toEqual([]);
    const metrics = await metricsText(base);
    expect(metrics).toContain('ask_later_agent_requests_total{operation="park",status="400"} 1');
    expect(metrics).not.toContain('status="500"');
  });

  it('GIVEN an agent token for acme/* THEN a project name with control characters is refused on the agent API and /mcp, and nothing is stored', async () => {
    const { base, store } = await serve();
    const token = await agentToken(store, ['acme/*']);
    const hostile = 'acme/\u001b]0;owned\u0007';
    const parked = await fetch(`${base}/agent/v1/park`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ project: hostile, spec: { ...spec(), options: ['Postgres', 'SQLite'] } }),
    });
    expect(parked.status).toBe(400);
    expect(((await parked.json()) as { error: { message: string } }).error.message).toContain(
      'a project name may not hold control characters',
    );
    const mcp = await fetch(`${base}/mcp?project=${encodeURIComponent(hostile)}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(mcp.status).toBe(400);
    expect(await mcp.text()).toContain('U+001B at position 6');
    expect(await store.list(hostile)).toEqual([]);
  });

  it('GIVEN the web inbox WHEN a signed-in page drops its connection mid-body THEN a 4xx logged at info, no warning or error', async () => {
    const { base, logger } = await serve();
    await abortMidBody(
      `${base}/api/draft`,
      { 'content-type': 'application/json', authorization: `Bearer ${WEB_TOKEN}`, origin: base },
      4096,
    );
    await expect.poll(() => logger.lines.some((line) => line.message === 'web inbox: request refused')).toBe(true);
    const refused = logger.lines.find((line) => line.message === 'web inbox: request refused');
    expect(refused?.level).toBe('info');
    expect(refused?.fields).toMatchObject({ status: 400 });
    expect(logger.lines.filter((line) => line.level !== 'info')).toEqual([]);
  });

  it('GIVEN one address guessing tokens THEN after a burst its tries are refused with 429 and Retry-After, and the right token waits too', async () => {
    const { base } = await serve();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await signIn(base, `wrong-${i}`)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    const held = await signIn(base, WEB_TOKEN);
    expect(held.status).toBe(429);
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await held.text()).toContain('Too many sign-in tries');
  });

  it('GIVEN an https ASK_LATER_PUBLIC_URL THEN the session cookie is Secure; over plain http it is not', async () => {
    const secure = await serve({ publicUrl: 'https://inbox.example' });
    const signedIn = await signIn(secure.base, WEB_TOKEN);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict; Secure$/);
    const plain = await serve();
    const plainSignIn = await signIn(plain.base, WEB_TOKEN);
    expect(plainSignIn.status).toBe(303);
    expect(plainSignIn.headers.get('set-cookie')).not.toContain('Secure');
  });

  it('GIVEN a signed-in page THEN it offers a sign-out, which clears the cookie; a cross-site or GET sign-out is refused', async () => {
    const { base } = await serve();
    const signedIn = await signIn(base, WEB_TOKEN);
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const page = await fetch(`${base}/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('action="/logout"');
    expect((await fetch(`${base}/logout`, { headers: { cookie } })).status).toBe(405);
    const foreign = await fetch(`${base}/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(foreign.status).toBe(403);
    const out = await fetch(`${base}/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: base, 'sec-fetch-site': 'same-origin' },
    });
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toMatch(/^ask_later_session=; .*Max-Age=0/);
  });

  it("GIVEN a person signing in with their own token and answering THEN no log line carries the person's name", async () => {
    const { base, store, logger } = await serve();
    const project = uniqueProject('hostile');
    const token = await personToken(store, 'alice-wonderland', [project]);
    const parked = await store.park(project, spec({ isBlocking: true }));
    const signedIn = await signIn(base, token);
    expect(signedIn.status).toBe(303);
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const sent = await fetch(`${base}/api/send`, {
      method: 'POST',
      headers: { cookie, origin: base, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ ref: formatQuestionRef(project, parked.id), pick: { choices: [0], other: false } }),
    });
    expect(sent.status).toBe(200);
    await expect.poll(async () => (await store.get(project, parked.id))?.status).toBe('answered');
    await expect.poll(() => logger.lines.some((line) => line.message === 'answer sent')).toBe(true);
    expect(logger.lines.some((line) => line.message === 'web inbox: signed in')).toBe(true);
    expect(logger.text()).not.toContain('alice');
  });
});
