/**
 * The Claude Code plugin and the marketplace that lists it, as Claude Code itself reads them: `claude plugin
 * validate --strict` with the real binary, and the wiring between the manifests and the bundles they start.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeBinary } from '../e2e/pinned-binary.js';

const repoRoot = realpathSync(new URL('../..', import.meta.url).pathname);
const pluginDir = join(repoRoot, 'plugin');

/** Claude Code's own placeholder for the installed plugin's directory, written literally in the manifests. */
const PLUGIN_ROOT = '$' + '{CLAUDE_PLUGIN_ROOT}';

function readJson<T>(...path: string[]): T {
  return JSON.parse(readFileSync(join(...path), 'utf8')) as T;
}

let claude: string;
let home: string;

beforeAll(async () => {
  claude = await claudeBinary();
  home = mkdtempSync(join(tmpdir(), 'ask-later-validate-home-'));
}, 900_000);

afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

function validate(target: string): { status: number | null; output: string } {
  const run = spawnSync(claude, ['plugin', 'validate', '--strict', target], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      DISABLE_TELEMETRY: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}

describe('the Claude Code plugin', () => {
  it('GIVEN the plugin directory THEN `claude plugin validate --strict` passes and finds the server, hook and skill', () => {
    const { status, output } = validate(pluginDir);
    expect(status, output).toBe(0);
    expect(output).toMatch(/hooks: UserPromptSubmit mcp_tool plugin:ask-later:ask-later collect_answers/);
    expect(output).toMatch(/hooks: PostToolUse \* mcp_tool plugin:ask-later:ask-later collect_answers/);
    expect(output).toMatch(/hooks: SessionStart command/);
    expect(output).toMatch(/hooks: Stop command/);
    expect(output).toMatch(/mcpServers: ask-later/);
    expect(output).toMatch(/skills: ask-later:ask-later/);
  });

  it('GIVEN the repository root THEN its marketplace validates with --strict', () => {
    const { status, output } = validate(repoRoot);
    expect(status, output).toBe(0);
    expect(output).toMatch(/marketplace/i);
  });

  it('GIVEN the manifests THEN they name ask-later at the package version and start the bundles that exist', () => {
    const pkg = readJson<{ version: string }>(repoRoot, 'package.json');
    const plugin = readJson<{ name: string; version: string }>(pluginDir, '.claude-plugin', 'plugin.json');
    expect(plugin).toMatchObject({ name: 'ask-later', version: pkg.version });

    const marketplace = readJson<{ plugins: { name: string; source: string }[] }>(
      repoRoot,
      '.claude-plugin',
      'marketplace.json',
    );
    expect(marketplace.plugins).toEqual([expect.objectContaining({ name: 'ask-later', source: './plugin' })]);

    /** Claude Code's template of a value (a hook input's field, a plugin option), written literally in the manifests. */
    const field = (name: string) => `$\{${name}}`;
    const mcp = readJson<{ mcpServers: Record<string, { command: string; args: string[] }> }>(pluginDir, '.mcp.json');
    // The plugin's settings reach the MCP server as the variables its hooks get from Claude Code (an unset one as "").
    expect(mcp.mcpServers['ask-later']).toEqual({
      command: 'node',
      args: [`${PLUGIN_ROOT}/dist/ask-later.mjs`, 'mcp'],
      env: {
        CLAUDE_PLUGIN_OPTION_ASK_USER_QUESTION: field('user_config.ask_user_question'),
        CLAUDE_PLUGIN_OPTION_SERVER_URL: field('user_config.server_url'),
        CLAUDE_PLUGIN_OPTION_TOKEN: field('user_config.token'),
      },
    });
    const manifest = readJson<{ userConfig: Record<string, Record<string, unknown>> }>(
      pluginDir,
      '.claude-plugin',
      'plugin.json',
    );
    expect(Object.keys(manifest.userConfig)).toEqual(['server_url', 'token', 'ask_user_question', 'permissions']);
    expect(manifest.userConfig.permissions).toMatchObject({ type: 'string', required: false });
    expect(manifest.userConfig.server_url).toMatchObject({ type: 'string', required: false });
    expect(manifest.userConfig.token).toMatchObject({ type: 'string', required: false, sensitive: true });
    expect(manifest.userConfig.ask_user_question).toMatchObject({ type: 'string', required: false });

    type Hook = Record<string, unknown> & { type: string; timeout: number };
    const hooks = readJson<{ hooks: Record<string, { matcher?: string; hooks: Hook[] }[]> }>(
      pluginDir,
      'hooks',
      'hooks.json',
    );
    const only = (event: string): Hook => {
      const all = (hooks.hooks[event] ?? []).flatMap((entry) => entry.hooks);
      expect(all, event).toHaveLength(1);
      return all[0] as Hook;
    };
    expect(Object.keys(hooks.hooks).sort()).toEqual([
      'PermissionRequest',
      'PostToolUse',
      'PreToolUse',
      'SessionStart',
      'Stop',
      'UserPromptSubmit',
    ]);
    // Permission prompts: a command, so Esc at the dialog (SIGTERM) reaches it; bounded above the longest race.
    expect(only('PermissionRequest')).toMatchObject({
      type: 'command',
      command: `node "${PLUGIN_ROOT}/dist/ask-later.mjs" hook`,
      timeout: 330,
    });
    // Prompt and tool call: the session's own MCP server (no process), never failing the prompt or the tool.
    const collect = { type: 'mcp_tool', server: 'plugin:ask-later:ask-later', tool: 'collect_answers' };
    expect(only('UserPromptSubmit')).toMatchObject({
      ...collect,
      input: { for: 'UserPromptSubmit', prompt: field('prompt'), source: field('source') },
      onFailure: 'continue',
    });
    expect(only('PostToolUse')).toMatchObject({
      ...collect,
      input: { for: 'PostToolUse', agent_id: field('agent_id') },
      onFailure: 'continue',
    });
    for (const event of ['UserPromptSubmit', 'PostToolUse']) expect(only(event).timeout).toBeLessThanOrEqual(10);
    // The agent's own questions and plans: parked through the same connection; a failure shows the terminal dialog.
    expect(hooks.hooks.PreToolUse?.[0]?.matcher).toBe('AskUserQuestion|ExitPlanMode');
    expect(only('PreToolUse')).toMatchObject({
      type: 'mcp_tool',
      server: 'plugin:ask-later:ask-later',
      tool: 'capture_question',
      input: {
        tool_name: field('tool_name'),
        tool_input: field('tool_input'),
        transcript_path: field('transcript_path'),
      },
      onFailure: 'continue',
    });
    // Long enough for wait:<=120 s, its own limit coming first.
    expect(only('PreToolUse').timeout).toBeGreaterThan(120);
    // The waiter: in the background, waking the session when it exits 2; its own limit (23 h) comes first.
    for (const event of ['SessionStart', 'Stop']) {
      expect(only(event)).toMatchObject({
        type: 'command',
        command: `node "${PLUGIN_ROOT}/dist/ask-later.mjs" wait`,
        async: true,
        asyncRewake: true,
        rewakeMessage: 'ask-later:',
      });
      expect(only(event).timeout).toBeGreaterThan(23 * 60 * 60);
    }

    for (const file of ['dist/ask-later.mjs', 'dist/hook.cjs', 'dist/package.json', 'dist/lua/park-5.lua']) {
      expect(existsSync(join(pluginDir, file)), `plugin/${file}`).toBe(true);
    }
  });

  it('GIVEN the skill THEN its frontmatter names it and says when to use it', () => {
    const skill = readFileSync(join(pluginDir, 'skills', 'ask-later', 'SKILL.md'), 'utf8');
    const frontmatter = /^---\n([\s\S]*?)\n---\n/.exec(skill)?.[1] ?? '';
    expect(frontmatter).toMatch(/^name: ask-later$/m);
    expect(frontmatter).toMatch(/^description: .*ask_later.*$/m);
  });
});
