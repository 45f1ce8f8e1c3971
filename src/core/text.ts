/** Text for previews, names and one-line fields: the one home of cutting and flattening, for every renderer. */

/**
 * `text` cut to at most `max` UTF-16 units with an ellipsis, never inside a surrogate pair. For previews, names and
 * paths only: stored text (questions, notes) is never cut (the question limits make it fit).
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** Line breaks, tabs and other control characters as single spaces, trimmed: for one-line previews and fields. */
export function oneLine(text: string): string {
  return text.replace(/[\s\p{Cc}]+/gu, ' ').trim();
}
