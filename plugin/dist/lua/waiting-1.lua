--[[
  The outcomes waiting for the agent that no live claim holds, oldest first, optionally only those of blocking
  questions. Read-only: a look for waiters deciding whether to wake a session; claim-1 does the taking.

  KEYS[1] outbox    zset   id -> when the outcome became ready
  ARGV[1] base        the project's key prefix; a question key is base .. 'q:' .. id
  ARGV[2] now         ms
  ARGV[3] only        'blocking': only outcomes of blocking questions; '' for all
  ARGV[4] missing     when a record the outbox names is absent: 'wait' (Redis Cluster: the slot may be migrating)
                      returns -1 rather than a partial answer; 'gone' (one server) leaves it out

  Returns {id, record, id, record, …}: each free outcome's id and record (its HGETALL as one JSON list,
  cjson.encode), oldest first; -1 a record is missing and ARGV[4] is 'wait'.
  Events: none
]]
--- @include "includes/outbox-in-order"
--- @include "includes/blocking-flag"

local now = tonumber(ARGV[2])
local waiting = outboxInOrder(KEYS[1])
local reply = {}
for _, entry in ipairs(waiting) do
  local key = ARGV[1] .. 'q:' .. entry.id
  local f = redis.call('HMGET', key, 'status', 'claim', 'claimUntil', 'blocking')
  if not f[1] and ARGV[4] == 'wait' then return -1 end
  local free = f[1] and not (f[2] and f[3] and tonumber(f[3]) > now)
  if free and (ARGV[3] ~= 'blocking' or (f[4] or blockingFlag(nil, redis.call('HGET', key, 'spec'))) == '1') then
    reply[#reply + 1] = entry.id
    reply[#reply + 1] = cjson.encode(redis.call('HGETALL', key))
  end
end
return reply
