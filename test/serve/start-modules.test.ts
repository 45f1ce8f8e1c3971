import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freshHome } from '../support/home.js';
import { freePort } from '../support/redis-server.js';

// Runs the built CLI (dist/), as `npm start` does, with a list of every module the child resolves.
const REGISTER = join(process.cwd(), 'test/support/module-list/register.mjs');
const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

describe('serve starts with what is configured only', () => {
  it('GIVEN no chat platform configured WHEN `ask-later serve` has printed its address THEN neither the Slack, Discord nor Telegram SDKs nor their surfaces were loaded', async () => {
    const home = freshHome();
    homes.push(home);
    const list = join(home, 'modules.txt');
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', REGISTER, 'dist/cli.js', 'serve'], {
      env: { PATH: process.env.PATH, HOME: home, PORT: String(port), ASK_LATER_TEST_MODULE_LIST: list },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      await expect.poll(() => err).toContain(`web inbox at http://127.0.0.1:${port}/`);
      const loaded = readFileSync(list, 'utf8').split('\n');
      // The list is real: serve's own composition root is in it.
      expect(loaded.some((url) => url.endsWith('/dist/serve/run.js'))).toBe(true);
      const platform = loaded.filter((url) =>
        /\/node_modules\/(@slack\/|discord\.js\/|@discordjs\/|grammy\/)|\/dist\/surfaces\/(slack|discord|telegram)\//.test(
          url,
        ),
      );
      expect(platform).toEqual([]);
    } finally {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});
