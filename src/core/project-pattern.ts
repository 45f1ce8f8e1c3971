/**
 * Project patterns, as routes, tokens and searches name projects: a project name matches itself; `*` matches any
 * characters except `/` (within one path segment); `**` matches any characters, `/` included (any depth; `a/**`
 * matches below `a`, `a/**\/b` also matches `a/b`). Every other character is literal.
 */

/** A project pattern as a regular expression (anchored). */
export function compilePattern(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; ) {
    if (pattern.startsWith('**', i)) {
      const slashBefore = i === 0 || pattern[i - 1] === '/';
      const slashAfter = pattern[i + 2] === '/';
      if (slashBefore && slashAfter) {
        // `**/`: zero or more whole segments.
        source += '(?:.*/)?';
        i += 3;
      } else {
        source += '.*';
        i += 2;
      }
    } else if (pattern[i] === '*') {
      source += '[^/]*';
      i += 1;
    } else {
      source += (pattern[i] ?? '').replace(/[\\^$.|?+()[\]{}]/g, '\\$&');
      i += 1;
    }
  }
  return new RegExp(`^${source}$`, 's');
}

/** Whether `project` matches `pattern` (see the rule above). */
export function matchesProject(pattern: string, project: string): boolean {
  return compilePattern(pattern).test(project);
}
