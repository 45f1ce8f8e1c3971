--[[
  Give a claim's outcomes back at once, for the next claim. Only ids still leased to this claim are touched.

  KEYS[1] outbox   zset   the project's outbox: declared so a cluster runs this in the project's slot
  ARGV[1] base     the project's key prefix; a question key is base .. 'q:' .. id
  ARGV[2] missing  when a record the claim names is absent: 'wait' (Redis Cluster: the slot may be migrating)
                   returns -1 before writing anything; 'gone' (one server) leaves it
  ARGV[3] claimId
  ARGV[4…] ids     the ids the claim carried

  Every record is read before the first write, so a cluster stopping this script at a key that already moved
  to another node stops it before it wrote anything.
  Returns: how many outcomes were released; -1 a record is missing and ARGV[2] is 'wait' (nothing written).
  Events: none
]]
local held = {}
for i = 4, #ARGV do
  local key = ARGV[1] .. 'q:' .. ARGV[i]
  local claim = redis.call('HGET', key, 'claim')
  if claim == ARGV[3] then
    held[#held + 1] = key
  elseif not claim and ARGV[2] == 'wait' and redis.call('EXISTS', key) == 0 then
    return -1
  end
end
for _, key in ipairs(held) do redis.call('HDEL', key, 'claim', 'claimUntil') end
return #held
