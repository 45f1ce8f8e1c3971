/**
 * `ASK_LATER_RETENTION_DAYS`: parsed with the serve config, and the store serve opens purges by it (serve's sweep at
 * start, against a real Redis, with questions delivered at known times before now).
 */
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { ConfigError } from '../../../src/config/config-error.js';
import { CONFIG_VARIABLES, loadRetentionDays, loadServeConfig } from '../../../src/config/serve.js';
import { runServe, serveStoreOptions } from '../../../src/serve/run.js';
import { openTestStore, person, spec, testClock, uniquePrefix, uniqueProject } from '../../support/store.js';
import { RecordingLogger } from '../../surfaces/slack/harness.js';

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('ASK_LATER_RETENTION_DAYS', () => {
  it.each([
    [undefined, 30],
    ['', 30],
    ['  ', 30],
    ['1', 1],
    [' 90 ', 90],
    ['36500', 36500],
  ])('GIVEN %j THEN %i days', (value, days) => {
    expect(loadRetentionDays(value)).toBe(days);
  });

  it.each([
    '0',
    '-1',
    '1.5',
    '7d',
    'a week',
    '36501',
    '1e3',
  ])('GIVEN %j THEN one config line naming the variable, what it needs and what came', (value) => {
    const error = (() => {
      try {
        loadRetentionDays(value);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      `ASK_LATER_RETENTION_DAYS must be a whole number of days from 1 to 36500, got ${JSON.stringify(value)}`,
    );
  });

  it('GIVEN the serve config THEN retentionMs holds the days in ms (30 days when unset), and serve opens its store with it', () => {
    const base = { REDIS_URL: 'redis://h' };
    expect(loadServeConfig(base).retentionMs).toBe(30 * DAY);
    const config = loadServeConfig({ ...base, ASK_LATER_RETENTION_DAYS: '7' });
    expect(config.retentionMs).toBe(7 * DAY);
    expect(serveStoreOptions(config)).toEqual({ retentionMs: 7 * DAY });
    expect(() => loadServeConfig({ ...base, ASK_LATER_RETENTION_DAYS: '0' })).toThrow(
      'ASK_LATER_RETENTION_DAYS must be a whole number of days from 1 to 36500, got "0"',
    );
  });

  it('GIVEN the list of variables THEN it names ASK_LATER_RETENTION_DAYS', () => {
    expect(CONFIG_VARIABLES).toContain('ASK_LATER_RETENTION_DAYS');
  });

  it.each([
    ['1', 1],
    [undefined, 0],
  ])('GIVEN ASK_LATER_RETENTION_DAYS=%s and answers delivered 2 days and 12 hours ago THEN serve’s sweep purges %i of them', async (days, purged) => {
    const prefix = uniquePrefix();
    const project = uniqueProject('retention');
    // The answers are written with a clock set back, so the store records them as delivered then.
    const clock = testClock(Date.now() - 2 * DAY);
    const store = await openTestStore({ prefix, now: clock.now });
    cleanup.push(() => store.close());
    const old = await store.park(project, spec());
    await store.answer(project, old.id, { choices: ['Postgres'], other: false }, person());
    await store.markDelivered(project, old.id, 'prompt');
    clock.advance(36 * HOUR);
    const recent = await store.park(project, spec());
    await store.answer(project, recent.id, { choices: ['SQLite'], other: false }, person());
    await store.markDelivered(project, recent.id, 'prompt');

    const logger = new RecordingLogger();
    const signals = new EventEmitter();
    const env = {
      REDIS_URL: inject('redisUrl'),
      ASK_LATER_REDIS_PREFIX: prefix,
      PORT: '0',
      ...(days === undefined ? {} : { ASK_LATER_RETENTION_DAYS: days }),
    };
    // runServe opens its own store from the environment; a period far longer than the test leaves the sweep at
    // start as the only one.
    const serving = runServe(env, { stderr: { write: () => true }, signals }, { logger, sweepMs: 3_600_000 });
    cleanup.push(async () => {
      signals.emit('SIGTERM');
      await serving;
    });
    await expect
      .poll(() => logger.lines.find((line) => line.message === 'serve: swept')?.fields)
      .toMatchObject({
        purged,
      });
    expect((await store.get(project, old.id)) === undefined).toBe(purged === 1);
    expect((await store.get(project, recent.id))?.status).toBe('delivered');
  });
});
