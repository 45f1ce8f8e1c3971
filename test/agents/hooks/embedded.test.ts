/**
 * The hook on the embedded store (no REDIS_URL): the built CLI, as Claude Code runs it, in several processes at
 * once over one SQLite file. Each answer is carried by exactly one prompt.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { freshHome } from '../../support/home.js';
import { uniqueProject } from '../../support/store.js';
import { answered, answeredIds, hookEnv, noteOf, payload, range, runHookCli, startHook, statuses } from './support.js';

let home: string;
let path: string;
let store: SqliteStore;

beforeAll(async () => {
  home = freshHome();
  path = join(home, '.local', 'state', 'ask-later', 'inbox.db');
  store = await openSqliteStore({ path });
});
afterAll(async () => {
  await store.close();
  rmSync(home, { recursive: true, force: true });
});

describe('the hook on the embedded store', () => {
  it('GIVEN no REDIS_URL and an answer in the store under HOME THEN the next prompt carries it, and the one after nothing', async () => {
    const project = uniqueProject('embedded-hook');
    const [question] = await answered(store, project, 1);
    const env = hookEnv({ HOME: home, ASK_LATER_PROJECT: project });
    const first = await runHookCli(env, payload());
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(answeredIds(noteOf(first.stdout))).toEqual([question?.id]);
    expect(await runHookCli(env, payload({ prompt_id: 'prompt-2' }))).toMatchObject({
      code: 0,
      stdout: '',
      stderr: '',
    });
    expect(await statuses(store, project, [question?.id ?? 0])).toEqual(['delivered']);
    expect(existsSync(path)).toBe(true);
  });

  it('GIVEN 10 answers and 8 hook processes at once THEN every answer is carried by exactly one of them', async () => {
    const project = uniqueProject('embedded-race');
    await answered(store, project, 10);
    const env = hookEnv({ HOME: home, ASK_LATER_PROJECT: project });
    const hooks = range(1, 8).map(() => startHook(env));
    for (const hook of hooks) hook.send(payload());
    const runs = await Promise.all(hooks.map((hook) => hook.done));
    const carried = runs.flatMap((run) => {
      expect(run).toMatchObject({ code: 0, stderr: '' });
      return run.stdout === '' ? [] : answeredIds(noteOf(run.stdout));
    });
    expect(carried.sort((a, b) => a - b)).toEqual(range(1, 10));
    expect(new Set(await statuses(store, project, range(1, 10)))).toEqual(new Set(['delivered']));
  });
});
