/**
 * `ask-later setup codex`'s editing of Codex's config.toml, on files in a temporary CODEX_HOME: what it writes,
 * idempotence, --remove byte for byte, --dry-run, and the configs it refuses to touch.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventLabel, trustedHash, trustKey } from '../../../src/agents/codex/hook-trust.js';
import { parseSetupArgs, runSetupCodex } from '../../../src/agents/codex/setup.js';
import { headerOf, parseToml, tomlString } from '../../../src/agents/codex/toml-text.js';
import { hookCommand, shellWord } from '../../../src/agents/codex/wiring.js';
import { dueShellPrefix } from '../../../src/agents/hooks/due-marker.js';

const wiring = { node: '/usr/local/bin/node', cli: '/opt/ask later/dist/cli.js' };
const dirs: string[] = [];

function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'ask-later-codex-setup-')));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function setup(codexHome: string, args: string[] = [], cwd = codexHome) {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: {
      write: (text: string) => {
        stdout += text;
      },
    },
    stderr: {
      write: (text: string) => {
        stderr += text;
      },
    },
  };
  const code = await runSetupCodex(args, { CODEX_HOME: codexHome, HOME: '/nonexistent' }, cwd, io, wiring);
  return { code, stdout, stderr };
}

function config(home: string): string {
  return readFileSync(join(home, 'config.toml'), 'utf8');
}

type Doc = Record<string, Record<string, unknown>>;

describe('ask-later setup codex', () => {
  it('GIVEN a config of the person THEN it appends the MCP server, the three hooks and their trust, leaving the rest byte for byte', async () => {
    const home = tempDir();
    const before = '# mine\nmodel = "gpt-5"\n\n[mcp_servers.other]\ncommand = "other"\n';
    writeFileSync(join(home, 'config.toml'), before);
    const result = await setup(home);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const after = config(home);
    expect(after.startsWith(`${before}\n[mcp_servers.ask-later]\n`)).toBe(true);
    const parsed = parseToml(after);
    if (!parsed.ok) throw new Error(parsed.reason);
    const doc = parsed.doc as Doc;
    expect(doc.mcp_servers?.['ask-later']).toEqual({
      command: '/usr/local/bin/node',
      args: ['/opt/ask later/dist/cli.js', 'mcp'],
      env_vars: expect.arrayContaining(['REDIS_URL', 'ASK_LATER_URL', 'ASK_LATER_TOKEN', 'ASK_LATER_DB']),
      default_tools_approval_mode: 'approve',
    });
    const command = "/usr/local/bin/node '/opt/ask later/dist/cli.js' hook";
    expect(doc.hooks?.PreToolUse).toEqual([
      { matcher: 'request_user_input', hooks: [{ type: 'command', command, timeout: 30 }] },
    ]);
    // The prompt and tool hooks start Node only when the due markers say so (or no watcher lives).
    const prompt = `${dueShellPrefix('any')} ${command}`;
    const tool = `${dueShellPrefix('blocking')} ${command}`;
    expect(doc.hooks?.UserPromptSubmit).toEqual([{ hooks: [{ type: 'command', command: prompt, timeout: 10 }] }]);
    expect(doc.hooks?.PostToolUse).toEqual([{ hooks: [{ type: 'command', command: tool, timeout: 10 }] }]);
    const file = join(home, 'config.toml');
    expect(doc.hooks?.state).toEqual({
      [trustKey(file, 'UserPromptSubmit', 0, 0)]: {
        trusted_hash: trustedHash('UserPromptSubmit', undefined, { command: prompt, timeout: 10 }),
      },
      [trustKey(file, 'PostToolUse', 0, 0)]: {
        trusted_hash: trustedHash('PostToolUse', undefined, { command: tool, timeout: 10 }),
      },
      [trustKey(file, 'PreToolUse', 0, 0)]: {
        trusted_hash: trustedHash('PreToolUse', 'request_user_input', { command, timeout: 30 }),
      },
    });
  });

  it('GIVEN it ran THEN a second run changes nothing and --remove gives the file back byte for byte', async () => {
    const home = tempDir();
    for (const before of ['model = "a"', 'model = "a"\n', 'model = "a"\n\n\n', '# c\r\nmodel = "a"\r\n']) {
      writeFileSync(join(home, 'config.toml'), before);
      await setup(home);
      const once = config(home);
      expect((await setup(home)).stdout).toContain('already set up');
      expect(config(home)).toBe(once);
      expect((await setup(home, ['--remove'])).code).toBe(0);
      expect(config(home)).toBe(before);
    }
  });

  it('GIVEN no config.toml THEN setup creates it and --remove deletes it again', async () => {
    const home = tempDir();
    expect((await setup(home)).stdout).toContain('created');
    expect(config(home)).toContain('[mcp_servers.ask-later]');
    await setup(home, ['--remove']);
    expect(() => config(home)).toThrow();
  });

  it('GIVEN hooks of the person for the same events THEN ask-later’s groups come after theirs and are trusted at their index', async () => {
    const home = tempDir();
    const before = '[[hooks.UserPromptSubmit]]\n[[hooks.UserPromptSubmit.hooks]]\ntype = "command"\ncommand = "mine"\n';
    writeFileSync(join(home, 'config.toml'), before);
    await setup(home);
    const parsed = parseToml(config(home));
    if (!parsed.ok) throw new Error(parsed.reason);
    const doc = parsed.doc as Doc;
    expect((doc.hooks?.UserPromptSubmit as unknown[]).length).toBe(2);
    expect(Object.keys(doc.hooks?.state as object)).toContain(
      trustKey(join(home, 'config.toml'), 'UserPromptSubmit', 1, 0),
    );
    await setup(home, ['--remove']);
    expect(config(home)).toBe(before);
  });

  it('GIVEN Codex rewrote the file since (tables moved, the comment before them gone) THEN --remove still takes out exactly ask-later’s tables', async () => {
    const home = tempDir();
    writeFileSync(join(home, 'config.toml'), 'model = "a"\n');
    await setup(home);
    // What `codex mcp add other` did to it on 0.169: the new server inserted among the MCP servers.
    const rewritten = config(home).replace(
      '[[hooks.UserPromptSubmit]]',
      '[mcp_servers.other]\ncommand = "echo"\nargs = ["hi"]\n\n[[hooks.UserPromptSubmit]]',
    );
    writeFileSync(join(home, 'config.toml'), rewritten);
    await setup(home, ['--remove']);
    expect(config(home)).toBe('model = "a"\n\n[mcp_servers.other]\ncommand = "echo"\nargs = ["hi"]\n');
  });

  it('GIVEN a config that does not parse THEN it is left untouched with one line on stderr', async () => {
    const home = tempDir();
    const broken = '[hooks.state."k"]\ntrusted_hash = "a"\n[hooks.state."k"]\ntrusted_hash = "b"\n';
    writeFileSync(join(home, 'config.toml'), broken);
    for (const args of [[], ['--remove'], ['--dry-run']]) {
      const result = await setup(home, args);
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/config\.toml does not parse as TOML \(line 3: .*\); left untouched/);
      expect(config(home)).toBe(broken);
    }
  });

  it('GIVEN the person’s hooks as inline arrays THEN setup refuses in one line and writes nothing', async () => {
    const home = tempDir();
    const inline = '[hooks]\nUserPromptSubmit = [{ hooks = [{ type = "command", command = "mine" }] }]\n';
    writeFileSync(join(home, 'config.toml'), inline);
    const result = await setup(home);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('cannot take ask-later');
    expect(config(home)).toBe(inline);
  });

  it('GIVEN a trust entry for the key already there with another hash THEN no duplicate table is written and setup says Codex will ask', async () => {
    const home = tempDir();
    const key = trustKey(join(home, 'config.toml'), 'UserPromptSubmit', 0, 0);
    const before = `[hooks.state.${tomlString(key)}]\ntrusted_hash = "sha256:old"\n`;
    writeFileSync(join(home, 'config.toml'), before);
    const result = await setup(home);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('review');
    expect(parseToml(config(home)).ok).toBe(true);
  });

  it('GIVEN --dry-run THEN it prints the tables it would add and writes nothing', async () => {
    const home = tempDir();
    writeFileSync(join(home, 'config.toml'), 'model = "a"\n');
    const result = await setup(home, ['--dry-run']);
    expect(result.stdout).toContain(`--- ${join(home, 'config.toml')}`);
    expect(result.stdout).toContain('+ [mcp_servers.ask-later]');
    expect(config(home)).toBe('model = "a"\n');
  });

  it('GIVEN --project THEN the repository’s .codex/config.toml gets the server and hooks, the user’s file their trust; --remove undoes both', async () => {
    const home = tempDir();
    const repo = tempDir();
    execFileSync('git', ['init', '-q', repo]);
    mkdirSync(join(repo, 'src'));
    writeFileSync(join(home, 'config.toml'), 'model = "a"\n');
    expect((await setup(home, ['--project'], join(repo, 'src'))).code).toBe(0);
    const projectFile = join(repo, '.codex', 'config.toml');
    expect(readFileSync(projectFile, 'utf8')).toContain('[mcp_servers.ask-later]');
    expect(config(home)).toContain(tomlString(trustKey(projectFile, 'PostToolUse', 0, 0)));
    expect(config(home)).not.toContain('[mcp_servers.ask-later]');
    await setup(home, ['--project', '--remove'], repo);
    expect(config(home)).toBe('model = "a"\n');
    expect(() => readFileSync(projectFile)).toThrow();
  });

  it('GIVEN --project outside git THEN it refuses in one line', async () => {
    const home = tempDir();
    const result = await setup(home, ['--project'], tempDir());
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('needs a git repository');
  });

  it('GIVEN an unknown flag THEN exit 2 with the usage', () => {
    expect(parseSetupArgs(['--user'])).toContain('usage: ask-later setup codex');
    expect(parseSetupArgs(['--project', '--remove', '--dry-run'])).toEqual({
      project: true,
      remove: true,
      dryRun: true,
    });
  });
});

describe('Codex config pieces', () => {
  it('GIVEN header lines THEN their key paths are read, and other lines are not headers', () => {
    expect(headerOf('[mcp_servers.ask-later]')).toEqual({ path: ['mcp_servers', 'ask-later'], array: false });
    expect(headerOf('[[hooks.PostToolUse.hooks]] # x')).toEqual({
      path: ['hooks', 'PostToolUse', 'hooks'],
      array: true,
    });
    expect(headerOf('[ hooks . state . "/a b:c:0:0" ]')).toEqual({
      path: ['hooks', 'state', '/a b:c:0:0'],
      array: false,
    });
    expect(headerOf("[projects.'/x']")).toEqual({ path: ['projects', '/x'], array: false });
    expect(headerOf('  [1, 2],')).toBeUndefined();
    expect(headerOf('[1, 2],')).toBeUndefined();
  });

  it('GIVEN strings with quotes, backslashes and control characters THEN tomlString writes valid TOML for them', () => {
    const value = 'a "b" \\ c\n\t\u0001\u007f é';
    const parsed = parseToml(`x = ${tomlString(value)}`);
    expect(parsed.ok && parsed.doc.x).toBe(value);
  });

  it('GIVEN paths with spaces or quotes THEN the hook command quotes them for the shell', () => {
    expect(shellWord('/usr/bin/node')).toBe('/usr/bin/node');
    expect(shellWord("/it's here")).toBe(`'/it'"'"'s here'`);
    expect(hookCommand({ node: '/n', cli: '/a b/cli.js' })).toBe("/n '/a b/cli.js' hook");
  });

  it('GIVEN the hook Codex 0.169 was seen trusting THEN the hash matches it', () => {
    // Checked on the binary: a hooks.json UserPromptSubmit hook with this command and `timeout: 10` ran in
    // `codex exec` with exactly this trusted_hash (and not without it).
    const command = `cat > /tmp/exp/ups-input.json; echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"CTX-FROM-HOOK"}}'`;
    expect(trustedHash('UserPromptSubmit', undefined, { command, timeout: 10 })).toBe(
      'sha256:09bffc0febc075f0b2f69d5f898c8e2f50c6558af2017b9c444d4845ee706500',
    );
    expect(eventLabel('PostToolUse')).toBe('post_tool_use');
  });
});
