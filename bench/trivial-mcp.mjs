// The floor of an `mcp_tool` hook in Claude Code: an MCP server whose one tool answers `{}` at once, nothing else.
// bench/claude.mjs wires it as a UserPromptSubmit hook beside the plugin, so the plugin's own part of a prompt's
// cost shows apart from what Claude Code spends on any mcp_tool hook.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 'floor', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: 'nothing', description: 'Answers {} at once.', inputSchema: { type: 'object' } }],
}));
server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: '{}' }] }));
await server.connect(new StdioServerTransport());
