--[[
  Index a project's earlier decisions once (the index of decisions: includes/decided-index.lua), for a project
  whose decisions were answered before the index existed. Documents already there (answered meanwhile) are kept.

  KEYS[1] decisions  hash
  ARGV[1] done       '1' after the last batch: the project is indexed from now on
  ARGV[2…] questions: "<id>" then its documents' lines, alternately (id, encoded, id, encoded, …)

  Returns: 1
  Events: none
]]
--- @include "includes/decided-index"

for i = 2, #ARGV, 2 do
  indexDocuments(KEYS[1], ARGV[i], ARGV[i + 1] or '')
end
if ARGV[1] == '1' then redis.call('HSET', KEYS[1], 'b', '1') end
return 1
