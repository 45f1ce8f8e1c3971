/**
 * Which arguments of a command are keys: what the Cluster clients need to send the command to the node serving
 * their slot. Only the commands the store sends are listed; anything else is refused (a programming error the tests
 * catch), because guessing would send a write to the wrong node.
 */
import { UnroutableCommandError } from './unroutable-command-error.js';

/** Commands whose only key is the first argument. */
const FIRST_ARGUMENT = new Set([
  'DEL',
  'EXISTS',
  'GET',
  'HDEL',
  'HGET',
  'HGETALL',
  'HLEN',
  'HMGET',
  'HSCAN',
  'HSET',
  'HSETNX',
  'LPOP',
  'LRANGE',
  'PEXPIRE',
  'SET',
  'SMEMBERS',
  'TYPE',
  'XACK',
  'XADD',
  'XAUTOCLAIM',
  'XLEN',
  'XPENDING',
  'XRANGE',
  'XREVRANGE',
  'ZCARD',
  'ZLEXCOUNT',
  'ZRANGE',
  'ZRANGEBYSCORE',
  'ZSCORE',
]);

/** Commands without keys: any node answers them. */
const KEYLESS = new Set(['ASKING', 'CLUSTER', 'INFO', 'PING', 'PUBLISH']);

/** The keys `args` names (`[]` for a keyless command). Throws `UnroutableCommandError` for a command not listed. */
export function commandKeys(args: readonly string[]): readonly string[] {
  const name = (args[0] ?? '').toUpperCase();
  if (FIRST_ARGUMENT.has(name)) return args.slice(1, 2);
  if (KEYLESS.has(name)) return [];
  switch (name) {
    case 'EVAL':
    case 'EVALSHA': {
      // A script declaring no key could run on any node, away from the keys it derives: every script declares one.
      const count = Number(args[2]);
      if (!(count > 0)) throw new UnroutableCommandError(name, 'a script declaring no key');
      return args.slice(3, 3 + count);
    }
    // XGROUP CREATE <key> …, XINFO GROUPS <key>
    case 'XGROUP':
    case 'XINFO':
      return args.slice(2, 3);
    // … STREAMS <key>… <id>…: as many ids as keys.
    case 'XREAD':
    case 'XREADGROUP': {
      const streams = args.findIndex((arg, i) => i > 0 && arg.toUpperCase() === 'STREAMS');
      if (streams < 0) break;
      const rest = args.slice(streams + 1);
      return rest.slice(0, rest.length / 2);
    }
  }
  throw new UnroutableCommandError(name);
}
