/**
 * The layers AGENTS.md states, held by a test instead of by memory: every import (static, type-only, re-export and
 * dynamic) of every file under src/ is checked against the rules of its folder. A rule broken anywhere fails here
 * with the file, the import and the rule; a planted violation proves the check itself bites.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

/** The surfaces a person answers on: each the only home of its platform's SDK. */
const SURFACES = ['slack', 'discord', 'telegram', 'web', 'terminal'] as const;
const surfaceOf = (path: string) => SURFACES.find((name) => path.startsWith(`bot/${name}/`));

/** The agent side's settings: what the processes an agent starts may read besides core and the store. */
const AGENT_SETTINGS = [/^agent-config$/, /^config-error$/, /^project$/];

/**
 * What a folder may import (paths under src/ without extension; a file at src/'s top level is its name), as the
 * folders it may reach (`may`) or a test of what it must not (`mayNot`). The first rule whose `from` matches applies.
 */
interface Rule {
  readonly from: RegExp;
  readonly may?: readonly RegExp[];
  readonly mayNot?: (target: string, from: string) => boolean;
  readonly why: string;
}

const RULES: readonly Rule[] = [
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
    may: [/^core\//, /^store\//, /^agents\//, ...AGENT_SETTINGS],
    why: 'agents/ adapt one coding agent: the domain, the store and the agent side’s settings',
  },
  {
    from: /^(hook|waiter|status)\//,
    may: [/^core\//, /^store\//, /^agents\//, /^(hook|waiter|status)\//, ...AGENT_SETTINGS],
    why: 'the processes an agent starts stay small: core, store, their agent and the agent side’s settings',
  },
  {
    from: /^mcp\//,
    may: [/^core\//, /^store\//, /^agents\//, /^mcp\//, ...AGENT_SETTINGS],
    why: 'the MCP server is the agent side: no surface, no serve',
  },
  {
    from: /^bot\/actions\//,
    mayNot: (target) => target.startsWith('store/') || surfaceOf(target) !== undefined,
    why: 'the shared actions reach the store only through InteractionService, and know no surface',
  },
  {
    from: new RegExp(`^bot/(${SURFACES.join('|')})/`),
    mayNot: (target, from) =>
      target.startsWith('store/') || (surfaceOf(target) !== undefined && surfaceOf(target) !== surfaceOf(from)),
    why: 'a surface parses payloads into actions and renders replies: no store (InteractionService), no other surface',
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
      const allowed = rule.may ? rule.may.some((may) => may.test(target)) : !rule.mayNot?.(target, file);
      if (!allowed) broken.push({ file, imports: target, why: rule.why });
    }
  }
  return broken;
}

const tree = new Map(sourceFiles(SRC).map((file) => [file, readFileSync(join(SRC, file), 'utf8')]));

describe('the layers', () => {
  it('GIVEN the source tree THEN the imports were read (the rules are about something)', () => {
    const all = [...tree].flatMap(([file, text]) => importsOf(file, text));
    expect([...tree.keys()].filter((file) => file.startsWith('bot/slack/')).length).toBeGreaterThan(5);
    expect(all).toContain('store/port');
  });

  it('GIVEN the source tree THEN no file imports across a rule AGENTS.md states', () => {
    expect(violations(tree)).toEqual([]);
  });

  it('GIVEN planted imports across each kind of rule THEN each is named with its rule', () => {
    const planted = new Map(tree);
    planted.set('blocks/slack/planted.ts', "import type { Store } from '../../store/port.js';\n");
    planted.set('store/planted.ts', "export { createSlackApp } from '../bot/slack/app.js';\n");
    planted.set('bot/discord/planted.ts', "const x = await import('../../store/port.js');\n");
    planted.set('bot/web/planted.ts', "import { x } from '../slack/app.js';\n");
    planted.set('bot/actions/planted.ts', "import { y } from '../telegram/poller.js';\n");
    expect(violations(planted)).toEqual([
      { file: 'blocks/slack/planted.ts', imports: 'store/port', why: expect.stringContaining('pure renderers') },
      { file: 'store/planted.ts', imports: 'bot/slack/app', why: expect.stringContaining('core only') },
      { file: 'bot/discord/planted.ts', imports: 'store/port', why: expect.stringContaining('no store') },
      { file: 'bot/web/planted.ts', imports: 'bot/slack/app', why: expect.stringContaining('no other surface') },
      {
        file: 'bot/actions/planted.ts',
        imports: 'bot/telegram/poller',
        why: expect.stringContaining('know no surface'),
      },
    ]);
  });

  it('GIVEN the composition root THEN only serve/ itself and cli.ts import serve/, and nothing imports cli.ts', () => {
    const crossings = [...tree].flatMap(([file, text]) =>
      importsOf(file, text)
        .filter((target) => (target.startsWith('serve/') && !/^(serve\/|cli\.ts$)/.test(file)) || target === 'cli')
        .map((target) => `${file} → ${target}`),
    );
    expect(crossings).toEqual([]);
  });

  it('GIVEN bot/ THEN no file is over ~300 lines (files the size of their job)', () => {
    const long = [...tree]
      .filter(([file]) => file.startsWith('bot/'))
      .map(([file, text]) => ({ file, lines: text.split('\n').length }))
      .filter(({ lines }) => lines > 330);
    expect(long).toEqual([]);
  });
});
