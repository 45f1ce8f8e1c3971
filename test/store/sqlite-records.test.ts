/**
 * What only the embedded store has: its file (path, schema versions, reopening), records read back from rows
 * (older versions, corrupt rows), and a file that cannot be used.
 */
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CorruptRecordError } from '../../src/store/corrupt-record-error.js';
import { openDatabase, type SqliteDatabase } from '../../src/store/sqlite/driver.js';
import { NewerSchemaError } from '../../src/store/sqlite/newer-schema-error.js';
import { defaultDatabasePath } from '../../src/store/sqlite/path.js';
import { SCHEMA_VERSION } from '../../src/store/sqlite/schema.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { StoreUnavailableError } from '../../src/store/store-unavailable-error.js';
import { person, spec, sqliteTestDir, testClock, uniqueProject } from '../support/store.js';

/**
 * A plain connection to the file, on the engine the store uses here: two SQLite libraries in one process do not
 * see each other's file locks, so tests never mix them on one file.
 */
function rawDatabase(path: string, readOnly = false): SqliteDatabase {
  return openDatabase(path, { directory: undefined, busyTimeoutMs: 2000, readOnly });
}

let dir: string;
beforeAll(() => {
  dir = sqliteTestDir();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

let files = 0;
function newPath(): string {
  files++;
  return join(dir, `case-${files}`, 'inbox.db');
}

const pick = (label: string) => ({ choices: [label], other: false });

describe('where the file lives', () => {
  it('GIVEN ASK_LATER_DB THEN it is the file, as given', () => {
    expect(defaultDatabasePath({ ASK_LATER_DB: '/data/inbox.db', XDG_STATE_HOME: '/state' }, '/home/a')).toBe(
      '/data/inbox.db',
    );
  });

  it('GIVEN XDG_STATE_HOME THEN ask-later/inbox.db under it; a relative or blank one is ignored', () => {
    expect(defaultDatabasePath({ XDG_STATE_HOME: '/state' }, '/home/a')).toBe('/state/ask-later/inbox.db');
    expect(defaultDatabasePath({ XDG_STATE_HOME: 'state' }, '/home/a')).toBe('/home/a/.local/state/ask-later/inbox.db');
    expect(defaultDatabasePath({ ASK_LATER_DB: ' ', XDG_STATE_HOME: '' }, '/home/a')).toBe(
      '/home/a/.local/state/ask-later/inbox.db',
    );
  });

  it('GIVEN nothing set THEN ~/.local/state/ask-later/inbox.db', () => {
    expect(defaultDatabasePath({}, '/home/a')).toBe('/home/a/.local/state/ask-later/inbox.db');
  });

  it('GIVEN a path whose directories do not exist THEN the first open creates them and the file', async () => {
    const path = join(dir, 'deep', 'er', 'inbox.db');
    const store = await openSqliteStore({ path });
    await store.park(uniqueProject(), spec());
    await store.close();
    expect(statSync(path).mode & 0o777).toBe(0o600); // question texts and answers: the owner's only
    expect(statSync(join(dir, 'deep', 'er')).mode & 0o777).toBe(0o700);
    const raw = rawDatabase(path, true);
    expect(raw.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect(raw.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
    raw.close();
  });
});

describe('reopening the file', () => {
  it('GIVEN a closed store THEN reopening the file finds everything: questions, ids, drafts, copies, claims, events', async () => {
    const path = newPath();
    const clock = testClock();
    const project = uniqueProject();
    const first = await openSqliteStore({ path, now: clock.now });
    await first.park(project, spec({ isBlocking: true })); // 1 answered, then leased
    await first.park(project, spec()); // 2 pending with a draft and a message copy
    await first.answer(project, 1, pick('SQLite'), person('UA'));
    await first.saveDraft(project, 2, { platform: 'slack', userId: 'UB' }, { pick: pick('Postgres') });
    await first.recordMessage(project, 2, { platform: 'slack', channel: 'C1', messageId: '17.1' });
    const claim = await first.claimUndelivered(project, { budget: 10_000, leaseMs: 60_000 });
    const consumer = await first.consumer('bridge', 'one');
    const seen = await consumer.read(); // parked, parked, answered: read, never acknowledged
    const before = await first.list(project);
    await first.close();

    const second = await openSqliteStore({ path, now: clock.now });
    try {
      expect(await second.list(project)).toEqual(before);
      expect(await second.knownProjects()).toEqual([project]);
      expect(await second.getDraft(project, 2, { platform: 'slack', userId: 'UB' })).toMatchObject({
        choices: ['Postgres'],
      });
      expect((await second.get(project, 2))?.messages).toEqual([
        { platform: 'slack', channel: 'C1', messageId: '17.1' },
      ]);
      expect((await second.park(project, spec())).id).toBe(3);
      // The lease survived: no other claim takes #1 while it runs, and the old claim still confirms.
      expect((await second.claimUndelivered(project, { budget: 10_000, leaseMs: 1_000 })).questions).toEqual([]);
      expect(await second.confirmClaim(project, claim)).toEqual([1]);
      // The group's cursor and its unacknowledged events survived too.
      const again = await second.consumer('bridge', 'two');
      expect((await again.read()).map((e) => [e.type, e.questionId])).toEqual([
        ['parked', 3],
        ['delivered', 1],
      ]);
      expect((await again.reclaim(0)).map((e) => e.eventId)).toEqual(
        expect.arrayContaining(seen.map((e) => e.eventId)),
      );
    } finally {
      await second.close();
    }
  });
});

describe('records written by older versions', () => {
  it('GIVEN a hand-inserted version 1 row THEN it reads as today’s question, and can still be answered', async () => {
    const path = newPath();
    const clock = testClock();
    const store = await openSqliteStore({ path, now: clock.now });
    const project = uniqueProject();
    await store.park(project, spec()); // registers the project and takes id 1
    const raw = rawDatabase(path);
    const insert = raw.prepare(
      `INSERT INTO questions (project, id, v, status, spec, created_at, answer, size, ready_at)
       VALUES (?, ?, 1, ?, ?, 1700000000000, ?, ?, ?)`,
    );
    insert.run(
      project,
      2,
      'answered',
      JSON.stringify({
        context: 'Old context',
        question: 'Old question?',
        impact: 'Old impact',
        isBlocking: true,
        options: ['Yes', 'No'],
        recommended: 'Yes',
      }),
      JSON.stringify({ choice: null, notes: 'neither', platform: 'slack', userId: 'U1', userName: 'Ada', at: 1 }),
      100,
      1700000001000,
    );
    insert.run(
      project,
      3,
      'pending',
      JSON.stringify({ context: 'c', question: 'q?', impact: 'i', isBlocking: false, options: ['A'] }),
      null,
      null,
      null,
    );
    raw.close();
    try {
      expect(await store.get(project, 2)).toEqual({
        context: 'Old context',
        question: 'Old question?',
        impact: 'Old impact',
        isBlocking: true,
        options: [{ label: 'Yes' }, { label: 'No' }],
        recommended: ['Yes'],
        multiSelect: false,
        project,
        id: 2,
        status: 'answered',
        createdAt: 1700000000000,
        answer: {
          choices: [],
          other: true,
          notes: 'neither',
          by: { platform: 'slack', userId: 'U1', displayName: 'Ada' },
          at: 1,
        },
        messages: [],
      });
      const won = await store.answer(project, 3, pick('A'), person());
      expect(won.kind).toBe('won');
      expect(await store.get(project, 3)).toMatchObject({ answer: { choices: ['A'] } });
      const claim = await store.claimUndelivered(project, { budget: 10_000, leaseMs: 1_000 });
      expect(claim.questions.map((q) => q.id)).toEqual([2, 3]);
    } finally {
      await store.close();
    }
  });
});

describe('corrupt rows', () => {
  it('GIVEN a row that does not read THEN get names the record and column, and listings skip and report it', async () => {
    const path = newPath();
    const corrupt: CorruptRecordError[] = [];
    const store = await openSqliteStore({ path, onCorruptRecord: (e) => corrupt.push(e) });
    const project = uniqueProject();
    await store.park(project, spec());
    await store.park(project, spec({ question: 'Secret question?' }));
    await store.park(project, spec());
    const raw = rawDatabase(path);
    raw.prepare(`UPDATE questions SET spec = '{"context": "Secret' WHERE project = ? AND id = 2`).run(project);
    raw.prepare(`UPDATE questions SET status = 'lost' WHERE project = ? AND id = 3`).run(project);
    raw.close();
    try {
      const error = await store.get(project, 2).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CorruptRecordError);
      expect((error as CorruptRecordError).record).toBe(`${project}#2`);
      expect((error as CorruptRecordError).message).toContain('`spec`');
      expect((error as CorruptRecordError).message).not.toContain('Secret');
      await expect(store.get(project, 3)).rejects.toThrow(/`status`: expected one of pending/);
      expect((await store.list(project)).map((q) => q.id)).toEqual([1]);
      expect(corrupt.map((e) => e.record)).toEqual([`${project}#2`, `${project}#3`]);
      expect((await store.listAcross([project])).map((q) => q.id)).toEqual([1]);
    } finally {
      await store.close();
    }
  });

  it('GIVEN a corrupt outcome waiting THEN a claim fails naming it and leases nothing', async () => {
    const path = newPath();
    const store = await openSqliteStore({ path });
    const project = uniqueProject();
    await store.park(project, spec());
    await store.answer(project, 1, pick('SQLite'), person());
    const raw = rawDatabase(path);
    raw.prepare(`UPDATE questions SET answer = 'nope' WHERE project = ? AND id = 1`).run(project);
    expect(raw.prepare('SELECT claim FROM questions WHERE project = ?').get(project)).toEqual({ claim: null });
    try {
      await expect(store.claimUndelivered(project, { budget: 10_000, leaseMs: 1_000 })).rejects.toBeInstanceOf(
        CorruptRecordError,
      );
      expect(raw.prepare('SELECT claim FROM questions WHERE project = ?').get(project)).toEqual({ claim: null });
    } finally {
      raw.close();
      await store.close();
    }
  });
});

describe('schema versions', () => {
  it('GIVEN a file from a newer ask-later THEN opening fails as unavailable, saying why', async () => {
    const path = newPath();
    mkdirSync(join(path, '..'), { recursive: true });
    const raw = rawDatabase(path);
    raw.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    const error = await openSqliteStore({ path }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).cause).toBeInstanceOf(NewerSchemaError);
  });
});

describe('a file that cannot be used', () => {
  it('GIVEN a path below a plain file THEN opening fails with StoreUnavailableError', async () => {
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, 'x');
    await expect(openSqliteStore({ path: join(blocker, 'inbox.db') })).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('GIVEN a file that is not a database THEN opening fails with StoreUnavailableError', async () => {
    const path = newPath();
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, 'this is not SQLite, just some text that is long enough to have a header');
    await expect(openSqliteStore({ path })).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('GIVEN another process holding the write lock past the busy time-out THEN a change fails as unavailable and changes nothing', async () => {
    const path = newPath();
    const store: SqliteStore = await openSqliteStore({ path, busyTimeoutMs: 50 });
    const project = uniqueProject();
    await store.park(project, spec());
    // The same engine as the store's: two SQLite libraries in one process do not see each other's locks.
    const holder = rawDatabase(path);
    holder.exec('BEGIN IMMEDIATE');
    try {
      await expect(store.answer(project, 1, pick('SQLite'), person())).rejects.toBeInstanceOf(StoreUnavailableError);
      expect((await store.get(project, 1))?.status).toBe('pending'); // readers are not blocked (WAL)
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect((await store.answer(project, 1, pick('SQLite'), person())).kind).toBe('won');
    await store.close();
  });

  it('GIVEN a closed store THEN calls fail with StoreUnavailableError', async () => {
    const store = await openSqliteStore({ path: newPath() });
    await store.close();
    await expect(store.park(uniqueProject(), spec())).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.get(uniqueProject(), 1)).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});

describe('retention of events', () => {
  it('GIVEN events older than the retention period THEN purge drops them, and pending deliveries of them', async () => {
    const clock = testClock();
    const store = await openSqliteStore({ path: newPath(), now: clock.now });
    try {
      const project = uniqueProject();
      const consumer = await store.consumer('bridge', 'one');
      await store.park(project, spec());
      expect(await consumer.read()).toHaveLength(1);
      clock.advance(31 * 24 * 3600_000);
      await store.park(project, spec());
      await store.purgeExpired();
      expect(await consumer.reclaim(0)).toEqual([]);
      expect((await consumer.read()).map((e) => e.questionId)).toEqual([2]);
      expect((await store.list(project)).map((q) => q.id)).toEqual([1, 2]); // pending questions stay
    } finally {
      await store.close();
    }
  });
});

describe('a file of schema version 4 (before the paged views)', () => {
  it('GIVEN rows written before version 5 THEN opening the file migrates it and the paged views read them', async () => {
    const path = newPath();
    const clock = testClock();
    const project = uniqueProject();
    const first = await openSqliteStore({ path, now: clock.now });
    for (let i = 0; i < 3; i++) await first.park(project, spec({ isBlocking: i === 2 }));
    await first.answer(project, 1, pick('SQLite'), person());
    await first.close();
    // Back to version 4's layout: no view columns, no view indexes (and no tokens' `web` column, which v10 adds;
    // the later tables are made only if missing).
    const raw = rawDatabase(path);
    raw.exec(`DROP INDEX questions_pending_view; DROP INDEX questions_closed_view;
      ALTER TABLE questions DROP COLUMN blocking; ALTER TABLE questions DROP COLUMN closed_at;
      ALTER TABLE tokens DROP COLUMN web;
      PRAGMA user_version = 4;`);
    raw.close();

    const second = await openSqliteStore({ path, now: clock.now });
    try {
      const pending = await second.pageAcross([project], { view: 'pending', limit: 10 });
      expect(pending.questions.map((q) => q.id)).toEqual([3, 2]);
      const answered = await second.pageAcross([project], { view: 'answered', limit: 10 });
      expect(answered.questions.map((q) => q.id)).toEqual([1]);
      expect((await second.countAcross([project])).get(project)).toEqual({
        blocking: 1,
        canWait: 1,
        closed: 1,
        answered: 1,
      });
    } finally {
      await second.close();
    }
    const check = rawDatabase(path, true);
    expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
    check.close();
  });
});

describe('the index of decisions in a file written before it', () => {
  it('GIVEN decisions answered before the file had the index THEN the first check indexes them, once', async () => {
    const path = newPath();
    const project = uniqueProject();
    const before = await openSqliteStore({ path });
    await before.park(project, spec({ question: 'Which database should billing use?' }));
    await before.answer(project, 1, pick('Postgres'), person());
    await before.close();
    // What a file of schema 7 holds: the decision, no index rows.
    const raw = rawDatabase(path);
    raw.exec(
      'DELETE FROM decided_docs; DELETE FROM decided_terms; DELETE FROM decided_built; DELETE FROM decided_totals; DELETE FROM decided_df;',
    );
    raw.close();

    const after = await openSqliteStore({ path });
    try {
      const database = { question: 'What database does billing use?', options: [{ label: 'Postgres' }] };
      expect((await after.similarDecisions(project, [database]))[0]?.map((found) => found.decision.id)).toEqual([1]);
      expect((await after.similarDecisions(project, [database]))[0]?.map((found) => found.decision.id)).toEqual([1]);
      const check = rawDatabase(path, true);
      expect(check.prepare('SELECT COUNT(*) AS n FROM decided_docs WHERE project = ?').get(project)).toEqual({ n: 1 });
      expect(check.prepare('SELECT documents FROM decided_totals WHERE project = ?').get(project)).toEqual({
        documents: 1,
      });
      check.close();
    } finally {
      await after.close();
    }
  });

  it('GIVEN a file of schema 8 (the index without its totals) THEN opening it counts them, and purges keep them in step', async () => {
    const path = newPath();
    const clock = testClock();
    const project = uniqueProject();
    const before = await openSqliteStore({ path, now: clock.now });
    for (const question of ['Which database should billing use?', 'Which queue should search use?']) {
      const parked = await before.park(project, spec({ question }));
      await before.answer(project, parked.id, pick('SQLite'), person());
    }
    await before.close();
    const raw = rawDatabase(path);
    // Schema 8's layout: no totals, and no tokens' `web` column (v10).
    raw.exec(
      'DROP TABLE decided_totals; DROP TABLE decided_df; ALTER TABLE tokens DROP COLUMN web; PRAGMA user_version = 8;',
    );
    raw.close();

    const totals = () => {
      const check = rawDatabase(path, true);
      try {
        return check.prepare('SELECT documents, length FROM decided_totals WHERE project = ?').get(project);
      } finally {
        check.close();
      }
    };
    const after = await openSqliteStore({ path, now: clock.now });
    try {
      expect(totals()).toMatchObject({ documents: 2 });
      const found = await after.similarDecisions(project, [{ question: 'What queue does search use?', options: [] }]);
      expect(found[0]?.map((each) => each.decision.id)).toEqual([2]);
      // Delivered, then dropped after the retention: its document goes, and the totals with it.
      for (const id of [1, 2]) expect(await after.markDelivered(project, id)).toBe('delivered');
      clock.advance(31 * 24 * 3600_000);
      await after.purgeExpired();
      expect(totals()).toEqual({ documents: 0, length: 0 });
      expect(await after.similarDecisions(project, [{ question: 'What queue does search use?', options: [] }])).toEqual(
        [[]],
      );
    } finally {
      await after.close();
    }
  });
});

describe('a file of schema version 9 (tokens for agents only)', () => {
  it('GIVEN a token kept before version 10 THEN opening the file migrates it: the token reads as an agent token, and a web token can be kept', async () => {
    const path = newPath();
    const before = await openSqliteStore({ path });
    const agent = { id: 'aaaaaaaaaaaa', name: 'ci', hash: 'a'.repeat(64), patterns: ['**'], createdAt: 1 };
    expect(await before.tokens().create(agent)).toBe(true);
    await before.close();
    // Back to version 9's layout: the tokens table without `web`.
    const raw = rawDatabase(path);
    raw.exec('DROP TABLE decided_df; ALTER TABLE tokens DROP COLUMN web; PRAGMA user_version = 9;');
    raw.close();

    const after = await openSqliteStore({ path });
    try {
      expect(await after.tokens().get(agent.id)).toEqual(agent);
      const web = { ...agent, id: 'bbbbbbbbbbbb', name: 'alice', web: true as const };
      expect(await after.tokens().create(web)).toBe(true);
      expect(await after.tokens().get(web.id)).toEqual(web);
      const check = rawDatabase(path, true);
      expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION });
      check.close();
    } finally {
      await after.close();
    }
  });
});
