/** What only the HTTP agent store does: long polls repeated to the caller's deadline, and answers that are not serve's. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/logger.js';
import { newToken } from '../../src/core/token-format.js';
import { createAuthenticator } from '../../src/serve/api/auth.js';
import { createAgentApi } from '../../src/serve/api/server.js';
import { AgentApiError } from '../../src/store/http/agent-api-error.js';
import { openHttpStore } from '../../src/store/http/http-store.js';
import type { Store } from '../../src/store/port.js';
import { StoreUnavailableError } from '../../src/store/store-unavailable-error.js';
import { type AgentApiServer, createToken, startAgentApi } from '../support/agent-api.js';
import { openTestStore, person, spec, uniqueProject } from '../support/store.js';

let store: Store;
let api: AgentApiServer;
let token: string;

beforeAll(async () => {
  store = await openTestStore();
  api = await startAgentApi(store);
  token = await createToken(store, 'client', ['**']);
});
afterAll(async () => {
  await api.close();
  await store.close();
});

/** A server that answers every request with `status` and `body`. */
async function answering(
  status: number,
  body: string,
  type = 'application/json',
): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => response.writeHead(status, { 'content-type': type }).end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('the HTTP agent store', () => {
  it('GIVEN serve gone after a call failed THEN whenReady waits, probing, and says reconnected the moment serve answers again (before the step ends)', async () => {
    const gone = await startAgentApi(store);
    const port = Number(new URL(gone.url).port);
    const client = await openHttpStore({ url: gone.url, token, timeoutMs: 2000 });
    expect(await client.whenReady({ timeoutMs: 600_000 })).toBe('ready');
    await gone.close();
    await expect(client.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
    let answered = false;
    const ready = client.whenReady({ timeoutMs: 600_000 }).then((readiness) => {
      answered = true;
      return readiness;
    });
    // Serve back on the same address: the agent API over the same store.
    const back = createAgentApi({ store, auth: createAuthenticator(store.tokens()), logger: silentLogger });
    const server = createServer((request, response) => {
      if (!back.handle(request, response)) response.writeHead(404).end();
    });
    expect(answered).toBe(false);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      expect(await ready).toBe('reconnected');
      expect(await client.whenReady({ timeoutMs: 600_000 })).toBe('ready');
    } finally {
      back.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await client.close();
    }
  });

  it('GIVEN serve holding each poll shorter than the wait THEN the client polls again until the answer lands', async () => {
    const client = await openHttpStore({ url: api.url, token, longPollMs: 50 });
    try {
      const project = uniqueProject('polls');
      await store.park(project, spec());
      const waiting = client.waitWhilePending(project, 1, { timeoutMs: 20_000 });
      const watch = await client.watch(project);
      const changed = watch.changed({ timeoutMs: 20_000 });
      // Several polls of each come and go (each held 50 ms) while nothing happens.
      const polls = (operation: string) => api.requests.filter((path) => path === `/agent/v1/${operation}`).length;
      const before = { wait: polls('wait'), changed: polls('changed') };
      await expect.poll(() => polls('wait') - before.wait).toBeGreaterThanOrEqual(3);
      await expect.poll(() => polls('changed') - before.changed).toBeGreaterThanOrEqual(3);
      await store.answer(project, 1, { choices: ['Postgres'], other: false }, person());
      expect((await waiting)?.status).toBe('answered');
      expect(await changed).toBe(true);
      await watch.close();
    } finally {
      await client.close();
    }
  });

  it('GIVEN a URL answering 200 with something else THEN bad-response; a gateway 502 THEN unavailable', async () => {
    const other = await answering(200, '{"ok":true}');
    const gateway = await answering(502, '<html>Bad Gateway</html>', 'text/html');
    const wrong = await openHttpStore({ url: other.url, token: newToken().token });
    const down = await openHttpStore({ url: gateway.url, token: newToken().token });
    try {
      const refused = wrong.countQuestions('/x');
      await expect(refused).rejects.toBeInstanceOf(AgentApiError);
      await expect(refused).rejects.toMatchObject({ code: 'bad-response' });
      await expect(down.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      await wrong.close();
      await down.close();
      other.server.close();
      gateway.server.close();
    }
  });
});
