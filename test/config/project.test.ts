import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findGitTopLevel, projectFromEnvironment } from '../../src/config/project.js';

/*
 * Layout under a fresh temp directory (by real path, as the results are):
 *   plain/                 no .git anywhere above (assumes the system temp directory is not inside a repository)
 *   repo/.git/             a repository made by creating the folder
 *   repo/a/b/              nested subdirectories
 *   repo/worktree/.git     a linked-worktree-style .git file, so a repository of its own
 *   link -> repo/a         a symlink into the repository
 */
let root: string;
let plain: string;
let repo: string;
let nested: string;
let worktree: string;
let link: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'ask-later-project-')));
  plain = join(root, 'plain');
  repo = join(root, 'repo');
  nested = join(repo, 'a', 'b');
  worktree = join(repo, 'worktree');
  link = join(root, 'link');
  mkdirSync(plain);
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(nested, { recursive: true });
  mkdirSync(worktree);
  writeFileSync(join(worktree, '.git'), 'gitdir: ../.git/worktrees/worktree\n');
  symlinkSync(join(repo, 'a'), link, 'dir');
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('findGitTopLevel', () => {
  it('GIVEN a directory outside any repository THEN there is no top-level', () => {
    expect(findGitTopLevel(plain)).toBeUndefined();
  });

  it('GIVEN the repository directory THEN it is the top-level', () => {
    expect(findGitTopLevel(repo)).toBe(repo);
  });

  it('GIVEN a nested subdirectory THEN the top-level is the repository', () => {
    expect(findGitTopLevel(nested)).toBe(repo);
  });

  it('GIVEN a directory with a .git file (worktree or submodule) THEN that directory is the top-level', () => {
    expect(findGitTopLevel(worktree)).toBe(worktree);
  });

  it('GIVEN a path through a symlink THEN the top-level is the real repository path', () => {
    expect(findGitTopLevel(link)).toBe(repo);
    expect(findGitTopLevel(join(link, 'b'))).toBe(repo);
  });

  it('GIVEN a path that does not exist inside a repository THEN the repository is still found', () => {
    expect(findGitTopLevel(join(repo, 'gone', 'deeper'))).toBe(repo);
  });

  it('GIVEN a relative path THEN it is taken from the working directory', () => {
    expect(findGitTopLevel(relative(process.cwd(), nested))).toBe(repo);
  });
});

describe('findGitTopLevel against git itself', () => {
  const git = (cwd: string, ...args: string[]): string =>
    execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  let hasGit = true;
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
  } catch {
    hasGit = false;
  }

  it.skipIf(!hasGit)('GIVEN a git init repository and a linked worktree THEN it agrees with git rev-parse', () => {
    const real = join(root, 'real');
    mkdirSync(join(real, 'src', 'deep'), { recursive: true });
    git(real, 'init', '-q');
    git(real, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'init');
    const linked = join(root, 'linked');
    git(real, 'worktree', 'add', '-q', linked);
    mkdirSync(join(linked, 'sub'));

    for (const dir of [real, join(real, 'src', 'deep'), linked, join(linked, 'sub')]) {
      expect(findGitTopLevel(dir)).toBe(realpathSync(git(dir, 'rev-parse', '--show-toplevel')));
    }
  });
});

describe('projectFromEnvironment', () => {
  it('GIVEN ASK_LATER_PROJECT THEN it is the project, trimmed', () => {
    expect(projectFromEnvironment({ ASK_LATER_PROJECT: ' billing ', CLAUDE_PROJECT_DIR: nested }, plain)).toBe(
      'billing',
    );
  });

  it('GIVEN CLAUDE_PROJECT_DIR inside a repository THEN the project is the repository, not the working directory', () => {
    expect(projectFromEnvironment({ CLAUDE_PROJECT_DIR: nested }, plain)).toBe(repo);
  });

  it('GIVEN a relative CLAUDE_PROJECT_DIR THEN it is taken from the given working directory', () => {
    expect(projectFromEnvironment({ CLAUDE_PROJECT_DIR: 'a/b' }, repo)).toBe(repo);
  });

  it('GIVEN no CLAUDE_PROJECT_DIR THEN the working directory decides', () => {
    expect(projectFromEnvironment({}, nested)).toBe(repo);
    expect(projectFromEnvironment({ ASK_LATER_PROJECT: '', CLAUDE_PROJECT_DIR: '' }, nested)).toBe(repo);
  });

  it('GIVEN a directory outside any repository THEN the project is that directory', () => {
    expect(projectFromEnvironment({ CLAUDE_PROJECT_DIR: plain }, repo)).toBe(plain);
    expect(projectFromEnvironment({}, plain)).toBe(plain);
  });

  it('GIVEN a symlink and the real path into one repository THEN both name one project', () => {
    expect(projectFromEnvironment({ CLAUDE_PROJECT_DIR: link }, plain)).toBe(
      projectFromEnvironment({ CLAUDE_PROJECT_DIR: join(repo, 'a') }, plain),
    );
  });

  it('GIVEN a symlink to a directory outside any repository THEN the project is the real directory', () => {
    const plainLink = join(root, 'plain-link');
    symlinkSync(plain, plainLink, 'dir');
    expect(projectFromEnvironment({}, plainLink)).toBe(plain);
  });
});
