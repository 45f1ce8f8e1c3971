/** doctor's Codex line: read from the files `ask-later setup codex` writes, in a temporary CODEX_HOME. */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runSetupCodex } from '../../../src/agents/codex/setup.js';
import { checkCodex } from '../../../src/commands/doctor/codex.js';

const dirs: string[] = [];
const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };
const wiring = { node: '/usr/bin/node', cli: '/opt/ask-later/dist/cli.js' };

function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'ask-later-doctor-codex-')));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("doctor's Codex line", () => {
  it('GIVEN no Codex config THEN no line; GIVEN a config without ask-later THEN a warning naming the command', async () => {
    const home = tempDir();
    const cwd = tempDir();
    expect(await checkCodex({ CODEX_HOME: home }, cwd)).toEqual([]);
    writeFileSync(join(home, 'config.toml'), 'model = "a"\n');
    expect(await checkCodex({ CODEX_HOME: home }, cwd)).toEqual([
      { status: 'warn', text: 'Codex: ask-later is not set up (ask-later setup codex)' },
    ]);
  });

  it('GIVEN setup ran THEN ✓ with what the agent gets; GIVEN a hook changed since THEN a warning that Codex asks to review it', async () => {
    const home = tempDir();
    const env = { CODEX_HOME: home };
    await runSetupCodex([], env, home, quiet, wiring);
    const [line] = await checkCodex(env, tempDir());
    expect(line).toEqual({
      status: 'ok',
      text: `Codex (${join(home, 'config.toml')}): the MCP server, answers with the next prompt, blocking answers with the next tool result, request_user_input parked, no wake of an idle session`,
    });
    const file = join(home, 'config.toml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('timeout = 10', 'timeout = 11'));
    const [changed] = await checkCodex(env, tempDir());
    expect(changed?.status).toBe('warn');
    expect(changed?.text).toContain('1 of its hooks not trusted');
  });
});
