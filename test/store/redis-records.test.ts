import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CorruptRecordError } from '../../src/store/corrupt-record-error.js';
import { ProjectKeys } from '../../src/store/redis/keys.js';
import { hashFromScript } from '../../src/store/redis/record.js';
import { openRedisStore, type RedisStore } from '../../src/store/redis/redis-store.js';
import { person, setSpec, spec, testClock, uniquePrefix, uniqueProject } from '../support/store.js';

const prefix = uniquePrefix();
const clock = testClock();
const corrupt: CorruptRecordError[] = [];
let store: RedisStore;
let raw: RedisClientType;

beforeAll(async () => {
  store = await openRedisStore({
    url: inject('redisUrl'),
    prefix,
    now: clock.now,
    onCorruptRecord: (e) => corrupt.push(e),
  });
  raw = createClient({ url: inject('redisUrl') }) as RedisClientType;
  await raw.connect();
});
afterAll(async () => {
  await store.close();
  raw.destroy();
});

describe('records written by older versions', () => {
  it('GIVEN a hand-written version 1 record THEN it reads as today’s question, and can still be answered', async () => {
    const project = uniqueProject();
    const keys = new ProjectKeys(prefix, project);
    await store.park(project, spec()); // registers the project and takes id 1
    await raw.hSet(keys.question(2), {
      v: '1',
      project,
      id: '2',
      status: 'answered',
      createdAt: '1700000000000',
      spec: JSON.stringify({
        context: 'Old context',
        question: 'Old question?',
        impact: 'Old impact',
        isBlocking: true,
        options: ['Yes', 'No'],
        recommended: 'Yes',
      }),
      answer: JSON.stringify({
        choice: null,
        notes: 'neither',
        platform: 'slack',
        userId: 'U1',
        userName: 'Ada',
        at: 1700000001000,
      }),
    });
    await raw.hSet(keys.question(3), {
      v: '1',
      project,
      id: '3',
      status: 'pending',
      createdAt: '1700000000000',
      spec: JSON.stringify({ context: 'c', question: 'q?', impact: 'i', isBlocking: false, options: ['A'] }),
    });
    await raw.zAdd(keys.status('pending'), { score: 3, value: '3' });
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
        at: 1700000001000,
      },
      messages: [],
    });
    const result = await store.answer(project, 3, { choices: ['A'], other: false }, person());
    expect(result.kind).toBe('won');
    expect(await store.get(project, 3)).toMatchObject({ answer: { choices: ['A'] } });
  });
});

describe('the record version each question is written with', () => {
  it('GIVEN a question an older ask-later could hold THEN version 2 (recommended as a string); a set, values or several recommended THEN version 3', async () => {
    const project = uniqueProject();
    const keys = new ProjectKeys(prefix, project);
    await store.park(project, spec());
    await store.park(project, spec({ options: [{ label: 'Postgres', value: 'pg' }, { label: 'SQLite' }] }));
    await store.park(project, spec({ multiSelect: true, recommended: ['Postgres', 'SQLite'] }));
    await store.park(project, setSpec());
    const written = await Promise.all(
      [1, 2, 3, 4].map(async (id) => [
        await raw.hGet(keys.question(id), 'v'),
        await raw.hGet(keys.question(id), 'spec'),
      ]),
    );
    expect(written.map(([v]) => v)).toEqual(['2', '3', '3', '3']);
    expect(JSON.parse(written[0]?.[1] ?? '{}')).toMatchObject({ recommended: 'Postgres' });
    expect(JSON.parse(written[2]?.[1] ?? '{}')).toMatchObject({ recommended: ['Postgres', 'SQLite'] });
    expect(JSON.parse(written[3]?.[1] ?? '{}')).toMatchObject({ isBlocking: true, members: setSpec().members });
    // Each reads back as parked.
    expect(await store.get(project, 1)).toMatchObject({ recommended: ['Postgres'] });
    expect(await store.get(project, 4)).toMatchObject({ members: setSpec().members });
  });

  it('GIVEN a set whose member lost its topic THEN reading names the record and the path', async () => {
    const project = uniqueProject();
    const keys = new ProjectKeys(prefix, project);
    await store.park(project, setSpec());
    const stored = JSON.parse((await raw.hGet(keys.question(1), 'spec')) ?? '{}') as { members: { topic?: string }[] };
    delete stored.members[1]?.topic;
    await raw.hSet(keys.question(1), 'spec', JSON.stringify(stored));
    const error = await store.get(project, 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorruptRecordError);
    expect(String((error as Error).message)).toContain('`spec.members.1.topic`: expected a string, got nothing');
  });
});

