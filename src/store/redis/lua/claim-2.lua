--[[
  Lease the outcomes waiting for the agent, oldest first, while they fit in the budget. The first free one is
  always taken, so a claim never starves; after the first that does not fit, the rest are counted, not taken,
  so the agent gets outcomes in order. Outcomes leased to another live claim are skipped and not counted.

  KEYS[1] outbox    zset   id -> when the outcome became ready
  KEYS[2] claim     set    ids of this claim (created here)
  ARGV[1] base        the project's key prefix; a question key is base .. 'q:' .. id
  ARGV[2] now         ms
  ARGV[3] budget      characters the claimed entries may take (each record's 'size')
  ARGV[4] claimId
  ARGV[5] leaseUntil  ms; after it the outcomes may be claimed again
  ARGV[6] ttl         ms to keep the claim set (longer than the lease)

  Returns {remaining, id...}: how many free outcomes this claim left waiting, then the claimed ids.
  Events: none (a claim is not a transition; confirm-6 emits 'delivered')
]]
local now = tonumber(ARGV[2])
local budget = tonumber(ARGV[3])
local used = 0
local full = false
local remaining = 0
local taken = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local key = ARGV[1] .. 'q:' .. id
  local f = redis.call('HMGET', key, 'status', 'claim', 'claimUntil', 'size')
  if not f[1] then
    redis.call('ZREM', KEYS[1], id)
  elseif not (f[2] and f[3] and tonumber(f[3]) > now) then
    local size = tonumber(f[4]) or 0
    if not full and (#taken == 0 or used + size <= budget) then
      used = used + size
      taken[#taken + 1] = id
      redis.call('HSET', key, 'claim', ARGV[4], 'claimUntil', ARGV[5])
    else
      full = true
      remaining = remaining + 1
    end
  end
end
if #taken > 0 then
  redis.call('SADD', KEYS[2], unpack(taken))
  redis.call('PEXPIRE', KEYS[2], ARGV[6])
end
local reply = {remaining}
for i, id in ipairs(taken) do reply[i + 1] = id end
return reply
