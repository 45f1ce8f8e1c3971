--[[
  Mark one outcome delivered because the agent received it directly (get_answer, a waiting ask_later), so no
  prompt carries it again. Not when a delivery claim holds a live lease on it: that claim reports it.

  KEYS[1] question   hash
  KEYS[2] outbox     zset
  KEYS[3] answered   zset
  KEYS[4] delivered  zset
  KEYS[5] done       zset   retention clock
  KEYS[6] events     stream
  ARGV[1] id
  ARGV[2] now        ms
  ARGV[3] maxlen     approximate cap of the event stream
  ARGV[4] via        the delivery path, kept as deliveredVia

  Returns: 1 delivered now; 2 leased to a delivery claim (left to it); 0 not waiting for delivery.
  Events: delivered (code 1)
]]
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 0 end
local f = redis.call('HMGET', KEYS[1], 'status', 'claim', 'claimUntil', 'project')
if not f[1] then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 0
end
if f[2] and f[3] and tonumber(f[3]) > tonumber(ARGV[2]) then return 2 end
if f[1] == 'answered' then
  redis.call('HSET', KEYS[1], 'status', 'delivered', 'deliveredAt', ARGV[2], 'deliveredVia', ARGV[4])
  redis.call('ZREM', KEYS[3], ARGV[1])
  redis.call('ZADD', KEYS[4], ARGV[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], 'deliveredAt', ARGV[2], 'deliveredVia', ARGV[4])
end
redis.call('HDEL', KEYS[1], 'claim', 'claimUntil')
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[5], ARGV[2], ARGV[1])
redis.call('XADD', KEYS[6], 'MAXLEN', '~', ARGV[3], '*', 'type', 'delivered', 'project', f[4], 'id', ARGV[1], 'at', ARGV[2])
return 1
