--[[
  Confirm a delivery claim once the note was written: its answers become delivered, its dismissals and expiries
  are marked reported. An outcome whose lease ran out and was claimed by another claim is left to that claim.

  KEYS[1] outbox     zset
  KEYS[2] answered   zset
  KEYS[3] delivered  zset
  KEYS[4] done       zset   retention clock
  KEYS[5] events     stream
  ARGV[1] base       the project's key prefix; a question key is base .. 'q:' .. id
  ARGV[2] now        ms
  ARGV[3] claimId
  ARGV[4] maxlen     approximate cap of the event stream
  ARGV[5] via        the delivery path, kept as deliveredVia
  ARGV[6…] ids       the ids the claim carried

  Returns: the confirmed ids (those still leased to this claim).
  Events: delivered, one per confirmed id
]]
local confirmed = {}
for i = 6, #ARGV do
  local id = ARGV[i]
  local key = ARGV[1] .. 'q:' .. id
  local f = redis.call('HMGET', key, 'claim', 'status', 'project')
  if f[1] == ARGV[3] then
    if f[2] == 'answered' then
      redis.call('HSET', key, 'status', 'delivered', 'deliveredAt', ARGV[2])
      redis.call('ZREM', KEYS[2], id)
      redis.call('ZADD', KEYS[3], id, id)
    else
      redis.call('HSET', key, 'deliveredAt', ARGV[2])
    end
    redis.call('HSET', key, 'deliveredVia', ARGV[5])
    redis.call('HDEL', key, 'claim', 'claimUntil')
    redis.call('ZREM', KEYS[1], id)
    redis.call('ZADD', KEYS[4], ARGV[2], id)
    redis.call('XADD', KEYS[5], 'MAXLEN', '~', ARGV[4], '*', 'type', 'delivered', 'project', f[3], 'id', id, 'at', ARGV[2])
    confirmed[#confirmed + 1] = tonumber(id)
  end
end
return confirmed
