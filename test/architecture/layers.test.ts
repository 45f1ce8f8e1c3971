import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The house's import rules, read from the source: every `from '…'` and `import('…')` of every module, resolved to the
 * folder it reaches. A rule broken names the file and what it imports.
 */
const SRC = resolve(import.meta.dirname, '../../src');
const SURFACES = ['slack', 'discord', 'telegram', 'terminal', 'web'] as const;

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modules(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Each module (relative to src) with the modules it imports (relative to src; packages as their name). */
const graph = modules(SRC).map((file) => {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1] ?? '');
  const imports = specifiers.map((specifier) =>
    specifier.startsWith('.') ? relative(SRC, resolve(dirname(file), specifier)) : specifier,
  );
  return { module: relative(SRC, file), imports };
});

function breaking(from: (module: string) => boolean, to: (target: string) => boolean): string[] {
  return graph
    .filter(({ module }) => from(module))
    .flatMap(({ module, imports }) => imports.filter(to).map((target) => `${module} → ${target}`));
}

describe('the layers', () => {
  it('GIVEN the source THEN the graph was read (the rules below are about something)', () => {
    expect(graph.filter(({ module }) => module.startsWith('bot/slack/')).length).toBeGreaterThan(5);
    expect(graph.some(({ imports }) => imports.includes('store/port.js'))).toBe(true);
  });

  it('GIVEN a module under bot/<platform>/ THEN it imports nothing of the store (every surface goes through InteractionService)', () => {
    const surface = (module: string) => SURFACES.some((name) => module.startsWith(`bot/${name}/`));
    expect(breaking(surface, (target) => target.startsWith('store/'))).toEqual([]);
  });

  it('GIVEN a surface THEN it imports no other surface', () => {
    const crossings = SURFACES.flatMap((name) =>
      breaking(
        (module) => module.startsWith(`bot/${name}/`),
        (target) => SURFACES.some((other) => other !== name && target.startsWith(`bot/${other}/`)),
      ),
    );
    expect(crossings).toEqual([]);
  });

  it('GIVEN the shared actions THEN they reach the store only through InteractionService, and no surface', () => {
    const actions = (module: string) => module.startsWith('bot/actions/');
    expect(
      breaking(
        actions,
        (target) => target.startsWith('store/') || SURFACES.some((name) => target.startsWith(`bot/${name}/`)),
      ),
    ).toEqual([]);
  });

  it('GIVEN core, store and blocks THEN they import nothing from bot, mcp, hook, agents or serve', () => {
    const lower = (module: string) => ['core/', 'store/', 'blocks/'].some((folder) => module.startsWith(folder));
    const upper = (target: string) =>
      ['bot/', 'mcp/', 'hook/', 'agents/', 'serve/'].some((folder) => target.startsWith(folder));
    expect(breaking(lower, upper)).toEqual([]);
  });

  it('GIVEN bot/ THEN no file is over ~300 lines (files the size of their job)', () => {
    const long = graph
      .filter(({ module }) => module.startsWith('bot/'))
      .map(({ module }) => ({ module, lines: readFileSync(join(SRC, module), 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > 330);
    expect(long).toEqual([]);
  });
});
