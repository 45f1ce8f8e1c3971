import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSetupPi } from '../../../src/agents/pi/setup.js';
import { checkPi } from '../../../src/commands/doctor/pi.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function scratch(): { home: string; project: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'al-doctor-pi-')));
  dirs.push(root);
  const project = join(root, 'project');
  execFileSync('git', ['init', '-q', project]);
  return { home: join(root, 'home'), project };
}

const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };

describe('doctor: pi', () => {
  it('GIVEN pi not set up THEN doctor prints no pi line', () => {
    const { home, project } = scratch();
    expect(checkPi({ HOME: home }, project)).toEqual([]);
  });

  it('GIVEN setup pi THEN doctor says where; an extension naming a gone ask-later is a warning; --remove leaves no line', async () => {
    const { home, project } = scratch();
    const runtime = { node: process.execPath, cli: new URL(import.meta.url).pathname };
    expect(await runSetupPi([], { HOME: home }, project, quiet, runtime)).toBe(0);
    expect(checkPi({ HOME: home }, project)).toEqual([
      {
        status: 'ok',
        text: expect.stringMatching(/^pi: set up in .*\/\.pi\/agent\/extensions\/ask-later\.ts \(extension\)/),
      },
    ]);
    const gone = { node: process.execPath, cli: join(project, 'gone', 'cli.js') };
    expect(await runSetupPi(['--project'], { HOME: home }, project, quiet, gone)).toBe(0);
    expect(checkPi({ HOME: home }, project)[1]).toMatchObject({
      status: 'warn',
      text: expect.stringContaining('run `ask-later setup pi --project` again'),
    });
    expect(await runSetupPi(['--remove'], { HOME: home }, project, quiet, runtime)).toBe(0);
    expect(await runSetupPi(['--remove', '--project'], { HOME: home }, project, quiet, runtime)).toBe(0);
    expect(checkPi({ HOME: home }, project)).toEqual([]);
  });
});
