import { describe, expect, it } from 'vitest';
import { loadLogFormat, loadServeConfig } from '../../src/config/serve.js';
import { serveLogger, textLine } from '../../src/serve/log-lines.js';

function output(isTTY: boolean) {
  const lines: string[] = [];
  return { lines, isTTY, write: (text: string) => lines.push(text) };
}

describe("serve's log lines", () => {
  it('GIVEN stdout is a terminal and LOG_FORMAT unset THEN a line is the time, the message and its fields, no JSON', () => {
    const out = output(true);
    serveLogger(undefined, out).info({ port: 7420, store: 'sqlite', routes: 0 }, 'serve: ready');
    expect(out.lines).toHaveLength(1);
    expect(out.lines[0]).toMatch(/^\d\d:\d\d:\d\d serve: ready port=7420 store=sqlite routes=0\n$/);
  });

  it('GIVEN stdout is not a terminal THEN each line is one JSON object with the level, time, pid and fields', () => {
    const out = output(false);
    serveLogger(undefined, out).warn({ id: 'q1' }, 'bridge: retry');
    expect(out.lines).toHaveLength(1);
    expect(JSON.parse(out.lines[0] ?? '')).toMatchObject({
      level: 40,
      pid: process.pid,
      id: 'q1',
      msg: 'bridge: retry',
    });
  });

  it('GIVEN LOG_FORMAT=json on a terminal THEN JSON; GIVEN LOG_FORMAT=text off a terminal THEN text', () => {
    const tty = output(true);
    serveLogger('json', tty).info({ n: 1 }, 'm');
    expect(JSON.parse(tty.lines[0] ?? '')).toMatchObject({ n: 1, msg: 'm' });
    const pipe = output(false);
    serveLogger('text', pipe).error({ error: 'TypeError', reason: 'two words' }, 'serve: failed');
    expect(pipe.lines[0]).toMatch(/^\d\d:\d\d:\d\d error serve: failed error=TypeError reason="two words"\n$/);
  });

  it('GIVEN a line that is not JSON THEN the text form passes it on as it came', () => {
    expect(textLine('not json')).toBe('not json\n');
  });

  it('GIVEN LOG_FORMAT THEN json and text are taken (any case), empty is unset, anything else is one line naming it', () => {
    expect(loadLogFormat('JSON')).toBe('json');
    expect(loadLogFormat(' text ')).toBe('text');
    expect(loadLogFormat('')).toBeUndefined();
    expect(loadLogFormat(undefined)).toBeUndefined();
    expect(() => loadLogFormat('pretty')).toThrow(
      'LOG_FORMAT must be json (one JSON object a line) or text (short lines for a terminal), got "pretty"',
    );
    expect(loadServeConfig({ HOME: '/h', LOG_FORMAT: 'json' }).logFormat).toBe('json');
  });
});
