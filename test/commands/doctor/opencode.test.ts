import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSetupOpenCode } from '../../../src/agents/opencode/setup.js';
import { checkOpenCode } from '../../../src/commands/doctor/opencode.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function scratch(): { home: string; project: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'al-doctor-oc-')));
  dirs.push(root);
  const project = join(root, 'project');
  execFileSync('git', ['init', '-q', project]);
  return { home: join(root, 'home'), project };
}

const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };
const runtime = { node: process.execPath, cli: new URL(import.meta.url).pathname };

describe('doctor: OpenCode', () => {
  it('GIVEN OpenCode not set up THEN doctor prints no OpenCode line', () => {
    const { home, project } = scratch();
    expect(checkOpenCode({ HOME: home }, project)).toEqual([]);
  });

  it('GIVEN setup opencode THEN doctor says it is set up and what it gets; without its plugin, half set up', async () => {
    const { home, project } = scratch();
    expect(await runSetupOpenCode([], { HOME: home }, project, quiet, runtime)).toBe(0);
    const [line] = checkOpenCode({ HOME: home, ASK_LATER_WAKE: 'all' }, project);
    expect(line?.status).toBe('ok');
    expect(line?.text).toMatch(
      /^OpenCode: set up in .*opencode\.json \(MCP server and plugin\): answers with the next message, blocking answers after a tool call, every answer wake an idle session/,
    );
    unlinkSync(join(home, '.config', 'opencode', 'plugins', 'ask-later.js'));
    expect(checkOpenCode({ HOME: home }, project)).toEqual([
      { status: 'warn', text: expect.stringMatching(/^OpenCode: half set up, the plugin .* is missing/) },
    ]);
  });

  it('GIVEN a project config that does not parse THEN doctor warns, and setup leaves it untouched with one line', async () => {
    const { home, project } = scratch();
    const broken = '{ "mcp": ';
    writeFileSync(join(project, 'opencode.json'), broken);
    const errors: string[] = [];
    const io = { stdout: { write: () => true }, stderr: { write: (text: string) => errors.push(text) } };
    expect(await runSetupOpenCode(['--project'], { HOME: home }, project, io, runtime)).toBe(1);
    expect(errors).toEqual([expect.stringMatching(/opencode\.json was left as it is: it is not JSON or JSONC .*\n$/)]);
    expect(checkOpenCode({ HOME: home }, project)).toEqual([
      { status: 'warn', text: expect.stringMatching(/cannot be read/) },
    ]);
  });
});
