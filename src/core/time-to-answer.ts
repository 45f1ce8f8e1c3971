/**
 * Time to answer: how long agents wait on people, from parking a question to its answer (`answer.at − createdAt`).
 * The figures the web inbox charts (`render/web/chart.ts`): per day and for a whole window, blocking and can-wait
 * apart, each as a count, a median and a 90th percentile. Pure; the calendar days are those of a time zone the
 * caller names, so the same answers give the same figures on any machine.
 *
 * Percentiles are **nearest-rank**: the p-th percentile of n sorted values is the value at rank ⌈p/100 · n⌉
 * (1-based). Every figure is a time someone actually waited, never an interpolation between two; with two values
 * the median is the smaller one.
 */

/** What the figures read of a question: when it was parked, whether it blocks, and when it was answered. */
export interface AnsweredTimes {
  readonly createdAt: number;
  readonly isBlocking: boolean;
  readonly answer: { readonly at: number };
}

/** One kind's figures (times in ms). Only built for at least one answer: no answers has no median. */
export interface TimeToAnswerSummary {
  readonly count: number;
  readonly median: number;
  readonly p90: number;
}

/** One calendar day's figures; a kind nobody answered that day is absent. */
export interface TimeToAnswerDay {
  /** The day as `YYYY-MM-DD` in the window's time zone. */
  readonly date: string;
  readonly blocking?: TimeToAnswerSummary;
  readonly canWait?: TimeToAnswerSummary;
}

/** The window's figures: each day oldest first (today last), and each kind over the whole window. */
export interface TimeToAnswerWindow {
  readonly days: readonly TimeToAnswerDay[];
  readonly blocking?: TimeToAnswerSummary;
  readonly canWait?: TimeToAnswerSummary;
  /** Answers in the window, both kinds. */
  readonly total: number;
}

export interface TimeToAnswerOptions {
  /** The current time (ms since the epoch): its calendar day is the window's last. */
  readonly now: number;
  /** How many calendar days, today included (default 7). */
  readonly days?: number;
  /** IANA time zone the days are cut in (default the process's). */
  readonly timeZone?: string;
}

/**
 * How long the agent waited for this answer, in ms. Never negative: `createdAt` and `answer.at` come from the store's
 * clock, but replicas' clocks may disagree by a little.
 */
export function timeToAnswer(question: AnsweredTimes): number {
  return Math.max(0, question.answer.at - question.createdAt);
}

/**
 * The nearest-rank `p`-th percentile (0 < p ≤ 100) of `sorted` (ascending, at least one value): the value at rank
 * ⌈p/100 · n⌉.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new RangeError('Expected at least one value for a percentile, got none');
  if (!(p > 0 && p <= 100)) throw new RangeError(`Expected a percentile in (0, 100], got ${p}`);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/** Count, median and p90 of `durations` (any order); undefined for none. */
export function summarize(durations: readonly number[]): TimeToAnswerSummary | undefined {
  if (durations.length === 0) return undefined;
  const sorted = [...durations].sort((a, b) => a - b);
  return { count: sorted.length, median: percentile(sorted, 50), p90: percentile(sorted, 90) };
}

const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/** `ms`'s calendar day in `timeZone` (default the process's), as `YYYY-MM-DD`. */
export function calendarDay(ms: number, timeZone?: string): string {
  const key = timeZone ?? '';
  let formatter = dayFormatters.get(key);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      ...(timeZone === undefined ? {} : { timeZone }),
    });
    dayFormatters.set(key, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/**
 * The `count` calendar days ending with `today` (`YYYY-MM-DD`), oldest first. Date arithmetic on the calendar, not
 * on 24-hour steps, so a day that daylight saving time made 23 or 25 hours long is neither skipped nor repeated.
 */
export function daysEndingWith(today: string, count: number): string[] {
  const [year, month, day] = today.split('-').map(Number) as [number, number, number];
  const days: string[] = [];
  for (let back = count - 1; back >= 0; back -= 1) {
    days.push(new Date(Date.UTC(year, month - 1, day - back)).toISOString().slice(0, 10));
  }
  return days;
}

/**
 * The figures for the answers given in the last `days` calendar days (today included, in `timeZone`). An answer
 * counts on the day it was given; answers outside the window are left out.
 */
export function timeToAnswerByDay(
  answered: readonly AnsweredTimes[],
  options: TimeToAnswerOptions,
): TimeToAnswerWindow {
  const count = options.days ?? 7;
  if (!Number.isInteger(count) || count < 1)
    throw new RangeError(`Expected days to be a whole number ≥ 1, got ${count}`);
  const dates = daysEndingWith(calendarDay(options.now, options.timeZone), count);
  const byDay = new Map(dates.map((date) => [date, { blocking: [] as number[], canWait: [] as number[] }]));
  const all = { blocking: [] as number[], canWait: [] as number[] };
  for (const question of answered) {
    const bucket = byDay.get(calendarDay(question.answer.at, options.timeZone));
    if (bucket === undefined) continue;
    const kind = question.isBlocking ? 'blocking' : 'canWait';
    const waited = timeToAnswer(question);
    bucket[kind].push(waited);
    all[kind].push(waited);
  }
  const days = dates.map((date): TimeToAnswerDay => {
    const bucket = byDay.get(date) ?? { blocking: [], canWait: [] };
    return withSummaries({ date }, bucket);
  });
  return { ...withSummaries({ days }, all), total: all.blocking.length + all.canWait.length };
}

function withSummaries<T extends object>(
  base: T,
  kinds: { readonly blocking: readonly number[]; readonly canWait: readonly number[] },
): T & { blocking?: TimeToAnswerSummary; canWait?: TimeToAnswerSummary } {
  const blocking = summarize(kinds.blocking);
  const canWait = summarize(kinds.canWait);
  return { ...base, ...(blocking === undefined ? {} : { blocking }), ...(canWait === undefined ? {} : { canWait }) };
}
