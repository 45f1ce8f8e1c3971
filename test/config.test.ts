import { describe, expect, it } from 'vitest';
import { loadAgentConfig, loadStoreConfig } from '../src/config.js';
import { ConfigError } from '../src/config-error.js';

describe('store settings', () => {
  it.each([
    [{}, 'REDIS_URL is not set: point it at the Redis that holds the inbox (redis://host:6379)'],
    [{ REDIS_URL: '   ' }, 'REDIS_URL is not set: point it at the Redis that holds the inbox (redis://host:6379)'],
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
        loadStoreConfig(env);
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
    expect(config).toEqual({ redisUrl: 'rediss://cache.internal:6380', redisPrefix: 'al' });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('GIVEN ASK_LATER_PROJECT THEN the agent config names that project', () => {
    expect(loadAgentConfig({ REDIS_URL: 'redis://h', ASK_LATER_PROJECT: ' team/api ' }, '/tmp').project).toBe(
      'team/api',
    );
  });
});
