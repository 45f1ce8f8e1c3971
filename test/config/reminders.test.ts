import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { DEFAULT_REMIND_AFTER_MS, DEFAULT_REMIND_TIMES, routingTable } from '../../src/config/routing.js';
import { loadServeConfig } from '../../src/config/serve.js';

const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GfAkEd.fake-discord-bot-token-for-tests_0123456789';
const CHANNEL = '123456789012345678';
const OWNER = '223456789012345678';
const SLACK = { REDIS_URL: 'redis://h', SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' };
const BOTH = { ...SLACK, DISCORD_TOKEN: TOKEN };
const PATH = '/etc/ask-later/routes.json';
const MIN = 60_000;

function load(env: Record<string, string>, content: unknown) {
  return loadServeConfig({ ...env, ASK_LATER_CONFIG: PATH }, (path) => {
    expect(path).toBe(PATH);
    return JSON.stringify(content);
  });
}

function routingError(env: Record<string, string>, content: unknown): string {
  try {
    load(env, content);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('no ConfigError');
}

describe('reminder settings in the routing file', () => {
  it('GIVEN remindAfter, remindTimes and owners THEN they come back parsed and frozen, and the table resolves them', () => {
    const config = load(BOTH, {
      routes: [
        {
          project: '/srv/api',
          slack: 'C0API',
          discord: CHANNEL,
          remindAfter: '2h',
          remindTimes: 3,
          owners: { slack: ['U0ANA', 'W0BO'], discord: [OWNER] },
        },
        { project: '/srv/quiet', slack: 'C0API', remindAfter: 'off' },
        { project: '/srv/seconds', slack: 'C0API', remindAfter: 900 },
        { project: '/srv/plain', slack: 'C0API' },
      ],
    });
    expect(config.routes?.[0]).toEqual({
      project: '/srv/api',
      slack: 'C0API',
      discord: CHANNEL,
      remindAfterMs: 120 * MIN,
      remindTimes: 3,
      owners: { slack: ['U0ANA', 'W0BO'], discord: [OWNER] },
    });
    expect(Object.isFrozen(config.routes?.[0]?.owners)).toBe(true);
    expect(Object.isFrozen(config.routes?.[0]?.owners?.slack)).toBe(true);
    // A route that sets nothing about reminders carries nothing: the defaults live in the routing table.
    expect(config.routes?.[3]).toEqual({ project: '/srv/plain', slack: 'C0API' });

    const table = routingTable({ routes: config.routes ?? [], slackChannel: 'C0DEFAULT' });
    expect(table.remindersFor('/srv/api')).toEqual({
      afterMs: 120 * MIN,
      times: 3,
      owners: { slack: ['U0ANA', 'W0BO'], discord: [OWNER] },
    });
    expect(table.remindersFor('/srv/quiet')).toEqual({ afterMs: 0, times: DEFAULT_REMIND_TIMES, owners: {} });
    expect(table.remindersFor('/srv/seconds')).toEqual({ afterMs: 15 * MIN, times: DEFAULT_REMIND_TIMES, owners: {} });
    expect(table.remindersFor('/srv/plain')).toEqual({ afterMs: 30 * MIN, times: 2, owners: {} });
    // A project no route matches: the defaults, no owners.
    expect(table.remindersFor('/home/me/tool')).toEqual({
      afterMs: DEFAULT_REMIND_AFTER_MS,
      times: DEFAULT_REMIND_TIMES,
      owners: {},
    });
    expect(DEFAULT_REMIND_AFTER_MS).toBe(30 * MIN);
  });

  it('GIVEN ASK_LATER_REMIND_AFTER THEN it is the default for routes that do not set it and for unmatched projects', () => {
    const config = load(
      { ...SLACK, SLACK_CHANNEL: 'C0DEFAULT', ASK_LATER_REMIND_AFTER: '1h' },
      {
        routes: [
          { project: '/srv/api', slack: 'C0API', remindAfter: '10m' },
          { project: '/srv/web', slack: 'C0API', remindTimes: 1 },
        ],
      },
    );
    expect(config.remindAfterMs).toBe(60 * MIN);
    const table = routingTable({
      routes: config.routes ?? [],
      slackChannel: 'C0DEFAULT',
      ...(config.remindAfterMs !== undefined ? { remindAfterMs: config.remindAfterMs } : {}),
    });
    expect(table.remindersFor('/srv/api').afterMs).toBe(10 * MIN);
    expect(table.remindersFor('/srv/web')).toEqual({ afterMs: 60 * MIN, times: 1, owners: {} });
    expect(table.remindersFor('/elsewhere').afterMs).toBe(60 * MIN);

    const off = loadServeConfig({ ...SLACK, SLACK_CHANNEL: 'C0DEFAULT', ASK_LATER_REMIND_AFTER: 'off' });
    expect(off.remindAfterMs).toBe(0);
    expect(loadServeConfig({ ...SLACK, SLACK_CHANNEL: 'C0DEFAULT' }).remindAfterMs).toBeUndefined();
  });

  it('GIVEN an ASK_LATER_REMIND_AFTER that is not a duration THEN one line naming it and what came', () => {
    expect(() =>
      loadServeConfig({ ...SLACK, SLACK_CHANNEL: 'C0DEFAULT', ASK_LATER_REMIND_AFTER: 'half an hour' }),
    ).toThrow(
      new ConfigError(
        'ASK_LATER_REMIND_AFTER: expected a duration such as "30m", "2h", "1h30m" or a number of seconds, or "off", got "half an hour"',
      ),
    );
  });

  it.each([
    [
      'a remindAfter in words',
      SLACK,
      { project: 'a', slack: 'C1AAA', remindAfter: 'half an hour' },
      'ASK_LATER_CONFIG routes[1].remindAfter: expected a duration such as "30m", "2h", "1h30m" or a number of seconds, or "off", got "half an hour"',
    ],
    [
      'a negative remindAfter',
      SLACK,
      { project: 'a', slack: 'C1AAA', remindAfter: -5 },
      'ASK_LATER_CONFIG routes[1].remindAfter: expected a duration such as "30m", "2h", "1h30m" or a number of seconds, or "off", got -5',
    ],
    [
      'a remindAfter of a list',
      SLACK,
      { project: 'a', slack: 'C1AAA', remindAfter: ['30m'] },
      'ASK_LATER_CONFIG routes[1].remindAfter: expected a duration such as "30m", "2h", "1h30m" or a number of seconds, or "off", got a list',
    ],
    [
      'a remindAfter beyond 30 days',
      SLACK,
      { project: 'a', slack: 'C1AAA', remindAfter: '45d' },
      'ASK_LATER_CONFIG routes[1].remindAfter: expected at most 30 days ("30d"), got "45d"',
    ],
    [
      'a fractional remindTimes',
      SLACK,
      { project: 'a', slack: 'C1AAA', remindTimes: 2.5 },
      'ASK_LATER_CONFIG routes[1].remindTimes: expected a whole number from 0 to 10, got 2.5',
    ],
    [
      'too many remindTimes',
      SLACK,
      { project: 'a', slack: 'C1AAA', remindTimes: 11 },
      'ASK_LATER_CONFIG routes[1].remindTimes: expected a whole number from 0 to 10, got 11',
    ],
    [
      'remindTimes in quotes',
      SLACK,
      { project: 'a', slack: 'C1AAA', remindTimes: '2' },
      'ASK_LATER_CONFIG routes[1].remindTimes: expected a whole number from 0 to 10, got "2"',
    ],
    [
      'a Slack owner by name',
      SLACK,
      { project: 'a', slack: 'C1AAA', owners: { slack: ['U0ANA', '@bo'] } },
      'ASK_LATER_CONFIG routes[1].owners.slack[1]: expected a Slack user id such as U0123ABCD, got "@bo"',
    ],
    [
      'a Discord owner that is no id',
      BOTH,
      { project: 'a', slack: 'C1AAA', discord: CHANNEL, owners: { discord: ['ana'] } },
      'ASK_LATER_CONFIG routes[1].owners.discord[0]: expected a Discord user id of 17–20 digits, got "ana"',
    ],
    [
      'owners as one string',
      SLACK,
      { project: 'a', slack: 'C1AAA', owners: { slack: 'U0ANA' } },
      'ASK_LATER_CONFIG routes[1].owners.slack: expected a list of Slack user ids such as ["U0123ABCD"], got "U0ANA"',
    ],
    [
      'an unknown owners key',
      SLACK,
      { project: 'a', slack: 'C1AAA', owners: { users: ['U0ANA'] } },
      'ASK_LATER_CONFIG routes[1].owners: unknown key "users" (expected slack, discord, telegram)',
    ],
    [
      'Slack owners on a route without Slack',
      BOTH,
      { project: 'a', discord: CHANNEL, owners: { slack: ['U0ANA'] } },
      'ASK_LATER_CONFIG routes[1].owners.slack: the route names no Slack channel, got Slack owners',
    ],
    [
      'Discord owners on a route without Discord',
      BOTH,
      { project: 'a', slack: 'C1AAA', owners: { discord: [OWNER] } },
      'ASK_LATER_CONFIG routes[1].owners.discord: the route names no Discord channel, got Discord owners',
    ],
    [
      'more than 50 owners',
      SLACK,
      { project: 'a', slack: 'C1AAA', owners: { slack: Array.from({ length: 51 }, (_, i) => `U0A${i}`) } },
      'ASK_LATER_CONFIG routes[1].owners.slack: expected at most 50 owners, got a list',
    ],
  ])('GIVEN %s THEN one line naming routes[i] and the key, and what came', (_what, env, route, line) => {
    const base = { project: 'first', slack: 'C1AAA', ...(env === BOTH ? { discord: CHANNEL } : {}) };
    const message = routingError(
      { ...env, SLACK_CHANNEL: 'C1AAA', ...(env === BOTH ? { DISCORD_CHANNEL: CHANNEL } : {}) },
      {
        routes: [base, route],
      },
    );
    expect(message).toBe(line);
    expect(message).not.toContain('\n');
  });
});
