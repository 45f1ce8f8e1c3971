/**
 * Whether pi is set up (`ask-later setup pi`): the user's extensions folder and the working directory's repository,
 * each with ask-later's extension; and whether the ask-later it names is still there. No line where it is not set
 * up at all. Only files are read; never a failure.
 */
import { existsSync, readFileSync } from 'node:fs';
import { EXTENSION_MARKER } from '../../agents/pi/extension-module.js';
import { piExtensionPath } from '../../agents/pi/setup.js';
import type { Env } from '../../config/agent.js';
import { type CheckLine, ok, warn } from './check.js';

function scopeLine(env: Env, cwd: string, project: boolean): CheckLine | undefined {
  const path = piExtensionPath(env, cwd, project);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  if (!text.startsWith(EXTENSION_MARKER)) return undefined;
  const cli = /^const CLI = ("(?:[^"\\]|\\.)*");$/m.exec(text)?.[1];
  const named = cli === undefined ? undefined : (JSON.parse(cli) as string);
  if (named === undefined || !existsSync(named)) {
    return warn(
      `pi: ${path} runs an ask-later that is no longer there; run \`ask-later setup pi${project ? ' --project' : ''}\` again`,
    );
  }
  return ok(
    `pi: set up in ${path} (extension): the tools, answers with the next prompt, blocking answers after a tool ` +
      'call and on waking an idle session; its question tool is parked',
  );
}

export function checkPi(env: Env, cwd: string): CheckLine[] {
  return [scopeLine(env, cwd, false), scopeLine(env, cwd, true)].filter(
    (line): line is CheckLine => line !== undefined,
  );
}