describe('records as scripts send them', () => {
  it('GIVEN a record sent as one JSON list (cjson) THEN it reads as the flat fields; an empty table is no fields; anything else names the record', () => {
    expect(hashFromScript(['status', 'pending', 'id', '7'], 'p#7')).toEqual({ status: 'pending', id: '7' });
    expect(hashFromScript('["status","pending","id","7"]', 'p#7')).toEqual({ status: 'pending', id: '7' });
    expect(hashFromScript('{}', 'p#7')).toEqual({});
    for (const bad of ['not json', '{"status":"pending"}', '["status",7]', '"text"']) {
      expect(() => hashFromScript(bad, 'p#7')).toThrow(CorruptRecordError);
      expect(() => hashFromScript(bad, 'p#7')).toThrow(/p#7.*JSON list/s);
    }
  });
});

describe('records that do not read', () => {
  it('GIVEN a record with a bad field THEN get names the record and field (not its text); list skips and reports it', async () => {
    const project = uniqueProject();
    const keys = new ProjectKeys(prefix, project);
    await store.park(project, spec());
    await store.park(project, spec({ question: 'Secret plan?' }));
    await raw.hSet(keys.question(2), 'status', 'lost');
    const error = await store.get(project, 2).catch((e) => e);
    expect(error).toBeInstanceOf(CorruptRecordError);
    expect(error.message).toContain(`${project}#2`);
    expect(error.message).toContain('status');
    expect(error.message).not.toContain('Secret plan');
    corrupt.length = 0;
    expect((await store.list(project)).map((q) => q.id)).toEqual([1]);
    expect(corrupt.map((e) => e.record)).toEqual([`${project}#2`]);
    expect(await raw.hGet(keys.question(2), 'spec')).toContain('Secret plan');
  });

  it('GIVEN a spec that is not JSON THEN the error says so', async () => {
    const project = uniqueProject();
    const keys = new ProjectKeys(prefix, project);
    await store.park(project, spec());
    await raw.hSet(keys.question(1), 'spec', '{not json');
    await expect(store.get(project, 1)).rejects.toThrow(/`spec`: expected JSON/);
  });

  it('GIVEN an option without a label or an answer by an unknown platform THEN the error names the path', async () => {
    const project = uniqueProject();
    const keys = new ProjectKeys(prefix, project);
    await store.park(project, spec());
    await store.park(project, spec());
    await raw.hSet(keys.question(1), 'spec', JSON.stringify({ ...spec(), options: [{ description: 'no label' }] }));
    await expect(store.get(project, 1)).rejects.toThrow(/`spec\.options\.0\.label`: expected a string, got nothing/);
    await store.answer(project, 2, { choices: ['SQLite'], other: false }, person());
    const answer = JSON.parse((await raw.hGet(keys.question(2), 'answer')) ?? '{}');
    await raw.hSet(keys.question(2), 'answer', JSON.stringify({ ...answer, by: { ...answer.by, platform: 'irc' } }));
    await expect(store.get(project, 2)).rejects.toThrow(
      /`answer\.by\.platform`: expected one of slack, discord, telegram, web, got "irc"/,
    );
  });

  it('GIVEN a stored draft that is not a draft THEN getDraft says what was expected', async () => {
    const project = uniqueProject();
    const keys = new ProjectKeys(prefix, project);
    await store.park(project, spec());
    await raw.hSet(keys.drafts(1), 'slack:U1', JSON.stringify({ choices: 'A' }));
    await expect(store.getDraft(project, 1, { platform: 'slack', userId: 'U1' })).rejects.toThrow(/expected \{choices/);
  });
});

describe('script codes reached only when the data is off', () => {
  it('GIVEN a key tag owned by another project (a digest collision) THEN park refuses and stores nothing', async () => {
    const project = uniqueProject();
    const keys = new ProjectKeys(prefix, project);
    await raw.hSet(keys.meta, 'project', 'some other project');
    await expect(store.park(project, spec())).rejects.toThrow(/belongs to another project/);
    expect(await raw.exists(keys.question(1))).toBe(0);
  });

  it('GIVEN stale expiry entries (unknown, no longer pending, not yet due) THEN expireDue drops or keeps them, expiring nothing', async () => {
    const project = uniqueProject();
    const keys = new ProjectKeys(prefix, project);
    await store.park(project, spec({ expiresInSeconds: 3600 })); // 1: not due by its record
    await store.park(project, spec());
    await store.answer(project, 2, { choices: ['SQLite'], other: false }, person()); // 2: not pending
    const past = String(clock.now() - 1);
    await raw.zAdd(keys.expiry, [
      { score: Number(past), value: '1' },
      { score: Number(past), value: '2' },
      { score: Number(past), value: '9' }, // 9: unknown
    ]);
    expect(await store.expireDue()).toBe(0);
    expect(await raw.zRange(keys.expiry, 0, -1)).toEqual(['1']);
    expect((await store.get(project, 1))?.status).toBe('pending');
  });
});

describe('view indexes of projects parked before they existed', () => {
  it('GIVEN a project whose questions were written without indexes THEN the first paged read builds them once, for every replica', async () => {
    const project = uniqueProject();
    const keys = new ProjectKeys(prefix, project);
    for (let i = 0; i < 4; i++) await store.park(project, spec({ isBlocking: i % 2 === 1 }));
    await store.answer(project, 1, { choices: ['SQLite'], other: false }, person());
    await store.cancel(project, 2);
    // As an older version left it: no index keys, no index version, no closedAt; and a v1 record with no
    // `blocking` field.
    await raw.del([keys.inboxIndex, keys.closedIndex, keys.answeredIndex]);
    await raw.hDel(keys.meta, 'ix');
    await raw.hDel(keys.question(1), 'closedAt');
    await raw.hDel(keys.question(2), 'closedAt');
    await raw.hDel(keys.question(4), 'blocking');
    const replicas = await Promise.all(
      [0, 1].map(() => openRedisStore({ url: inject('redisUrl'), prefix, now: clock.now })),
    );
    try {
      const [pending, closed, answered, counts] = await Promise.all([
        replicas[0]?.pageAcross([project], { view: 'pending', limit: 10 }),
        replicas[1]?.pageAcross([project], { view: 'closed', limit: 10 }),
        replicas[1]?.pageAcross([project], { view: 'answered', limit: 10 }),
        replicas[0]?.countAcross([project]),
      ]);
      expect(pending?.questions.map((q) => q.id)).toEqual([4, 3]);
      expect(closed?.questions.map((q) => q.id).sort()).toEqual([1, 2]);
      expect(answered?.questions.map((q) => q.id)).toEqual([1]);
      expect(counts?.get(project)).toEqual({ blocking: 1, canWait: 1, closed: 2, answered: 1 });
      expect(await raw.hGet(keys.meta, 'ix')).toBe('1');
      expect(await raw.hGet(keys.question(1), 'closedAt')).toBe(String(clock.now()));
      expect(await raw.zCard(keys.inboxIndex)).toBe(2);
      // Built once: a later transition keeps them true, and the retention purge finds their members.
      await replicas[0]?.answer(project, 4, { choices: ['SQLite'], other: false }, person());
      const after = await replicas[1]?.pageAcross([project], { view: 'pending', limit: 10 });
      expect(after?.questions.map((q) => q.id)).toEqual([3]);
      clock.advance(31 * 24 * 3600_000);
      await store.purgeExpired();
      expect(await raw.zCard(keys.closedIndex)).toBe(2);
    } finally {
      for (const replica of replicas) await replica?.close();
    }
  });
});

describe('view indexes next to an older version still writing', () => {
  it('GIVEN a question parked and another withdrawn by an older ask-later (status sets only) THEN the next paged read rebuilds the indexes and shows exactly what is pending', async () => {
    const project = uniqueProject();
    const keys = new ProjectKeys(prefix, project);
    for (let i = 0; i < 3; i++) await store.park(project, spec());
    expect((await store.pageAcross([project], { view: 'pending', limit: 10 })).questions.map((q) => q.id)).toEqual([
      1, 2, 3,
    ]);
    // What park-4 and close-8 of the version before did: the record and the status sets, no view index.
    await raw.hSet(keys.meta, 'seq', '4');
    await raw.hSet(keys.question(4), {
      v: '2',
      project,
      id: '4',
      status: 'pending',
      createdAt: String(clock.now()),
      blocking: '1',
      // Version 2 kept one recommended label as a string.
      spec: JSON.stringify({ ...spec({ isBlocking: true }), recommended: 'Postgres' }),
    });
    await raw.zAdd(keys.status('pending'), { score: 4, value: '4' });
    await raw.hSet(keys.question(2), { status: 'cancelled', closure: JSON.stringify({ at: clock.now() }) });
    await raw.zRem(keys.status('pending'), '2');
    await raw.zAdd(keys.status('cancelled'), { score: 2, value: '2' });
    // As a view reads: the counts (a fresh check, which rebuilds) and the page that follows them.
    const [counts, page] = await Promise.all([
      store.countAcross([project]),
      store.pageAcross([project], { view: 'pending', limit: 10 }),
    ]);
    expect(page.questions.map((q) => q.id)).toEqual([4, 1, 3]);
    expect(counts.get(project)).toEqual({ blocking: 1, canWait: 2, closed: 1, answered: 0 });
    expect(await raw.zCard(keys.inboxIndex)).toBe(3);
  });

  it('GIVEN a project never parked THEN counting it writes nothing', async () => {
    const project = uniqueProject();
    expect((await store.countAcross([project])).get(project)).toEqual({
      blocking: 0,
      canWait: 0,
      closed: 0,
      answered: 0,
    });
    expect(await raw.exists(new ProjectKeys(prefix, project).meta)).toBe(0);
  });
});

describe('the index of decisions on a project answered before it', () => {
  it('GIVEN decisions whose index is missing THEN the first check indexes them from the trail, once, and purging keeps it true', async () => {
    const project = uniqueProject();
    await store.park(project, spec({ question: 'Which database should billing use?' }));
    await store.answer(project, 1, { choices: ['Postgres'], other: false }, person());
    await store.park(project, setSpec());
    await store.answer(
      project,
      2,
      {
        members: [
          { choices: ['SQLite'], other: false },
          { choices: ['None'], other: false },
          { choices: ['ledger'], other: false },
        ],
      },
      person(),
    );
    const key = new ProjectKeys(prefix, project).decisions;
    // What a project answered before the index holds: the decisions, no index.
    await raw.del(key);
    const database = { question: 'What database does billing use?', options: [{ label: 'Postgres' }] };
    const found = await store.similarDecisions(project, [database]);
    expect(found[0]?.map((each) => [each.decision.id, each.member]).sort()).toEqual([
      [1, undefined],
      [2, 0],
    ]);
    expect(await raw.hGet(key, 'b')).toBe('1');
    expect(await raw.hGet(key, 'n')).toBe('4');
    // Indexed once: a second check adds nothing.
    await store.similarDecisions(project, [database]);
    expect(await raw.hGet(key, 'n')).toBe('4');
  });

  it('GIVEN an index written before postings carried counts THEN purge still drops from it, and the next check starts it again with the same results', async () => {
    const project = uniqueProject();
    const key = new ProjectKeys(prefix, project).decisions;
    const toOlderFormat = async () => {
      for (const [field, value] of Object.entries(await raw.hGetAll(key))) {
        if (field.startsWith('t:')) await raw.hSet(key, field, value.replace(/:\d+:\d+ /g, ' '));
      }
      await raw.hDel(key, 'v');
    };
    /** The refs a term's postings name, if every posting carries its counts ("ref:tf:len"). */
    const postingRefs = async (term: string) => {
      const text = (await raw.hGet(key, `t:${term}`)) ?? '';
      expect(text).toMatch(/^( \d+:\d+:\d+)+ $/);
      return text
        .trim()
        .split(' ')
        .map((posting) => posting.split(':')[0])
        .sort();
    };
    const deliver = async () =>
      store.confirmClaim(project, await store.claimUndelivered(project, { budget: 10_000, leaseMs: 1_000 }));
    await store.park(project, spec({ question: 'Which database should billing use?' }));
    await store.answer(project, 1, { choices: ['Postgres'], other: false }, person());
    await deliver();
    clock.advance(20 * 24 * 3600_000);
    await store.park(project, spec({ question: 'Which queue should billing use?' }));
    await store.answer(project, 2, { choices: ['Postgres'], other: false }, person());
    await deliver();
    const database = { question: 'What database does billing use?', options: [{ label: 'Postgres' }] };
    const before = await store.similarDecisions(project, [database]);
    expect(before[0]?.map((each) => each.decision.id)).toEqual([1]);
    expect(await postingRefs('bil')).toEqual(['1', '2']);

    await toOlderFormat();
    expect((await raw.hGet(key, 't:bil'))?.split(' ').sort()).toEqual(['', '', '1', '2']);
    const again = await store.similarDecisions(project, [database]);
    expect(again[0]?.map((each) => [each.decision.id, each.score])).toEqual(
      before[0]?.map((each) => [each.decision.id, each.score]),
    );
    expect(await raw.hGet(key, 'v')).toBe('2');
    expect(await raw.hGet(key, 'n')).toBe('2');
    expect(await postingRefs('bil')).toEqual(['1', '2']);

    // The first decision purged while the index is in the older format: the postings lose it all the same.
    await toOlderFormat();
    clock.advance(11 * 24 * 3600_000);
    expect(await store.purgeExpired()).toBe(1);
    expect(await raw.hGet(key, 't:bil')).toBe(' 2 ');
    expect(await raw.hGet(key, 't:databas')).toBeNull();
    expect(await store.similarDecisions(project, [database])).toEqual([[]]);
    expect(await postingRefs('bil')).toEqual(['2']);
  });
});
