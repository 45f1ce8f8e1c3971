--[[
  Hand one group's failed events back to it: every record moves from the failed hash to the group's replay list,
  where its consumers take them (LPOP). Moved as one step, so a record is never both failed and queued, nor lost.

  KEYS[1] failed    hash   <eventId> -> record JSON (see record-failure-2)
  KEYS[2] replay    list   records (JSON, with the eventId) queued for the group's consumers

  Returns: how many were handed back.
  Events: none
]]
local flat = redis.call('HGETALL', KEYS[1])
local moved = 0
for i = 1, #flat, 2 do
  local record = cjson.decode(flat[i + 1])
  record.eventId = flat[i]
  redis.call('RPUSH', KEYS[2], cjson.encode(record))
  moved = moved + 1
end
if moved > 0 then redis.call('DEL', KEYS[1]) end
return moved
