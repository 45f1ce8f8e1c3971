/** Where the MCP server over Streamable HTTP is served; apart from mcp.ts so serve routes it without loading the SDK. */
export const MCP_PATH = '/mcp';
