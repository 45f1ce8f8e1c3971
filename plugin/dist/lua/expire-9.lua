--[[
  Expire a pending question whose expiry has passed. Its expiry waits in the outbox to be reported to the agent.

  KEYS[1] question  hash
  KEYS[2] drafts    hash   dropped
  KEYS[3] pending   zset
  KEYS[4] expired   zset
  KEYS[5] outbox    zset
  KEYS[6] expiry    zset
  KEYS[7] events    stream
  KEYS[8] inbox     zset   the pending view's index (store/paging.ts): the question leaves it
  KEYS[9] closed    zset   the closed view's index: members <closedAt:15><id:12>, score 0
  ARGV[1] id
  ARGV[2] closure   JSON {at}
  ARGV[3] now       ms
  ARGV[4] size      characters its delivery entry takes
  ARGV[5] maxlen    approximate cap of the event stream

  Returns: 1 expired; 2 not due yet; 3 not pending (dropped from the expiry index); 0 unknown (dropped too).
  Events: expired (code 1)
]]
--- @include "includes/view-members"
--- @include "includes/blocking-flag"

local f = redis.call('HMGET', KEYS[1], 'status', 'expiresAt', 'project', 'createdAt', 'blocking')
local status = f[1]
if not status then
  redis.call('ZREM', KEYS[6], ARGV[1])
  return 0
end
if status ~= 'pending' then
  redis.call('ZREM', KEYS[6], ARGV[1])
  return 3
end
if not f[2] or tonumber(f[2]) > tonumber(ARGV[3]) then return 2 end

local project = f[3]
local blocking = f[5] or blockingFlag(nil, redis.call('HGET', KEYS[1], 'spec'))
redis.call('ZREM', KEYS[8], inboxMember(blocking, f[4], ARGV[1]))
redis.call('ZADD', KEYS[9], 0, closedMember(ARGV[3], ARGV[1]))
redis.call('HSET', KEYS[1], 'status', 'expired', 'closure', ARGV[2], 'size', ARGV[4], 'closedAt', ARGV[3])
redis.call('DEL', KEYS[2])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('ZADD', KEYS[4], ARGV[1], ARGV[1])
redis.call('ZADD', KEYS[5], ARGV[3], ARGV[1])
redis.call('ZREM', KEYS[6], ARGV[1])
redis.call('XADD', KEYS[7], 'MAXLEN', '~', ARGV[5], '*', 'type', 'expired', 'project', project, 'id', ARGV[1], 'at', ARGV[3])
return 1
