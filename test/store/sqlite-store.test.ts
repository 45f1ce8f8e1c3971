import { describe } from 'vitest';
import { nodeSqlite, type SqliteEngineName } from '../../src/store/sqlite/driver.js';
import { openSqliteTestStore } from '../support/store.js';
import { failedEventsContract } from './failed-events-contract.js';
import { pagingContract } from './paging-contract.js';
import { stateRulesContract } from './state-rules-contract.js';
import { storeContract } from './store-contract.js';

/** better-sqlite3 everywhere; node:sqlite where this Node has it (22.13 and later): both pass the same contract. */
const ENGINES: SqliteEngineName[] = nodeSqlite() ? ['node:sqlite', 'better-sqlite3'] : ['better-sqlite3'];

describe.each(ENGINES)('SQLite store on %s', (engine) => {
  describe('the store contract', () => storeContract((options) => openSqliteTestStore({ ...options, engine })));
  describe('failed events', () => failedEventsContract((options) => openSqliteTestStore({ ...options, engine })));
  describe('paging', () =>
    pagingContract((options) => openSqliteTestStore({ ...options, engine }), { countsWithPage: false }));
  describe('the state rules', () => stateRulesContract((options) => openSqliteTestStore({ ...options, engine })));
});
