/**
 * What the plugin's prompt hook costs ask-later itself, apart from Claude Code: `collect_answers` as the hook calls
 * it (a typed prompt, nothing due: the turn's lease seized and an empty claim), through the real MCP server and
 * client over the SDK's in-memory transport, on the given store. Prints p50 and p99 of the round trip.
 */

import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from '../dist/agents/mcp/index.js';

export async function measurePromptHook(store, runs) {
  const server = createMcpServer({
    project: `bench-prompt-${process.pid}`,
    store: async () => store,
    version: 'bench',
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientSide);
  await client.listTools();
  const times = [];
  for (let i = 0; i < runs + 50; i++) {
    const started = performance.now();
    await client.callTool({
      name: 'collect_answers',
      arguments: { for: 'UserPromptSubmit', prompt: 'go on', source: '', session_id: `s${i % 7}`, prompt_id: `p${i}` },
    });
    if (i >= 50) times.push(performance.now() - started);
  }
  await client.close();
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)], p99: times[Math.floor(times.length * 0.99)] };
}
