import { randomUUID } from 'node:crypto';
import { describe } from 'vitest';
import { openHttpStore } from '../../src/store/http/http-store.js';
import type { Store } from '../../src/store/port.js';
import { createToken, startAgentApi } from '../support/agent-api.js';
import { openSqliteTestStore, openTestStore } from '../support/store.js';
import { type AgentContractStores, agentStoreContract } from './agent-store-contract.js';

/** The HTTP client against serve's real agent API, over a real store, with a token reaching every project. */
async function overHttp(full: Store): Promise<AgentContractStores> {
  const api = await startAgentApi(full);
  const token = await createToken(full, `contract-${randomUUID().slice(0, 8)}`, ['**']);
  const agent = await openHttpStore({ url: api.url, token });
  return {
    agent,
    full,
    close: async () => {
      await agent.close();
      await api.close();
      await full.close();
    },
  };
}

describe('HTTP agent store over serve’s agent API on Redis', () =>
  agentStoreContract(async (options) => overHttp(await openTestStore(options))));
describe('HTTP agent store over serve’s agent API on SQLite', () =>
  agentStoreContract(async (options) => overHttp(await openSqliteTestStore(options))));
