--[[
  The check every paged read starts with (views-10, view-page-10): make sure one project's view indexes
  (store/paging.ts) hold what its status sets hold, then count them. The status sets are the source of truth, kept
  by every version of the scripts; the indexes are kept by this version's (park-6, answer-11, close-10, expire-9,
  purge-9). They are built here when the project has none yet (parked before they existed: its meta has no index
  version) or when their sizes disagree with the status sets (a question parked, answered or closed by an older
  version of ask-later still running somewhere, an agent's plugin not yet updated): rebuilt whole, from the records,
  in this one step. Replicas may all call it: a rebuild gives the same indexes whoever runs it, and a project in step
  is only counted. Records closed before this version get `closedAt` (from their answer or closure, else delivery,
  else creation); an id whose record is gone is dropped from its status set (as claim-1 drops it from the outbox).

  checkViews() reads KEYS[1..10] and ARGV[1..3] as views-10's header states them. A rebuild reads every record before
  its first write (see release-1). Returns {blocking pending, can-wait pending, closed, answered, rebuilt (1 when it
  rebuilt the indexes now, else 0)}; -1 when a rebuild found a record missing and ARGV[3] is 'wait' (nothing written).
]]
--- @include "includes/view-members"
--- @include "includes/blocking-flag"

local function decodedAt(text)
  if not text then return nil end
  local ok, value = pcall(cjson.decode, text)
  if ok and type(value) == 'table' and type(value.at) == 'number' then return string.format('%.0f', value.at) end
  return nil
end

local function checkViews()
  -- A project that never parked has nothing to count (and gets no key).
  if redis.call('EXISTS', KEYS[1]) == 0 then return {0, 0, 0, 0, 0} end
  local built = tonumber(redis.call('HGET', KEYS[1], 'ix') or '0') >= tonumber(ARGV[2])
  local closedTotal = 0
  for k = 6, 10 do closedTotal = closedTotal + redis.call('ZCARD', KEYS[k]) end
  local answeredTotal = redis.call('ZCARD', KEYS[6]) + redis.call('ZCARD', KEYS[7])
  local inStep = built
    and redis.call('ZCARD', KEYS[2]) == redis.call('ZCARD', KEYS[5])
    and redis.call('ZCARD', KEYS[3]) == closedTotal
    and redis.call('ZCARD', KEYS[4]) == answeredTotal

  local rebuilt = 0
  if not inStep then
    local pendingIds = redis.call('ZRANGE', KEYS[5], 0, -1)
    local pending = {}
    for i, id in ipairs(pendingIds) do
      pending[i] = redis.call('HMGET', ARGV[1] .. 'q:' .. id, 'createdAt', 'blocking', 'spec')
      if not pending[i][1] and ARGV[3] == 'wait' then return -1 end
    end
    local closedIds, closed = {}, {}
    for k = 6, 10 do
      closedIds[k], closed[k] = redis.call('ZRANGE', KEYS[k], 0, -1), {}
      for i, id in ipairs(closedIds[k]) do
        closed[k][i] = redis.call('HMGET', ARGV[1] .. 'q:' .. id, 'closedAt', 'answer', 'closure', 'deliveredAt', 'createdAt')
        if not closed[k][i][5] and ARGV[3] == 'wait' then return -1 end
      end
    end

    redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
    for i, id in ipairs(pendingIds) do
      local f = pending[i]
      if f[1] then
        redis.call('ZADD', KEYS[2], 0, inboxMember(blockingFlag(f[2], f[3]), f[1], id))
      else
        redis.call('ZREM', KEYS[5], id)
      end
    end
    for k = 6, 10 do
      for i, id in ipairs(closedIds[k]) do
        local f = closed[k][i]
        if f[5] then
          local closedAt = f[1] or decodedAt(f[2]) or decodedAt(f[3]) or f[4] or f[5]
          if not f[1] then redis.call('HSET', ARGV[1] .. 'q:' .. id, 'closedAt', closedAt) end
          local member = closedMember(closedAt, id)
          redis.call('ZADD', KEYS[3], 0, member)
          if k <= 7 then redis.call('ZADD', KEYS[4], 0, member) end
        else
          redis.call('ZREM', KEYS[k], id)
        end
      end
    end
    redis.call('HSET', KEYS[1], 'ix', ARGV[2])
    rebuilt = 1
  end
  return {
    redis.call('ZLEXCOUNT', KEYS[2], '[0', '(1'),
    redis.call('ZLEXCOUNT', KEYS[2], '[1', '+'),
    redis.call('ZCARD', KEYS[3]),
    redis.call('ZCARD', KEYS[4]),
    rebuilt,
  }
end
