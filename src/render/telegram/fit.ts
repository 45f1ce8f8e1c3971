/**
 * Fitting a question into Telegram's 4,096 characters without losing text: the message is built from sections,
 * and when it would be too long the movable ones leave it, in a fixed order (the context first), for a reply
 * posted under it once ("📎 in the reply below"). Which sections leave is decided on the pending layout, so every
 * later redraw of the message (answered, delivered, expired) agrees with the reply posted at the start. Notes,
 * the person's record, give last: cut to the room left, saying so (the agent has them in full). Pure.
 */
import { TELEGRAM_LIMITS, visibleLength } from './limits.js';

export interface Section {
  readonly html: string;
  /** Leaves the message for the reply when it must, lowest first; absent: always in the message. */
  readonly moveOrder?: number;
  /** What the message says in its place once moved (`📎 <i>Context: in the reply below.</i>`). */
  readonly movedNote?: string;
}

/** Room kept for the line that shows a person's draft, which varies with each pick. */
export const DRAFT_LINE_RESERVE = 700;

/** Which sections leave the message so the rest fits in `limit` (indexes into `sections`). */
export function sectionsToMove(
  sections: readonly Section[],
  limit = TELEGRAM_LIMITS.text - DRAFT_LINE_RESERVE,
): Set<number> {
  const moved = new Set<number>();
  const order = sections
    .map((section, index) => ({ index, order: section.moveOrder }))
    .filter((entry): entry is { index: number; order: number } => entry.order !== undefined)
    .sort((a, b) => a.order - b.order || a.index - b.index);
  const length = () => visibleLength(joinSections(sections, moved));
  for (const { index } of order) {
    if (length() <= limit) break;
    moved.add(index);
  }
  return moved;
}

/** The sections as the message shows them: moved ones replaced by their notes. */
export function joinSections(sections: readonly Section[], moved: ReadonlySet<number>): string {
  return sections
    .map((section, index) => (moved.has(index) ? (section.movedNote ?? '') : section.html))
    .filter((html) => html !== '')
    .join('\n\n');
}

/** The moved sections as reply texts, each within the limit (a section longer than one is split at lines). */
export function detailTexts(sections: readonly Section[], moved: ReadonlySet<number>, heading: string): string[] {
  const pieces = sections.flatMap((section, index) => (moved.has(index) ? splitAtLines(section.html) : []));
  const texts: string[] = [];
  let current = heading;
  for (const piece of pieces) {
    const next = `${current}\n\n${piece}`;
    if (visibleLength(next) <= TELEGRAM_LIMITS.text) {
      current = next;
      continue;
    }
    texts.push(current);
    current = piece;
  }
  if (pieces.length > 0) texts.push(current);
  return texts;
}

/** A section's HTML in pieces that each fit, split between lines (outside `<pre>` blocks). */
function splitAtLines(html: string): string[] {
  const room = TELEGRAM_LIMITS.text - 200;
  if (visibleLength(html) <= room) return [html];
  const pieces: string[] = [];
  let current = '';
  for (const line of html.split('\n')) {
    const next = current === '' ? line : `${current}\n${line}`;
    if (visibleLength(next) > room && current !== '') {
      pieces.push(current);
      current = line;
    } else current = next;
  }
  if (current !== '') pieces.push(current);
  return pieces;
}

/** Appended to notes cut to fit. */
export const NOTES_SHORTENED = ' … <i>(shortened here: the agent has the notes in full)</i>';

/**
 * Plain texts (notes) cut so that together they take at most `room` characters: the shortest kept whole and the
 * room shared among the rest; `cut` says which were shortened (the caller adds {@link NOTES_SHORTENED}).
 */
export function shareRoom(texts: readonly string[], room: number): { text: string; cut: boolean }[] {
  const result = texts.map((text) => ({ text, cut: false }));
  const total = texts.reduce((sum, text) => sum + text.length, 0);
  if (total <= room) return result;
  const order = texts.map((text, index) => ({ index, length: text.length })).sort((a, b) => a.length - b.length);
  let left = Math.max(0, room);
  order.forEach(({ index, length }, position) => {
    const share = Math.floor(left / (order.length - position));
    const keep = Math.min(length, share);
    left -= keep;
    if (keep < length)
      result[index] = { text: cutAt(texts[index] ?? '', Math.max(0, keep - NOTES_SHORTENED.length)), cut: true };
  });
  return result;
}

function cutAt(text: string, max: number): string {
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, Math.max(0, end));
}
