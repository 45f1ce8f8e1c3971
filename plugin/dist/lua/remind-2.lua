--[[
  Record a pending question's next reminder, once: replicas deciding at the same moment record each ordinal once.

  KEYS[1] question  hash
  KEYS[2] events    stream
  ARGV[1] id
  ARGV[2] ordinal   the reminder being recorded (1 for the first)
  ARGV[3] now       ms
  ARGV[4] maxlen    approximate cap of the event stream

  Returns: 1 recorded; 2 already recorded (or a later one was); 3 not pending, or past its expiry; 0 unknown question.
  Events: reminded (code 1)
]]
local f = redis.call('HMGET', KEYS[1], 'status', 'reminders', 'expiresAt', 'project')
if not f[1] then return 0 end
if f[1] ~= 'pending' then return 3 end
if f[3] and tonumber(f[3]) <= tonumber(ARGV[3]) then return 3 end
local sent = tonumber(f[2] or '0')
if sent ~= tonumber(ARGV[2]) - 1 then return 2 end
redis.call('HSET', KEYS[1], 'reminders', ARGV[2], 'remindedAt', ARGV[3])
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[4], '*', 'type', 'reminded', 'project', f[4], 'id', ARGV[1], 'at', ARGV[3])
return 1
