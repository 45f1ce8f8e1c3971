import { describe } from 'vitest';
import { openSqliteTestStore } from '../support/store.js';
import { failedEventsContract } from './failed-events-contract.js';
import { storeContract } from './store-contract.js';

describe('SQLite store', () => storeContract((options) => openSqliteTestStore(options)));
describe('SQLite store failed events', () => failedEventsContract((options) => openSqliteTestStore(options)));
