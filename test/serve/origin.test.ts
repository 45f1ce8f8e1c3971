/**
 * Host and Origin on every HTTP entry point of serve (`/mcp`, `/agent/v1/*`, `/metrics`, the web inbox), by the one
 * rule of `surfaces/origin-rule.ts`: a rebinding `Host` or a foreign `Origin` is 403 even with a valid token; loopback
 * names, IP addresses and the host of ASK_LATER_PUBLIC_URL are answered; `/healthz` answers any Host.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ServeHandle, startServe } from '../../src/serve/run.js';
import type { Store } from '../../src/store/port.js';
import { createToken } from '../support/agent-api.js';
import { openTestStore, uniquePrefix, uniqueProject } from '../support/store.js';
import { RecordingLogger } from '../surfaces/slack/harness.js';

const prefix = uniquePrefix();
const project = uniqueProject('origin');
let store: Store;
let serve: ServeHandle;
let token: string;

beforeAll(async () => {
  store = await openTestStore({ prefix });
  serve = await startServe(
    {
      store: { kind: 'redis', url: inject('redisUrl'), prefix },
      port: 0,
      host: '127.0.0.1',
      routes: [],
      publicUrl: 'https://ask-later.example.com',
    },
    { logger: new RecordingLogger(), sweepMs: 0, bridge: { blockMs: 50 } },
  );
  token = await createToken(store, 'origin', [project]);
});
afterAll(async () => {
  await serve.stop();
  await store.close();
});

interface Reply {
  readonly status: number;
  readonly text: string;
}

/** One request to serve with full control of the headers (fetch would not let a test set `Host`). */
function call(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: serve.port, method, path, headers: { host: `127.0.0.1:${serve.port}`, ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'origin-test', version: '1.0.0' } },
});

/** Each entry point as an agent (or a scraper) calls it, with a valid token. */
const ENTRY_POINTS: readonly {
  readonly name: string;
  readonly send: (headers: Record<string, string>) => Promise<Reply>;
}[] = [
  {
    name: 'POST /mcp',
    send: (headers) =>
      call(
        'POST',
        '/mcp',
        {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        INITIALIZE,
      ),
  },
  {
    name: 'POST /agent/v1/ping',
    send: (headers) =>
      call(
        'POST',
        '/agent/v1/ping',
        { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
        '{}',
      ),
  },
  { name: 'GET /metrics', send: (headers) => call('GET', '/metrics', headers) },
  { name: 'GET / (the web inbox)', send: (headers) => call('GET', '/', headers) },
];

describe('Host and Origin on every entry point', () => {
  it.each(ENTRY_POINTS)('GIVEN $name with a rebinding Host and its Origin THEN 403 despite the token', async ({
    send,
  }) => {
    const reply = await send({ host: 'evil.example.com', origin: 'http://evil.example.com' });
    expect(reply.status).toBe(403);
    expect(reply.text).toContain('ASK_LATER_PUBLIC_URL');
  });

  it.each(ENTRY_POINTS)('GIVEN $name from a foreign page on a loopback Host THEN 403 despite the token', async ({
    send,
  }) => {
    const reply = await send({ origin: 'http://evil.example.com' });
    expect(reply.status).toBe(403);
    expect(reply.text).toContain('a page of another site may not call serve');
  });

  it.each(ENTRY_POINTS)('GIVEN $name on a loopback name, an IP address or the public host THEN it is answered', async ({
    send,
  }) => {
    for (const headers of [
      {},
      { host: `localhost:${serve.port}`, origin: `http://localhost:${serve.port}` },
      { host: `10.1.2.3:${serve.port}` },
      { host: 'ask-later.example.com', origin: 'https://ask-later.example.com' },
    ]) {
      expect((await send(headers)).status, JSON.stringify(headers)).toBe(200);
    }
  });

  it('GIVEN /healthz with any Host THEN it is answered (load balancers call it by address or by any name)', async () => {
    for (const host of ['evil.example.com', 'lb.internal:7420', `127.0.0.1:${serve.port}`]) {
      expect((await call('GET', '/healthz', { host })).status, host).toBe(200);
    }
  });

  it('GIVEN the agent API refusing a host THEN its error names the code host-refused, apart from a project refused', async () => {
    const reply = await call(
      'POST',
      '/agent/v1/ping',
      { authorization: `Bearer ${token}`, 'content-type': 'application/json', host: 'evil.example.com' },
      '{}',
    );
    expect(JSON.parse(reply.text)).toMatchObject({ error: { code: 'host-refused' } });
  });
});
