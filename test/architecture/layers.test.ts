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
const surfaceOf = (path: string) => SURFACES.find((name) => path.startsWith(`surfaces/${name}/`));

/** The agent side's settings: what the processes an agent starts may read besides core and the store. */
const AGENT_SETTINGS = [/^config\/agent$/, /^config\/config-error$/, /^config\/project$/];

/** A command's own folder (`commands/doctor/…` → `doctor`); undefined for what the commands share. */
const commandOf = (path: string) => /^commands\/([^/]+)\//.exec(path)?.[1];

/**
 * What a room may import (paths under src/ without extension; a file at src/'s top level is its name), as the
 * rooms it may reach (`may`) or a test of what it must not (`mayNot`). The first rule whose `from` matches applies.
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
    from: /^render\//,
    may: [/^core\//, /^render\//],
    why: 'render/ holds pure renderers of the domain: core and render only (never the store, never a surface)',
  },
  {
    from: /^config\//,
    may: [/^core\//, /^store\//, /^config\//],
    why: 'config/ parses settings: the domain and where the store is, nothing that acts on them',
  },
  {
    from: /^agents\//,
    may: [/^core\//, /^store\//, /^agents\//, ...AGENT_SETTINGS],
    why: 'agents/ is the agent side (each agent, the MCP server, hooks, the wake): the domain, the store and the agent side’s settings',
  },
  {
    from: /^surfaces\/actions\//,
    mayNot: (target) => target.startsWith('store/') || surfaceOf(target) !== undefined || !allowedToSurfaces(target),
    why: 'the shared actions reach the store only through InteractionService, and know no surface',
  },
  {
    from: new RegExp(`^surfaces/(${SURFACES.join('|')})/`),
    mayNot: (target, from) =>
      target.startsWith('store/') ||
      (surfaceOf(target) !== undefined && surfaceOf(target) !== surfaceOf(from)) ||
      !allowedToSurfaces(target),
    why: 'a surface parses payloads into actions and renders replies: no store (InteractionService), no other surface',
  },
  {
    from: /^surfaces\//,
    mayNot: (target) => !allowedToSurfaces(target),
    why: 'surfaces/ is how a person acts: the domain, the store, renderers and settings; never an agent, serve or a command',
  },
  {
    from: /^commands\//,
    mayNot: (target, from) =>
      /^(serve\/|cli$)/.test(target) ||
      (commandOf(target) !== undefined && commandOf(from) !== undefined && commandOf(target) !== commandOf(from)),
    why: 'a command wires what it runs from the rooms below; it never imports serve or another command’s folder',
  },
  {
    from: /^serve\//,
    mayNot: (target) => /^(commands\/|cli$)/.test(target),
    why: 'serve/ is the long-running composition root: every room below, no command',
  },
];

/** What any file under surfaces/ may reach at all. */
function allowedToSurfaces(target: string): boolean {
  return /^(core|store|render|config|surfaces|generated)\//.test(target);
}

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
    expect([...tree.keys()].filter((file) => file.startsWith('surfaces/slack/')).length).toBeGreaterThan(5);
    expect(all).toContain('store/port');
  });

  it('GIVEN the source tree THEN no file imports across a rule AGENTS.md states', () => {
    expect(violations(tree)).toEqual([]);
  });

  it('GIVEN planted imports across each kind of rule THEN each is named with its rule', () => {
    const planted = new Map(tree);
    planted.set('render/slack/planted.ts', "import type { Store } from '../../store/port.js';\n");
    planted.set('store/planted.ts', "export { createSlackApp } from '../surfaces/slack/app.js';\n");
    planted.set('surfaces/discord/planted.ts', "const x = await import('../../store/port.js');\n");
    planted.set('surfaces/web/planted.ts', "import { x } from '../slack/app.js';\n");
    planted.set('surfaces/actions/planted.ts', "import { y } from '../telegram/poller.js';\n");
    planted.set('agents/mcp/planted.ts', "import { z } from '../../surfaces/interactions.js';\n");
    planted.set('config/planted.ts', "import { w } from '../agents/mcp/run.js';\n");
    planted.set('commands/token/planted.ts', "import { v } from '../doctor/run.js';\n");
    planted.set('surfaces/web/planted2.ts', "import { u } from '../../serve/run.js';\n");
    expect(violations(planted)).toEqual([
      { file: 'render/slack/planted.ts', imports: 'store/port', why: expect.stringContaining('pure renderers') },
      { file: 'store/planted.ts', imports: 'surfaces/slack/app', why: expect.stringContaining('core only') },
      { file: 'surfaces/discord/planted.ts', imports: 'store/port', why: expect.stringContaining('no store') },
      {
        file: 'surfaces/web/planted.ts',
        imports: 'surfaces/slack/app',
        why: expect.stringContaining('no other surface'),
      },
      {
        file: 'surfaces/actions/planted.ts',
        imports: 'surfaces/telegram/poller',
        why: expect.stringContaining('know no surface'),
      },
      { file: 'agents/mcp/planted.ts', imports: 'surfaces/interactions', why: expect.stringContaining('agent side') },
      { file: 'config/planted.ts', imports: 'agents/mcp/run', why: expect.stringContaining('parses settings') },
      {
        file: 'commands/token/planted.ts',
        imports: 'commands/doctor/run',
        why: expect.stringContaining('another command'),
      },
      { file: 'surfaces/web/planted2.ts', imports: 'serve/run', why: expect.stringContaining('no other surface') },
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

  it('GIVEN surfaces/ THEN no file is over ~300 lines (files the size of their job)', () => {
    const long = [...tree]
      .filter(([file]) => file.startsWith('surfaces/'))
      .map(([file, text]) => ({ file, lines: text.split('\n').length }))
      .filter(({ lines }) => lines > 330);
    expect(long).toEqual([]);
  });
});
