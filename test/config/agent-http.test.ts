import { describe, expect, it } from 'vitest';
import { loadAgentConfig, loadAgentStoreConfig, loadStoreConfig } from '../../src/config/agent.js';
import { ConfigError } from '../../src/config/config-error.js';
import { newToken } from '../../src/core/token-format.js';

const TOKEN = newToken().token;

function problem(load: () => unknown): string {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('no ConfigError');
}

describe('agents over HTTP: ASK_LATER_URL and ASK_LATER_TOKEN', () => {
  it('GIVEN a URL and a token THEN the agent side uses serve’s agent API, frozen', () => {
    const config = loadAgentStoreConfig({ ASK_LATER_URL: ' https://ask-later.example/team ', ASK_LATER_TOKEN: TOKEN });
    expect(config).toEqual({ store: { kind: 'http', url: 'https://ask-later.example/team', token: TOKEN } });
    expect(Object.isFrozen(config.store)).toBe(true);
    expect(loadAgentConfig({ ASK_LATER_URL: 'http://127.0.0.1:7420', ASK_LATER_TOKEN: TOKEN }, '/tmp').store.kind).toBe(
      'http',
    );
  });

  it('GIVEN the plugin’s settings THEN they are used, and each variable wins over its setting', () => {
    const plugin = { CLAUDE_PLUGIN_OPTION_SERVER_URL: 'https://plugin.example', CLAUDE_PLUGIN_OPTION_TOKEN: TOKEN };
    expect(loadAgentStoreConfig(plugin).store).toEqual({ kind: 'http', url: 'https://plugin.example', token: TOKEN });
    const other = newToken().token;
    expect(loadAgentStoreConfig({ ...plugin, ASK_LATER_TOKEN: other }).store).toEqual({
      kind: 'http',
      url: 'https://plugin.example',
      token: other,
    });
    // REDIS_URL in the environment wins over the plugin's settings (the environment is the person's own choice).
    expect(loadAgentStoreConfig({ ...plugin, REDIS_URL: 'redis://h' }).store.kind).toBe('redis');
    // Empty settings (the plugin installed, nothing filled in) are no settings.
    expect(
      loadAgentStoreConfig({
        CLAUDE_PLUGIN_OPTION_SERVER_URL: '',
        CLAUDE_PLUGIN_OPTION_TOKEN: '',
        REDIS_URL: 'redis://h',
      }).store.kind,
    ).toBe('redis');
  });

  it.each([
    [
      { REDIS_URL: 'redis://h', ASK_LATER_URL: 'https://x', ASK_LATER_TOKEN: TOKEN },
      "REDIS_URL and ASK_LATER_URL are both set: set REDIS_URL for the store itself, or ASK_LATER_URL and ASK_LATER_TOKEN for serve's agent API, not both",
    ],
    [
      { ASK_LATER_URL: 'https://x' },
      'ASK_LATER_TOKEN must be set with ASK_LATER_URL: a token from `ask-later token create`',
    ],
    [{ ASK_LATER_TOKEN: TOKEN }, 'ASK_LATER_URL must be set with ASK_LATER_TOKEN: the URL of ask-later serve'],
    [
      { ASK_LATER_URL: 'redis://h', ASK_LATER_TOKEN: TOKEN },
      'ASK_LATER_URL must be an http:// or https:// URL of ask-later serve, got a redis: URL',
    ],
    [
      { ASK_LATER_URL: 'ask-later.example', ASK_LATER_TOKEN: TOKEN },
      'ASK_LATER_URL must be an http:// or https:// URL of ask-later serve, got something that is not a URL',
    ],
    [
      { ASK_LATER_URL: 'https://x', ASK_LATER_TOKEN: 'hunter2-secret' },
      'ASK_LATER_TOKEN must be a token from `ask-later token create` (alt_, 12 letters and digits, _ and 43 more characters), got 14 characters that are not one',
    ],
    [
      { CLAUDE_PLUGIN_OPTION_SERVER_URL: 'ftp://x', CLAUDE_PLUGIN_OPTION_TOKEN: TOKEN },
      "the plugin's server_url setting must be an http:// or https:// URL of ask-later serve, got a ftp: URL",
    ],
  ])('GIVEN %j THEN one line naming the variable, never the token', (env, line) => {
    const message = problem(() => loadAgentStoreConfig(env));
    expect(message).toBe(line);
    expect(message).not.toContain(TOKEN);
    expect(message).not.toContain('hunter2');
  });

  it('GIVEN only ASK_LATER_URL THEN commands that need the store itself refuse rather than open this machine’s file', () => {
    expect(problem(() => loadStoreConfig({ ASK_LATER_URL: 'https://x', HOME: '/home/ada' }))).toBe(
      "this command works on the store itself: set REDIS_URL (ASK_LATER_URL reaches serve's agent API, which offers only what agents need)",
    );
    expect(loadStoreConfig({ ASK_LATER_URL: 'https://x', REDIS_URL: 'redis://h' }).store.kind).toBe('redis');
  });
});
