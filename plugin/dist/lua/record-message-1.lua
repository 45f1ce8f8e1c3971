--[[
  Remember where a copy of a question was posted, without creating a record for an unknown question.

  KEYS[1] question  hash
  ARGV[1] field     "msg:<platform>:<channel>"
  ARGV[2] messageId

  Returns: 1 recorded; 0 unknown question.
  Events: none
]]
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
