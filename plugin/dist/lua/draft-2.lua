--[[
  Change one person's unsent selection for a pending question (or one member of a set), merged with the draft they
  have: the fields the change gives replace the stored ones, the others are kept; notes per option replace that
  option's. Read and write are one script, so changes arriving together (a pick and a notes submit) all land. The
  same merge as `mergeDraft` in store/drafts.ts.

  KEYS[1] question  hash
  KEYS[2] drafts    hash   "<platform>:<userId>" (a set's member: "<platform>:<userId>#<n>") -> JSON
                           {choices, other, notes?, choiceNotes?: [{choice, notes}], updatedAt}
  ARGV[1] person    the draft's field: "<platform>:<userId>", or "<platform>:<userId>#<n>"
  ARGV[2] pick      JSON {choices, other} replacing the stored pick (checked by the caller), or "" to keep it
  ARGV[3] set notes "1" when the change sets the notes, "0" to keep them
  ARGV[4] notes     the new notes, trimmed; "" clears them
  ARGV[5] base      JSON {choices, other}: the pick to start from when the person has no draft yet (what the
                    question shows selected)
  ARGV[6] now       ms since the epoch: the draft's updatedAt
  ARGV[7] choice notes  JSON [{choice, notes}] (checked and trimmed by the caller; "" notes clear that option's),
                    or "" to keep them all
  ARGV[8] labels    JSON list of the options' labels, in order: the order notes per option are kept in

  Returns {code, ...}: 1 saved (the draft's JSON follows); 2 not pending (record follows); 0 unknown;
  3 the stored draft is unreadable (nothing written).
  Events: none (drafts are not transitions)
]]
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {0} end
if status ~= 'pending' then return {2, redis.call('HGETALL', KEYS[1])} end

local function readable(draft)
  if type(draft) ~= 'table' or type(draft.choices) ~= 'table' or type(draft.other) ~= 'boolean' then return false end
  if type(draft.updatedAt) ~= 'number' or (draft.notes ~= nil and type(draft.notes) ~= 'string') then return false end
  for _, choice in ipairs(draft.choices) do
    if type(choice) ~= 'string' then return false end
  end
  if draft.choiceNotes ~= nil then
    if type(draft.choiceNotes) ~= 'table' then return false end
    for _, entry in ipairs(draft.choiceNotes) do
      if type(entry) ~= 'table' or type(entry.choice) ~= 'string' or type(entry.notes) ~= 'string' then return false end
    end
  end
  return true
end

local stored = redis.call('HGET', KEYS[2], ARGV[1])
local draft
if stored then
  local ok, decoded = pcall(cjson.decode, stored)
  if not ok or not readable(decoded) then return {3} end
  draft = decoded
end

local pick
if ARGV[2] ~= '' then
  pick = cjson.decode(ARGV[2])
elseif draft then
  pick = draft
else
  pick = cjson.decode(ARGV[5])
end
local notes = draft and draft.notes
if ARGV[3] == '1' then notes = ARGV[4] end

local byChoice = {}
if draft and draft.choiceNotes then
  for _, entry in ipairs(draft.choiceNotes) do byChoice[entry.choice] = entry.notes end
end
if ARGV[7] ~= '' then
  for _, entry in ipairs(cjson.decode(ARGV[7])) do byChoice[entry.choice] = entry.notes end
end

-- Written by hand: cjson would write an empty list as an object.
local choices = {}
for i, choice in ipairs(pick.choices) do choices[i] = cjson.encode(choice) end
local json = '{"choices":[' .. table.concat(choices, ',') .. '],"other":' .. tostring(pick.other == true)
if notes and notes ~= '' then json = json .. ',"notes":' .. cjson.encode(notes) end
local kept = {}
for _, label in ipairs(cjson.decode(ARGV[8])) do
  local text = byChoice[label]
  if text and text ~= '' then
    kept[#kept + 1] = '{"choice":' .. cjson.encode(label) .. ',"notes":' .. cjson.encode(text) .. '}'
  end
end
if #kept > 0 then json = json .. ',"choiceNotes":[' .. table.concat(kept, ',') .. ']' end
json = json .. ',"updatedAt":' .. ARGV[6] .. '}'
redis.call('HSET', KEYS[2], ARGV[1], json)
return {1, json}
