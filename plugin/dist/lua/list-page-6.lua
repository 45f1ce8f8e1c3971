--[[
  One page of one project's questions in the listing order (blocking first, then by id), read-only: for
  list_questions, which pages through a project and says how many more follow.

  KEYS[1..6] the status zsets, in this order: pending, answered, delivered, cancelled, dismissed, expired
  ARGV[1] base       the project's key prefix; a question key is base .. 'q:' .. id
  ARGV[2] statuses   six characters, '1' where KEYS[i]'s status is wanted, '0' where not
  ARGV[3] blocking   '1' only blocking, '0' only those that can wait, '' both
  ARGV[4] limit      most questions on the page
  ARGV[5] after      the cursor's rank ('0' blocking, '1' can wait), or '' for the first page
  ARGV[6] afterId    the cursor's id (with ARGV[5])

  Returns {remaining, id, record, id, record, …}: how many questions follow the page, then each question's id and
  record (HGETALL as one JSON list: cjson.encode) in the listing order.
  Events: none
]]
local entries = {}
for k = 1, #KEYS do
  if string.sub(ARGV[2], k, k) == '1' then
    for _, id in ipairs(redis.call('ZRANGE', KEYS[k], 0, -1)) do
      local f = redis.call('HMGET', ARGV[1] .. 'q:' .. id, 'blocking', 'spec')
      local blocking = f[1]
      if not blocking and f[2] then
        local ok, spec = pcall(cjson.decode, f[2])
        blocking = (ok and type(spec) == 'table' and spec.isBlocking == true) and '1' or '0'
      end
      if blocking and (ARGV[3] == '' or ARGV[3] == blocking) then
        local rank = 1
        if blocking == '1' then rank = 0 end
        entries[#entries + 1] = {rank = rank, id = tonumber(id)}
      end
    end
  end
end
table.sort(entries, function(a, b)
  if a.rank ~= b.rank then return a.rank < b.rank end
  return a.id < b.id
end)
local afterRank = tonumber(ARGV[5])
local afterId = tonumber(ARGV[6])
local limit = tonumber(ARGV[4])
local reply = {0}
local remaining = 0
for _, entry in ipairs(entries) do
  local follows = afterRank == nil or entry.rank > afterRank or (entry.rank == afterRank and entry.id > afterId)
  if follows then
    if (#reply - 1) / 2 < limit then
      reply[#reply + 1] = entry.id
      reply[#reply + 1] = cjson.encode(redis.call('HGETALL', ARGV[1] .. 'q:' .. entry.id))
    else
      remaining = remaining + 1
    end
  end
end
reply[1] = remaining
return reply
