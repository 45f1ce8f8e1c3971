import { readFileSync } from 'node:fs';

/** This install's version (package.json), as the MCP server announces it. */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}
