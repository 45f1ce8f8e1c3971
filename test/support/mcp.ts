/** A real MCP Client connected to the real server over the in-memory transport. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer, type McpServerOptions } from '../../src/agents/mcp/index.js';

export async function connectClient(options: McpServerOptions): Promise<Client> {
  const server = createMcpServer(options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  // Listing the tools makes the SDK client check every later result against its tool's outputSchema (a result
  // without its structured content, or with content that does not match, then fails the call), as clients do.
  await client.listTools();
  return client;
}

/** The text of a tool result (all text blocks joined). */
export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content ?? [];
  return content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

export function isError(result: unknown): boolean {
  return (result as CallToolResult).isError === true;
}
