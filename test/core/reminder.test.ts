import { describe, expect, it } from 'vitest';
import { DURATION_EXPECTED, formatDuration, parseDuration } from '../../src/core/duration.js';
import { dueReminder } from '../../src/core/reminder.js';

const MIN = 60_000;
const T0 = 1_800_000_000_000;
const schedule = { afterMs: 30 * MIN, times: 2 };

/** A pending blocking question parked at T0 with `reminders` sent, the last at `remindedAt`. */
function waiting(reminders = 0, remindedAt?: number) {
  return {
    status: 'pending' as const,
    isBlocking: true,
    createdAt: T0,
    ...(reminders > 0 ? { reminders } : {}),
    ...(remindedAt !== undefined ? { remindedAt } : {}),
  };
}

describe('when a reminder is due', () => {
  it('GIVEN a blocking question THEN the first falls due at remindAfter, the second at twice it, and no third', () => {
    expect(dueReminder(waiting(), schedule, T0 + 30 * MIN - 1)).toBeUndefined();
    expect(dueReminder(waiting(), schedule, T0 + 30 * MIN)).toBe(1);
    expect(dueReminder(waiting(1, T0 + 30 * MIN), schedule, T0 + 59 * MIN)).toBeUndefined();
    expect(dueReminder(waiting(1, T0 + 30 * MIN), schedule, T0 + 60 * MIN)).toBe(2);
    expect(dueReminder(waiting(2, T0 + 60 * MIN), schedule, T0 + 24 * 60 * MIN)).toBeUndefined();
  });

  it('GIVEN a sweep a little late THEN the schedule stays on the slots from parking, not from the late reminder', () => {
    // First reminder sent 5 minutes late: the second is still due 60 minutes after parking.
    expect(dueReminder(waiting(1, T0 + 35 * MIN), schedule, T0 + 60 * MIN)).toBe(2);
  });

  it('GIVEN several reminders overdue at once (no replica swept) THEN one is due now and none after it', () => {
    // 70 minutes in, nothing sent: slots 1 and 2 have both passed. One reminder, the next ordinal.
    expect(dueReminder(waiting(), schedule, T0 + 70 * MIN)).toBe(1);
    // Sent in slot 2, the last slot: nothing more, however long it waits.
    expect(dueReminder(waiting(1, T0 + 70 * MIN), schedule, T0 + 24 * 60 * MIN)).toBeUndefined();
    // With three allowed, the next one comes at the next slot (90 minutes), not at once.
    const three = { afterMs: 30 * MIN, times: 3 };
    expect(dueReminder(waiting(1, T0 + 70 * MIN), three, T0 + 89 * MIN)).toBeUndefined();
    expect(dueReminder(waiting(1, T0 + 70 * MIN), three, T0 + 90 * MIN)).toBe(2);
  });

  it('GIVEN a can-wait, answered or closed question THEN never', () => {
    const late = T0 + 24 * 60 * MIN;
    expect(dueReminder({ ...waiting(), isBlocking: false }, schedule, late)).toBeUndefined();
    for (const status of ['answered', 'delivered', 'dismissed', 'expired', 'cancelled'] as const) {
      expect(dueReminder({ ...waiting(), status }, schedule, late), status).toBeUndefined();
    }
  });

  it('GIVEN reminders turned off (remindAfter 0 or remindTimes 0) THEN never', () => {
    const late = T0 + 24 * 60 * MIN;
    expect(dueReminder(waiting(), { afterMs: 0, times: 2 }, late)).toBeUndefined();
    expect(dueReminder(waiting(), { afterMs: 30 * MIN, times: 0 }, late)).toBeUndefined();
  });
});

describe('durations', () => {
  it.each([
    [1800, 30 * MIN],
    ['1800', 30 * MIN],
    ['30', 30_000],
    ['30m', 30 * MIN],
    ['2h', 120 * MIN],
    ['1h30m', 90 * MIN],
    [' 1h 30m ', 90 * MIN],
    ['90s', 90_000],
    ['1d', 24 * 60 * MIN],
    ['30d', 30 * 24 * 60 * MIN],
    [0, 0],
    ['0', 0],
    ['off', 0],
    ['OFF', 0],
  ])('GIVEN %j THEN %d ms', (value, ms) => {
    expect(parseDuration(value)).toEqual({ ms });
  });

  it.each([
    ['30 minutes', DURATION_EXPECTED],
    ['m30', DURATION_EXPECTED],
    ['30m1h', DURATION_EXPECTED],
    ['', DURATION_EXPECTED],
    [-1, DURATION_EXPECTED],
    [Number.NaN, DURATION_EXPECTED],
    [true, DURATION_EXPECTED],
    [null, DURATION_EXPECTED],
    ['31d', 'expected at most 30 days ("30d")'],
    [0.5, 'expected at least one second, or "off"'],
  ])('GIVEN %j THEN the problem says what was expected', (value, problem) => {
    expect(parseDuration(value)).toEqual({ problem });
  });

  it.each([
    [40_000, '40 s'],
    [45 * MIN, '45 min'],
    [65 * MIN, '1 h 5 min'],
    [120 * MIN, '2 h'],
    [51 * 60 * MIN, '2 d 3 h'],
  ])('GIVEN %d ms THEN it reads %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
