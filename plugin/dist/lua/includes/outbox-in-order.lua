--[[
  outboxInOrder(outbox): the outcomes an outbox zset holds as {id, at} entries, oldest first; outcomes of the same
  millisecond by id (a zset orders equal scores as strings: "10" < "9").
]]
local function outboxInOrder(outbox)
  local flat = redis.call('ZRANGE', outbox, 0, -1, 'WITHSCORES')
  local entries = {}
  for i = 1, #flat, 2 do entries[#entries + 1] = {id = flat[i], at = tonumber(flat[i + 1])} end
  table.sort(entries, function(a, b)
    if a.at ~= b.at then return a.at < b.at end
    return tonumber(a.id) < tonumber(b.id)
  end)
  return entries
end
