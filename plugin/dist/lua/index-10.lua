--[[
  Build one project's view indexes (store/paging.ts) from its records, once: for projects parked before the
  indexes existed. Idempotent (members are derived from the records; adding one twice changes nothing), and a
  project whose meta records this index version already is left alone, so replicas may all call it.
  Records closed before this version get `closedAt` (from their answer or closure, else delivery, else creation).

  KEYS[1] meta       hash   ix: the index version built
  KEYS[2] inbox      zset   the pending view's index: <0 blocking|1 can wait><createdAt:15><id:12>, score 0
  KEYS[3] closed     zset   the closed view's index: <closedAt:15><id:12>, score 0
  KEYS[4] decided    zset   the answered view's index (answered and delivered), same members
  KEYS[5..10] the status zsets, in this order: pending, answered, delivered, cancelled, dismissed, expired
  ARGV[1] base       the project's key prefix; a question key is base .. 'q:' .. id
  ARGV[2] version    the index version this code keeps

  Returns: 1 built now; 0 already built.
  Events: none (nothing changed state)
]]
local function pad(value, digits)
  local s = tostring(value)
  return string.rep('0', digits - #s) .. s
end
local function decodedAt(text)
  if not text then return nil end
  local ok, value = pcall(cjson.decode, text)
  if ok and type(value) == 'table' and type(value.at) == 'number' then return string.format('%.0f', value.at) end
  return nil
end

if tonumber(redis.call('HGET', KEYS[1], 'ix') or '0') >= tonumber(ARGV[2]) then return 0 end

for _, id in ipairs(redis.call('ZRANGE', KEYS[5], 0, -1)) do
  local f = redis.call('HMGET', ARGV[1] .. 'q:' .. id, 'createdAt', 'blocking', 'spec', 'status')
  if f[1] and f[4] == 'pending' then
    local blocking = f[2]
    if not blocking then
      local ok, spec = pcall(cjson.decode, f[3] or '')
      blocking = (ok and type(spec) == 'table' and spec.isBlocking == true) and '1' or '0'
    end
    local first = '1'
    if blocking == '1' then first = '0' end
    redis.call('ZADD', KEYS[2], 0, first .. pad(f[1], 15) .. pad(id, 12))
  end
end
for k = 6, 10 do
  for _, id in ipairs(redis.call('ZRANGE', KEYS[k], 0, -1)) do
    local key = ARGV[1] .. 'q:' .. id
    local f = redis.call('HMGET', key, 'closedAt', 'answer', 'closure', 'deliveredAt', 'createdAt')
    if f[5] then
      local closedAt = f[1] or decodedAt(f[2]) or decodedAt(f[3]) or f[4] or f[5]
      if not f[1] then redis.call('HSET', key, 'closedAt', closedAt) end
      local member = pad(closedAt, 15) .. pad(id, 12)
      redis.call('ZADD', KEYS[3], 0, member)
      if k <= 7 then redis.call('ZADD', KEYS[4], 0, member) end
    end
  end
end
redis.call('HSET', KEYS[1], 'ix', ARGV[2])
return 1
