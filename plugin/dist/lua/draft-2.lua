--[[
  Keep one person's unsent selection for a pending question.

  KEYS[1] question  hash
  KEYS[2] drafts    hash   "<platform>:<userId>" -> JSON
  ARGV[1] person    "<platform>:<userId>"
  ARGV[2] draft     JSON

  Returns {code, record...}: 1 saved (no record); 2 not pending (record follows); 0 unknown.
  Events: none (drafts are not transitions)
]]
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {0} end
if status ~= 'pending' then return {2, redis.call('HGETALL', KEYS[1])} end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return {1}
