--[[
  Close a pending question without an answer: cancelled (the agent withdrew it) or dismissed (the person removed
  it). A dismissal waits in the outbox to be reported to the agent; a cancellation does not (the agent knows).

  KEYS[1] question  hash
  KEYS[2] drafts    hash   dropped
  KEYS[3] pending   zset
  KEYS[4] target    zset   ids in the target status
  KEYS[5] outbox    zset
  KEYS[6] expiry    zset
  KEYS[7] done      zset   retention clock (cancelled only)
  KEYS[8] events    stream
  KEYS[9] inbox     zset   the pending view's index (store/paging.ts): the question leaves it
  KEYS[10] closed   zset   the closed view's index: members <closedAt:15><id:12>, score 0
  ARGV[1] target    'cancelled' | 'dismissed'
  ARGV[2] closure   JSON {at, by?}
  ARGV[3] now       ms
  ARGV[4] size      characters its delivery entry takes (dismissed)
  ARGV[5] maxlen    approximate cap of the event stream

  Returns {code, record...}: 1 closed; 2 already answered; 3 no longer pending; 4 pending but past its expiry
  (nothing written: the caller expires it); 0 unknown. The record follows codes 1, 2 and 3.
  Events: cancelled | dismissed (code 1)
]]
--- @include "includes/view-members"
--- @include "includes/blocking-flag"
--- @include "includes/pending-only"

local refused, f = pendingOnly(KEYS[1], ARGV[3])
if refused then return refused end

local id, project = f[3], f[4]
-- The spec is read only for a record parked before park-5 wrote the blocking flag.
local blocking = f[6] or blockingFlag(nil, redis.call('HGET', KEYS[1], 'spec'))
redis.call('ZREM', KEYS[9], inboxMember(blocking, f[5], id))
redis.call('ZADD', KEYS[10], 0, closedMember(ARGV[3], id))
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'closure', ARGV[2], 'closedAt', ARGV[3])
redis.call('DEL', KEYS[2])
redis.call('ZREM', KEYS[3], id)
redis.call('ZADD', KEYS[4], id, id)
if f[2] then redis.call('ZREM', KEYS[6], id) end
if ARGV[1] == 'dismissed' then
  redis.call('HSET', KEYS[1], 'size', ARGV[4])
  redis.call('ZADD', KEYS[5], ARGV[3], id)
else
  redis.call('ZADD', KEYS[7], ARGV[3], id)
end
redis.call('XADD', KEYS[8], 'MAXLEN', '~', ARGV[5], '*', 'type', ARGV[1], 'project', project, 'id', id, 'at', ARGV[3])
return {1, redis.call('HGETALL', KEYS[1])}
