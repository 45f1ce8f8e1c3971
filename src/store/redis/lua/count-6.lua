--[[
  Count one project's questions per state, blocking and not. Reads each question's `blocking` field (written at
  park); records parked before it existed are read from their spec.

  KEYS[1..6] the status zsets, in this order: pending, answered, delivered, cancelled, dismissed, expired
  ARGV[1]    base   the project's key prefix; a question key is base .. 'q:' .. id

  Returns: 12 integers, per status in KEYS order: blocking, not blocking.
  Events: none
]]
--- @include "includes/blocking-flag"

local counts = {}
for k = 1, #KEYS do
  local blocking, canWait = 0, 0
  for _, id in ipairs(redis.call('ZRANGE', KEYS[k], 0, -1)) do
    local key = ARGV[1] .. 'q:' .. id
    local flag = redis.call('HGET', key, 'blocking')
    if not flag then
      local spec = redis.call('HGET', key, 'spec')
      if spec then flag = blockingFlag(nil, spec) end
    end
    if flag == '1' then blocking = blocking + 1 elseif flag == '0' then canWait = canWait + 1 end
  end
  counts[#counts + 1] = blocking
  counts[#counts + 1] = canWait
end
return counts
