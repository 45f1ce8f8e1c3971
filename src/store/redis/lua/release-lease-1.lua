--[[
  Give up a named lease, only if this owner holds it (a lapsed lease another owner took stays theirs).

  KEYS[1] lease  string  the owner holding it
  ARGV[1] owner

  Returns: 1 released; 0 not held by this owner.
  Events: none
]]
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
