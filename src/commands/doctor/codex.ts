/**
 * `ask-later doctor`'s line for Codex CLI: whether `ask-later setup codex` wired this machine (the user's
 * `config.toml`) or this repository (`.codex/config.toml` at the git top-level), and what the agent gets from it.
 * Only files are read. Never a failure: Codex may not be used on this machine.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { trustedHash, trustKey } from '../../agents/codex/hook-trust.js';
import { codexHome } from '../../agents/codex/setup.js';
import { parseToml, type TomlTable } from '../../agents/codex/toml-text.js';
import { MCP_SERVER, ourGroups } from '../../agents/codex/wiring.js';
import { findGitTopLevel } from '../../config/project.js';
import { type CheckLine, ok, warn } from './check.js';

type Env = Readonly<Record<string, string | undefined>>;

async function readConfig(path: string): Promise<TomlTable | 'invalid' | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  const parsed = parseToml(text);
  return parsed.ok ? parsed.doc : 'invalid';
}

function table(value: unknown): TomlTable {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as TomlTable) : {};
}

/** The hooks ask-later has in `doc` (at `file`), and how many of them the user's trust entries leave unreviewed. */
function hooksIn(doc: TomlTable, file: string, userDoc: TomlTable): { events: string[]; untrusted: number } {
  const states = table(table(userDoc.hooks).state);
  let untrusted = 0;
  const groups = ourGroups(doc);
  for (const [event, indices] of groups) {
    for (const index of indices) {
      const group = table((table(doc.hooks)[event] as unknown[])[index]);
      const matcher = typeof group.matcher === 'string' ? group.matcher : undefined;
      (group.hooks as unknown[]).forEach((raw, handler) => {
        const hook = table(raw);
        const hash = trustedHash(event, matcher, {
          command: String(hook.command),
          ...(typeof hook.timeout === 'number' ? { timeout: hook.timeout } : {}),
          ...(typeof hook.async === 'boolean' ? { async: hook.async } : {}),
          ...(typeof hook.statusMessage === 'string' ? { statusMessage: hook.statusMessage } : {}),
        });
        if (table(states[trustKey(file, event, index, handler)]).trusted_hash !== hash) untrusted++;
      });
    }
  }
  return { events: [...groups.keys()], untrusted };
}

/** What ask-later's part of one config gives the agent, as a doctor line. */
function describe(where: string, doc: TomlTable, file: string, userDoc: TomlTable): CheckLine | undefined {
  const mcp = table(doc.mcp_servers)[MCP_SERVER] !== undefined;
  const { events, untrusted } = hooksIn(doc, file, userDoc);
  if (!mcp && events.length === 0) return undefined;
  const gets = [
    mcp ? 'the MCP server' : 'no MCP server (the model cannot park questions)',
    events.includes('UserPromptSubmit') ? 'answers with the next prompt' : 'no prompt hook',
    events.includes('PostToolUse') ? 'blocking answers with the next tool result' : 'no tool-result hook',
    events.includes('PreToolUse') ? 'request_user_input parked' : 'request_user_input not parked',
    'no wake of an idle session',
  ];
  const trust =
    untrusted === 0
      ? ''
      : `; ${untrusted} of its hooks not trusted: Codex asks to review them (/hooks), and \`codex exec\` skips them (run ask-later setup codex again)`;
  const line = `Codex (${where}): ${gets.join(', ')}${trust}`;
  return mcp && events.length === 3 && untrusted === 0 ? ok(line) : warn(line);
}

/** The Codex line(s): the user's setup and the repository's; none when Codex has no config here at all. */
export async function checkCodex(env: Env, cwd: string): Promise<CheckLine[]> {
  const userFile = join(codexHome(env), 'config.toml');
  const userDoc = await readConfig(userFile);
  const top = findGitTopLevel(cwd);
  const projectFile = top === undefined ? undefined : join(top, '.codex', 'config.toml');
  const projectDoc = projectFile === undefined ? undefined : await readConfig(projectFile);
  const lines: CheckLine[] = [];
  if (userDoc === 'invalid') lines.push(warn(`Codex: ${userFile} does not parse as TOML, so Codex will not start`));
  if (projectDoc === 'invalid') lines.push(warn(`Codex: ${projectFile} does not parse as TOML`));
  const user = typeof userDoc === 'object' ? userDoc : {};
  const own = typeof userDoc === 'object' ? describe(userFile, userDoc, userFile, user) : undefined;
  const project =
    typeof projectDoc === 'object' && projectFile !== undefined
      ? describe(projectFile, projectDoc, projectFile, user)
      : undefined;
  if (own) lines.push(own);
  if (project) lines.push(project);
  if (!own && !project && userDoc !== undefined && userDoc !== 'invalid') {
    lines.push(warn('Codex: ask-later is not set up (ask-later setup codex)'));
  }
  return lines;
}
