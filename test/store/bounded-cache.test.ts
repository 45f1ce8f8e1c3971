import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../src/store/redis/bounded-cache.js';

describe('the bounded cache of the Redis adapter', () => {
  it('GIVEN any keys set THEN it holds at most max, always the newest half of them, each with its last value', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 40 }),
        fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 300 }),
        (max, keys) => {
          const cache = new BoundedCache<number, number>(max);
          for (const [at, key] of keys.entries()) cache.set(key, at);
          expect(cache.size).toBeLessThanOrEqual(max);
          const newest = [...new Set([...keys].reverse())].slice(0, Math.floor(max / 2));
          for (const key of newest) {
            expect(cache.has(key)).toBe(true);
            expect(cache.get(key)).toBe(keys.lastIndexOf(key));
          }
        },
      ),
    );
  });

  it('GIVEN a key never set THEN it is absent', () => {
    const cache = new BoundedCache<string, number>(4);
    cache.set('a', 1);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.has('b')).toBe(false);
  });
});
