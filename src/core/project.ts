/**
 * Which project a question belongs to. Every side (MCP server, hook, bridge) must resolve the same project for the
 * same place, or one side would not see the other's questions. Pure: the git look-up is passed in.
 */

/** The places the project can come from; blank values count as unset. */
export interface ProjectInput {
  /** `ASK_LATER_PROJECT`: an explicit project name; wins when non-blank (trimmed). */
  readonly askLaterProject?: string | undefined;
  /** `CLAUDE_PROJECT_DIR`: the directory Claude Code was started in. */
  readonly claudeProjectDir?: string | undefined;
  /** The working directory, used when `CLAUDE_PROJECT_DIR` is unset. */
  readonly cwd: string;
}

/**
 * The project: `ASK_LATER_PROJECT` if set, else the git top-level of `CLAUDE_PROJECT_DIR` (or of the working
 * directory when that is unset), else that directory as given. `gitTopLevel` is called at most once, and not at all
 * when `ASK_LATER_PROJECT` is set.
 */
export function resolveProject(input: ProjectInput, gitTopLevel: (dir: string) => string | undefined): string {
  const explicit = input.askLaterProject?.trim();
  if (explicit) {
    return explicit;
  }
  const given = input.claudeProjectDir;
  const dir = given !== undefined && given.trim() !== '' ? given : input.cwd;
  return gitTopLevel(dir) ?? dir;
}
