/**
 * Codex's `config.toml` as text: parsed (smol-toml) to check it and read it, but edited as lines, so everything
 * ask-later did not write stays byte for byte. Pure.
 *
 * ask-later's part is a run of whole tables appended at the end (see `codex/wiring.ts`). Removing it drops those
 * tables again, found by their headers wherever they are now (Codex itself rewrites the file when it edits it, and
 * may move them), and when they are still the file's tail, the one line break added before them, so the file comes
 * back exactly as it was.
 */
import { parse, TomlError } from 'smol-toml';

export type TomlTable = Record<string, unknown>;

/** The document, or one line saying where it does not parse. */
export function parseToml(text: string): { ok: true; doc: TomlTable } | { ok: false; reason: string } {
  try {
    return { ok: true, doc: parse(text) as TomlTable };
  } catch (error) {
    if (error instanceof TomlError) {
      const what = error.message.split('\n')[0]?.replace(/^Invalid TOML document: /, '') ?? 'invalid TOML';
      return { ok: false, reason: `line ${error.line}: ${what}` };
    }
    throw error;
  }
}

/** A TOML basic string (control characters and DEL escaped, as TOML requires). */
export function tomlString(value: string): string {
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '"') out += '\\"';
    else if (char === '\\') out += '\\\\';
    else if (char === '\n') out += '\\n';
    else if (char === '\t') out += '\\t';
    else if (char === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}"`;
}

/** A key as TOML writes it: bare when it can be, else quoted. */
export function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}

/** A table header's key path, and whether it is an array-of-tables header (`[[…]]`). */
export interface Header {
  readonly path: readonly string[];
  readonly array: boolean;
}

/**
 * The header on a line that starts a table (`[a.b]`, `[[a.b]]`, `[ "x y" . 'z' ]`), else undefined. Only lines that
 * start at the first column count: a nested array's continuation line is indented.
 */
export function headerOf(line: string): Header | undefined {
  const array = line.startsWith('[[');
  if (!line.startsWith('[')) return undefined;
  let at = array ? 2 : 1;
  const path: string[] = [];
  const space = () => {
    while (line[at] === ' ' || line[at] === '\t') at++;
  };
  for (;;) {
    space();
    const char = line[at];
    if (char === '"' || char === "'") {
      const end = readQuoted(line, at);
      if (end === undefined) return undefined;
      path.push(end.value);
      at = end.next;
    } else {
      const bare = /^[A-Za-z0-9_-]+/.exec(line.slice(at));
      if (!bare) return undefined;
      path.push(bare[0]);
      at += bare[0].length;
    }
    space();
    if (line[at] === '.') {
      at++;
      continue;
    }
    const close = array ? ']]' : ']';
    if (!line.startsWith(close, at)) return undefined;
    at += close.length;
    space();
    const rest = line.slice(at);
    return rest === '' || rest === '\r' || rest.startsWith('#') ? { path, array } : undefined;
  }
}

function readQuoted(line: string, start: number): { value: string; next: number } | undefined {
  const quote = line[start];
  let value = '';
  let at = start + 1;
  while (at < line.length) {
    const char = line[at] as string;
    if (char === quote) return { value, next: at + 1 };
    if (quote === '"' && char === '\\') {
      const escaped = line[at + 1];
      const simple: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };
      if (escaped !== undefined && simple[escaped] !== undefined) {
        value += simple[escaped];
        at += 2;
        continue;
      }
      const hex = escaped === 'u' ? 4 : escaped === 'U' ? 8 : 0;
      if (hex === 0) return undefined;
      const code = Number.parseInt(line.slice(at + 2, at + 2 + hex), 16);
      if (Number.isNaN(code)) return undefined;
      value += String.fromCodePoint(code);
      at += 2 + hex;
      continue;
    }
    value += char;
    at++;
  }
  return undefined;
}

/** One table of the file: its header and its lines `[start, end)` (up to its last key line, not the gap after). */
export interface Section {
  readonly header: Header;
  /** Among the array-of-tables headers with the same path, this one's index (0 for the first); else 0. */
  readonly index: number;
  readonly start: number;
  readonly end: number;
}

/** The file's lines (split on `\n`; a `\r` stays on its line) and its tables in order. */
export function sectionsOf(text: string): { lines: string[]; sections: Section[] } {
  const lines = text.split('\n');
  const sections: Section[] = [];
  const counts = new Map<string, number>();
  let open: { header: Header; index: number; start: number; last: number } | undefined;
  const close = () => {
    if (open) sections.push({ header: open.header, index: open.index, start: open.start, end: open.last + 1 });
  };
  lines.forEach((line, at) => {
    const header = headerOf(line);
    if (header) {
      close();
      const key = JSON.stringify(header.path);
      const index = header.array ? (counts.get(key) ?? 0) : 0;
      if (header.array) counts.set(key, index + 1);
      open = { header, index, start: at, last: at };
      return;
    }
    const trimmed = line.trim();
    if (open && trimmed !== '' && !trimmed.startsWith('#')) open.last = at;
  });
  close();
  return { lines, sections };
}

/**
 * `text` without the sections `drop` picks. Where the dropped tables are the file's tail, the line break that
 * {@link appendTables} put before them goes too (the file comes back byte for byte); elsewhere a blank line left
 * doubled by the removal is taken out once.
 */
export function withoutSections(text: string, drop: (section: Section) => boolean): string {
  const { lines, sections } = sectionsOf(text);
  const dropped = sections.filter(drop);
  if (dropped.length === 0) return text;
  const gone = new Set<number>();
  for (const section of dropped) for (let at = section.start; at < section.end; at++) gone.add(at);
  // The tail: every line after the first dropped table is dropped, blank, or a comment the dropped run ends with.
  const first = Math.min(...dropped.map((section) => section.start));
  const tail = lines.slice(first).every((line, offset) => gone.has(first + offset) || line.trim() === '');
  if (tail) {
    if (first === 0) return '';
    // Up to the first dropped table, whose line break before it was added with it.
    const before = `${lines.slice(0, first).join('\n')}\n`;
    return before.slice(0, before.endsWith('\r\n') ? -2 : -1);
  }
  const kept: string[] = [];
  lines.forEach((line, at) => {
    if (gone.has(at)) return;
    const previousGone = at > 0 && gone.has(at - 1);
    // A blank line right after a removed run, following a blank line already kept: one blank line is enough.
    if (previousGone && line.trim() === '' && kept.length > 0 && kept[kept.length - 1]?.trim() === '') return;
    kept.push(line);
  });
  return kept.join('\n');
}

/**
 * `text` with `tables` (complete TOML tables, each ending with a line break) appended after one line break: a blank
 * line after a file that ends with one, the next line after one that does not, nothing before in an empty file.
 * Tables are separated by a blank line.
 */
export function appendTables(text: string, tables: readonly string[], eol = '\n'): string {
  if (tables.length === 0) return text;
  const body = tables.map((table) => table.replaceAll('\n', eol)).join(eol);
  return text === '' ? body : `${text}${eol}${body}`;
}

/** The line ending the file uses (CRLF when its first line ends with one). */
export function lineEnding(text: string): string {
  const first = text.indexOf('\n');
  return first > 0 && text[first - 1] === '\r' ? '\r\n' : '\n';
}
