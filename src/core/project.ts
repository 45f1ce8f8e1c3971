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

/**
 * Characters no project name may hold: C0 and C1 controls and DEL (a name is printed in terminals, where `ESC ]0;…`
 * retitles the window and other sequences move the cursor or rewrite what was printed), the line and paragraph
 * separators, and the bidirectional overrides and isolates (which reorder what a reader sees).
 */
export const PROJECT_FORBIDDEN = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

/** Why `name` cannot be a project name (one line naming the first offending character), or undefined when it can. */
export function projectNameProblem(name: string): string | undefined {
  const found = PROJECT_FORBIDDEN.exec(name);
  if (found === null) return undefined;
  const code = (found[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return `a project name may not hold control characters (U+${code} at position ${found.index + 1})`;
}

const FORBIDDEN_ALL = new RegExp(PROJECT_FORBIDDEN.source, 'gu');
const NONE: ReadonlySet<string> = new Set();

/**
 * `text` with every character {@link PROJECT_FORBIDDEN} names shown as an escape (`ESC` → `\x1b`, U+202E →
 * `\u202e`), except those in `keep` (a multi-line field keeps its line breaks): what a terminal or a spreadsheet
 * may print of a name stored before the names were checked, or of any text from outside.
 */
export function escapeControls(text: string, keep: ReadonlySet<string> = NONE): string {
  return text.replace(FORBIDDEN_ALL, (char) => {
    if (keep.has(char)) return char;
    const code = char.codePointAt(0) ?? 0;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
