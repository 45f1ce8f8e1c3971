/**
 * How often one address may try to sign in: a token bucket per client address (IPv6 by its /64, which one host
 * usually holds whole), so a person mistyping is never held back while guessing tokens runs at a few a minute rather
 * than a thousand a second. Memory is bounded: at most `maxAddresses` buckets; past that, full buckets (addresses
 * quiet long enough to have nothing left to remember) go first, then the oldest.
 *
 * Behind a reverse proxy every request comes from the proxy's address, so they share one bucket: sign-in is then
 * slowed for everyone while someone guesses, never opened to the guesser.
 */
import { isIPv6 } from 'node:net';

export interface LoginLimitOptions {
  /** Tries an address may make at once (default 10). */
  readonly burst?: number;
  /** One more try every this many ms (default 6,000: ten a minute). */
  readonly refillMs?: number;
  /** Most addresses remembered (default 10,000). */
  readonly maxAddresses?: number;
  readonly now?: () => number;
}

export interface LoginLimit {
  /** Take one try for `address`: 0 when it may go on, else how many ms until it may try again. */
  take(address: string | undefined): number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export function loginLimit(options: LoginLimitOptions = {}): LoginLimit {
  const burst = options.burst ?? 10;
  const refillMs = options.refillMs ?? 6_000;
  const maxAddresses = options.maxAddresses ?? 10_000;
  const now = options.now ?? Date.now;
  const buckets = new Map<string, Bucket>();

  const refilled = (bucket: Bucket, at: number): number =>
    Math.min(burst, bucket.tokens + Math.max(0, at - bucket.at) / refillMs);

  function makeRoom(at: number): void {
    for (const [key, bucket] of buckets) {
      if (buckets.size < maxAddresses) return;
      if (refilled(bucket, at) >= burst) buckets.delete(key);
    }
    // Still full: every address is busy; forget the longest-remembered ones.
    for (const key of buckets.keys()) {
      if (buckets.size < maxAddresses) return;
      buckets.delete(key);
    }
  }

  return {
    take(address) {
      const key = addressKey(address ?? 'unknown');
      const at = now();
      const known = buckets.get(key);
      if (known === undefined && buckets.size >= maxAddresses) makeRoom(at);
      const tokens = known === undefined ? burst : refilled(known, at);
      if (tokens < 1) {
        buckets.set(key, { tokens, at });
        return Math.ceil((1 - tokens) * refillMs);
      }
      // Re-inserted, so the Map's order is the order of last use.
      buckets.delete(key);
      buckets.set(key, { tokens: tokens - 1, at });
      return 0;
    },
  };
}

/** The bucket's key: an IPv4 address (IPv4-mapped IPv6 unwrapped) whole, an IPv6 address by its first 64 bits. */
function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::')
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups.slice(0, 4).join(':')}::/64`;
}
