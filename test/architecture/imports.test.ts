/**
 * The layers AGENTS.md states, held by a test instead of by memory: every import (static, type-only, re-export and
 * dynamic) of every file under src/ is checked against what its folder may import. A rule broken anywhere fails here
 * with the file, the import and the rule; a planted violation proves the check itself bites.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(new URL('../../src', import.meta.url).pathname);

/** What a folder may import (folders under src/; a file at src/'s top level is its own name without `.ts`). */
const RULES: readonly { readonly from: RegExp; readonly may: readonly RegExp[]; readonly why: string }[] = [
  { from: /^core\//, may: [/^core\//], why: 'core/ is the domain: pure, it imports nothing of ours but itself' },
  {
    from: /^store\//,
    may: [/^core\//, /^store\//],
    why: 'store/ holds the questions: it imports core only (no surface, no agent, no command)',
  },
  {
    from: /^blocks\//,
    may: [/^core\//, /^blocks\//],
    why: 'blocks/ are pure renderers of the domain: core and blocks only (never the store, never a surface)',
  },
  {
    from: /^agents\//,
    may: [/^core\//, /^store\//, /^agents\//, /^agent-config$/, /^config-error$/, /^project$/],
    why: 'agents/ adapt one coding agent: the domain, the store and the agent side’s settings',
  },
  {
    from: /^(hook|waiter|status)\//,
    may: [
      /^core\//,
      /^store\//,
      /^agents\//,
      /^(hook|waiter|status)\//,
      /^agent-config$/,
      /^config-error$/,
      /^project$/,
    ],
    why: 'the processes an agent starts stay small: core, store, their agent and the agent side’s settings',
  },
  {
    from: /^mcp\//,
    may: [/^core\//, /^store\//, /^agents\//, /^mcp\//, /^agent-config$/, /^config-error$/, /^project$/],
    why: 'the MCP server is the agent side: no surface, no serve',
  },
];

/** Every `.ts` file under `dir`, relative to src/ with `/` separators. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(SRC, path).split('\\').join('/')] : [];
  });
}

/** The files of ours a source imports, relative to src/ (`store/port.ts` → `store/port`; a top file → its name). */
function importsOf(file: string, text: string): string[] {
  const found: string[] = [];
  const pattern = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/gm;
  for (const match of text.matchAll(pattern)) {
    const spec = match[1] ?? match[2];
    if (spec === undefined) continue;
    const target = relative(SRC, resolve(SRC, dirname(file), spec))
      .split('\\')
      .join('/');
    found.push(target.replace(/\.(js|ts|mjs)$/, ''));
  }
  return found;
}

interface Violation {
  readonly file: string;
  readonly imports: string;
  readonly why: string;
}

/** Every import that breaks a rule, in `files` (path relative to src/ → source text). */
function violations(files: ReadonlyMap<string, string>): Violation[] {
  const broken: Violation[] = [];
  for (const [file, text] of files) {
    const rule = RULES.find((candidate) => candidate.from.test(file));
    if (!rule) continue;
    for (const target of importsOf(file, text)) {
      if (target.startsWith('..')) continue; // outside src/ (a package's json read by URL, say)
      if (!rule.may.some((allowed) => allowed.test(target))) broken.push({ file, imports: target, why: rule.why });
    }
  }
  return broken;
}

const tree = new Map(sourceFiles(SRC).map((file) => [file, readFileSync(join(SRC, file), 'utf8')]));

describe('the layers', () => {
  it('GIVEN the source tree THEN no file imports across a rule AGENTS.md states', () => {
    expect(violations(tree)).toEqual([]);
  });

  it('GIVEN a renderer importing the store, and the store importing a surface THEN both are named with their rule', () => {
    const planted = new Map(tree);
    planted.set('blocks/slack/planted.ts', "import type { Store } from '../../store/port.js';\n");
    planted.set('store/planted.ts', "export { createSlackApp } from '../bot/slack/app.js';\n");
    expect(violations(planted)).toEqual([
      { file: 'blocks/slack/planted.ts', imports: 'store/port', why: expect.stringContaining('pure renderers') },
      { file: 'store/planted.ts', imports: 'bot/slack/app', why: expect.stringContaining('core only') },
    ]);
  });
});
