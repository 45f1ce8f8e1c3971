import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { boundedTail, lastPlanFile, textBeforeToolCall } from '../../../src/agents/claude-code/transcript.js';

const dir = mkdtempSync(join(tmpdir(), 'ask-later-transcript-'));
let n = 0;
function file(lines: readonly (object | string)[]): string {
  const path = join(dir, `t${++n}.jsonl`);
  writeFileSync(path, `${lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}\n`);
  return path;
}
const assistant = (...content: object[]) => ({ type: 'assistant', message: { role: 'assistant', content } });
const text = (t: string) => ({ type: 'text', text: t });
const call = (id: string) => ({ type: 'tool_use', id, name: 'AskUserQuestion', input: {} });

describe('the transcript as ask-later reads it', () => {
  it('GIVEN the reply written a block a line, with other lines between THEN the text before the call is the reply’s text, back to the last tool result', async () => {
    const path = file([
      { type: 'user', message: { role: 'user', content: 'Go.' } },
      assistant(text('Earlier turn text.'), { type: 'tool_use', id: 'b1', name: 'Bash', input: {} }),
      { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'b1' }] } },
      assistant(text('First part.')),
      { type: 'attachment', attachment: {} },
      'not json at all',
      assistant(text('Second part.')),
      assistant(call('t1')),
      assistant(text('After the call.')),
    ]);
    expect(await textBeforeToolCall(path, 't1')).toBe('First part.\n\nSecond part.');
  });

  it('GIVEN text and the call in one line THEN the text before it counts; GIVEN no file THEN nothing, at once', async () => {
    expect(await textBeforeToolCall(file([assistant(text('Why.'), call('t2'))]), 't2')).toBe('Why.');
    expect(await textBeforeToolCall(join(dir, 'missing.jsonl'), 't3')).toBe('');
  });

  it('GIVEN plan files written and edited THEN the last one is the plan', async () => {
    const edit = (path: string) => assistant({ type: 'tool_use', id: path, name: 'Edit', input: { file_path: path } });
    const path = file([
      edit('/home/me/.claude/plans/a.md'),
      edit('/home/me/src/x.md'),
      edit('/home/me/.claude/plans/b.md'),
    ]);
    expect(await lastPlanFile(path)).toBe('/home/me/.claude/plans/b.md');
    expect(await lastPlanFile(file([edit('/home/me/src/x.md')]))).toBe('');
  });

  it('GIVEN text longer than the room THEN its end is kept, from a line start, marked as cut', () => {
    const long = `${'a'.repeat(100)}\n${'b'.repeat(50)}`;
    expect(boundedTail(long, 60)).toBe(`…\n${'b'.repeat(50)}`);
    expect(boundedTail('short', 60)).toBe('short');
    expect(boundedTail(long, 60).length).toBeLessThanOrEqual(60);
  });
});
