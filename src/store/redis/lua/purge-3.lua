--[[
  Retention: drop questions delivered (or cancelled) before the cutoff. Only ids in the done index are touched,
  and only if their record is delivered, reported, or cancelled: nothing pending or undelivered is ever purged.

  KEYS[1] done     zset   id -> when it was delivered or cancelled
  KEYS[2] closed   zset   the closed view's index (store/paging.ts): members <closedAt:15><id:12>
  KEYS[3] decided  zset   the answered view's index (same members)
  ARGV[1] base     the project's key prefix; question, drafts and status keys are derived from it
  ARGV[2] cutoff   ms
  ARGV[3] limit    most ids to drop in one call

  Returns: how many questions were dropped.
  Events: none (nothing is left to show)
]]
local function pad(value, digits)
  local s = tostring(value)
  return string.rep('0', digits - #s) .. s
end

local dropped = 0
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[2], 'LIMIT', 0, ARGV[3])) do
  local key = ARGV[1] .. 'q:' .. id
  local f = redis.call('HMGET', key, 'status', 'deliveredAt', 'closedAt')
  local finished = f[1] == 'delivered' or f[1] == 'cancelled' or (f[2] and (f[1] == 'dismissed' or f[1] == 'expired'))
  if not f[1] or finished then
    if f[1] then redis.call('ZREM', ARGV[1] .. 's:' .. f[1], id) end
    if f[3] then
      local member = pad(f[3], 15) .. pad(id, 12)
      redis.call('ZREM', KEYS[2], member)
      redis.call('ZREM', KEYS[3], member)
    end
    redis.call('DEL', key, ARGV[1] .. 'd:' .. id)
    dropped = dropped + 1
  end
  redis.call('ZREM', KEYS[1], id)
end
return dropped
