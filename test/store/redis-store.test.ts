import { describe } from 'vitest';
import { storeContract } from './store-contract.js';

describe('Redis store over node-redis', () => storeContract('node-redis'));
describe('Redis store over the minimal RESP client', () => storeContract('minimal'));
