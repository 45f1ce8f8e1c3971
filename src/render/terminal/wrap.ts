/**
 * Text laid out for a terminal of a given width, by display width (a CJK character or an emoji takes two columns):
 * wrapped at spaces, a word longer than the line broken inside it, so nothing is ever cut. Pure.
 */
import stringWidth from 'string-width';

/** Splits a string into its user-perceived characters (so an emoji with modifiers is never broken apart). */
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Columns `text` takes (escape sequences take none). */
export function columns(text: string): number {
  return stringWidth(text);
}

/** `word` cut into pieces of at most `width` columns. */
function breakWord(word: string, width: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  let used = 0;
  for (const { segment } of graphemes.segment(word)) {
    const size = columns(segment);
    if (piece !== '' && used + size > width) {
      pieces.push(piece);
      piece = '';
      used = 0;
    }
    piece += segment;
    used += size;
  }
  if (piece !== '') pieces.push(piece);
  return pieces;
}

/**
 * One paragraph of plain text (no line breaks) as lines of at most `width` columns; `indent` begins every line but
 * the first, which begins with `first` (a bullet, a number). Runs of spaces become one.
 */
export function wrap(text: string, width: number, first = '', indent = ' '.repeat(columns(first))): string[] {
  // Widths add up across the spaces between words, so each word is measured once (a long text wraps in linear time).
  const rooms = [Math.max(1, width - columns(first)), Math.max(1, width - columns(indent))] as const;
  const room = (line: number) => rooms[line === 0 ? 0 : 1];
  const lines: string[] = [];
  let line = '';
  let used = 0;
  const push = () => {
    lines.push(`${lines.length === 0 ? first : indent}${line}`);
    line = '';
    used = 0;
  };
  for (const word of text.split(/ +/).filter((part) => part !== '')) {
    const size = columns(word);
    if (line === '' && size <= room(lines.length)) {
      line = word;
      used = size;
      continue;
    }
    if (line !== '' && used + 1 + size <= room(lines.length)) {
      line = `${line} ${word}`;
      used += 1 + size;
      continue;
    }
    if (line !== '') push();
    if (size <= room(lines.length)) {
      line = word;
      used = size;
      continue;
    }
    const pieces = breakWord(word, room(lines.length));
    for (const piece of pieces.slice(0, -1)) {
      line = piece;
      push();
    }
    line = pieces.at(-1) ?? '';
    used = columns(line);
  }
  if (line !== '' || lines.length === 0) push();
  return lines;
}

/** Any text (several lines) wrapped line by line; empty lines are kept. */
export function wrapLines(text: string, width: number, indent = ''): string[] {
  return text.split('\n').flatMap((line) => (line.trim() === '' ? [''] : wrap(line, width, indent, indent)));
}
