--[[
  Revoke an agent token by name or by id: its record, name and last-used time go at once.

  KEYS[1] tokens  hash  t:<id> → record JSON, n:<name> → id, u:<id> → last used (ms)
  ARGV[1] name or id

  Returns: the revoked record's JSON; false when no live token has this name or id.
  Events: none
]]
local id = redis.call('HGET', KEYS[1], 'n:' .. ARGV[1])
if not id then id = ARGV[1] end
local record = redis.call('HGET', KEYS[1], 't:' .. id)
if not record then return false end
local name = cjson.decode(record).name
redis.call('HDEL', KEYS[1], 't:' .. id, 'u:' .. id, 'n:' .. name)
return record
