import { describe, expect, it } from 'vitest';
import {
  askLaterEntry,
  type McpEntry,
  newConfigText,
  withAskLater,
  withoutAskLater,
} from '../../../src/agents/opencode/config-edit.js';
import { parseJsonc, plain } from '../../../src/agents/opencode/jsonc.js';

const ENTRY: McpEntry = { type: 'local', command: ['/usr/bin/node', '/opt/ask-later/cli.js', 'mcp'], enabled: true };

function written(edit: ReturnType<typeof withAskLater>): string {
  if (edit.kind !== 'write') throw new Error(`expected a write, got ${edit.kind}`);
  return edit.text;
}

const CONFIGS = {
  empty: '{}\n',
  jsonc:
    '{\n  // my model\n  "$schema": "https://opencode.ai/config.json",\n  "model": "a/b", /* inline */\n  "theme": "x",\n}\n',
  otherServers: '{\n  "mcp": {\n    "docs": { "type": "remote", "url": "https://example.com/mcp" }\n  }\n}\n',
  emptyMcp: '{ "mcp": {}, "model": "a/b" }',
};

describe('OpenCode config edit', () => {
  it.each(
    Object.entries(CONFIGS),
  )('GIVEN the %s config THEN setup adds the server and --remove gives back the same bytes', (_name, text) => {
    const added = written(withAskLater(text, ENTRY));
    expect((plain(parseJsonc(added)) as { mcp: Record<string, unknown> }).mcp['ask-later']).toEqual(ENTRY);
    expect(askLaterEntry(added)).toEqual({ command: ENTRY.command });
    expect(withAskLater(added, ENTRY)).toEqual({ kind: 'unchanged' });
    expect(withoutAskLater(added)).toEqual({ kind: 'write', text });
  });

  it('GIVEN a config that keeps its other servers THEN they stay beside ask-later', () => {
    const added = written(withAskLater(CONFIGS.otherServers, ENTRY));
    const mcp = (plain(parseJsonc(added)) as { mcp: Record<string, unknown> }).mcp;
    expect(Object.keys(mcp).sort()).toEqual(['ask-later', 'docs']);
  });

  it('GIVEN no config file THEN setup creates one and --remove deletes it', () => {
    const created = written(withAskLater(undefined, ENTRY));
    expect(created).toBe(newConfigText(ENTRY));
    expect(withoutAskLater(created)).toEqual({ kind: 'delete' });
  });

  it('GIVEN ask-later set up from another install THEN setup points the entry at this one', () => {
    const old = written(withAskLater(CONFIGS.jsonc, { ...ENTRY, command: ['/old/node', '/old/cli.js', 'mcp'] }));
    const updated = written(withAskLater(old, ENTRY));
    expect(askLaterEntry(updated)).toEqual({ command: ENTRY.command });
    expect(updated).toContain('// my model');
  });

  it('GIVEN the file was reformatted after setup THEN --remove cuts the member alone and keeps the rest', () => {
    const reformatted = `{"mcp":{"ask-later":${JSON.stringify(ENTRY)},"docs":{"type":"remote","url":"u"}},"model":"a/b"}`;
    const removed = written(withoutAskLater(reformatted));
    expect(plain(parseJsonc(removed))).toEqual({ mcp: { docs: { type: 'remote', url: 'u' } }, model: 'a/b' });
    const last = `{"mcp":{"docs":{"type":"remote","url":"u"},"ask-later":${JSON.stringify(ENTRY)}}}`;
    expect(plain(parseJsonc(written(withoutAskLater(last))))).toEqual({ mcp: { docs: { type: 'remote', url: 'u' } } });
  });

  it.each([
    ['not JSON', '{"model": "a/b"', /not JSON or JSONC .*line 1/],
    ['a list', '[1, 2]', /does not hold a JSON object/],
    ['mcp as a list', '{"mcp": []}', /"mcp" is not an object/],
  ])('GIVEN a config that is %s THEN setup and --remove refuse it with the reason', (_name, text, reason) => {
    const added = withAskLater(text, ENTRY);
    expect(added.kind).toBe('refused');
    expect(added.kind === 'refused' ? added.reason : '').toMatch(reason);
    expect(withoutAskLater(text).kind).toBe('refused');
  });

  it('GIVEN a config without ask-later THEN --remove changes nothing', () => {
    expect(withoutAskLater(CONFIGS.jsonc)).toEqual({ kind: 'unchanged' });
    expect(withoutAskLater(undefined)).toEqual({ kind: 'unchanged' });
  });

  it('GIVEN strings holding comment marks and escapes THEN they are read as strings', () => {
    const text = '{ "a": "// not a comment", "b": "quote \\" /* x */", "c": [1, {"d": null}] }';
    expect(plain(parseJsonc(text))).toEqual({ a: '// not a comment', b: 'quote " /* x */', c: [1, { d: null }] });
  });
});
