import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, newToken } from '../../../src/core/token-format.js';
import { openHttpStore } from '../../../src/store/http/http-store.js';
import { ProjectRefusedError } from '../../../src/store/http/project-refused-error.js';
import { TokenRefusedError } from '../../../src/store/http/token-refused-error.js';
import type { Store } from '../../../src/store/port.js';
import { type AgentApiServer, createToken, startAgentApi } from '../../support/agent-api.js';
import { openTestStore, spec, uniquePrefix } from '../../support/store.js';

let store: Store;
let api: AgentApiServer;
const team = `/srv/${uniquePrefix()}`;

beforeAll(async () => {
  store = await openTestStore();
  api = await startAgentApi(store);
});
afterAll(async () => {
  await api.close();
  await store.close();
});

async function call(operation: string, body: unknown, token?: string, init: RequestInit = {}) {
  const response = await fetch(`${api.url}/agent/v1/${operation}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
    ...init,
  });
  return { status: response.status, body: (await response.json()) as { error?: { code: string; message: string } } };
}

describe('token scope', () => {
  it('GIVEN a token for acme/* THEN it reaches acme/api, and another project is 403 with the same answer whether it exists or not', async () => {
    const token = await createToken(store, 'alice-scope', [`${team}/acme/*`]);
    await store.park(`${team}/other/exists`, spec());
    expect((await call('park', { project: `${team}/acme/api`, spec: spec() }, token)).status).toBe(200);
    // The use is recorded (token list shows it).
    await expect.poll(async () => (await store.tokens().get(token.slice(4, 16)))?.lastUsedAt).toBeDefined();

    const existing = await call('list', { project: `${team}/other/exists` }, token);
    const missing = await call('list', { project: `${team}/other/missing` }, token);
    expect(existing.status).toBe(403);
    expect(missing.status).toBe(403);
    expect(existing.body.error?.code).toBe('forbidden');
    // Word for word the same but for the name the caller sent itself.
    expect(existing.body.error?.message.replace('exists', 'X')).toBe(
      missing.body.error?.message.replace('missing', 'X'),
    );
    expect(existing.body.error?.message).toBe(
      `the token "alice-scope" does not reach project "${team}/other/exists" (its patterns: ${team}/acme/*)`,
    );
    // The same through the client: the refusal, and nothing parked in the other project.
    const client = await openHttpStore({ url: api.url, token });
    try {
      await expect(client.park(`${team}/other/exists`, spec())).rejects.toBeInstanceOf(ProjectRefusedError);
      expect((await store.list(`${team}/other/exists`)).length).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('GIVEN patterns with * and ** THEN * stays within one segment and ** reaches any depth', async () => {
    const one = await createToken(store, 'one-level', [`${team}/a/*`]);
    const deep = await createToken(store, 'any-depth', [`${team}/a/**`]);
    const project = `${team}/a/b/c`;
    expect((await call('count', { project: `${team}/a/b` }, one)).status).toBe(200);
    expect((await call('count', { project }, one)).status).toBe(403);
    expect((await call('count', { project }, deep)).status).toBe(200);
    expect((await call('count', { project: `${team}/b/c` }, deep)).status).toBe(403);
  });

  it('GIVEN an expired token THEN 401 saying so; one that expires later THEN it is served', async () => {
    const make = async (name: string, expiresAt: number) => {
      const { token, id } = newToken();
      await store.tokens().create({ id, name, hash: hashToken(token), patterns: ['**'], createdAt: 0, expiresAt });
      return token;
    };
    const expired = await make('expired', Date.UTC(2026, 0, 31));
    const later = await make('later', Date.now() + 60 * 60_000);
    const answer = await call('count', { project: `${team}/x` }, expired);
    expect([answer.status, answer.body.error?.message]).toEqual([
      401,
      'the token expired on 2026-01-31 (ask for a new one: ask-later token create)',
    ]);
    expect((await call('count', { project: `${team}/x` }, later)).status).toBe(200);
  });

  it('GIVEN a missing, malformed, forged or revoked token THEN 401 with one line, and nothing is done', async () => {
    const project = `${team}/acme/401`;
    const token = await createToken(store, 'to-revoke', [`${team}/**`]);
    expect((await call('count', { project }, token)).status).toBe(200);
    await store.tokens().revoke('to-revoke');
    const forged = newToken().token;
    // The right id with another secret.
    const sameId = `${token.slice(0, 17)}${'A'.repeat(43)}`;
    for (const [given, line] of [
      [undefined, 'the Authorization header carries no ask-later token'],
      ['not-a-token', 'the Authorization header carries no ask-later token'],
      [forged, 'the token is unknown or was revoked'],
      [sameId, 'the token is unknown or was revoked'],
      [token, 'the token is unknown or was revoked'],
    ] as const) {
      const answer = await call('park', { project, spec: spec() }, given);
      expect(answer.status).toBe(401);
      expect(answer.body.error?.code).toBe('unauthorized');
      expect(answer.body.error?.message.startsWith(line)).toBe(true);
    }
    expect(await store.list(project)).toEqual([]);
    const client = await openHttpStore({ url: api.url, token });
    try {
      await expect(client.ping()).rejects.toBeInstanceOf(TokenRefusedError);
    } finally {
      await client.close();
    }
  });

  it('GIVEN two tokens THEN their leases are apart: neither renews, releases nor seizes the other’s, nor serve’s own', async () => {
    const a = await openHttpStore({ url: api.url, token: await createToken(store, 'lease-a', ['**']) });
    const b = await openHttpStore({ url: api.url, token: await createToken(store, 'lease-b', ['**']) });
    try {
      expect(await store.acquireLease('sweep', 'serve', 60_000)).toBe(true);
      expect(await a.acquireLease('waiter:s1', 'waiter-a', 60_000)).toBe(true);
      expect(await b.acquireLease('waiter:s1', 'waiter-b', 60_000)).toBe(true);
      await b.seizeLease('waiter:s1', 'turn-b', 60_000);
      await b.releaseLease('waiter:s1', 'waiter-a');
      expect(await a.acquireLease('waiter:s1', 'waiter-a', 60_000)).toBe(true);
      expect(await b.acquireLease('waiter:s1', 'waiter-b', 60_000)).toBe(false); // b's own seize holds b's
      await a.seizeLease('sweep', 'agent', 60_000);
      expect(await store.acquireLease('sweep', 'serve', 60_000)).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('requests the agent API refuses', () => {
  it('GIVEN a bad body, an unknown operation, another method or content type THEN a JSON error with a code and one line', async () => {
    const token = await createToken(store, 'refusals', ['**']);
    const project = `${team}/refusals`;
    const cases = [
      [await call('get', { project, id: 'seven' }, token), 400, 'bad-request', 'id: '],
      [await call('get', { project, id: 1, extra: true }, token), 400, 'bad-request', ''],
      [await call('park', { project, spec: { question: 'x' } }, token), 400, 'bad-request', 'spec: '],
      [await call('steal', {}, token), 404, 'not-found', 'no operation "steal"'],
      [
        await call('get', {}, token, { headers: { authorization: `Bearer ${token}` } }),
        415,
        'unsupported-media-type',
        '',
      ],
      [await call('get', {}, token, { method: 'PUT' }), 405, 'method-not-allowed', 'the agent API takes POST, got PUT'],
    ] as const;
    for (const [answer, status, code, start] of cases) {
      expect([answer.status, answer.body.error?.code]).toEqual([status, code]);
      expect(answer.body.error?.message.startsWith(start)).toBe(true);
      expect(answer.body.error?.message).not.toContain('\n');
    }
    const big = await call('get', { project: 'x'.repeat(300 * 1024), id: 1 }, token);
    expect([big.status, big.body.error?.code]).toEqual([413, 'too-large']);
  });
});
