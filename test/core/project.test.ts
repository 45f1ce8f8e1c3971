import { describe, expect, it } from 'vitest';
import { type ProjectInput, resolveProject } from '../../src/core/project.js';

/** A git look-up that knows one repository at /repo (and its subdirectories). */
function fakeGit(calls: string[] = []): (dir: string) => string | undefined {
  return (dir) => {
    calls.push(dir);
    return dir === '/repo' || dir.startsWith('/repo/') ? '/repo' : undefined;
  };
}

describe('resolveProject', () => {
  const cases: [string, ProjectInput, string][] = [
    ['ASK_LATER_PROJECT set', { askLaterProject: 'billing', claudeProjectDir: '/repo/sub', cwd: '/repo' }, 'billing'],
    ['ASK_LATER_PROJECT with spaces around', { askLaterProject: '  billing api \n', cwd: '/repo' }, 'billing api'],
    ['ASK_LATER_PROJECT blank', { askLaterProject: '   ', cwd: '/repo/a/b' }, '/repo'],
    ['ASK_LATER_PROJECT empty', { askLaterProject: '', claudeProjectDir: '/repo/x', cwd: '/elsewhere' }, '/repo'],
    ['CLAUDE_PROJECT_DIR inside a repository', { claudeProjectDir: '/repo/packages/api', cwd: '/elsewhere' }, '/repo'],
    ['CLAUDE_PROJECT_DIR outside any repository', { claudeProjectDir: '/plain/dir', cwd: '/repo' }, '/plain/dir'],
    ['CLAUDE_PROJECT_DIR blank', { claudeProjectDir: ' ', cwd: '/repo/sub' }, '/repo'],
    ['only the working directory, inside a repository', { cwd: '/repo/src' }, '/repo'],
    ['only the working directory, outside any repository', { cwd: '/tmp/scratch' }, '/tmp/scratch'],
  ];

  it.each(cases)('GIVEN %s THEN the project is as the rule says', (_name, input, expected) => {
    expect(resolveProject(input, fakeGit())).toBe(expected);
  });

  it('GIVEN ASK_LATER_PROJECT THEN git is not looked up', () => {
    const calls: string[] = [];
    resolveProject({ askLaterProject: 'billing', cwd: '/repo' }, fakeGit(calls));
    expect(calls).toEqual([]);
  });

  it('GIVEN CLAUDE_PROJECT_DIR THEN only it is looked up, once', () => {
    const calls: string[] = [];
    resolveProject({ claudeProjectDir: '/plain/dir', cwd: '/repo' }, fakeGit(calls));
    expect(calls).toEqual(['/plain/dir']);
  });
});
