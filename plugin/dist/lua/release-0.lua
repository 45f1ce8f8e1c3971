--[[
  Give a claim's outcomes back at once, for the next claim. Only ids still leased to this claim are touched.

  (no KEYS: the question keys are derived from the project's base, all in its slot)
  ARGV[1] base     the project's key prefix; a question key is base .. 'q:' .. id
  ARGV[2] claimId
  ARGV[3…] ids     the ids the claim carried

  Returns: how many outcomes were released.
  Events: none
]]
local released = 0
for i = 3, #ARGV do
  local key = ARGV[1] .. 'q:' .. ARGV[i]
  if redis.call('HGET', key, 'claim') == ARGV[2] then
    redis.call('HDEL', key, 'claim', 'claimUntil')
    released = released + 1
  end
end
return released
