/**
 * Serve's agent API on port 0 over a given store, without the rest of serve (the contract suite and the scope tests),
 * and tokens for it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '../../src/core/logger.js';
import { hashToken, newToken } from '../../src/core/token-format.js';
import { createAuthenticator } from '../../src/serve/api/auth.js';
import { createMcpEndpoint } from '../../src/serve/api/mcp.js';
import { createAgentApi } from '../../src/serve/api/server.js';
import type { Store } from '../../src/store/port.js';

export interface AgentApiServer {
  readonly url: string;
  /** Every request's path, in order of arrival (`/agent/v1/wait`, `/mcp`). */
  readonly requests: string[];
  readonly server: Server;
  close(): Promise<void>;
}

export async function startAgentApi(store: Store): Promise<AgentApiServer> {
  const auth = createAuthenticator(store.tokens());
  const api = createAgentApi({ store, auth, logger: silentLogger });
  const mcp = createMcpEndpoint({ store, auth, logger: silentLogger, progressIntervalMs: 100 });
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push((request.url ?? '').split('?')[0] ?? '');
    if (api.handle(request, response) || mcp.handle(request, response)) return;
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    server,
    close: async () => {
      api.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A token kept in `store` reaching `patterns`; returns the token itself. */
export async function createToken(store: Store, name: string, patterns: readonly string[]): Promise<string> {
  const { token, id } = newToken();
  const created = await store.tokens().create({ id, name, hash: hashToken(token), patterns, createdAt: Date.now() });
  if (!created) throw new Error(`token ${name} exists`);
  return token;
}
