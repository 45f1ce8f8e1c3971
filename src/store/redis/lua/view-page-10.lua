--[[
  One project's part of a page across projects, in one step: the view check and counts (includes/view-check.lua,
  as views-10), then the top of one view's index within a lexicographic range (after the page's cursor, within its
  filters) and how many members the range holds, so a page over many projects costs one script per project.

  KEYS[1..10] as views-10: meta, inbox, closed, decided, and the six status zsets
  ARGV[1..3]  as views-10: base, version, missing
  ARGV[4] index      which of KEYS[2..4] the view reads: 2 (pending), 3 (closed) or 4 (answered)
  ARGV[5] low        ZRANGE BYLEX bounds of the range in the index's ascending order
  ARGV[6] high
  ARGV[7] order      'asc', or 'desc' (newest first: read from the high end)
  ARGV[8] limit      most members returned

  Returns {blocking pending, can-wait pending, closed, answered, rebuilt, members in the range, member, member, …}
  (at most `limit` members, in the order asked); -1 as views-10.
  Events: none (nothing changed state)
]]
--- @include "includes/view-check"

local counts = checkViews()
if counts == -1 then return -1 end
local index = KEYS[tonumber(ARGV[4])]
counts[6] = redis.call('ZLEXCOUNT', index, ARGV[5], ARGV[6])
local members
if ARGV[7] == 'desc' then
  members = redis.call('ZRANGE', index, ARGV[6], ARGV[5], 'BYLEX', 'REV', 'LIMIT', 0, tonumber(ARGV[8]))
else
  members = redis.call('ZRANGE', index, ARGV[5], ARGV[6], 'BYLEX', 'LIMIT', 0, tonumber(ARGV[8]))
end
for i, member in ipairs(members) do counts[6 + i] = member end
return counts
