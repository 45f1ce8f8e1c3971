import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { CONFIG_VARIABLES, loadAgentConfig, loadServeConfig, loadStoreConfig } from '../../src/config/serve.js';

describe('store settings', () => {
  it.each([
    [
      { ASK_LATER_DB: 'inbox.db' },
      'ASK_LATER_DB must be an absolute path (every project\'s session must find the same file), got "inbox.db"',
    ],
    [
      { HOME: '' },
      'the embedded store needs a home directory (HOME is not set): set ASK_LATER_DB to the database file, or REDIS_URL',
    ],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL must be a redis:// or rediss:// URL, got a localhost: URL'],
    [
      { REDIS_URL: 'http://user:hunter2@example:6379' },
      'REDIS_URL must be a redis:// or rediss:// URL, got a http: URL',
    ],
    [{ REDIS_URL: 'not a url' }, 'REDIS_URL must be a redis:// or rediss:// URL, got something that is not a URL'],
    [
      { REDIS_URL: 'redis://h', ASK_LATER_REDIS_PREFIX: 'a{b}' },
      'ASK_LATER_REDIS_PREFIX must be 1–64 letters, digits or _ . : - (no braces), got 4 characters',
    ],
  ])('GIVEN %j THEN one line naming the variable and what it needs', (env, line) => {
    const error = (() => {
      try {
        // No home directory to fall back on, so the HOME case fails wherever the tests run.
        loadStoreConfig(env, () => '');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(line);
    expect((error as Error).message).not.toContain('hunter2');
  });

  it('GIVEN good settings THEN a frozen config with the default prefix', () => {
    const config = loadStoreConfig({ REDIS_URL: 'rediss://cache.internal:6380' });
    expect(config).toEqual({ store: { kind: 'redis', url: 'rediss://cache.internal:6380', prefix: 'al' } });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.store)).toBe(true);
  });

  it.each([
    [{ HOME: '/home/ada' }, '/home/ada/.local/state/ask-later/inbox.db'],
    [{ HOME: '/home/ada', REDIS_URL: '  ' }, '/home/ada/.local/state/ask-later/inbox.db'],
    [{ HOME: '/home/ada', XDG_STATE_HOME: '/var/state' }, '/var/state/ask-later/inbox.db'],
    [{ HOME: '/home/ada', XDG_STATE_HOME: 'relative' }, '/home/ada/.local/state/ask-later/inbox.db'],
    [{ HOME: '/home/ada', XDG_STATE_HOME: '/var/state', ASK_LATER_DB: '/srv/al.db' }, '/srv/al.db'],
    [{ XDG_STATE_HOME: '/var/state' }, '/var/state/ask-later/inbox.db'],
    [{}, '/from-passwd/.local/state/ask-later/inbox.db'],
  ])('GIVEN no REDIS_URL and %j THEN the embedded store at %s', (env, path) => {
    expect(loadStoreConfig(env, () => '/from-passwd')).toEqual({ store: { kind: 'sqlite', path } });
  });

  it('GIVEN ASK_LATER_PROJECT THEN the agent config names that project', () => {
    expect(loadAgentConfig({ REDIS_URL: 'redis://h', ASK_LATER_PROJECT: ' team/api ' }, '/tmp').project).toBe(
      'team/api',
    );
  });
});

const TOKEN = 'MTEwMDAwMDAwMDAwMDAwMDAwMQ.GfAkEd.abcdefghijklmnopqrstuvwxyz0123456789';
const CHANNEL = '123456789012345678';
const discord = (extra: Record<string, string>) => ({
  REDIS_URL: 'redis://h',
  DISCORD_TOKEN: TOKEN,
  DISCORD_CHANNEL: CHANNEL,
  ...extra,
});

function configError(env: Record<string, string>): Error {
  try {
    loadServeConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as Error;
  }
  throw new Error('no ConfigError');
}

describe('Discord settings', () => {
  it.each([
    [
      { REDIS_URL: 'redis://h', DISCORD_CHANNEL: CHANNEL },
      'DISCORD_CHANNEL is set but DISCORD_TOKEN is not: set the bot token too',
    ],
    [
      discord({ DISCORD_TOKEN: 'Bot hunter2' }),
      "DISCORD_TOKEN must be the bot token from the Developer Portal's Bot page (three dot-separated parts, no 'Bot ' prefix), got one that is not",
    ],
    [
      discord({ DISCORD_CHANNEL: '' }),
      'DISCORD_CHANNEL is not set: name the channel id questions go to (17–20 digits: Developer Mode → Copy Channel ID), or route projects to Discord channels in ASK_LATER_CONFIG',
    ],
    [
      discord({ DISCORD_CHANNEL: '#questions' }),
      'DISCORD_CHANNEL must be a channel id of 17–20 digits (not a #name), got "#questions"',
    ],
    [
      discord({ DISCORD_CHANNEL: '1234' }),
      'DISCORD_CHANNEL must be a channel id of 17–20 digits (not a #name), got "1234"',
    ],
    [
      discord({ DISCORD_GUILD_ID: 'my-server' }),
      'DISCORD_GUILD_ID must be a server (guild) id of 17–20 digits, got "my-server"',
    ],
    [
      discord({ DISCORD_ALLOWED_USERS: `${CHANNEL}, alice` }),
      'DISCORD_ALLOWED_USERS must list user ids (17–20 digits each, comma-separated), got "alice"',
    ],
    [
      discord({ DISCORD_ALLOWED_ROLES: '@admins' }),
      'DISCORD_ALLOWED_ROLES must list role ids (17–20 digits each, comma-separated), got "@admins"',
    ],
    [discord({ DISCORD_API_URL: 'ftp://proxy' }), 'DISCORD_API_URL must be an http:// or https:// URL, got a ftp: URL'],
    [
      discord({ DISCORD_API_URL: 'https://discord.com/api/v10/' }),
      'DISCORD_API_URL must be the API base without a version (https://discord.com/api), got one ending in /v10',
    ],
  ])('GIVEN %j THEN one line naming the variable and what it needs', (env, line) => {
    const error = configError(env);
    expect(error.message).toBe(line);
    expect(error.message).not.toContain('\n');
    expect(error.message).not.toContain('hunter2');
    expect(error.message).not.toContain(TOKEN);
  });

  it('GIVEN good Discord settings THEN a frozen config with ids, lists and the API base', () => {
    const config = loadServeConfig(
      discord({
        DISCORD_GUILD_ID: '223456789012345678',
        DISCORD_ALLOWED_USERS: '323456789012345678, 423456789012345678',
        DISCORD_ALLOWED_ROLES: '52345678901234567',
        DISCORD_API_URL: 'http://127.0.0.1:9/api/',
      }),
    );
    expect(config.slack).toBeUndefined();
    expect(config.discord).toEqual({
      token: TOKEN,
      channel: CHANNEL,
      guildId: '223456789012345678',
      allowedUsers: ['323456789012345678', '423456789012345678'],
      allowedRoles: ['52345678901234567'],
      apiUrl: 'http://127.0.0.1:9/api',
    });
    expect(Object.isFrozen(config.discord)).toBe(true);
  });

  it('GIVEN Slack and Discord settings THEN both are served', () => {
    const config = loadServeConfig(
      discord({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_CHANNEL: 'C123', SLACK_SIGNING_SECRET: 's' }),
    );
    expect(config.slack?.channel).toBe('C123');
    expect(config.discord?.channel).toBe(CHANNEL);
  });
});

describe('the web inbox address', () => {
  it('GIVEN no chat settings and no address THEN the web inbox alone, on 127.0.0.1:7420, without a token', () => {
    const config = loadServeConfig({ HOME: '/home/ada' });
    expect(config).toMatchObject({ host: '127.0.0.1', port: 7420, routes: [] });
    expect(config.slack).toBeUndefined();
    expect(config.discord).toBeUndefined();
    expect(config.webToken).toBeUndefined();
  });

  it.each([
    [
      { ASK_LATER_HOST: '0.0.0.0' },
      'ASK_LATER_HOST=0.0.0.0 serves the web inbox beyond this machine: set ASK_LATER_WEB_TOKEN to a secret the page will ask for',
    ],
    [
      { ASK_LATER_HOST: '192.168.1.5' },
      'ASK_LATER_HOST=192.168.1.5 serves the web inbox beyond this machine: set ASK_LATER_WEB_TOKEN to a secret the page will ask for',
    ],
    [
      { ASK_LATER_HOST: 'my-laptop.local' },
      'ASK_LATER_HOST must be an IP address to bind (127.0.0.1, ::1, 0.0.0.0), got "my-laptop.local"',
    ],
    [
      { ASK_LATER_HOST: '0.0.0.0', ASK_LATER_WEB_TOKEN: 'hunter2' },
      'ASK_LATER_WEB_TOKEN must be at least 16 characters (a random secret), got 7',
    ],
    [{ PORT: '74200' }, 'PORT must be a port number from 0 to 65535, got "74200"'],
    [
      { ASK_LATER_PUBLIC_URL: 'ask-later.example.com' },
      'ASK_LATER_PUBLIC_URL must be the http:// or https:// address people and agents reach serve at, got something that is not a URL',
    ],
    [
      { ASK_LATER_PUBLIC_URL: 'ftp://ask-later.example.com' },
      'ASK_LATER_PUBLIC_URL must be the http:// or https:// address people and agents reach serve at, got a ftp: URL',
    ],
    [
      { ASK_LATER_PUBLIC_URL: 'https://ada:hunter2@ask-later.example.com' },
      'ASK_LATER_PUBLIC_URL must be the http:// or https:// address people and agents reach serve at, without a user name or password in it',
    ],
  ])('GIVEN %j THEN one line naming the variable and what it needs', (env, line) => {
    const error = configError({ HOME: '/home/ada', ...env });
    expect(error.message).toBe(line);
    expect(error.message).not.toContain('hunter2');
  });

  it.each([
    [{ ASK_LATER_HOST: '::1' }, '::1'],
    [{ ASK_LATER_HOST: '127.0.0.2' }, '127.0.0.2'],
    [{ ASK_LATER_HOST: 'localhost' }, 'localhost'],
  ])('GIVEN the loopback address %j THEN no token is needed', (env, host) => {
    expect(loadServeConfig({ HOME: '/home/ada', ...env }).host).toBe(host);
  });

  it('GIVEN ASK_LATER_PUBLIC_URL THEN its origin is kept (the host serve also answers as)', () => {
    const config = loadServeConfig({
      HOME: '/home/ada',
      ASK_LATER_PUBLIC_URL: ' https://Ask-Later.example.com/inbox ',
    });
    expect(config.publicUrl).toBe('https://ask-later.example.com');
    expect(loadServeConfig({ HOME: '/home/ada' }).publicUrl).toBeUndefined();
  });

  it('GIVEN another address and a token THEN both are kept', () => {
    const config = loadServeConfig({
      HOME: '/home/ada',
      ASK_LATER_HOST: '0.0.0.0',
      ASK_LATER_WEB_TOKEN: ' 0123456789abcdef0123 ',
      PORT: '8080',
    });
    expect(config).toMatchObject({ host: '0.0.0.0', port: 8080, webToken: '0123456789abcdef0123' });
  });
});

describe('the list of settings', () => {
  it('GIVEN no delivery settings THEN the tool-call and wake paths carry blocking questions; each may be all or off, in any case', () => {
    expect(loadAgentConfig({ ASK_LATER_PROJECT: 'p', REDIS_URL: 'redis://h' }, '/')).toMatchObject({
      wake: 'blocking',
      midturn: 'blocking',
    });
    const set = loadAgentConfig(
      { ASK_LATER_PROJECT: 'p', REDIS_URL: 'redis://h', ASK_LATER_WAKE: ' Off ', ASK_LATER_MIDTURN: 'ALL' },
      '/',
    );
    expect(set).toMatchObject({ wake: 'off', midturn: 'all' });
  });

  it.each([
    [{ ASK_LATER_WAKE: 'never' }, 'ASK_LATER_WAKE must be blocking, all or off, got "never"'],
    [{ ASK_LATER_MIDTURN: 'x'.repeat(30) }, 'ASK_LATER_MIDTURN must be blocking, all or off, got 30 characters'],
  ])('GIVEN %j THEN one line naming the variable and the values it takes', (env, line) => {
    expect(() => loadAgentConfig({ ASK_LATER_PROJECT: 'p', REDIS_URL: 'redis://h', ...env }, '/')).toThrow(
      new ConfigError(line),
    );
  });

  it('GIVEN CONFIG_VARIABLES THEN each is read by the config or project module, and each read is listed', () => {
    const sources = ['src/config/agent.ts', 'src/config/serve.ts', 'src/config/project.ts']
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const read = new Set([...sources.matchAll(/env\.([A-Z_]+)/g)].map((m) => m[1]));
    for (const list of sources.matchAll(/\[((?:'[A-Z_]+',?\s*)+)\]\.find/g)) {
      for (const name of list[1]?.matchAll(/'([A-Z_]+)'/g) ?? []) read.add(name[1]);
    }
    expect([...read].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });
});

describe('the routing file (ASK_LATER_CONFIG)', () => {
  const SLACK = { REDIS_URL: 'redis://h', SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' };
  const BOTH = { ...SLACK, DISCORD_TOKEN: TOKEN };
  const file = (content: unknown) => (path: string) => {
    expect(path).toBe('/etc/ask-later/routes.json');
    return typeof content === 'string' ? content : JSON.stringify(content);
  };
  const withFile = (env: Record<string, string>) => ({ ...env, ASK_LATER_CONFIG: '/etc/ask-later/routes.json' });
  function routingError(env: Record<string, string>, content: unknown): string {
    try {
      loadServeConfig(withFile(env), file(content));
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('no ConfigError');
  }

  it.each([
    [
      'a #name for a Slack channel',
      SLACK,
      {
        routes: [
          { project: 'a', slack: 'C1AAA' },
          { project: 'b', slack: 'C1AAB' },
          { project: 'c', slack: '#general' },
        ],
      },
      'ASK_LATER_CONFIG routes[2].slack: expected a channel id such as C0123ABCD, got "#general"',
    ],
    [
      'a short Discord channel',
      BOTH,
      { routes: [{ project: 'a', discord: '1234' }] },
      'ASK_LATER_CONFIG routes[0].discord: expected a channel id of 17–20 digits, got "1234"',
    ],
    [
      'a number for a Discord channel',
      BOTH,
      // As someone writes it in the file: an id without quotes, which JSON reads as a rounded number.
      '{"routes": [{"project": "a", "discord": 123456789012345678}]}',
      'ASK_LATER_CONFIG routes[0].discord: expected a channel id of 17–20 digits, got the number 123456789012345680 (write ids and names in quotes)',
    ],
    [
      'a route without a channel',
      SLACK,
      { routes: [{ project: 'a' }] },
      'ASK_LATER_CONFIG routes[0]: expected "slack", "discord" or "telegram" (or several): a route must send its projects somewhere, got an object',
    ],
    [
      'an empty project',
      SLACK,
      { routes: [{ project: ' ', slack: 'C1AAA' }] },
      'ASK_LATER_CONFIG routes[0].project: expected a project name or pattern such as "/srv/repos/api" or "/srv/repos/team-*/**", got ""',
    ],
    [
      'a missing project',
      SLACK,
      { routes: [{ slack: 'C1AAA' }] },
      'ASK_LATER_CONFIG routes[0].project: expected a project name or pattern such as "/srv/repos/api" or "/srv/repos/team-*/**", got nothing',
    ],
    [
      'a misspelt key',
      SLACK,
      { routes: [{ project: 'a', slak: 'C1AAA' }] },
      'ASK_LATER_CONFIG routes[0]: unknown key "slak" (expected project, slack, discord, telegram, allow, remindAfter, remindTimes, owners)',
    ],
    [
      'a misspelt allow key',
      SLACK,
      { routes: [{ project: 'a', slack: 'C1AAA', allow: { users: ['U1AAA'] } }] },
      'ASK_LATER_CONFIG routes[0].allow: unknown key "users" (expected slackUsers, discordUsers, discordRoles, telegramUsers)',
    ],
    [
      'a Slack user given by name',
      SLACK,
      { routes: [{ project: 'a', slack: 'C1AAA', allow: { slackUsers: ['U1AAA', '@ana'] } }] },
      'ASK_LATER_CONFIG routes[0].allow.slackUsers[1]: expected a Slack user id such as U0123ABCD, got "@ana"',
    ],
    [
      'a Discord role given by name',
      BOTH,
      { routes: [{ project: 'a', discord: CHANNEL, allow: { discordRoles: ['admins'] } }] },
      'ASK_LATER_CONFIG routes[0].allow.discordRoles[0]: expected a Discord role id of 17–20 digits, got "admins"',
    ],
    [
      'a Slack allow-list on a Discord-only route',
      BOTH,
      { routes: [{ project: 'a', discord: CHANNEL, allow: { slackUsers: ['U1AAA'] } }] },
      'ASK_LATER_CONFIG routes[0].allow.slackUsers: the route names no Slack channel, got a Slack allow-list',
    ],
    ['no routes list', SLACK, { route: [] }, 'ASK_LATER_CONFIG routes: expected a list of routes, got nothing'],
    ['routes not a list', SLACK, { routes: {} }, 'ASK_LATER_CONFIG routes: expected a list of routes, got an object'],
    ['a list at the top', SLACK, [], 'ASK_LATER_CONFIG (the file): expected an object {"routes": [...]}, got a list'],
    [
      'a Slack route without a Slack bot',
      { REDIS_URL: 'redis://h', DISCORD_TOKEN: TOKEN, DISCORD_CHANNEL: CHANNEL },
      {
        routes: [
          { project: 'a', discord: CHANNEL },
          { project: 'b', slack: 'C1AAA' },
        ],
      },
      'ASK_LATER_CONFIG routes[1].slack names a Slack channel but SLACK_BOT_TOKEN is not set: set the bot token (xoxb-…) too',
    ],
    [
      'a Discord route without a Discord bot',
      { ...SLACK, SLACK_CHANNEL: 'C1AAA' },
      { routes: [{ project: 'a', discord: CHANNEL }] },
      'ASK_LATER_CONFIG routes[0].discord names a Discord channel but DISCORD_TOKEN is not set: set the bot token too',
    ],
    [
      'no Slack channel anywhere',
      BOTH,
      { routes: [{ project: 'a', discord: CHANNEL }] },
      'SLACK_CHANNEL is not set: name the channel id questions go to (C…), or route projects to Slack channels in ASK_LATER_CONFIG',
    ],
    [
      'invalid JSON',
      SLACK,
      '{\n  "routes": [\n    { "project": "a", "slack": "C1AAA", }\n  ]\n}',
      'ASK_LATER_CONFIG names "/etc/ask-later/routes.json", which is not valid JSON (at line 3, column 41)',
    ],
    [
      'a file cut short',
      SLACK,
      '{"routes": [',
      'ASK_LATER_CONFIG names "/etc/ask-later/routes.json", which is not valid JSON (it ends too early)',
    ],
  ])('GIVEN %s THEN one line naming the file and the key, and what it got', (_what, env, content, line) => {
    const message = routingError(env, content);
    expect(message).toBe(line);
    expect(message).not.toContain('\n');
  });

  it('GIVEN a file that is not there THEN one line saying so', () => {
    const env = withFile(SLACK);
    expect(() => loadServeConfig({ ...env, ASK_LATER_CONFIG: '/nonexistent/ask-later.json' })).toThrow(
      new ConfigError('ASK_LATER_CONFIG names "/nonexistent/ask-later.json", which cannot be read (no such file)'),
    );
    expect(() => loadServeConfig({ ...env, ASK_LATER_CONFIG: '/tmp' })).toThrow(
      new ConfigError('ASK_LATER_CONFIG names "/tmp", which cannot be read (it is a directory)'),
    );
  });

  it('GIVEN routes covering Slack THEN SLACK_CHANNEL may be absent, and the routes come back frozen in order', () => {
    const routes = [
      { project: '/srv/api', slack: 'C0API', allow: { slackUsers: ['U0ANA'] } },
      { project: '/srv/team-*/**', slack: 'C0TEAM', discord: CHANNEL },
    ];
    const config = loadServeConfig(withFile({ ...BOTH, DISCORD_CHANNEL: CHANNEL }), file({ routes }));
    expect(config.slack?.channel).toBeUndefined();
    expect(config.discord?.channel).toBe(CHANNEL);
    expect(config.routes).toEqual(routes);
    expect(Object.isFrozen(config.routes?.[0])).toBe(true);
    expect(Object.isFrozen(config.routes?.[0]?.allow)).toBe(true);
  });

  it('GIVEN no ASK_LATER_CONFIG THEN no routes and the file is never read', () => {
    const config = loadServeConfig({ ...SLACK, SLACK_CHANNEL: 'C1AAA' }, () => {
      throw new Error('read');
    });
    expect(config.routes).toEqual([]);
  });
});
