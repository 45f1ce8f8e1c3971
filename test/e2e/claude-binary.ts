/**
 * The real Claude Code binary for tests, installed on demand (it is about 380 MB, so it is no dependency of ours).
 *
 * It ships inside the npm package `@anthropic-ai/claude-agent-sdk-<platform>-<arch>` as the file `claude`. The
 * version is pinned; the package is installed once into a cache outside the repository
 * (`~/.cache/ask-later-test/`, or `ASK_LATER_TEST_CACHE`) and reused by every later run. `ASK_LATER_CLAUDE_BIN`
 * points the tests at another binary instead (another platform, another version).
 *
 * Several test files may ask at once (vitest runs files in parallel): one installs under a lock directory into a
 * temporary directory and renames it into place, the others wait for it.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** `@anthropic-ai/claude-agent-sdk-*` 0.3.332 carries Claude Code 2.1.332. */
export const CLAUDE_PACKAGE_VERSION = '0.3.332';

const INSTALL_TIMEOUT_MS = 15 * 60_000;
const STALE_LOCK_MS = INSTALL_TIMEOUT_MS + 60_000;

const run = promisify(execFile);

function packageName(): string {
  return `@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}`;
}

function cacheRoot(): string {
  return process.env.ASK_LATER_TEST_CACHE ?? join(homedir(), '.cache', 'ask-later-test');
}

function works(bin: string): boolean {
  try {
    execFileSync(bin, ['--version'], { stdio: 'pipe', timeout: 60_000 });
    return true;
  } catch {
    return false;
  }
}

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** The path of a working `claude` binary; installs the pinned package first when the cache does not have it. */
export async function claudeBinary(): Promise<string> {
  const override = process.env.ASK_LATER_CLAUDE_BIN;
  if (override) {
    if (!works(override)) throw new Error(`ASK_LATER_CLAUDE_BIN=${override} does not run (\`--version\` failed)`);
    return override;
  }

  const name = packageName();
  const root = cacheRoot();
  const dir = join(root, `${name.replace('@anthropic-ai/', '')}-${CLAUDE_PACKAGE_VERSION}`);
  const bin = join(dir, 'node_modules', name, 'claude');
  const lock = join(root, `${CLAUDE_PACKAGE_VERSION}.lock`);
  mkdirSync(root, { recursive: true });

  const deadline = Date.now() + STALE_LOCK_MS;
  while (!existsSync(bin)) {
    try {
      mkdirSync(lock);
    } catch {
      // Another test file is installing: wait for it, and take over a lock its process left behind.
      const lockedAt = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - lockedAt > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for another install of ${name} (lock ${lock})`);
      await sleep(500);
      continue;
    }
    try {
      if (existsSync(bin)) break;
      const staging = mkdtempSync(join(root, 'install-'));
      try {
        await run(
          'npm',
          [
            'install',
            '--no-save',
            '--no-package-lock',
            '--no-audit',
            '--no-fund',
            '--prefix',
            staging,
            `${name}@${CLAUDE_PACKAGE_VERSION}`,
          ],
          { cwd: staging, timeout: INSTALL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
        );
      } catch (error) {
        rmSync(staging, { recursive: true, force: true });
        const detail = (error as { stderr?: string }).stderr?.trim() || String(error);
        throw new Error(
          `could not install the Claude Code binary (${name}@${CLAUDE_PACKAGE_VERSION}) for the end-to-end tests; ` +
            `set ASK_LATER_CLAUDE_BIN to a claude binary to use instead.\n${detail}`,
        );
      }
      rmSync(dir, { recursive: true, force: true });
      renameSync(staging, dir);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  if (!works(bin)) throw new Error(`the Claude Code binary at ${bin} does not run (\`--version\` failed)`);
  return bin;
}
