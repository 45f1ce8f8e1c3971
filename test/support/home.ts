/**
 * A HOME of the tests' own. Without REDIS_URL every command opens the embedded store under `$HOME/.local/state`,
 * so no test may hand a child process the real HOME: it would write into the person's own inbox.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A new, empty home directory. */
export function freshHome(): string {
  return mkdtempSync(join(tmpdir(), 'ask-later-home-'));
}

let shared: string | undefined;

/** One empty home directory for this test file's child processes (created on first use). */
export function testHome(): string {
  shared ??= freshHome();
  return shared;
}
