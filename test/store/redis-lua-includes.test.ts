import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveIncludes } from '../../src/store/redis/lua-includes.js';
import { scripts } from '../../src/store/redis/scripts.js';

const LUA = new URL('../../src/store/redis/lua/', import.meta.url);
const includes = readdirSync(new URL('includes/', LUA)).filter((file) => file.endsWith('.lua'));
/** Every function an include defines: `local function name(`. */
const shared = includes.flatMap((file) =>
  [...readFileSync(new URL(`includes/${file}`, LUA), 'utf8').matchAll(/^local function (\w+)\(/gm)].map((m) => m[1]),
);

/** Lua source without its comments (`--[[ … ]]` blocks and `--` lines). */
function code(source: string): string {
  return source.replace(/--\[\[[\s\S]*?\]\]/g, '').replace(/--[^\n]*/g, '');
}

describe('the Lua include step', () => {
  it('GIVEN every script THEN its includes resolve, no @include line is left, and each shared function it uses is defined once, before its first use, and none twice', () => {
    for (const script of Object.values(scripts)) {
      expect(script.source, script.name).not.toMatch(/@include/);
      const source = code(script.source);
      for (const name of shared) {
        const definitions = source.split(`local function ${name}(`).length - 1;
        const firstUse = source.search(new RegExp(`(?<!function )\\b${name}\\(`));
        // Defined once when used (an include may bring a neighbour the script does not use), never twice.
        expect(definitions, `${script.name}: ${name}`).toBe(firstUse >= 0 ? 1 : Math.min(definitions, 1));
        if (firstUse >= 0) {
          expect(source.indexOf(`local function ${name}(`), `${script.name}: ${name}`).toBeLessThan(firstUse);
        }
      }
      // The header contract stays first: the script's own text opens with it.
      expect(script.source.startsWith('--[['), script.name).toBe(true);
    }
  });

  it('GIVEN the scripts as written THEN none defines a function an include defines (the copies are gone)', () => {
    const files = readdirSync(LUA).filter((file) => file.endsWith('.lua'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = readFileSync(new URL(file, LUA), 'utf8');
      for (const name of shared) expect(text, `${file}: ${name}`).not.toContain(`local function ${name}(`);
    }
  });

  it('GIVEN a file included directly and through another include THEN it is put in once, at its first mention', () => {
    const files: Record<string, string> = {
      'includes/a': 'local function a() return 1 end',
      'includes/b': '--- @include "includes/a"\nlocal function b() return a() end',
    };
    const source = resolveIncludes(
      'test-0',
      '--- @include "includes/b"\n--- @include "includes/a"\nreturn b()',
      (path) => {
        const text = files[path];
        if (text === undefined) throw new Error(`no ${path}`);
        return text;
      },
    );
    expect(source.split('local function a(').length - 1).toBe(1);
    expect(source.indexOf('local function a(')).toBeLessThan(source.indexOf('local function b('));
    expect(source).toContain('return b()');
  });

  it('GIVEN a missing include, a cycle or a path outside lua/ THEN loading fails naming the script and the include', () => {
    const read = (path: string) => {
      if (path === 'includes/loop') return '--- @include "includes/loop"';
      throw new Error(`no ${path}`);
    };
    expect(() => resolveIncludes('broken-1', '--- @include "includes/gone"', read)).toThrow(
      'broken-1.lua: @include "includes/gone" cannot be read',
    );
    expect(() => resolveIncludes('broken-1', '--- @include "includes/loop"', read)).toThrow(
      'broken-1.lua: @include "includes/loop" includes itself',
    );
    expect(() => resolveIncludes('broken-1', '--- @include "../secret"', read)).toThrow('is not a path under lua/');
  });
});
