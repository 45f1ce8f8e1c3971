/**
 * The store's Lua scripts, loaded from `lua/*.lua` (named `name-N.lua`, N = number of KEYS, each with a header
 * contract), their `--- @include "includes/…"` lines replaced by the shared functions of `lua/includes/`
 * (lua-includes.ts). Run with EVALSHA; a server that does not know the script yet (first use, restart, failover) gets
 * it with EVAL, which also caches it there.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolveIncludes } from './lua-includes.js';

export interface Script {
  readonly name: string;
  readonly numberOfKeys: number;
  readonly source: string;
  readonly sha: string;
}

/** A file under lua/, by its path without `.lua`. */
function readLua(path: string): string {
  return readFileSync(new URL(`./lua/${path}.lua`, import.meta.url), 'utf8');
}

/**
 * A script read and hashed on first use only: the hook runs three of them, and reading and hashing all of them on
 * every prompt would cost it milliseconds.
 */
function load(file: string): Script {
  let loaded: { source: string; sha: string } | undefined;
  const get = () => {
    if (!loaded) {
      const source = resolveIncludes(file, readLua(file), readLua);
      loaded = { source, sha: createHash('sha1').update(source).digest('hex') };
    }
    return loaded;
  };
  return {
    name: file,
    numberOfKeys: Number(file.slice(file.lastIndexOf('-') + 1)),
    get source() {
      return get().source;
    },
    get sha() {
      return get().sha;
    },
  };
}

export const scripts = {
  park: load('park-6'),
  answer: load('answer-11'),
  close: load('close-10'),
  expire: load('expire-9'),
  draft: load('draft-2'),
  recordMessage: load('record-message-1'),
  claim: load('claim-1'),
  waiting: load('waiting-1'),
  confirm: load('confirm-5'),
  release: load('release-1'),
  deliver: load('deliver-6'),
  purge: load('purge-9'),
  indexDecisions: load('index-decisions-1'),
  decidedStats: load('decided-stats-2'),
  views: load('views-10'),
  viewPage: load('view-page-10'),
  listPage: load('list-page-6'),
  lease: load('lease-1'),
  releaseLease: load('release-lease-1'),
  recordFailure: load('record-failure-2'),
  replayFailed: load('replay-failed-2'),
  remind: load('remind-2'),
  count: load('count-6'),
  createToken: load('create-token-1'),
  revokeToken: load('revoke-token-1'),
} as const;

/** The version of the view indexes (ix:*) the scripts keep; views-10 builds them for projects that have an older one. */
export const INDEX_VERSION = 1;

/** Return codes shared by answer-11 and close-10 (see their headers). */
export const TransitionCode = {
  unknown: 0,
  done: 1,
  alreadyAnswered: 2,
  notPending: 3,
  dueToExpire: 4,
} as const;

/** Return codes of draft-2. */
export const DraftCode = { unknown: 0, saved: 1, notPending: 2, unreadable: 3 } as const;

/** Return codes of expire-9. */
export const ExpireCode = { unknown: 0, expired: 1, notDue: 2, notPending: 3 } as const;

/** Return codes of remind-2. */
export const RemindCode = { unknown: 0, reminded: 1, already: 2, notPending: 3 } as const;

/** Return codes of deliver-6. */
export const DeliverCode = { notWaiting: 0, delivered: 1, leased: 2 } as const;

/**
 * Return code of the scripts that read question records an index names (claim-1, waiting-1, confirm-5, release-1,
 * purge-9, views-10) when, in a Redis Cluster, such a record is not on the node running the script: the slot is
 * migrating and the record already moved (or not yet). Nothing was written; the caller tries again after a back-off.
 */
export const SLOT_MOVING = -1;

/** Return code of park-6 when the project's key tag belongs to another project. */
export const PARK_TAG_COLLISION = -1;
