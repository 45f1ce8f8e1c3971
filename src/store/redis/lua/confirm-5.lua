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
  ARGV[6] missing    when a record the claim names is absent: 'wait' (Redis Cluster: the slot may be migrating)
                     returns -1 before writing anything; 'gone' (one server) leaves it
  ARGV[7…] ids       the ids the claim carried

  Every record is read before the first write, so a cluster stopping this script at a key that already moved
  to another node stops it before it wrote anything.
  Returns: the confirmed ids (those still leased to this claim); -1 a record is missing and ARGV[6] is 'wait'.
  Events: delivered, one per confirmed id
]]
local held = {}
for i = 7, #ARGV do
  local id = ARGV[i]
  local f = redis.call('HMGET', ARGV[1] .. 'q:' .. id, 'claim', 'status', 'project')
  if f[1] == ARGV[3] then
    held[#held + 1] = {id = id, status = f[2], project = f[3]}
  elseif not f[2] and ARGV[6] == 'wait' then
    return -1
  end
end
local confirmed = {}
for _, q in ipairs(held) do
  local key = ARGV[1] .. 'q:' .. q.id
  if q.status == 'answered' then
    redis.call('HSET', key, 'status', 'delivered', 'deliveredAt', ARGV[2], 'deliveredVia', ARGV[5])
    redis.call('ZREM', KEYS[2], q.id)
    redis.call('ZADD', KEYS[3], q.id, q.id)
  else
    redis.call('HSET', key, 'deliveredAt', ARGV[2], 'deliveredVia', ARGV[5])
  end
  redis.call('HDEL', key, 'claim', 'claimUntil')
  redis.call('ZREM', KEYS[1], q.id)
  redis.call('ZADD', KEYS[4], ARGV[2], q.id)
  redis.call('XADD', KEYS[5], 'MAXLEN', '~', ARGV[4], '*', 'type', 'delivered', 'project', q.project, 'id', q.id, 'at', ARGV[2])
  confirmed[#confirmed + 1] = tonumber(q.id)
end
return confirmed
