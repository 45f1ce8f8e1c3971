--[[
  Give a claim's outcomes back at once, for the next claim.

  KEYS[1] claim    set    ids of this claim (dropped)
  ARGV[1] base     the project's key prefix
  ARGV[2] claimId

  Returns: how many outcomes were released.
  Events: none
]]
local released = 0
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local key = ARGV[1] .. 'q:' .. id
  if redis.call('HGET', key, 'claim') == ARGV[2] then
    redis.call('HDEL', key, 'claim', 'claimUntil')
    released = released + 1
  end
end
redis.call('DEL', KEYS[1])
return released
