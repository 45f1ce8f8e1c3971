--[[
  One project's view check and counts (includes/view-check.lua: its indexes brought in step with its status sets,
  rebuilt when an older version left them behind, then counted): what countAcross runs per project.

  KEYS[1] meta       hash   ix: the index version built
  KEYS[2] inbox      zset   the pending view's index: <0 blocking|1 can wait><createdAt:15><id:12>, score 0
  KEYS[3] closed     zset   the closed view's index: <closedAt:15><id:12>, score 0
  KEYS[4] decided    zset   the answered view's index (answered and delivered), same members
  KEYS[5..10] the status zsets, in this order: pending, answered, delivered, cancelled, dismissed, expired
  ARGV[1] base       the project's key prefix; a question key is base .. 'q:' .. id
  ARGV[2] version    the index version this code keeps
  ARGV[3] missing    when a record a status set names is absent: 'wait' (Redis Cluster: the slot may be migrating)
                     returns -1 before writing anything; 'gone' (one server) drops its id, as above

  Returns {blocking pending, can-wait pending, closed, answered, rebuilt (1 when it rebuilt the indexes now, else 0)};
  -1 when a rebuild found a record missing and ARGV[3] is 'wait' (nothing written).
  Events: none (nothing changed state)
]]
--- @include "includes/view-check"

return checkViews()
