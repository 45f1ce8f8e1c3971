/**
 * The real agent binaries for tests (Claude Code, and any other agent's npm package), installed on demand: they are
 * hundreds of MB, so they are no dependency of ours.
 *
 * Each version is pinned; its package is installed once into a cache outside the repository
 * (`~/.cache/ask-later-test/`, or `ASK_LATER_TEST_CACHE`) and reused by every later run, offline. An environment
 * variable per agent (`ASK_LATER_CLAUDE_BIN`, …) points the tests at another binary instead.
 *
 * Several test files may ask at once (vitest runs files in parallel): one installs under a lock directory into a
 * temporary directory and renames it into place, the others wait for it.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** One agent binary inside a pinned npm package. */
export interface PinnedBinary {
  /** What the agent is called in errors ("the Claude Code binary"). */
  readonly what: string;
  /** The npm package that holds it, and its pinned version. */
  readonly packageName: string;
  readonly version: string;
  /** The binary's path inside the package's folder (`node_modules/<packageName>/…`). */
  readonly file: string;
  /** The environment variable that names another binary to use instead. */
  readonly overrideVariable: string;
}

/** `@anthropic-ai/claude-agent-sdk-*` 0.3.332 carries Claude Code 2.1.332. */
export const CLAUDE_PACKAGE_VERSION = '0.3.332';

export const CLAUDE_CODE: PinnedBinary = {
  what: 'the Claude Code binary',
  packageName: `@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}`,
  version: CLAUDE_PACKAGE_VERSION,
  file: 'claude',
  overrideVariable: 'ASK_LATER_CLAUDE_BIN',
};

/** Codex CLI's native binary: the platform build of `@openai/codex`, published as its version `0.169.0-<os>-<cpu>`. */
export const CODEX_VERSION = '0.169.0';

const CODEX_TARGETS: Readonly<Record<string, string>> = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
};

export const CODEX: PinnedBinary = {
  what: 'the Codex CLI binary',
  packageName: '@openai/codex',
  version: `${CODEX_VERSION}-${process.platform}-${process.arch}`,
  file: `vendor/${CODEX_TARGETS[`${process.platform}-${process.arch}`] ?? 'unsupported-platform'}/bin/codex`,
  overrideVariable: 'ASK_LATER_CODEX_BIN',
};

const INSTALL_TIMEOUT_MS = 15 * 60_000;
const STALE_LOCK_MS = INSTALL_TIMEOUT_MS + 60_000;

const run = promisify(execFile);

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

/** The path of a working binary of `pinned`; installs its package first when the cache does not have it. */
export async function pinnedBinary(pinned: PinnedBinary): Promise<string> {
  const override = process.env[pinned.overrideVariable];
  if (override) {
    if (!works(override)) throw new Error(`${pinned.overrideVariable}=${override} does not run (\`--version\` failed)`);
    return override;
  }

  const { packageName: name, version } = pinned;
  const root = cacheRoot();
  const slug = name.replace(/^@[^/]+\//, '');
  const dir = join(root, `${slug}-${version}`);
  const bin = join(dir, 'node_modules', name, pinned.file);
  const lock = join(root, `${slug}-${version}.lock`);
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
            `${name}@${version}`,
          ],
          { cwd: staging, timeout: INSTALL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
        );
      } catch (error) {
        rmSync(staging, { recursive: true, force: true });
        const detail = (error as { stderr?: string }).stderr?.trim() || String(error);
        throw new Error(
          `could not install ${pinned.what} (${name}@${version}) for the end-to-end tests; ` +
            `set ${pinned.overrideVariable} to a binary to use instead.\n${detail}`,
        );
      }
      rmSync(dir, { recursive: true, force: true });
      renameSync(staging, dir);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  if (!works(bin)) throw new Error(`${pinned.what} at ${bin} does not run (\`--version\` failed)`);
  return bin;
}

/** The path of a working `claude` binary (Claude Code 2.1.332). */
export function claudeBinary(): Promise<string> {
  return pinnedBinary(CLAUDE_CODE);
}

/** The path of a working `codex` binary (Codex CLI 0.169.0). */
export function codexBinary(): Promise<string> {
  return pinnedBinary(CODEX);
}

/** OpenCode 1.18.33: `opencode-ai`'s native binary ships in a platform package (`opencode-linux-x64`, …). */
export const OPENCODE: PinnedBinary = {
  what: 'the OpenCode binary',
  packageName: `opencode-${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`,
  version: '1.18.33',
  file: 'bin/opencode',
  overrideVariable: 'ASK_LATER_OPENCODE_BIN',
};

/** The path of a working `opencode` binary (OpenCode 1.18.33). */
export function openCodeBinary(): Promise<string> {
  return pinnedBinary(OPENCODE);
}

/** pi 0.73.1 (`@mariozechner/pi-coding-agent`): a Node script, run with this Node. */
export const PI: PinnedBinary = {
  what: 'the pi binary',
  packageName: '@mariozechner/pi-coding-agent',
  version: '0.73.1',
  file: 'dist/cli.js',
  overrideVariable: 'ASK_LATER_PI_BIN',
};

/** The path of a working `pi` script (pi 0.73.1). */
export function piBinary(): Promise<string> {
  return pinnedBinary(PI);
}
