/**
 * The `ask-later` MCP server: its tools (six for the model, one for the capture hook), registered by hand. Tool failures a model can act on are `isError`
 * results (see tool.ts); protocol misuse (an unknown tool name) stays a protocol error.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { CaptureMode, DecidedCheck, DeliveryReach } from '../../config/agent.js';
import type { AgentStore } from '../../store/port.js';
import { askLaterTool } from './ask-later.js';
import { cancelQuestionTool } from './cancel-question.js';
import { captureQuestionTool } from './capture-question.js';
import { collectAnswersTool } from './collect-answers.js';
import { findDecisionsTool } from './find-decisions.js';
import { getAnswerTool } from './get-answer.js';
import { listQuestionsTool } from './list-questions.js';
import { errorResult, type ToolDefinition } from './tool.js';

export const SERVER_NAME = 'ask-later';

export const INSTRUCTIONS =
  'ask-later lets you park a question for the person (ask_later) and carry on; their answer arrives with a later ' +
  'prompt or tool result, marked as coming from ask-later. When a notification says an ask-later answer is ready, ' +
  'call collect_answers. Read delivered answers and notes as the person’s own words.';

export interface McpServerOptions {
  /** The project every tool of this server works in. */
  readonly project: string;
  /** The store, opened on first use (see `lazyStore`). */
  readonly store: () => Promise<AgentStore>;
  readonly version: string;
  /** How often a waiting ask_later reports progress (default 10 s). */
  readonly progressIntervalMs?: number;
  /** When set, every tool call is refused with this line (a setting is missing or wrong). */
  readonly configProblem?: string;
  /** `ASK_LATER_MIDTURN`: which outcomes `collect_answers` carries for a `PostToolUse` hook (default blocking). */
  readonly midturn?: DeliveryReach;
  /** `ASK_LATER_DECIDED`: whether ask_later first looks for decisions taken before (default check). */
  readonly decided?: DecidedCheck;
  /**
   * The agent's own questions (`capture_question`, served only when given: it reads the session's transcript and
   * plan files, so a server on another machine, serve's `/mcp`, has none): what becomes of them, where the person
   * answers, where a session's plans are remembered.
   */
  readonly capture?: { readonly mode: CaptureMode; readonly inbox: string; readonly stateDir: string };
}

/**
 * The SDK's server, telling each tool call's `afterResponse` work when its response was written (the SDK has no
 * hook for outgoing responses, so the transport's `send` is wrapped when it connects).
 */
class AskLaterServer extends Server {
  readonly #afterResponse = new Map<string | number, ((sent: boolean) => Promise<void>)[]>();

  /** Run `work` once the response to `requestId` was written, or with `sent` false when `signal` aborts first. */
  afterResponse(requestId: string | number, work: (sent: boolean) => Promise<void>, signal: AbortSignal): void {
    this.#afterResponse.set(requestId, [...(this.#afterResponse.get(requestId) ?? []), work]);
    // A cancelled request's response is never sent (the SDK drops it): settle its work now.
    const cancelled = () => {
      const pending = this.#afterResponse.get(requestId);
      if (!pending) return;
      this.#afterResponse.delete(requestId);
      for (const each of pending) void each(false).catch(() => undefined);
    };
    if (signal.aborted) cancelled();
    else signal.addEventListener('abort', cancelled, { once: true });
  }

  override async connect(transport: Transport): Promise<void> {
    const send = transport.send.bind(transport);
    transport.send = async (message, options) => {
      const id = 'id' in message && ('result' in message || 'error' in message) ? message.id : undefined;
      const pending = id === undefined ? undefined : this.#afterResponse.get(id);
      if (id === undefined || !pending) return send(message, options);
      this.#afterResponse.delete(id);
      let sent = false;
      try {
        await send(message, options);
        sent = true;
      } finally {
        for (const work of pending) await work(sent).catch(() => undefined);
      }
    };
    return super.connect(transport);
  }
}

function inputJsonSchema(schema: z.ZodObject): Tool['inputSchema'] {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return { ...json, type: 'object' } as Tool['inputSchema'];
}

function outputJsonSchema(schema: z.ZodObject): NonNullable<Tool['outputSchema']> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io: 'output' }) as Record<string, unknown>;
  return { ...json, type: 'object' } as NonNullable<Tool['outputSchema']>;
}

/**
 * The tools for the model, as every agent gets them: the MCP server's, and the agent bridge's for agents without an
 * MCP client (pi). `capture_question` only where the session's files can be read (see {@link McpServerOptions}).
 */
export function agentTools(
  options: Pick<McpServerOptions, 'decided' | 'midturn' | 'capture'>,
): readonly ToolDefinition[] {
  return [
    askLaterTool({ decided: options.decided ?? 'check' }),
    getAnswerTool,
    listQuestionsTool,
    cancelQuestionTool,
    collectAnswersTool({ midturn: options.midturn ?? 'blocking' }),
    findDecisionsTool,
    ...(options.capture === undefined ? [] : [captureQuestionTool(options.capture)]),
  ];
}

/** A tool as `tools/list` shows it (its schemas as JSON Schema). */
export function listedTool(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputJsonSchema(tool.inputSchema),
    ...(tool.outputSchema === undefined ? {} : { outputSchema: outputJsonSchema(tool.outputSchema) }),
    annotations: { title: tool.title, ...tool.annotations },
  };
}

export function createMcpServer(options: McpServerOptions): Server {
  const server = new AskLaterServer(
    { name: SERVER_NAME, version: options.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const tools = agentTools(options);
  const listed: Tool[] = tools.map(listedTool);

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = tools.find((candidate) => candidate.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    if (options.configProblem) return errorResult(`ask-later is not set up: ${options.configProblem}`);
    const progressToken = extra._meta?.progressToken;
    return tool.run(request.params.arguments, {
      store: options.store,
      project: options.project,
      signal: extra.signal,
      progressIntervalMs: options.progressIntervalMs ?? 10_000,
      afterResponse: (work) => server.afterResponse(extra.requestId, work, extra.signal),
      progress: async (progress, total, message) => {
        if (progressToken === undefined) return;
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress, total, message },
        });
      },
    });
  });
  return server;
}

/**
 * A store opened on first use and reopened after a failed open, so a server started while the store is down
 * answers "unreachable" and recovers once it is back. Concurrent first calls share one open.
 */
export function lazyStore(open: () => Promise<AgentStore>): {
  get: () => Promise<AgentStore>;
  close: () => Promise<void>;
} {
  let opening: Promise<AgentStore> | undefined;
  return {
    get: () => {
      opening ??= open().catch((error: unknown) => {
        opening = undefined;
        throw error;
      });
      return opening;
    },
    close: async () => {
      const store = await opening?.catch(() => undefined);
      await store?.close();
    },
  };
}
