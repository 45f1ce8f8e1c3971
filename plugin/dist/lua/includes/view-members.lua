--[[
  The members of a question in the view indexes (store/paging.ts, keys.ts), score 0, ordered as strings:
  inboxMember(blocking, createdAt, id)  ix:inbox     <0 blocking|1 can wait><createdAt:15><id:12>
  closedMember(closedAt, id)            ix:closed, ix:answered   <closedAt:15><id:12>
  `blocking` is the record's flag, '1' or '0' (blockingFlag).
]]
--- @include "includes/pad"

local function inboxMember(blocking, createdAt, id)
  local first = '1'
  if blocking == '1' then first = '0' end
  return first .. pad(createdAt, 15) .. pad(id, 12)
end

local function closedMember(closedAt, id)
  return pad(closedAt, 15) .. pad(id, 12)
end
