import { describe } from 'vitest';
import { openTestStore } from '../support/store.js';
import { failedEventsContract } from './failed-events-contract.js';
import { pagingContract } from './paging-contract.js';
import { storeContract } from './store-contract.js';

describe('Redis store over node-redis', () =>
  storeContract((options) => openTestStore({ connection: 'node-redis', ...options })));
describe('Redis store over the minimal RESP client', () =>
  storeContract((options) => openTestStore({ connection: 'minimal', ...options })));
describe('Redis store failed events over node-redis', () =>
  failedEventsContract((options) => openTestStore({ connection: 'node-redis', ...options })));
describe('Redis store failed events over the minimal RESP client', () =>
  failedEventsContract((options) => openTestStore({ connection: 'minimal', ...options })));
describe('Redis store paging over node-redis', () =>
  pagingContract((options) => openTestStore({ connection: 'node-redis', ...options })));
describe('Redis store paging over the minimal RESP client', () =>
  pagingContract((options) => openTestStore({ connection: 'minimal', ...options })));
