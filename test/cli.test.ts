import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const cli = new URL('../dist/cli.js', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
};

describe('the ask-later binary', () => {
  it('GIVEN the package THEN its bin ask-later points at the built CLI', () => {
    expect(pkg.bin['ask-later']).toBe('dist/cli.js');
  });

  it('GIVEN --version THEN it prints the package version', async () => {
    const { stdout } = await run('node', [cli, '--version']);
    expect(stdout.trim()).toBe(pkg.version);
  });

  it('GIVEN an unknown command THEN it exits 2 and says which, with the usage', async () => {
    const error = (await run('node', [cli, 'frobnicate']).catch((e) => e)) as { code: number; stderr: string };
    expect(error.code).toBe(2);
    expect(error.stderr).toContain('unknown command "frobnicate"');
    expect(error.stderr).toContain('Usage: ask-later <command>');
  });
});
