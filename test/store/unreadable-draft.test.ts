/**
 * A change merges with the stored draft inside the store's transition (Redis: draft-2.lua; SQLite: its write
 * transaction), so a stored draft that does not read as one is met there: each adapter refuses the change with
 * `CorruptRecordError` naming the question, never the text, and writes nothing.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CorruptRecordError } from '../../src/store/corrupt-record-error.js';
import { ProjectKeys } from '../../src/store/redis/keys.js';
import type { RedisStore } from '../../src/store/redis/redis-store.js';
import { openDatabase } from '../../src/store/sqlite/driver.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { openTestStore, spec, sqliteTestDir, uniquePrefix, uniqueProject } from '../support/store.js';

const who = { platform: 'slack' as const, userId: 'U1' };
const unreadable = [
  'not json {',
  JSON.stringify({ choices: 'A', other: false, updatedAt: 1 }),
  JSON.stringify({ choices: [1], other: false, updatedAt: 1 }),
  JSON.stringify({ choices: [], other: 'no', updatedAt: 1 }),
  JSON.stringify({ choices: [], other: false, notes: null, updatedAt: 1 }),
  JSON.stringify({ choices: [], other: false }),
];

describe('Redis: a change meeting an unreadable stored draft', () => {
  const prefix = uniquePrefix();
  let store: RedisStore;
  let raw: RedisClientType;
  beforeAll(async () => {
    store = await openTestStore({ prefix });
    raw = createClient({ url: inject('redisUrl') }) as RedisClientType;
    await raw.connect();
  });
  afterAll(async () => {
    await store.close();
    raw.destroy();
  });

  it.each(unreadable)('GIVEN the stored draft %s THEN CorruptRecordError and it stays as it was', async (text) => {
    const project = uniqueProject();
    const keys = new ProjectKeys(prefix, project);
    await store.park(project, spec());
    await raw.hSet(keys.drafts(1), 'slack:U1', text);
    const refused = store.saveDraft(project, 1, who, { notes: 'secret note' });
    await expect(refused).rejects.toBeInstanceOf(CorruptRecordError);
    await expect(refused).rejects.toThrow(`Stored question ${project}#1 is unreadable: draft: expected`);
    expect(await raw.hGet(keys.drafts(1), 'slack:U1')).toBe(text);
  });
});

describe('SQLite: a change meeting an unreadable stored draft', () => {
  it.each(unreadable)('GIVEN the stored draft %s THEN CorruptRecordError and it stays as it was', async (text) => {
    const dir = sqliteTestDir();
    const path = join(dir, 'inbox.db');
    const project = uniqueProject();
    const store = await openSqliteStore({ path });
    try {
      await store.park(project, spec());
      await store.saveDraft(project, 1, who, { notes: 'first' });
      // The store's engine: two SQLite libraries in one process do not see each other's file locks.
      const raw = openDatabase(path, { directory: undefined, busyTimeoutMs: 2000 });
      const stored = raw.prepare('UPDATE drafts SET draft = ? WHERE project = ? AND question_id = 1 AND person = ?');
      stored.run(text, project, 'slack:U1');
      const refused = store.saveDraft(project, 1, who, { notes: 'secret note' });
      await expect(refused).rejects.toBeInstanceOf(CorruptRecordError);
      await expect(refused).rejects.toThrow(`Stored question ${project}#1 is unreadable: draft: expected`);
      expect(raw.prepare('SELECT draft FROM drafts WHERE project = ?').all(project)).toEqual([{ draft: text }]);
      raw.close();
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
