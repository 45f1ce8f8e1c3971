/**
 * ask-later's entry in OpenCode's config (`"mcp": {"ask-later": …}`), added and removed as text. Pure.
 *
 * The entry is inserted as one fixed snippet right after the opening brace of `mcp` (or of the file, with `mcp`
 * around it), so removing that same snippet gives back the file byte for byte; when the file was reformatted since,
 * the member alone is cut out. Every other byte (comments, order, spacing) stays as it was. A file that is not JSONC,
 * or whose `mcp` is not an object, is refused with the reason and left alone.
 */
import { isDeepStrictEqual } from 'node:util';
import { type JsoncMember, type JsoncNode, JsoncSyntaxError, parseJsonc, plain } from './jsonc.js';

/** The server's key under `mcp`: OpenCode names its tools `ask-later_<tool>`. */
export const SERVER_KEY = 'ask-later';

/** OpenCode's local MCP server entry. */
export interface McpEntry {
  readonly type: 'local';
  readonly command: readonly string[];
  readonly enabled: true;
}

export type ConfigEdit =
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'write'; readonly text: string }
  /** The file holds nothing but what setup created: remove it. */
  | { readonly kind: 'delete' }
  | { readonly kind: 'refused'; readonly reason: string };

function indented(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
}

const memberText = (entry: unknown) => `"${SERVER_KEY}": ${indented(entry, '    ')}`;
const mcpText = (entry: unknown) => `"mcp": {\n    ${memberText(entry)}\n  }`;

/** The snippets setup may have inserted, longest first: after `mcp`'s brace, or after the file's. */
function snippets(entry: unknown): string[] {
  return [
    `\n  ${mcpText(entry)},`,
    `\n  ${mcpText(entry)}\n`,
    `\n    ${memberText(entry)},`,
    `\n    ${memberText(entry)}\n  `,
  ];
}

/** The whole file setup writes when there is none. */
export function newConfigText(entry: McpEntry): string {
  return `{\n  "$schema": "https://opencode.ai/config.json",\n  ${mcpText(entry)}\n}\n`;
}

type Located = { root: JsoncNode & { kind: 'object' }; mcp?: JsoncMember; server?: JsoncMember } | string;

function locate(text: string): Located {
  let root: JsoncNode;
  try {
    root = parseJsonc(text);
  } catch (error) {
    if (error instanceof JsoncSyntaxError) return `it is not JSON or JSONC (${error.message})`;
    throw error;
  }
  if (root.kind !== 'object') return 'it does not hold a JSON object';
  const mcp = root.members.find((member) => member.key === 'mcp');
  if (mcp === undefined) return { root };
  if (mcp.value.kind !== 'object') return '"mcp" is not an object';
  const server = mcp.value.members.find((member) => member.key === SERVER_KEY);
  return { root, mcp, ...(server === undefined ? {} : { server }) };
}

/** The config with ask-later's MCP server; `text` undefined when the file does not exist. */
export function withAskLater(text: string | undefined, entry: McpEntry): ConfigEdit {
  if (text === undefined || text.trim() === '') return { kind: 'write', text: newConfigText(entry) };
  const found = locate(text);
  if (typeof found === 'string') return { kind: 'refused', reason: found };
  const { root, mcp, server } = found;
  if (server !== undefined) {
    if (isDeepStrictEqual(plain(server.value), entry)) return { kind: 'unchanged' };
    return {
      kind: 'write',
      text: text.slice(0, server.valueStart) + indented(entry, '    ') + text.slice(server.valueEnd),
    };
  }
  if (mcp !== undefined && mcp.value.kind === 'object') {
    const at = mcp.value.start + 1;
    const insert = mcp.value.members.length > 0 ? `\n    ${memberText(entry)},` : `\n    ${memberText(entry)}\n  `;
    return { kind: 'write', text: text.slice(0, at) + insert + text.slice(at) };
  }
  const at = root.start + 1;
  const insert = root.members.length > 0 ? `\n  ${mcpText(entry)},` : `\n  ${mcpText(entry)}\n`;
  return { kind: 'write', text: text.slice(0, at) + insert + text.slice(at) };
}

/** The config without ask-later's MCP server. */
export function withoutAskLater(text: string | undefined): ConfigEdit {
  if (text === undefined) return { kind: 'unchanged' };
  const found = locate(text);
  if (typeof found === 'string') return { kind: 'refused', reason: found };
  const { mcp, server } = found;
  if (server === undefined || mcp === undefined || mcp.value.kind !== 'object') return { kind: 'unchanged' };
  const entry = plain(server.value);
  if (text === newConfigText(entry as McpEntry)) return { kind: 'delete' };
  for (const snippet of snippets(entry)) {
    const at = text.indexOf(snippet);
    if (at >= 0 && text.indexOf(snippet, at + 1) < 0) {
      const next = text.slice(0, at) + text.slice(at + snippet.length);
      const check = locate(next);
      if (typeof check !== 'string' && check.server === undefined) return { kind: 'write', text: next };
    }
  }
  // Reformatted since: cut the member and one comma beside it.
  const members = mcp.value.members;
  const index = members.indexOf(server);
  const following = members[index + 1];
  if (following !== undefined) {
    return { kind: 'write', text: text.slice(0, server.keyStart) + text.slice(following.keyStart) };
  }
  const previous = members[index - 1];
  const from = previous === undefined ? mcp.value.start + 1 : previous.valueEnd;
  return { kind: 'write', text: text.slice(0, from) + text.slice(mcp.value.end - 1) };
}

/** Whether the config has ask-later's MCP server, and its command; a reason when the file cannot be read. */
export function askLaterEntry(text: string): { command: unknown } | undefined | string {
  const found = locate(text);
  if (typeof found === 'string') return found;
  if (found.server === undefined) return undefined;
  const entry = plain(found.server.value) as { command?: unknown } | null;
  return { command: entry?.command };
}
