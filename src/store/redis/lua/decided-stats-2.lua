--[[
  The first step of the "already decided" check (store/redis/decisions.ts): start the index again if it was written
  before postings carried counts (no 'v'; the caller then builds it once from the trail), index the decisions
  answered since the last check (answer-11 queues them), then read what ranking needs: whether the project's older
  decisions were indexed, the totals, how many documents hold each of the new question's terms, and the postings of
  those held by few enough documents to be read whole (the caller scores the candidates from them: no document read).

  KEYS[1] index   hash   the index of decisions (includes/decided-index.lua)
  KEYS[2] queued  hash   id -> the documents of a decision not indexed yet (answer-11)
  ARGV[1] base     the project's key prefix; a question key is base .. 'q:' .. id
  ARGV[2] missing  when a queued decision's record is absent: 'wait' (Redis Cluster: the slot may be migrating)
                   returns -1 before writing anything; 'gone' (one server: it was purged) drops it from the queue
  ARGV[3] most     postings of a term held by more documents than this are not returned
  ARGV[4…] terms   the new question's terms

  Returns {b, n, l, df of each term…, postings of each term…}: b '1' once the project's older decisions were indexed
  (else nil), n documents, l their total length, each term's document count (nil for none), then each term's
  postings (" ref:tf:len … "; nil for none, or when more than `most` documents hold it); -1 a queued decision's record
  is missing and ARGV[2] is 'wait'.
  Events: none
]]
--- @include "includes/decided-index"

local queued = redis.call('HGETALL', KEYS[2])
local kept = {}
if #queued > 0 then
  -- Every record is looked at before the first write (see claim-1).
  for i = 1, #queued, 2 do
    kept[i] = redis.call('EXISTS', ARGV[1] .. 'q:' .. queued[i]) == 1
    if not kept[i] and ARGV[2] == 'wait' then return -1 end
  end
end
if redis.call('HGET', KEYS[1], 'v') ~= '2' then
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[1], 'v', '2')
end
if #queued > 0 then
  for i = 1, #queued, 2 do
    if kept[i] then indexDocuments(KEYS[1], queued[i], queued[i + 1]) end
  end
  redis.call('DEL', KEYS[2])
end
local fields = {'b', 'n', 'l'}
for i = 4, #ARGV do fields[#fields + 1] = 'df:' .. ARGV[i] end
local reply = redis.call('HMGET', KEYS[1], unpack(fields))
local most = tonumber(ARGV[3])
for i = 4, #ARGV do
  local held = tonumber(reply[i]) or 0
  if held > 0 and held <= most then
    reply[#reply + 1] = redis.call('HGET', KEYS[1], 't:' .. ARGV[i]) or false
  else
    reply[#reply + 1] = false
  end
end
return reply
