--[[
  blockingFlag(flag, spec): whether a question is blocking, '1' or '0': the record's `blocking` field (`flag`, which
  park-6 writes), else read from its `spec` JSON (records parked before the field existed); '0' when neither reads.
]]
local function blockingFlag(flag, spec)
  if flag then return flag end
  local ok, decoded = pcall(cjson.decode, spec or '')
  return (ok and type(decoded) == 'table' and decoded.isBlocking == true) and '1' or '0'
end
