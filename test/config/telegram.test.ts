import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { loadServeConfig } from '../../src/config/serve.js';

const TOKEN = '123456789:AAtestTOKENtestTOKENtestTOKENtest_-x';
const base = { REDIS_URL: 'redis://h' };

function problem(env: Record<string, string>, file?: unknown): string {
  try {
    loadServeConfig({ ...base, ...env, ...(file === undefined ? {} : { ASK_LATER_CONFIG: '/routes.json' }) }, () =>
      JSON.stringify(file),
    );
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a config error');
}

describe('Telegram settings', () => {
  it('GIVEN a token, a chat, an API root and an allow-list THEN Telegram is configured, the root without its trailing slash', () => {
    const config = loadServeConfig({
      ...base,
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_CHAT: '-1001234567890',
      TELEGRAM_API_URL: 'http://127.0.0.1:8081/',
      TELEGRAM_ALLOWED_USERS: '111, 222',
    });
    expect(config.telegram).toEqual({
      token: TOKEN,
      chat: '-1001234567890',
      apiUrl: 'http://127.0.0.1:8081',
      allowedUsers: ['111', '222'],
    });
  });

  it.each([
    [
      { TELEGRAM_CHAT: '-100123' },
      'TELEGRAM_CHAT is set but TELEGRAM_BOT_TOKEN is not: set the bot token from @BotFather too',
    ],
    [
      { TELEGRAM_BOT_TOKEN: 'not-a-token' },
      'TELEGRAM_BOT_TOKEN must be the bot token @BotFather gave (digits, a colon, then 30 or more letters, digits, _ or -), got one that is not',
    ],
    [
      { TELEGRAM_BOT_TOKEN: TOKEN },
      'TELEGRAM_CHAT is not set: name the chat id questions go to (an integer such as -1001234567890), or route projects to Telegram chats in ASK_LATER_CONFIG',
    ],
    [
      { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_CHAT: '@team' },
      'TELEGRAM_CHAT must be a chat id, an integer such as -1001234567890 (not a @name), got "@team"',
    ],
    [
      { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_CHAT: '-1', TELEGRAM_ALLOWED_USERS: 'ann' },
      'TELEGRAM_ALLOWED_USERS must list user ids (positive integers, comma-separated), got "ann"',
    ],
    [
      { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_CHAT: '-1', TELEGRAM_API_URL: 'ftp://x' },
      'TELEGRAM_API_URL must be an http:// or https:// URL, got a ftp: URL',
    ],
  ])('GIVEN %j THEN one line naming the variable and what it needs', (env, message) => {
    expect(problem(env)).toBe(message);
    expect(message).not.toContain('AAtest');
  });

  it('GIVEN a route to a Telegram chat THEN the route keeps it, its allow-list and owners; without the token, one line says so', () => {
    const routes = {
      routes: [{ project: 'api', telegram: '-1009', allow: { telegramUsers: ['111'] }, owners: { telegram: ['222'] } }],
    };
    const config = loadServeConfig({ ...base, TELEGRAM_BOT_TOKEN: TOKEN, ASK_LATER_CONFIG: '/r.json' }, () =>
      JSON.stringify(routes),
    );
    expect(config.routes?.[0]).toEqual({
      project: 'api',
      telegram: '-1009',
      allow: { telegramUsers: ['111'] },
      owners: { telegram: ['222'] },
    });
    expect(problem({}, routes)).toBe(
      'ASK_LATER_CONFIG routes[0].telegram names a Telegram chat but TELEGRAM_BOT_TOKEN is not set: set the bot token from @BotFather too',
    );
    expect(problem({ TELEGRAM_BOT_TOKEN: TOKEN }, { routes: [{ project: 'api', telegram: -1009 }] })).toBe(
      'ASK_LATER_CONFIG routes[0].telegram: expected a Telegram chat id such as "-1001234567890" (in quotes), got the number -1009 (write ids and names in quotes)',
    );
    expect(
      problem(
        { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_CHAT: '-1' },
        { routes: [{ project: 'api', slack: 'C1234', allow: { telegramUsers: ['1'] } }] },
      ),
    ).toBe(
      'ASK_LATER_CONFIG routes[0].allow.telegramUsers: the route names no Telegram chat, got a Telegram allow-list',
    );
  });
});
