/**
 * serve's logger: pino, writing its JSON lines as they are (`LOG_FORMAT=json`, or stdout not a terminal) or as short
 * lines for a person at a terminal (`18:02:31 serve: ready port=7420 store=sqlite`). The text form is pino's own
 * destination hook (any object with `write`), not a transport: no worker thread and no extra package at start.
 */
import { pino } from 'pino';
import type { LogFormat } from '../config/serve.js';
import type { Logger } from '../core/logger.js';

/** Where the lines go: stdout (`isTTY` picks the format when `LOG_FORMAT` is unset). */
export interface LogOutput {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

/** The logger serve uses unless one is handed in: `format` as configured, else by whether `out` is a terminal. */
export function serveLogger(format: LogFormat | undefined, out: LogOutput = process.stdout): Logger {
  if ((format ?? (out.isTTY === true ? 'text' : 'json')) === 'json') {
    return pino({ base: { pid: process.pid } }, out);
  }
  return pino({ base: null }, { write: (line: string) => out.write(textLine(line)) });
}

/** pino's numeric levels as a person reads them; info (30) says nothing. */
const LEVEL_WORDS: Readonly<Record<number, string>> = { 40: 'warning', 50: 'error', 60: 'fatal' };

/** One JSON line from pino as `HH:MM:SS [level] message key=value …`, ending with a newline. */
export function textLine(json: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const { level, time, msg, ...fields } = record;
  const clock = typeof time === 'number' ? new Date(time).toTimeString().slice(0, 8) : '';
  const word = typeof level === 'number' ? LEVEL_WORDS[level] : undefined;
  const pairs = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${fieldText(value)}`);
  return `${[clock, word, typeof msg === 'string' ? msg : '', ...pairs].filter(Boolean).join(' ')}\n`;
}

function fieldText(value: unknown): string {
  if (typeof value === 'string') return /^[^\s="]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}
