/**
 * Durations as people write them in settings (`"30m"`, `"2h"`, `"1h30m"`, a number of seconds, `"off"`) and as they
 * read them in messages (`45 min`, `1 h 5 min`). Pure.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The longest duration a setting takes: 30 days, the horizon the store keeps questions for. */
export const DURATION_MAX_MS = 30 * DAY;

/** What a setting that is not a duration is told it should be. */
export const DURATION_EXPECTED = 'expected a duration such as "30m", "2h", "1h30m" or a number of seconds, or "off"';

const UNIT_MS: Readonly<Record<string, number>> = { s: SECOND, m: MINUTE, h: HOUR, d: DAY };

export type ParsedDuration = { readonly ms: number } | { readonly problem: string };

/**
 * A duration setting in ms. Takes a number of seconds (`1800`, or `"1800"` as environment variables are strings), a
 * string of whole amounts with units `s`, `m`, `h`, `d` from largest to smallest (`"30m"`, `"2h"`, `"1h30m"`), or
 * `0` / `"off"` (0 ms: what it times is off). At most {@link DURATION_MAX_MS}; one that is not off is at least 1 s.
 */
export function parseDuration(value: unknown): ParsedDuration {
  let ms: number;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return { problem: DURATION_EXPECTED };
    ms = Math.round(value * SECOND);
  } else if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (text === 'off') return { ms: 0 };
    if (/^\d+$/.test(text)) return parseDuration(Number(text));
    const parts = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text.replace(/\s+/g, ''));
    if (text === '' || parts === null) return { problem: DURATION_EXPECTED };
    ms = 0;
    ['d', 'h', 'm', 's'].forEach((unit, index) => {
      ms += Number(parts[index + 1] ?? 0) * (UNIT_MS[unit] ?? 0);
    });
  } else {
    return { problem: DURATION_EXPECTED };
  }
  if (ms > DURATION_MAX_MS) return { problem: 'expected at most 30 days ("30d")' };
  if (ms > 0 && ms < SECOND) return { problem: 'expected at least one second, or "off"' };
  return { ms };
}

/**
 * A wait as the person reads it, to two units at most: `40 s`, `12 min`, `1 h 5 min`, `2 d 3 h` (rounded to the
 * smaller unit shown).
 */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / SECOND));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(ms / MINUTE);
  if (minutes < 60) return `${minutes} min`;
  if (ms < DAY - 30 * SECOND) {
    const hours = Math.floor(minutes / 60);
    const rest = minutes % 60;
    return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
  }
  const hours = Math.round(ms / HOUR);
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  return rest === 0 ? `${days} d` : `${days} d ${rest} h`;
}
