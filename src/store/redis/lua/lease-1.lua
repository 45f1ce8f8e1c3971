--[[
  Take or renew a named lease: SET NX PX when free, PEXPIRE when this owner already holds it.

  The expiry is measured by Redis (PX), not by the store's clock: a lease is relative time on one server, so the
  owners' clocks never need to agree.

  KEYS[1] lease  string  the owner holding it
  ARGV[1] owner
  ARGV[2] ms     how long the lease runs from now

  Returns: 1 the owner holds it (taken or renewed); 0 another owner holds it.
  Events: none
]]
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if holder then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
