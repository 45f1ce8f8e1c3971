/**
 * Opens stores for tests: Redis with its own key prefix, SQLite in a file of its own in a temporary directory; a
 * clock the test moves; unique project names.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { Question, Responder, SetMember, SetSpec, SingleSpec } from '../../src/core/question.js';
import { openRedisStore, type RedisStore, type RedisStoreOptions } from '../../src/store/redis/redis-store.js';
import { openSqliteStore, type SqliteStore, type SqliteStoreOptions } from '../../src/store/sqlite/sqlite-store.js';

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

/** A fresh temporary directory for SQLite files; the caller removes it (or lets the OS). */
export function sqliteTestDir(): string {
  return mkdtempSync(join(tmpdir(), 'ask-later-sqlite-'));
}

/**
 * Opens a SQLite store in a file of its own (in a new temporary directory unless `path` is given). Closing the
 * store removes the directory it created.
 */
export async function openSqliteTestStore(options: Partial<SqliteStoreOptions> = {}): Promise<SqliteStore> {
  const dir = options.path === undefined ? sqliteTestDir() : undefined;
  const store = await openSqliteStore({ path: dir ? join(dir, 'inbox.db') : '', ...options });
  if (dir) {
    const close = store.close.bind(store);
    store.close = async () => {
      await close();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  return store;
}

export function spec(overrides: Partial<SingleSpec> = {}): SingleSpec {
  return {
    context: 'We are migrating the **billing** service.',
    question: 'Which database should billing use?',
    impact: 'Decides the migration scripts.',
    isBlocking: false,
    options: [{ label: 'Postgres', description: 'What the team knows' }, { label: 'SQLite' }],
    recommended: ['Postgres'],
    multiSelect: false,
    ...overrides,
  };
}

/** A set of three: a single-select with a recommendation, a multi-select with values, one without. */
export function setSpec(overrides: Partial<SetSpec> = {}): SetSpec {
  const members: SetMember[] = [
    {
      topic: 'Database',
      question: 'Which database should billing use?',
      options: [
        { label: 'Postgres', value: 'pg', description: 'What the team knows' },
        { label: 'SQLite', value: 'sqlite' },
      ],
      recommended: ['Postgres'],
      multiSelect: false,
      isBlocking: true,
    },
    {
      topic: 'Caches',
      question: 'Which caches may billing use?',
      options: [{ label: 'Redis', description: 'Shared' }, { label: 'In-process' }, { label: 'None' }],
      recommended: ['Redis', 'In-process'],
      multiSelect: true,
      isBlocking: false,
      context: 'Billing reads prices on every request.',
    },
    {
      topic: 'Naming',
      question: 'What do we call the new service?',
      options: [{ label: 'billing-v2' }, { label: 'ledger' }],
      multiSelect: false,
      isBlocking: false,
      impact: 'The name goes into every dashboard.',
    },
  ];
  return {
    context: 'We are migrating the **billing** service.',
    impact: 'Decides the migration scripts.',
    isBlocking: true,
    members,
    ...overrides,
  };
}

/** The question as a single question (the test parked one): fails when it is a set. */
export function single<T extends Question>(question: T): Extract<T, SingleSpec> {
  if (question.members !== undefined) throw new Error(`expected #${question.id} to be a single question`);
  return question as Extract<T, SingleSpec>;
}

export function person(userId = 'U1', platform: Responder['platform'] = 'slack'): Responder {
  return { platform, userId, displayName: `Person ${userId}` };
}
