/** Opens the Redis store for a test: its own key prefix, a clock the test moves, unique project names. */
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import type { QuestionSpec, Responder } from '../../src/core/question.js';
import { openRedisStore, type RedisStore, type RedisStoreOptions } from '../../src/store/redis/redis-store.js';

export interface TestClock {
  now: () => number;
  advance(ms: number): void;
}

export function testClock(start = 1_800_000_000_000): TestClock {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
  };
}

export function uniqueProject(name = 'project'): string {
  return `/tmp/ask-later-test/${name}-${randomUUID()}`;
}

export function uniquePrefix(): string {
  return `al-test-${randomUUID().slice(0, 8)}`;
}

export async function openTestStore(options: Partial<RedisStoreOptions> = {}): Promise<RedisStore> {
  return openRedisStore({ url: inject('redisUrl'), prefix: uniquePrefix(), ...options });
}

export function spec(overrides: Partial<QuestionSpec> = {}): QuestionSpec {
  return {
    context: 'We are migrating the **billing** service.',
    question: 'Which database should billing use?',
    impact: 'Decides the migration scripts.',
    isBlocking: false,
    options: [{ label: 'Postgres', description: 'What the team knows' }, { label: 'SQLite' }],
    recommended: 'Postgres',
    multiSelect: false,
    ...overrides,
  };
}

export function person(userId = 'U1', platform: Responder['platform'] = 'slack'): Responder {
  return { platform, userId, displayName: `Person ${userId}` };
}
