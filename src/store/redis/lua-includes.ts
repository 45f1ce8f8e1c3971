/**
 * The Lua include step (BullMQ's): a script names a file of shared functions with a line `--- @include "includes/pad"`
 * (a path under lua/, without `.lua`), and the line is replaced by that file's text when the script loads. An include
 * may include others; each file is put in once per script, at its first mention (later mentions are dropped), so
 * functions are defined before the script uses them and never twice. The script keeps its name and header contract.
 */

const INCLUDE = /^---\s*@include\s+"([^"]+)"\s*$/gm;

/** Whether an include path is a plain relative path under lua/ (no `..`, no absolute path). */
function isPlainPath(path: string): boolean {
  return /^[a-z0-9][a-z0-9/_-]*$/i.test(path) && !path.split('/').includes('..');
}

/**
 * `source` with its includes resolved: `read(path)` gives an include's text (path without `.lua`). Throws on a
 * missing or malformed include and on a cycle, naming the script (`name`) and the include.
 */
export function resolveIncludes(name: string, source: string, read: (path: string) => string): string {
  const included = new Set<string>();
  const expand = (text: string, chain: readonly string[]): string =>
    text.replace(INCLUDE, (_line, path: string) => {
      if (!isPlainPath(path)) throw new Error(`${name}.lua: @include "${path}" is not a path under lua/`);
      if (chain.includes(path))
        throw new Error(`${name}.lua: @include "${path}" includes itself (${chain.join(' → ')})`);
      if (included.has(path)) return `-- (${path} is included above)`;
      included.add(path);
      let body: string;
      try {
        body = read(path);
      } catch (error) {
        throw new Error(`${name}.lua: @include "${path}" cannot be read`, { cause: error });
      }
      return `-- ${path}.lua\n${expand(body, [...chain, path]).trimEnd()}`;
    });
  return expand(source, []);
}
