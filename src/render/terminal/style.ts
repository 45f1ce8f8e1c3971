/**
 * The few text styles the terminal inbox uses, as ANSI SGR sequences (Ink prints them as they are). Columns are
 * counted without them (`wrap.ts`). Pure.
 */
const sgr = (open: number, close: number) => (text: string) =>
  text === '' ? '' : `\u001b[${open}m${text}\u001b[${close}m`;

export const bold = sgr(1, 22);
export const dim = sgr(2, 22);
export const italic = sgr(3, 23);
export const underline = sgr(4, 24);
export const inverse = sgr(7, 27);
export const red = sgr(31, 39);
export const green = sgr(32, 39);
export const yellow = sgr(33, 39);
export const cyan = sgr(36, 39);

/** `text` without any style: what a test or a pipe compares. */
export function plain(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape sequences are what is removed
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}
