#!/usr/bin/env node
/**
 * `ask-later <command>`: each command lazy-imports only what it runs, so the per-prompt hook stays cheap.
 * Commands arrive with their issues (mcp, hook, serve, doctor); this entry lists what this build has.
 */
import { readFileSync } from 'node:fs';

const commands: Record<string, { summary: string; run: (args: string[]) => Promise<number> }> = {};

function usage(): string {
  const lines = Object.entries(commands).map(([name, command]) => `  ${name.padEnd(10)} ${command.summary}`);
  return [
    'Usage: ask-later <command>',
    '',
    lines.length > 0 ? 'Commands:' : 'This build has no commands yet: it ships the domain and the store only.',
    ...lines,
    '',
    'Options: --help, --version',
  ].join('\n');
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`ask-later: unknown command "${name}"\n\n${usage()}\n`);
    return 2;
  }
  return command.run(rest);
}

process.exitCode = await main(process.argv.slice(2));
