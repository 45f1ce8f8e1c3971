--[[
  pad(value, digits): the value as text, zeros in front up to `digits` characters (the view indexes' fixed-width
  keys: store/paging.ts).
]]
local function pad(value, digits)
  local s = tostring(value)
  return string.rep('0', digits - #s) .. s
end
