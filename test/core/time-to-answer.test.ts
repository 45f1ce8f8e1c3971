import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AnsweredTimes,
  calendarDay,
  daysEndingWith,
  percentile,
  summarize,
  timeToAnswer,
  timeToAnswerByDay,
} from '../../src/core/time-to-answer.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Wednesday 20 January 2027, 15:00 UTC. */
const NOW = Date.UTC(2027, 0, 20, 15, 0);

function answered(askedAt: number, waited: number, isBlocking: boolean): AnsweredTimes {
  return { createdAt: askedAt, isBlocking, answer: { at: askedAt + waited } };
}

describe('percentile (nearest rank)', () => {
  it.each([
    [[7], 50, 7],
    [[7], 90, 7],
    [[1, 2], 50, 1],
    [[1, 2], 90, 2],
    [[1, 2, 3], 50, 2],
    [[1, 2, 3, 4], 50, 2],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90, 9],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 90, 10],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 100, 10],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 1, 1],
  ])('GIVEN %j THEN its p%i is %i (the value at rank ⌈p/100·n⌉)', (values, p, expected) => {
    expect(percentile(values, p)).toBe(expected);
  });

  it('GIVEN no values or a percentile outside (0, 100] THEN it says what it expected and what came', () => {
    expect(() => percentile([], 50)).toThrow('Expected at least one value for a percentile, got none');
    expect(() => percentile([1], 0)).toThrow('Expected a percentile in (0, 100], got 0');
    expect(() => percentile([1], 101)).toThrow('Expected a percentile in (0, 100], got 101');
  });

  it('GIVEN any values THEN the median and p90 are values that occurred, median ≤ p90 ≤ max, and at least half are ≤ the median', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 10 * DAY }), { minLength: 1, maxLength: 200 }), (values) => {
        const summary = summarize(values) ?? expect.fail('no summary for values');
        expect(summary.count).toBe(values.length);
        expect(values).toContain(summary.median);
        expect(values).toContain(summary.p90);
        expect(summary.median).toBeLessThanOrEqual(summary.p90);
        expect(summary.p90).toBeLessThanOrEqual(Math.max(...values));
        expect(values.filter((value) => value <= summary.median).length * 2).toBeGreaterThanOrEqual(values.length);
        expect(values.filter((value) => value <= summary.p90).length * 10).toBeGreaterThanOrEqual(values.length * 9);
      }),
    );
  });

  it('GIVEN no durations THEN there is no summary (no answers has no median)', () => {
    expect(summarize([])).toBeUndefined();
    expect(summarize([30, 10, 20])).toEqual({ count: 3, median: 20, p90: 30 });
  });
});

describe('time to answer', () => {
  it('GIVEN an answer THEN the wait is answer.at − createdAt, never negative when clocks disagree', () => {
    expect(timeToAnswer(answered(NOW, 12 * MIN, true))).toBe(12 * MIN);
    expect(timeToAnswer({ createdAt: NOW, isBlocking: false, answer: { at: NOW - 5 } })).toBe(0);
  });

  it('GIVEN a time zone THEN calendar days are that zone’s, and a 7-day window is today and the 6 days before', () => {
    expect(calendarDay(Date.UTC(2027, 0, 20, 23, 30), 'UTC')).toBe('2027-01-20');
    expect(calendarDay(Date.UTC(2027, 0, 20, 23, 30), 'Europe/Berlin')).toBe('2027-01-21');
    expect(calendarDay(Date.UTC(2027, 0, 20, 3, 0), 'America/Los_Angeles')).toBe('2027-01-19');
    expect(daysEndingWith('2027-03-02', 7)).toEqual([
      '2027-02-24',
      '2027-02-25',
      '2027-02-26',
      '2027-02-27',
      '2027-02-28',
      '2027-03-01',
      '2027-03-02',
    ]);
  });

  it('GIVEN a week over a daylight saving change THEN no day is skipped or repeated', () => {
    // Europe/Berlin moved its clocks forward on 28 March 2027 (a 23-hour day).
    const now = Date.UTC(2027, 2, 29, 0, 30); // 02:30 on 29 March in Berlin
    const week = timeToAnswerByDay([], { now, timeZone: 'Europe/Berlin' });
    expect(week.days.map((day) => day.date)).toEqual([
      '2027-03-23',
      '2027-03-24',
      '2027-03-25',
      '2027-03-26',
      '2027-03-27',
      '2027-03-28',
      '2027-03-29',
    ]);
  });

  it('GIVEN answers over 9 days THEN the week has each day’s figures by kind, the window’s by kind, and leaves older answers out', () => {
    const waits = [
      answered(NOW - 1 * HOUR, 10 * MIN, true), // today
      answered(NOW - 2 * HOUR, 30 * MIN, true), // today
      answered(NOW - 3 * HOUR, 2 * HOUR, false), // today
      answered(NOW - 2 * DAY, 50 * MIN, true), // Monday
      answered(NOW - 6 * DAY, 5 * MIN, false), // Thursday the 14th: the window's first day
      answered(NOW - 7 * DAY, 1 * MIN, true), // the 13th: outside
      answered(NOW - 9 * DAY, 1 * MIN, false), // outside
    ];
    const week = timeToAnswerByDay(waits, { now: NOW, timeZone: 'UTC' });
    expect(week.total).toBe(5);
    expect(week.days.map((day) => day.date)).toEqual([
      '2027-01-14',
      '2027-01-15',
      '2027-01-16',
      '2027-01-17',
      '2027-01-18',
      '2027-01-19',
      '2027-01-20',
    ]);
    expect(week.days[6]).toEqual({
      date: '2027-01-20',
      blocking: { count: 2, median: 10 * MIN, p90: 30 * MIN },
      canWait: { count: 1, median: 2 * HOUR, p90: 2 * HOUR },
    });
    expect(week.days[4]).toEqual({ date: '2027-01-18', blocking: { count: 1, median: 50 * MIN, p90: 50 * MIN } });
    expect(week.days[0]).toEqual({ date: '2027-01-14', canWait: { count: 1, median: 5 * MIN, p90: 5 * MIN } });
    // Days nobody answered carry no figures.
    expect(week.days[1]).toEqual({ date: '2027-01-15' });
    expect(week.blocking).toEqual({ count: 3, median: 30 * MIN, p90: 50 * MIN });
    expect(week.canWait).toEqual({ count: 2, median: 5 * MIN, p90: 2 * HOUR });
  });

  it('GIVEN an answer given today to a question asked last month THEN it counts today, with its whole wait', () => {
    const week = timeToAnswerByDay([answered(NOW - 40 * DAY, 40 * DAY - MIN, true)], { now: NOW, timeZone: 'UTC' });
    expect(week.days[6]?.blocking).toEqual({ count: 1, median: 40 * DAY - MIN, p90: 40 * DAY - MIN });
  });

  it('GIVEN no answers THEN seven empty days and no figures; days must be a whole number ≥ 1', () => {
    const week = timeToAnswerByDay([], { now: NOW, timeZone: 'UTC' });
    expect(week).toEqual({ days: week.days, total: 0 });
    expect(week.days).toHaveLength(7);
    expect(week.days.every((day) => Object.keys(day).join() === 'date')).toBe(true);
    expect(() => timeToAnswerByDay([], { now: NOW, days: 0 })).toThrow('Expected days to be a whole number ≥ 1, got 0');
  });
});
