/**
 * `capture_question`: the plugin's `PreToolUse` hook (an `mcp_tool` hook, no process started) hands it Claude Code's
 * own question calls (`AskUserQuestion`, `ExitPlanMode`); it parks them and answers with the hook JSON Claude Code
 * reads (see `agents/claude-code/capture.ts`). Not for the model: `ask_later` is its way to park a question.
 */
import { z } from 'zod';
import type { CaptureMode } from '../../config/agent.js';
import { type CaptureRequest, capture } from '../claude-code/capture.js';
import { argsObject, errorResult, type ToolDefinition, textResult } from './tool.js';

const FIELDS = ['tool_name', 'tool_input', 'tool_use_id', 'transcript_path', 'session_id'] as const;

export interface CaptureToolOptions {
  readonly mode: CaptureMode;
  /** Where the person answers, as the model is told. */
  readonly inbox: string;
  /** Where the session's plans are remembered. */
  readonly stateDir: string;
}

/** The hook's templated fields (each a string; a missing one arrives as ""), or a reason they are wrong. */
function readRequest(args: unknown): CaptureRequest | string {
  const object = argsObject(args);
  if (!object) return 'capture_question takes the hook’s fields as an object';
  const extra = Object.keys(object).filter((key) => !(FIELDS as readonly string[]).includes(key));
  if (extra.length > 0) return `capture_question takes ${FIELDS.join(', ')}; got ${extra.slice(0, 5).join(', ')}`;
  for (const field of FIELDS) {
    if (typeof object[field] !== 'string') {
      return `Expected \`${field}\` to be a string (set by ask-later's PreToolUse hook), got ${object[field] === null ? 'null' : typeof object[field]}`;
    }
  }
  return {
    toolName: object.tool_name as string,
    toolInput: object.tool_input,
    toolUseId: object.tool_use_id as string,
    transcriptPath: object.transcript_path as string,
    sessionId: object.session_id as string,
  };
}

export function captureQuestionTool(options: CaptureToolOptions): ToolDefinition {
  const field = z.string().describe('Set by ask-later’s PreToolUse hook.');
  return {
    name: 'capture_question',
    title: 'Park a question asked with AskUserQuestion (hook only)',
    description:
      "Used by ask-later's PreToolUse hook when you call AskUserQuestion or ExitPlanMode: it parks that question in " +
      "the person's inbox. Do not call it yourself; to park a question, call ask_later.",
    inputSchema: z.strictObject({
      tool_name: field,
      tool_input: field,
      tool_use_id: field,
      transcript_path: field,
      session_id: field,
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async run(args, context) {
      const request = readRequest(args);
      if (typeof request === 'string') return errorResult(request);
      const decision = await capture(request, {
        store: context.store,
        project: context.project,
        mode: options.mode,
        inbox: options.inbox,
        stateDir: options.stateDir,
        signal: context.signal,
      });
      const settle = decision.afterResponse;
      if (settle) context.afterResponse(settle);
      return textResult(decision.output);
    },
  };
}
