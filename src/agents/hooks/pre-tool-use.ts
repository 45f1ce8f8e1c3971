/**
 * `ask-later hook` run as a `PreToolUse` hook (by-hand setups and Claude Code before 2.1.118, whose hooks can only
 * run commands; Codex): Claude Code's own question tools, captured as the plugin's `mcp_tool` hook does (see
 * `agents/claude-code/capture.ts`), and Codex's `request_user_input` (`agents/codex/capture.ts`). Loaded by `run.ts` only for that event. Its bound is its own, not the prompt's:
 * a `wait:<seconds>` capture holds the call that long (the hook's `timeout` in settings must allow it).
 */
import { resolve } from 'node:path';
import { loadAgentConfig } from '../../config/agent.js';
import { openStore } from '../../store/open.js';
import type { AgentStore } from '../../store/port.js';
import { capture } from '../claude-code/capture.js';
import { sessionStateDir } from '../claude-code/session-file.js';
import { captureRequestUserInput } from '../codex/capture.js';
import { REQUEST_USER_INPUT } from '../codex/request-user-input.js';
import { HookIoError } from './hook-io-error.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Time for everything but the wait itself: the store, the transcript, the reply. */
const WORK_MS = 8000;

/** The fields of a `PreToolUse` payload the capture reads, each a string ('' when absent). */
function fieldsOf(payload: Record<string, unknown>) {
  const text = (key: string) => (typeof payload[key] === 'string' ? (payload[key] as string) : '');
  return {
    toolName: text('tool_name'),
    toolInput: payload.tool_input,
    toolUseId: text('tool_use_id'),
    transcriptPath: text('transcript_path'),
    sessionId: text('session_id'),
  };
}

/**
 * Capture the call in `payload` and write Claude Code's answer with `write`. Throws only for a payload that is not
 * a PreToolUse call or settings that are wrong (the caller's stderr line; the call then goes to the dialog).
 */
export async function capturePreToolUse(
  payload: Record<string, unknown>,
  env: Env,
  cwd: string,
  write: (output: string) => Promise<void>,
): Promise<void> {
  const request = fieldsOf(payload);
  if (request.toolName === '') throw new HookIoError('the PreToolUse JSON has no "tool_name"');
  const session = typeof payload.cwd === 'string' && payload.cwd.trim() !== '' ? resolve(cwd, payload.cwd) : cwd;
  const config = loadAgentConfig(env, session);
  const bound = new AbortController();
  const timer = setTimeout(
    () => bound.abort(),
    WORK_MS + (config.capture.kind === 'wait' ? config.capture.seconds * 1000 : 0),
  );
  let opened: Promise<AgentStore> | undefined;
  const store = () => {
    opened ??= openStore(config.store, { connection: 'minimal' });
    return opened;
  };
  const inbox =
    config.store.kind === 'sqlite'
      ? 'the web inbox of ask-later serve on this machine'
      : "the team's ask-later inbox (Slack, Discord or the web inbox, as routed)";
  try {
    const decision =
      request.toolName === REQUEST_USER_INPUT
        ? await captureRequestUserInput(request.toolInput, {
            store,
            project: config.project,
            mode: config.capture,
            inbox,
          })
        : await capture(request, {
            store,
            project: config.project,
            mode: config.capture,
            inbox,
            stateDir: sessionStateDir(env),
            signal: bound.signal,
          });
    let sent = false;
    try {
      await write(decision.output);
      sent = true;
    } finally {
      await decision.afterResponse?.(sent).catch(() => undefined);
    }
  } finally {
    clearTimeout(timer);
    await (await opened?.catch(() => undefined))?.close();
  }
}
