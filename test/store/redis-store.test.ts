import { describe, inject } from 'vitest';
import { openTestStore } from '../support/store.js';
import { failedEventsContract } from './failed-events-contract.js';
import { pagingContract } from './paging-contract.js';
import { stateRulesContract } from './state-rules-contract.js';
import { storeContract } from './store-contract.js';

const servers = [
  { kind: 'one server', url: inject('redisUrl') },
  { kind: 'a Redis Cluster', url: inject('redisClusterUrl') },
] as const;

describe.each(servers)('Redis store on $kind', ({ url }) => {
  describe('over node-redis', () =>
    storeContract((options) => openTestStore({ url, connection: 'node-redis', ...options })));
  describe('over the minimal RESP client', () =>
    storeContract((options) => openTestStore({ url, connection: 'minimal', ...options })));
  describe('failed events over node-redis', () =>
    failedEventsContract((options) => openTestStore({ url, connection: 'node-redis', ...options })));
  describe('failed events over the minimal RESP client', () =>
    failedEventsContract((options) => openTestStore({ url, connection: 'minimal', ...options })));
  describe('paging over node-redis', () =>
    pagingContract((options) => openTestStore({ url, connection: 'node-redis', ...options }), {
      countsWithPage: true,
    }));
  describe('paging over the minimal RESP client', () =>
    pagingContract((options) => openTestStore({ url, connection: 'minimal', ...options }), { countsWithPage: true }));
  describe('the state rules over node-redis', () =>
    stateRulesContract((options) => openTestStore({ url, connection: 'node-redis', ...options })));
  describe('the state rules over the minimal RESP client', () =>
    stateRulesContract((options) => openTestStore({ url, connection: 'minimal', ...options })));
});
