--[[
  Answer a pending question. The first answer wins: the status check and the write are one step.

  KEYS[1] question  hash
  KEYS[2] drafts    hash   dropped with the answer
  KEYS[3] pending   zset
  KEYS[4] answered  zset
  KEYS[5] outbox    zset   outcomes waiting for the agent
  KEYS[6] expiry    zset
  KEYS[7] events    stream
  KEYS[8] inbox     zset   the pending view's index (store/paging.ts): the question leaves it
  KEYS[9] closed    zset   the closed view's index: members <closedAt:15><id:12>, score 0
  KEYS[10] decided  zset   the answered view's index (same members): the decision trail
  KEYS[11] queued   hash   decisions waiting to join the index of decisions (includes/decided-index.lua): id ->
                           its documents; the next "already decided" check of the project indexes them (decided-stats-2)
  ARGV[1] answer    JSON
  ARGV[2] now       ms
  ARGV[3] size      characters its delivery entry takes
  ARGV[4] maxlen    approximate cap of the event stream
  ARGV[5] documents the question's documents for the index, as lines "<ref>\t<length>\t<terms>"

  Returns {code, record...}: 1 won; 2 already answered (answered or delivered); 3 no longer pending (cancelled,
  dismissed, expired); 4 pending but past its expiry (nothing written: the caller expires it); 0 unknown.
  The record (HGETALL, flat) follows codes 2 and 3, for the caller to say who answered or what became of it;
  code 1 returns only the message references ({1, field, value, …}): the caller knows the rest.
  Events: answered (code 1)
]]
--- @include "includes/view-members"
--- @include "includes/blocking-flag"
--- @include "includes/pending-only"

local refused, f = pendingOnly(KEYS[1], ARGV[2])
if refused then return refused end

local id, project = f[3], f[4]
-- The spec is read only for a record parked before park-5 wrote the blocking flag.
local blocking = f[6] or blockingFlag(nil, redis.call('HGET', KEYS[1], 'spec'))
redis.call('ZREM', KEYS[8], inboxMember(blocking, f[5], id))
local closed = closedMember(ARGV[2], id)
redis.call('ZADD', KEYS[9], 0, closed)
redis.call('ZADD', KEYS[10], 0, closed)
redis.call('HSET', KEYS[1], 'status', 'answered', 'answer', ARGV[1], 'size', ARGV[3], 'closedAt', ARGV[2])
redis.call('DEL', KEYS[2])
redis.call('ZREM', KEYS[3], id)
redis.call('ZADD', KEYS[4], id, id)
redis.call('ZADD', KEYS[5], ARGV[2], id)
if f[2] then redis.call('ZREM', KEYS[6], id) end
-- Queued, not indexed here: an answer stays one short step; the next check indexes what was queued at once.
redis.call('HSET', KEYS[11], id, ARGV[5])
redis.call('XADD', KEYS[7], 'MAXLEN', '~', ARGV[4], '*', 'type', 'answered', 'project', project, 'id', id, 'at', ARGV[2])
local reply = {1}
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  if string.sub(fields[i], 1, 4) == 'msg:' then
    reply[#reply + 1] = fields[i]
    reply[#reply + 1] = fields[i + 1]
  end
end
return reply
