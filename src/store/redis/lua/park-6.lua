--[[
  Park a question: give it the project's next id (starts at 1, never reused) and store it as pending; or, when the
  same content was parked in this project within the retry window and that question is still pending, return it
  (a park retried after a failure or a time-out is not a second question).

  KEYS[1] meta     hash   project (owner of the key tag), seq, ix (the version of the view indexes it keeps)
  KEYS[2] pending  zset   ids in status pending
  KEYS[3] expiry   zset   id -> expiresAt
  KEYS[4] events   stream
  KEYS[5] inbox    zset   the pending view's index (store/paging.ts): members <0|1><createdAt:15><id:12>, score 0
  KEYS[6] retry    string `<id>:<parkedAt>` of the park with this content's digest (kept twice the window; the
                          window itself is measured on ARGV[4]'s clock, so an injected clock rules it)
  ARGV[1] base        the project's key prefix; the question key is base .. 'q:' .. id
  ARGV[2] project
  ARGV[3] spec        JSON of the validated question
  ARGV[4] now         ms
  ARGV[5] expiresAt   ms, or '' for none
  ARGV[6] version     record schema version
  ARGV[7] maxlen      approximate cap of the event stream
  ARGV[8] blocking    '1' or '0' (a copy of spec.isBlocking that count-6 reads without decoding the spec)
  ARGV[9] ix          the view index version: a new project starts with its indexes built (nothing to migrate)
  ARGV[10] windowMs   how long a park with the same retry key and content returns the question already parked;
                      '' when the park has no retry key (KEYS[6] is then neither read nor written)

  Returns: { id, 0 } for a new question, { id, 1 } for the pending one the same content parked within the window;
  { -1, 0 } when the key tag already belongs to another project (digest collision).
  Events: parked (a new question only)
]]
--- @include "includes/view-members"

local meta = redis.call('HMGET', KEYS[1], 'project', 'seq')
local owner, seq = meta[1], meta[2]
if owner and owner ~= ARGV[2] then return { -1, 0 } end
local window = tonumber(ARGV[10])
local known = window and redis.call('GET', KEYS[6])
if known then
  local knownId, parkedAt = string.match(known, '^(%d+):(%d+)$')
  if knownId and tonumber(parkedAt) >= tonumber(ARGV[4]) - window
    and redis.call('ZSCORE', KEYS[2], knownId) then
    return { tonumber(knownId), 1 }
  end
end
local id = (tonumber(seq) or 0) + 1
local key = ARGV[1] .. 'q:' .. id
-- Read before any write: in a Redis Cluster whose slot is migrating, a key this node cannot create stops the
-- script here, before it wrote anything (the caller tries again).
redis.call('EXISTS', key)
if not owner then redis.call('HSET', KEYS[1], 'project', ARGV[2]) end
-- A project's first park starts with its view indexes built: there is nothing older to index.
if not seq then redis.call('HSETNX', KEYS[1], 'ix', ARGV[9]) end
redis.call('HSET', KEYS[1], 'seq', id)
if ARGV[5] == '' then
  redis.call('HSET', key, 'v', ARGV[6], 'project', ARGV[2], 'id', id, 'spec', ARGV[3],
    'status', 'pending', 'createdAt', ARGV[4], 'blocking', ARGV[8])
else
  redis.call('HSET', key, 'v', ARGV[6], 'project', ARGV[2], 'id', id, 'spec', ARGV[3],
    'status', 'pending', 'createdAt', ARGV[4], 'blocking', ARGV[8], 'expiresAt', ARGV[5])
  redis.call('ZADD', KEYS[3], ARGV[5], id)
end
redis.call('ZADD', KEYS[2], id, id)
redis.call('ZADD', KEYS[5], 0, inboxMember(ARGV[8], ARGV[4], id))
if window then redis.call('SET', KEYS[6], id .. ':' .. ARGV[4], 'PX', 2 * window) end
redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[7], '*', 'type', 'parked', 'project', ARGV[2], 'id', id, 'at', ARGV[4])
return { id, 0 }
