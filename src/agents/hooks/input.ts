/**
 * What Claude Code sends the `UserPromptSubmit` hook on stdin, read with a size cap and checked by hand (no schema
 * library: this runs before every prompt). Problems are short reasons that never quote the input, which holds the
 * person's prompt.
 */
export { carriesAnswers } from '../../core/typed-prompt.js';

import { HookIoError } from './hook-io-error.js';

/** More than this on stdin is not a hook payload; reading stops there. */
export const STDIN_MAX_BYTES = 1024 * 1024;

/** The fields of the payload the hook acts on; every other field is ignored. */
export interface PromptSubmit {
  readonly prompt: string;
  /** Who produced the prompt (`user`, `sdk`, `system`, `loop_wakeup`, …); undefined when Claude Code did not say. */
  readonly source?: unknown;
  /** The session's working directory, when it is a non-empty string. */
  readonly cwd?: string;
}

/**
 * All of stdin as UTF-8, at most {@link STDIN_MAX_BYTES}. Rejects with `HookIoError` past the cap (and stops
 * reading). The caller bounds the time and destroys the stream when it gives up.
 */
export function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      stdin.removeListener('data', onData);
      stdin.removeListener('end', onEnd);
      stdin.removeListener('error', onError);
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > STDIN_MAX_BYTES) {
        cleanup();
        reject(new HookIoError(`stdin is larger than ${STDIN_MAX_BYTES / 1024 / 1024} MiB`));
        return;
      }
      chunks.push(buffer);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onError = () => {
      cleanup();
      reject(new HookIoError('stdin could not be read'));
    };
    stdin.on('data', onData);
    stdin.once('end', onEnd);
    stdin.once('error', onError);
  });
}

/**
 * The payload, checked: a JSON object with a string `prompt`. `hook_event_name`, when present, must be
 * `UserPromptSubmit` (the hook wired to another event would answer in the wrong shape).
 */
export function parsePromptSubmit(text: string): PromptSubmit {
  if (text.trim() === '') {
    throw new HookIoError('stdin is empty, expected the UserPromptSubmit JSON');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HookIoError('stdin is not JSON, expected the UserPromptSubmit JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HookIoError(
      `stdin is ${Array.isArray(value) ? 'a JSON array' : `JSON ${describe(value)}`}, expected an object`,
    );
  }
  const fields = value as Record<string, unknown>;
  const event = fields.hook_event_name;
  if (event !== undefined && event !== 'UserPromptSubmit') {
    const named = typeof event === 'string' && /^[A-Za-z]{1,40}$/.test(event) ? ` ${event}` : ' another event';
    throw new HookIoError(`it was started for${named}; it only works as a UserPromptSubmit hook`);
  }
  if (typeof fields.prompt !== 'string') {
    throw new HookIoError(`the UserPromptSubmit JSON has no string "prompt" (got ${describe(fields.prompt)})`);
  }
  const cwd = typeof fields.cwd === 'string' && fields.cwd.trim() !== '' ? fields.cwd : undefined;
  return {
    prompt: fields.prompt,
    ...(fields.source === undefined ? {} : { source: fields.source }),
    ...(cwd === undefined ? {} : { cwd }),
  };
}

/**
 * The payload when it is a `PreToolUse` call (a JSON object naming that event), else undefined: the
 * `UserPromptSubmit` path reads it with {@link parsePromptSubmit}, which says what is wrong with it.
 */
export function preToolUsePayload(text: string): Record<string, unknown> | undefined {
  return eventPayload(text, 'PreToolUse');
}

/** A `PermissionRequest` payload (a tool call about to show Claude Code's dialog), or undefined for any other. */
export function permissionRequestPayload(text: string): Record<string, unknown> | undefined {
  return eventPayload(text, 'PermissionRequest');
}

function eventPayload(text: string, event: string): Record<string, unknown> | undefined {
  // Cheap first: a prompt's payload rarely holds the event's name (a prompt that quotes it is parsed below).
  if (!text.includes(`"${event}"`)) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    const fields = value as Record<string, unknown>;
    return fields.hook_event_name === event ? fields : undefined;
  } catch {
    return undefined;
  }
}

/** The fields of a `PostToolUse` payload the hook acts on. */
export interface ToolCallDone {
  /** The tool that ran, as the agent names it (`Bash`, `mcp__ask_later__ask_later`); '' when absent. */
  readonly toolName: string;
  /** Set in a subagent's call (Claude Code); '' in the main agent. */
  readonly agentId: string;
  /** The session's working directory, when it is a non-empty string. */
  readonly cwd?: string;
}

/**
 * The payload when it is a `PostToolUse` call (a JSON object naming that event), else undefined. Agents whose hooks
 * only run commands (Codex) wire `ask-later hook` there: a blocking question's answer joins the tool's result.
 */
export function postToolUsePayload(text: string): ToolCallDone | undefined {
  if (!text.includes('"PostToolUse"')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const fields = value as Record<string, unknown>;
  if (fields.hook_event_name !== 'PostToolUse') return undefined;
  const field = (key: string) => (typeof fields[key] === 'string' ? (fields[key] as string) : '');
  const cwd = field('cwd').trim() === '' ? undefined : field('cwd');
  return { toolName: field('tool_name'), agentId: field('agent_id'), ...(cwd === undefined ? {} : { cwd }) };
}

/** A JSON value's kind, never its content. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  return `a ${typeof value}`;
}
