--[[
  Keep a new agent token, unless a live token has its name.

  KEYS[1] tokens  hash  t:<id> → record JSON, n:<name> → id, u:<id> → last used (ms)
  ARGV[1] id
  ARGV[2] name
  ARGV[3] record  JSON (id, name, SHA-256 of the token, patterns, createdAt): never the token

  Returns: 1 kept; 0 a live token has this name (nothing changed).
  Events: none
]]
if redis.call('HSETNX', KEYS[1], 'n:' .. ARGV[2], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 't:' .. ARGV[1], ARGV[3])
return 1
