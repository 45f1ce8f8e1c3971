/**
 * Whether OpenCode is set up (`ask-later setup opencode`): the user's config and the working directory's repository,
 * each with its MCP entry and plugin file; and what it then gets (the paths, with `ASK_LATER_MIDTURN` /
 * `ASK_LATER_WAKE` as this environment sets them, which OpenCode passes on). No line where it is not set up at all.
 * Only files are read; never a failure.
 */
import { existsSync, readFileSync } from 'node:fs';
import { askLaterEntry } from '../../agents/opencode/config-edit.js';
import { PLUGIN_MARKER } from '../../agents/opencode/plugin-module.js';
import { openCodePaths } from '../../agents/opencode/setup.js';
import { type Env, loadDeliveryReach } from '../../config/agent.js';
import { ConfigError } from '../../config/config-error.js';
import { type CheckLine, ok, warn } from './check.js';

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** One scope's line, or undefined when ask-later is not set up there at all. */
function scopeLine(env: Env, cwd: string, project: boolean, gets: string): CheckLine | undefined {
  const paths = openCodePaths(env, cwd, project);
  const config = readText(paths.config);
  const entry = config === undefined ? undefined : askLaterEntry(config);
  const plugin = readText(paths.plugin)?.startsWith(PLUGIN_MARKER) === true;
  if (typeof entry === 'string') return warn(`OpenCode: ${paths.config} cannot be read (${entry}); fix it by hand`);
  if (entry === undefined && !plugin) return undefined;
  if (entry === undefined || !plugin) {
    const missing = entry === undefined ? `the MCP server in ${paths.config}` : `the plugin ${paths.plugin}`;
    return warn(
      `OpenCode: half set up, ${missing} is missing; run \`ask-later setup opencode${project ? ' --project' : ''}\` again`,
    );
  }
  const command = Array.isArray(entry.command) ? entry.command : [];
  const gone = command.slice(0, 2).find((part) => typeof part !== 'string' || !existsSync(part));
  if (command.length < 2 || gone !== undefined) {
    return warn(
      `OpenCode: ${paths.config} runs an ask-later that is no longer there; run \`ask-later setup opencode\` again`,
    );
  }
  return ok(`OpenCode: set up in ${paths.config} (MCP server and plugin): ${gets}`);
}

export function checkOpenCode(env: Env, cwd: string): CheckLine[] {
  let gets: string;
  try {
    const midturn = loadDeliveryReach('ASK_LATER_MIDTURN', env.ASK_LATER_MIDTURN);
    const wake = loadDeliveryReach('ASK_LATER_WAKE', env.ASK_LATER_WAKE);
    const reach = (value: string) =>
      value === 'all' ? 'every answer' : value === 'off' ? 'nothing' : 'blocking answers';
    gets =
      `answers with the next message, ${reach(midturn)} after a tool call, ${reach(wake)} wake an idle session; ` +
      'its question tool is mirrored into the inbox';
  } catch (error) {
    if (error instanceof ConfigError) return [warn(`OpenCode: ${error.message}`)];
    throw error;
  }
  // Not set up anywhere: no line (most machines run one agent; `ask-later setup opencode` is in the README).
  return [scopeLine(env, cwd, false, gets), scopeLine(env, cwd, true, gets)].filter(
    (line): line is CheckLine => line !== undefined,
  );
}
