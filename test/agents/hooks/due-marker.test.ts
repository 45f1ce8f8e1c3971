import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  clearDue,
  dueDir,
  dueShellPrefix,
  markDue,
  readDue,
  registerWatcher,
} from '../../../src/agents/hooks/due-marker.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ask-later-due-'));
  dirs.push(dir);
  return dir;
}

/**
 * The protocol as steps over the real marker files, against a model of the store (outcomes waiting). An answer is
 * two steps: committed to the store, then the watcher marks (it hears of it after the commit). A hook run is three:
 * it reads the marker's token, it claims everything waiting (delivered), it clears the marker if it emptied it.
 * A hook that skips is the shell's check: no marker (a watcher lives).
 */
type Step =
  | { kind: 'commit' }
  | { kind: 'watcherMarks' }
  | { kind: 'hookReads'; hook: number }
  | { kind: 'hookClaims'; hook: number }
  | { kind: 'hookClears'; hook: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ kind: 'commit' }),
  fc.constant<Step>({ kind: 'watcherMarks' }),
  fc.integer({ min: 0, max: 2 }).map((hook): Step => ({ kind: 'hookReads', hook })),
  fc.integer({ min: 0, max: 2 }).map((hook): Step => ({ kind: 'hookClaims', hook })),
  fc.integer({ min: 0, max: 2 }).map((hook): Step => ({ kind: 'hookClears', hook })),
);

describe('the due markers', () => {
  it('GIVEN any interleaving of answers landing (commit, then the watcher marks) and hook runs (read token, claim, clear) THEN whenever the watcher has caught up, an outcome waiting has its marker set', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const dir = tempDir();
        markDue(dir); // the watcher's start
        let waiting = 0; // outcomes in the store, undelivered
        let unheard = 0; // commits the watcher has not marked yet
        const hooks = new Map<number, { token: string | undefined; drained?: boolean }>();
        for (const s of steps) {
          if (s.kind === 'commit') {
            waiting += 1;
            unheard += 1;
          } else if (s.kind === 'watcherMarks') {
            if (unheard > 0) markDue(dir);
            unheard = 0;
          } else if (s.kind === 'hookReads') {
            hooks.set(s.hook, { token: readDue(dir, 'any') });
          } else if (s.kind === 'hookClaims') {
            const run = hooks.get(s.hook);
            if (run === undefined || run.drained !== undefined) continue;
            waiting = 0; // claims and delivers everything waiting
            run.drained = true;
          } else {
            const run = hooks.get(s.hook);
            if (run?.drained !== true) continue;
            clearDue(dir, 'any', run.token);
            hooks.delete(s.hook);
          }
          // The invariant: once the watcher has heard of every commit, anything waiting is marked.
          if (unheard === 0 && waiting > 0) expect(readDue(dir, 'any')).toBeDefined();
        }
        rmSync(dir, { recursive: true, force: true });
      }),
      { numRuns: 300 },
    );
  });

  it('GIVEN the shell line THEN it ends at once only when the marker is absent and a watcher lives, and runs the command otherwise', () => {
    const home = tempDir();
    const cwd = tempDir();
    const dir = dueDir({ HOME: home }, cwd);
    if (dir === undefined) throw new Error('no dir');
    const run = () =>
      execFileSync('sh', ['-c', `${dueShellPrefix('any')} echo ran`], {
        cwd,
        env: { PATH: process.env.PATH, HOME: home, PWD: cwd },
        encoding: 'utf8',
      });
    // No watcher: the hook looks for itself.
    expect(run()).toBe('ran\n');
    const unregister = registerWatcher(dir);
    expect(run()).toBe(''); // watched, nothing due
    markDue(dir);
    expect(run()).toBe('ran\n'); // due
    clearDue(dir, 'any', readDue(dir, 'any'));
    expect(run()).toBe('');
    unregister();
    expect(run()).toBe('ran\n');
    // A watcher that died (its pid no longer runs) counts for nothing.
    writeFileSync(join(dir, 'watcher.999999999'), '');
    expect(run()).toBe('ran\n');
  });

  it('GIVEN a marker renewed after a run read its token THEN the run does not clear it; GIVEN the same token THEN it does', () => {
    const dir = tempDir();
    markDue(dir);
    const read = readDue(dir, 'blocking');
    markDue(dir);
    clearDue(dir, 'blocking', read);
    expect(readDue(dir, 'blocking')).toBeDefined();
    clearDue(dir, 'blocking', readDue(dir, 'blocking'));
    expect(readDue(dir, 'blocking')).toBeUndefined();
    expect(readDue(dir, 'any')).toBeDefined();
  });
});
