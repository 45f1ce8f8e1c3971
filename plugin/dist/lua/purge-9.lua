--[[
  Retention: drop questions delivered (or cancelled) before the cutoff. Only ids in the done index are touched,
  and only if their record is delivered, reported, or cancelled: nothing pending or undelivered is ever purged.

  KEYS[1] done       zset   id -> when it was delivered or cancelled
  KEYS[2] closed     zset   the closed view's index (store/paging.ts): members <closedAt:15><id:12>
  KEYS[3] decided    zset   the answered view's index (same members)
  KEYS[4] delivered  zset   the status indexes a purged id may be in (declared: a cluster checks they are here)
  KEYS[5] cancelled  zset
  KEYS[6] dismissed  zset
  KEYS[7] expired    zset
  KEYS[8] index      hash   the index of decisions (includes/decided-index.lua): a purged question's documents leave it
  KEYS[9] queued     hash   decisions not indexed yet (answer-11): a purged question leaves the queue
  ARGV[1] base       the project's key prefix; question and drafts keys are derived from it
  ARGV[2] cutoff     ms
  ARGV[3] limit      most ids to drop in one call
  ARGV[4] missing    when a record the done index names is absent: 'wait' (Redis Cluster: the slot may be
                     migrating) returns -1 before writing anything; 'gone' (one server) drops its id

  Every record is read before the first write (see release-1).
  Returns: how many questions were dropped; -1 a record is missing and ARGV[4] is 'wait' (nothing written).
  Events: none (nothing is left to show)
]]
--- @include "includes/decided-index"
--- @include "includes/view-members"

local index = {delivered = KEYS[4], cancelled = KEYS[5], dismissed = KEYS[6], expired = KEYS[7]}
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[2], 'LIMIT', 0, ARGV[3])
local records = {}
for i, id in ipairs(ids) do
  records[i] = redis.call('HMGET', ARGV[1] .. 'q:' .. id, 'status', 'deliveredAt', 'closedAt')
  if not records[i][1] and ARGV[4] == 'wait' then return -1 end
end
local dropped = 0
for i, id in ipairs(ids) do
  local f = records[i]
  local finished = f[1] == 'delivered' or f[1] == 'cancelled' or (f[2] and (f[1] == 'dismissed' or f[1] == 'expired'))
  if not f[1] or finished then
    if f[1] and index[f[1]] then redis.call('ZREM', index[f[1]], id) end
    if f[3] then
      local member = closedMember(f[3], id)
      redis.call('ZREM', KEYS[2], member)
      redis.call('ZREM', KEYS[3], member)
    end
    unindexQuestion(KEYS[8], id)
    redis.call('HDEL', KEYS[9], id)
    redis.call('DEL', ARGV[1] .. 'q:' .. id, ARGV[1] .. 'd:' .. id)
    dropped = dropped + 1
  end
  redis.call('ZREM', KEYS[1], id)
end
return dropped
