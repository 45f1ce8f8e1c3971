/**
 * What Claude Code sends a `statusLine` command on stdin, checked by hand (no schema library: this runs on every
 * refresh). Only the directories are read; every other field (model, cost, transcript, …) is ignored.
 */
import { StatusInputError } from './status-input-error.js';

/** The session's directories, when the payload names them as non-blank strings. */
export interface StatusInput {
  /** `workspace.project_dir`: the directory Claude Code was started in (the agent side's `CLAUDE_PROJECT_DIR`). */
  readonly projectDir?: string;
  /** `workspace.current_dir`, else `cwd`: the session's working directory now. */
  readonly currentDir?: string;
}

/**
 * The payload's directories. Blank stdin is no payload (the command run by hand, `< /dev/null`): nothing named.
 * Anything else must be a JSON object.
 */
export function parseStatusInput(text: string): StatusInput {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new StatusInputError("stdin is not JSON, expected Claude Code's status line JSON");
  }
  if (!isObject(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    throw new StatusInputError(`stdin is JSON ${kind}, expected Claude Code's status line JSON (an object)`);
  }
  const workspace = isObject(value.workspace) ? value.workspace : {};
  const projectDir = nonBlank(workspace.project_dir);
  const currentDir = nonBlank(workspace.current_dir) ?? nonBlank(value.cwd);
  return {
    ...(projectDir === undefined ? {} : { projectDir }),
    ...(currentDir === undefined ? {} : { currentDir }),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonBlank(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
