/**
 * The project of the running process, from its environment and working directory (the rule is in
 * `core/project.ts`). The hook runs this on every prompt, so it spawns no `git`: it looks for `.git` itself.
 */
import { realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { projectNameProblem, resolveProject } from '../core/project.js';
import { ConfigError } from './config-error.js';

/**
 * The git top-level containing `dir`: the nearest directory, from `dir` upwards, that holds a `.git` directory or
 * a `.git` file (linked worktrees and submodules have a file). Paths are resolved through symlinks first, so every
 * path into one repository names it the same way; a relative `dir` is taken from the process's working directory.
 * Undefined when no directory up to the root has `.git`. Unlike `git rev-parse --show-toplevel` it does not read
 * `GIT_DIR`/`GIT_WORK_TREE` or check that `.git` is a valid repository.
 */
export function findGitTopLevel(dir: string): string | undefined {
  let current = canonicalPath(dir);
  for (;;) {
    const entry = statSync(join(current, '.git'), { throwIfNoEntry: false });
    if (entry?.isDirectory() || entry?.isFile()) {
      return current;
    }
    const parent = dirname(current);
    if (parent === current) {
      return undefined;
    }
    current = parent;
  }
}

/**
 * The project for an environment (`ASK_LATER_PROJECT`, `CLAUDE_PROJECT_DIR`) and working directory. The caller
 * passes both in; this never reads `process.env`. A relative `CLAUDE_PROJECT_DIR` is taken from `cwd`, and a
 * directory outside git is named by its real path, so symlinked paths resolve to one project there too. A name
 * holding control characters (`core/project.ts`) is a ConfigError: it would be printed in people's terminals.
 */
export function projectFromEnvironment(env: NodeJS.ProcessEnv, cwd: string): string {
  const claudeProjectDir = env.CLAUDE_PROJECT_DIR;
  const project = resolveProject(
    {
      askLaterProject: env.ASK_LATER_PROJECT,
      claudeProjectDir:
        claudeProjectDir === undefined || claudeProjectDir.trim() === ''
          ? undefined
          : canonicalPath(resolve(cwd, claudeProjectDir)),
      cwd: canonicalPath(cwd),
    },
    findGitTopLevel,
  );
  const problem = projectNameProblem(project);
  if (problem === undefined) return project;
  const from = env.ASK_LATER_PROJECT?.trim() ? 'ASK_LATER_PROJECT' : 'the project directory';
  throw new ConfigError(`${problem}, from ${from}: set ASK_LATER_PROJECT to a name without them`);
}

/** The absolute real path; for a path that does not exist (yet), the absolute path as written. */
function canonicalPath(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync.native(absolute);
  } catch {
    return absolute;
  }
}
