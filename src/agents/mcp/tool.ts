/**
 * What every tool file exports, and the results tools return. A tool that fails for a reason the model can act
 * on returns an `isError` result written for the model; it never throws a stack trace, a key name or a secret.
 */
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ProjectRefusedError } from '../../store/http/project-refused-error.js';
import { TokenRefusedError } from '../../store/http/token-refused-error.js';
import type { AgentStore } from '../../store/port.js';
import { SqliteEngineMissingError } from '../../store/sqlite/engine-missing-error.js';
import { StoreUnavailableError } from '../../store/store-unavailable-error.js';

export interface ToolContext {
  /** The store, opened on first use; rejects with StoreUnavailableError while it cannot be reached. */
  readonly store: () => Promise<AgentStore>;
  /** The project of this session: every tool reaches only its questions. */
  readonly project: string;
  /** The session's retry key: a park it repeats (same content, within the window) is the question already stored. */
  readonly session: string;
  /** Aborted when the client cancels the call. */
  readonly signal: AbortSignal;
  /** Reports progress to the client when it asked for it (a progress token); a no-op otherwise. */
  readonly progress: (progress: number, total: number, message: string) => Promise<void>;
  /** How often a long call reports progress (10 s in production; tests make it shorter). */
  readonly progressIntervalMs: number;
  /**
   * Run `work` once this call's response was written to the client (`sent` true), or could not be (false): what
   * may happen only after the result left, such as confirming a delivery. Failures of `work` are swallowed: a
   * delivery left unconfirmed lapses and comes again.
   */
  readonly afterResponse: (work: (sent: boolean) => Promise<void>) => void;
}

export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** The advertised input: converted to JSON Schema for `tools/list`. */
  readonly inputSchema: z.ZodObject;
  /** The advertised structured output, when the tool returns one (every result that is not an error then does). */
  readonly outputSchema?: z.ZodObject;
  readonly annotations: ToolAnnotations;
  /** Validates `args` itself (refusals are `isError` results) and does the work. */
  run(args: unknown, context: ToolContext): Promise<CallToolResult>;
}

export function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * What the model is told when the store stayed away for the whole of the server's wait: an outage is short, so it
 * retries later and works on; never that it should ask in the terminal, which blocks the session (the opposite of
 * the product). A retried `ask_later` is the question already stored if the first one was (`ParkOptions.retryKey`).
 */
export const UNREACHABLE =
  'The ask-later inbox is unreachable right now (its store did not answer for a few seconds), so nothing was done. ' +
  'Carry on with the rest of your work and call this tool again in a minute: for a question, retry ask_later then ' +
  'with the same arguments (a question that was stored after all is not asked twice). Do not ask the person in the ' +
  'terminal instead: they answer in their inbox.';

const unreachableResults = new WeakSet<CallToolResult>();

/** Whether a tool's result is the unreachable-store refusal (the server waits for the store, then runs it again). */
export function isUnreachable(result: CallToolResult): boolean {
  return unreachableResults.has(result);
}

/** Turn what a tool threw into a result for the model: unreachable store, or a plain failure without details. */
export function failureResult(error: unknown): CallToolResult {
  if (error instanceof StoreUnavailableError) {
    const result = errorResult(UNREACHABLE);
    unreachableResults.add(result);
    return result;
  }
  if (error instanceof TokenRefusedError || error instanceof ProjectRefusedError) {
    return errorResult(
      `ask-later refused this session, so nothing was done: ${error.message}. Tell the person (their ask-later token needs changing); if the decision cannot wait, ask them directly.`,
    );
  }
  if (error instanceof SqliteEngineMissingError) {
    return errorResult(
      `ask-later is not set up on this machine yet, so nothing was done: ${error.message}. Tell the person; if the decision cannot wait, ask them directly.`,
    );
  }
  return errorResult('ask-later failed unexpectedly while handling this call; nothing more is known here. Try again.');
}

/**
 * A question id as a model may send it: 7, "7" or "#7".
 */
export const questionIdSchema = z
  .union([z.number(), z.string()])
  .describe('The question id: the number ask_later returned (7, or "#7").');

/** The id, or a refusal reason. */
export function parseQuestionId(value: unknown): number | string {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : undefined;
  const match = text === undefined ? null : /^#?(\d{1,9})$/.exec(text);
  const id = match ? Number(match[1]) : Number.NaN;
  if (Number.isInteger(id) && id >= 1) return id;
  const got = value === undefined ? 'nothing' : JSON.stringify(value)?.slice(0, 40);
  return `Expected \`id\` to be a question id such as 7 or "#7", got ${got}`;
}

/** Keys of `args` that a tool does not know, for a refusal that catches a model's typo. */
export function unknownKeys(args: unknown, known: readonly string[]): string[] {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return [];
  return Object.keys(args).filter((key) => !known.includes(key));
}

export function argsObject(args: unknown): Record<string, unknown> | undefined {
  if (args === undefined) return {};
  return args !== null && typeof args === 'object' && !Array.isArray(args)
    ? (args as Record<string, unknown>)
    : undefined;
}
