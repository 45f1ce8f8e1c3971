--[[
  Lease the outcomes waiting for the agent, oldest first, while they fit in the budget. The first free one is
  always taken, so a claim never starves; after the first that does not fit, the rest are counted, not taken,
  so the agent gets outcomes in order. Outcomes leased to another live claim are skipped and not counted.
  The claim lives on the questions themselves (fields claim, claimUntil); the claimant keeps the ids.

  KEYS[1] outbox    zset   id -> when the outcome became ready
  ARGV[1] base        the project's key prefix; a question key is base .. 'q:' .. id
  ARGV[2] now         ms
  ARGV[3] budget      characters the claimed entries may take (each record's 'size')
  ARGV[4] claimId
  ARGV[5] leaseUntil  ms; after it the outcomes may be claimed again
  ARGV[6] only        'blocking': only outcomes of blocking questions are taken or counted; '' for all
  ARGV[7] missing     when a record the outbox names is absent: 'wait' (Redis Cluster: the slot may be migrating)
                      returns -1 before writing anything; 'gone' (one server) drops its id from the outbox
  ARGV[8] id          one question's id: only its outcome is taken or counted; '' for all

  Every record is read before the first write, so a cluster stopping this script at a key that already moved
  to another node stops it before it wrote anything.
  Returns {remaining, id, record, id, record, …}: how many free outcomes this claim left waiting, then each
  claimed id with its record (its HGETALL as one JSON list, cjson.encode: far cheaper for a client to read than
  a reply of many strings), oldest first; -1 a record is missing and ARGV[7] is 'wait'.
  Events: none (a claim is not a transition; confirm-5 emits 'delivered')
]]
--- @include "includes/outbox-in-order"
--- @include "includes/blocking-flag"

local now = tonumber(ARGV[2])
local budget = tonumber(ARGV[3])
local waiting = outboxInOrder(KEYS[1])
for _, entry in ipairs(waiting) do
  entry.key = ARGV[1] .. 'q:' .. entry.id
  entry.f = redis.call('HMGET', entry.key, 'status', 'claim', 'claimUntil', 'size', 'blocking')
  if not entry.f[1] and ARGV[7] == 'wait' then return -1 end
  -- A record parked before the park script wrote the blocking flag: read from its spec (still before any write).
  if entry.f[1] and not entry.f[5] and ARGV[6] == 'blocking' then
    entry.f[5] = blockingFlag(nil, redis.call('HGET', entry.key, 'spec'))
  end
end

local used = 0
local full = false
local remaining = 0
local reply = {0}
for _, entry in ipairs(waiting) do
  local f = entry.f
  if not f[1] then
    redis.call('ZREM', KEYS[1], entry.id)
  elseif (ARGV[8] ~= '' and entry.id ~= ARGV[8])
      or (ARGV[6] == 'blocking' and f[5] ~= '1') then
    -- not asked for: neither taken nor counted
  elseif not (f[2] and f[3] and tonumber(f[3]) > now) then
    local size = tonumber(f[4]) or 0
    if not full and (#reply == 1 or used + size <= budget) then
      used = used + size
      redis.call('HSET', entry.key, 'claim', ARGV[4], 'claimUntil', ARGV[5])
      reply[#reply + 1] = entry.id
      reply[#reply + 1] = cjson.encode(redis.call('HGETALL', entry.key))
    else
      full = true
      remaining = remaining + 1
    end
  end
end
reply[1] = remaining
return reply
