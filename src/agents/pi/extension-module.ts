/**
 * The pi extension `ask-later setup pi` writes (a TypeScript module pi loads with jiti, no build step). It stays
 * thin: it starts `ask-later agent-bridge` (agents/bridge/run.ts: the store, the claims, the waiters, the tools) once
 * per pi process, in pi's working directory, and turns pi's events into the bridge's requests:
 *
 * - the MCP server's tools (`ask_later`, `get_answer`, …), registered with their JSON Schemas as setup found them
 *   and answered by the bridge's `call` (the same code as the MCP server);
 * - `tool_call` of a tool shaped like pi-question's `question`: parked (`park-question`) and blocked with the
 *   receipt, so no terminal dialog waits for the person;
 * - `before_agent_start` (a prompt): the outcomes waiting join it as a message from ask-later, then are confirmed;
 * - `tool_result`: blocking outcomes are appended to the result, then confirmed;
 * - `agent_end` arms the session's waiter; a wake collects the outcomes and sends them with `sendMessage(…,
 *   {deliverAs: "followUp", triggerTurn: true})`, framed as a notification from ask-later, never as the person's words;
 * - `ctx.ui.setStatus("ask-later", …)` while questions wait.
 *
 * Any failure leaves pi as it would be without ask-later: each call to the bridge gives up after 15 seconds.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** The first line of the file: how setup and doctor recognise an extension they wrote. */
export const EXTENSION_MARKER = '// ask-later extension for pi, written by `ask-later setup pi`.';

/** The file's name in pi's `extensions/` folder. */
export const EXTENSION_FILE = 'ask-later.ts';

/** The extension's text: `node` and `cli` run the bridge (`<node> <cli> agent-bridge`); `tools` are registered. */
export function extensionModule(node: string, cli: string, tools: readonly Tool[]): string {
  const listed = tools.map((tool) => ({
    name: tool.name,
    label: tool.title ?? tool.name,
    description: tool.description,
    parameters: tool.inputSchema,
  }));
  return `${EXTENSION_MARKER}
// It is rewritten by setup and deleted by \`ask-later setup pi --remove\`: do not edit it.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const NODE = ${JSON.stringify(node)};
const CLI = ${JSON.stringify(cli)};
const TOOLS = ${JSON.stringify(listed)};
// A busy machine may take seconds; a reply that comes too late is dropped and its claim lapses (it comes again).
const CALL_TIMEOUT_MS = 15_000;
const TOOL_TIMEOUT_MS = 11 * 60_000;

export default function askLater(pi: any) {
  let bridge: any;
  let nextId = 0;
  const pending = new Map<number, (reply: any) => void>();
  let sessionId = 'pi-' + process.pid + '-' + Date.now().toString(36);
  let lastCtx: any;

  const start = () => {
    const child = spawn(NODE, [CLI, 'agent-bridge'], { cwd: process.cwd(), stdio: ['pipe', 'pipe', 'pipe'] });
    child.on('error', () => undefined);
    child.stdin.on('error', () => undefined);
    child.on('exit', () => {
      if (bridge === child) bridge = undefined;
      for (const [id, done] of pending) (pending.delete(id), done(undefined));
    });
    createInterface({ input: child.stderr }).on('line', (line: string) => process.stderr.write(line + '\\n'));
    createInterface({ input: child.stdout }).on('line', (line: string) => {
      let message: any;
      try {
        message = JSON.parse(line);
      } catch {
        return;
      }
      if (message.push) void onPush(message);
      else if (pending.has(message.id)) (pending.get(message.id)!(message), pending.delete(message.id));
    });
    // The bridge ends with pi: its stdin closes when this process exits.
    child.unref();
    (child.stdin as any).unref?.();
    (child.stdout as any).unref?.();
    (child.stderr as any).unref?.();
    return child;
  };
  const send = (message: Record<string, unknown>) => {
    bridge = bridge ?? start();
    bridge.stdin.write(JSON.stringify(message) + '\\n');
  };
  const call = (op: string, fields: Record<string, unknown>, timeoutMs = CALL_TIMEOUT_MS): Promise<any> =>
    new Promise((resolve) => {
      const id = ++nextId;
      const timer = setTimeout(() => (pending.delete(id), resolve(undefined)), timeoutMs);
      pending.set(id, (reply) => (clearTimeout(timer), resolve(reply)));
      send({ id, op, ...fields });
    });

  const showStatus = async (ctx: any) => {
    if (!ctx?.hasUI) return;
    const reply = await call('status', {});
    ctx.ui.setStatus('ask-later', reply?.text ?? undefined);
  };

  async function onPush(message: any) {
    if (message.push !== 'wake') return;
    const reply = await call('collect', { for: 'prompt', sessionID: sessionId, messageID: 'wake-' + Date.now() });
    if (!reply?.text) return;
    pi.sendMessage(
      { customType: 'ask-later', content: message.text + '\\n\\n' + reply.text, display: true },
      { deliverAs: 'followUp', triggerTurn: true },
    );
    send({ op: 'confirm', claim: reply.claim });
  }

  for (const tool of TOOLS) {
    pi.registerTool({
      ...tool,
      async execute(_toolCallId: string, params: unknown) {
        const reply = await call('call', { name: tool.name, args: params }, TOOL_TIMEOUT_MS);
        const result = reply?.result ?? { content: [{ type: 'text', text: 'ask-later did not answer; try again.' }], isError: true };
        const text = (result.content ?? []).map((part: any) => part.text ?? '').join('\\n');
        if (result.isError) throw new Error(text);
        return { content: [{ type: 'text', text }], details: result.structuredContent };
      },
    });
  }

  pi.on('session_start', async (_event: any, ctx: any) => {
    lastCtx = ctx;
    const id = ctx?.sessionManager?.getSessionId?.();
    if (typeof id === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(id)) sessionId = id;
    await showStatus(ctx);
  });

  pi.on('tool_call', async (event: any) => {
    if (TOOLS.some((tool) => tool.name === event.toolName)) return;
    const questions = event.input?.questions;
    if (!Array.isArray(questions) || !questions.every((q: any) => typeof q?.prompt === 'string')) return;
    const reply = await call('park-question', { input: event.input });
    if (!reply?.text) return;
    return { block: true, reason: reply.text };
  });

  pi.on('before_agent_start', async (event: any, ctx: any) => {
    lastCtx = ctx;
    const reply = await call('collect', { for: 'prompt', sessionID: sessionId, messageID: 'prompt-' + Date.now() });
    if (!reply?.text) return;
    send({ op: 'confirm', claim: reply.claim });
    return { message: { customType: 'ask-later', content: reply.text, display: true } };
  });

  pi.on('tool_result', async (event: any) => {
    if (TOOLS.some((tool) => tool.name === event.toolName)) return;
    const reply = await call('collect', { for: 'tool', sessionID: sessionId, tool: event.toolName });
    if (!reply?.text) return;
    send({ op: 'confirm', claim: reply.claim });
    return { content: [...(event.content ?? []), { type: 'text', text: reply.text }] };
  });

  pi.on('agent_end', async (_event: any, ctx: any) => {
    lastCtx = ctx ?? lastCtx;
    send({ op: 'idle', sessionID: sessionId });
    await showStatus(lastCtx);
  });
}
`;
}
