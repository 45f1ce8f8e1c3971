--[[
  Confirm a delivery claim once the note was written: its answers become delivered, its dismissals and expiries
  are marked reported. An outcome whose lease ran out and was claimed by another claim is left to that claim.

  KEYS[1] claim      set    ids of this claim (dropped)
  KEYS[2] outbox     zset
  KEYS[3] answered   zset
  KEYS[4] delivered  zset
  KEYS[5] done       zset   retention clock
  KEYS[6] events     stream
  ARGV[1] base       the project's key prefix
  ARGV[2] now        ms
  ARGV[3] claimId
  ARGV[4] maxlen     approximate cap of the event stream

  Returns: the confirmed ids (empty when the claim is unknown or was fully taken over).
  Events: delivered, one per confirmed id
]]
local confirmed = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local key = ARGV[1] .. 'q:' .. id
  local f = redis.call('HMGET', key, 'claim', 'status', 'project')
  if f[1] == ARGV[3] then
    if f[2] == 'answered' then
      redis.call('HSET', key, 'status', 'delivered')
      redis.call('ZREM', KEYS[3], id)
      redis.call('ZADD', KEYS[4], id, id)
    end
    redis.call('HSET', key, 'deliveredAt', ARGV[2])
    redis.call('HDEL', key, 'claim', 'claimUntil')
    redis.call('ZREM', KEYS[2], id)
    redis.call('ZADD', KEYS[5], ARGV[2], id)
    redis.call('XADD', KEYS[6], 'MAXLEN', '~', ARGV[4], '*', 'type', 'delivered', 'project', f[3], 'id', id, 'at', ARGV[2])
    confirmed[#confirmed + 1] = tonumber(id)
  end
end
redis.call('DEL', KEYS[1])
return confirmed
