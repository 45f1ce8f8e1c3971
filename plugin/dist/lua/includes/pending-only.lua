--[[
  pendingOnly(key, now): the opening of every transition out of pending (core/question.ts's canTransition: only a
  pending question moves; the contract suite checks it). When the question at `key` is pending and not past its
  expiry, returns nil and its fields {status, expiresAt, id, project, createdAt, blocking}; otherwise the script's
  reply: {0} unknown; {2, record} already answered (answered or delivered); {3, record} no longer pending
  (cancelled, dismissed, expired); {4} pending but past its expiry (nothing written: the caller expires it).
]]
local function pendingOnly(key, now)
  local f = redis.call('HMGET', key, 'status', 'expiresAt', 'id', 'project', 'createdAt', 'blocking')
  local status = f[1]
  if not status then return {0}, nil end
  if status ~= 'pending' then
    local code = 3
    if status == 'answered' or status == 'delivered' then code = 2 end
    return {code, redis.call('HGETALL', key)}, nil
  end
  if f[2] and tonumber(f[2]) <= tonumber(now) then return {4}, nil end
  return nil, f
end
