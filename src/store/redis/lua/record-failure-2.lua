--[[
  Keep an event a consumer group gave up on, until a person replays it. Every group's records share the hash tag
  {failed}, so the scripts over them touch one slot.

  KEYS[1] failed    hash   <eventId> -> JSON {type, project, questionId, at, attempts, error, failedAt}
  KEYS[2] groups    set    the groups that have (or had) failed events
  ARGV[1] group
  ARGV[2] eventId
  ARGV[3] record      the JSON above

  Returns: 1
  Events: none
]]
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
redis.call('SADD', KEYS[2], ARGV[1])
return 1
