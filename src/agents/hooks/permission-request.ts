/**
 * `ask-later hook` run as Claude Code's `PermissionRequest` hook (the plugin wires it): the permission prompt
 * raced or parked in the inbox (`agents/claude-code/permission.ts`). Loaded by `run.ts` only for that event. Its
 * bound is the race's, not the prompt's: the plugin gives the hook 330 s. Claude Code stops it with SIGTERM when the
 * person presses Esc at the dialog: that aborts the race, which withdraws the inbox copy before the process ends.
 */
import { resolve } from 'node:path';
import { loadAgentConfig } from '../../config/agent.js';
import { openStore } from '../../store/open.js';
import type { AgentStore } from '../../store/port.js';
import { decidePermission } from '../claude-code/permission.js';
import { sessionStateDir } from '../claude-code/session-file.js';
import { HookIoError } from './hook-io-error.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Time for everything but the race itself: the store, the transcript, the reply. */
const WORK_MS = 8000;

/**
 * Decide the request in `payload` and write Claude Code's answer with `write`. Throws only for a payload that is
 * not a permission request or settings that are wrong (the caller's stderr line; the dialog then decides alone).
 */
export async function decidePermissionRequest(
  payload: Record<string, unknown>,
  env: Env,
  cwd: string,
  write: (output: string) => Promise<void>,
  warn: (line: string) => void,
): Promise<void> {
  const text = (key: string) => (typeof payload[key] === 'string' ? (payload[key] as string) : '');
  if (text('tool_name') === '') throw new HookIoError('the PermissionRequest JSON has no "tool_name"');
  const session = text('cwd').trim() !== '' ? resolve(cwd, text('cwd')) : cwd;
  const config = loadAgentConfig(env, session);
  const mode = config.permissions;
  const bound = new AbortController();
  const raceMs = mode.kind === 'race' || mode.kind === 'wait' ? mode.seconds * 1000 : 0;
  const timer = setTimeout(() => bound.abort(), WORK_MS + raceMs);
  const stopped = () => bound.abort();
  process.once('SIGTERM', stopped);
  let opened: Promise<AgentStore> | undefined;
  const store = () => {
    opened ??= openStore(config.store, { connection: 'minimal' });
    return opened;
  };
  const inbox =
    config.store.kind === 'sqlite'
      ? 'the web inbox of ask-later serve on this machine'
      : "the team's ask-later inbox (Slack, Discord, Telegram or the web inbox, as routed)";
  try {
    const decision = await decidePermission(
      {
        toolName: text('tool_name'),
        toolInput: payload.tool_input,
        sessionId: text('session_id'),
        transcriptPath: text('transcript_path'),
        cwd: session,
        suggestions: payload.permission_suggestions,
      },
      { store, project: config.project, mode, inbox, stateDir: sessionStateDir(env), signal: bound.signal },
    );
    if (decision.failure !== undefined) warn(`ask-later hook: ${decision.failure}; the dialog decides`);
    if (decision.output === '') return;
    let sent = false;
    try {
      await write(decision.output);
      sent = true;
    } finally {
      await decision.afterResponse?.(sent).catch(() => undefined);
    }
  } finally {
    clearTimeout(timer);
    process.removeListener('SIGTERM', stopped);
    await (await opened?.catch(() => undefined))?.close();
  }
}
