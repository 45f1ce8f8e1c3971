import { describe } from 'vitest';
import { openSqliteTestStore } from '../support/store.js';
import { storeContract } from './store-contract.js';

describe('SQLite store', () => storeContract((options) => openSqliteTestStore(options)));
