import { describe } from 'vitest';
import { openTestStore } from '../support/store.js';
import { storeContract } from './store-contract.js';

describe('Redis store over node-redis', () =>
  storeContract((options) => openTestStore({ connection: 'node-redis', ...options })));
describe('Redis store over the minimal RESP client', () =>
  storeContract((options) => openTestStore({ connection: 'minimal', ...options })));
