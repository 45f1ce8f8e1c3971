--[[
  The index of decisions (store/decided-index.ts), one hash per project (KEYS: its `decisions` key):
    n          how many documents (a decided question, or one member of a decided set)
    l          their total length in terms
    d:<ref>    a document: "<length>|term:count term:count …" (ref: the question id, or "<id>.<member>")
    df:<term>  how many documents hold the term
    t:<term>   the postings: each document holding it, " ref:tf:len ref:tf:len … " (a space before and after each;
               tf how often the document holds the term, len the document's length), so a check scores documents
               from the postings alone (store/redis/decisions.ts)
    m:<id>     the refs of a question's documents, " ref … ", for its purge
    b          set once the project's earlier decisions were indexed (store/redis/decisions.ts)
    v          the postings' format: '2' (tf and len); an index without it is started again (decided-stats-2)

  indexDocuments(key, id, encoded): add a question's documents, given as lines "<ref>\t<length>\t<terms>", each
  once (a document already there is left as it is).
  unindexQuestion(key, id): drop a question's documents.
]]
local function indexDocuments(key, id, encoded)
  local refs = {}
  for line in string.gmatch(encoded, '[^\n]+') do
    local ref, len, terms = string.match(line, '^([^\t]+)\t(%d+)\t(.*)$')
    if ref and redis.call('HEXISTS', key, 'd:' .. ref) == 0 then
      redis.call('HSET', key, 'd:' .. ref, len .. '|' .. terms)
      redis.call('HINCRBY', key, 'n', 1)
      redis.call('HINCRBY', key, 'l', tonumber(len))
      for term, tf in string.gmatch(terms, '([^: ]+):(%d+)') do
        redis.call('HINCRBY', key, 'df:' .. term, 1)
        local postings = redis.call('HGET', key, 't:' .. term) or ' '
        redis.call('HSET', key, 't:' .. term, postings .. ref .. ':' .. tf .. ':' .. len .. ' ')
      end
      refs[#refs + 1] = ref
    end
  end
  if #refs > 0 then
    local prior = redis.call('HGET', key, 'm:' .. id) or ' '
    redis.call('HSET', key, 'm:' .. id, prior .. table.concat(refs, ' ') .. ' ')
  end
end

local function unindexQuestion(key, id)
  local refs = redis.call('HGET', key, 'm:' .. id)
  if not refs then return end
  for ref in string.gmatch(refs, '%S+') do
    local doc = redis.call('HGET', key, 'd:' .. ref)
    if doc then
      local len, terms = string.match(doc, '^(%d+)|(.*)$')
      redis.call('HINCRBY', key, 'n', -1)
      redis.call('HINCRBY', key, 'l', -tonumber(len or 0))
      -- The ref's posting, " ref:tf:len " (or " ref " in an index written before postings carried counts).
      local escaped = string.gsub(ref, '%.', '%%.')
      local needle = ' ' .. escaped .. ':%d+:%d+ '
      local legacy = ' ' .. escaped .. ' '
      for term in string.gmatch(terms or '', '([^: ]+):%d+') do
        if redis.call('HINCRBY', key, 'df:' .. term, -1) <= 0 then
          redis.call('HDEL', key, 'df:' .. term, 't:' .. term)
        else
          local postings = redis.call('HGET', key, 't:' .. term) or ' '
          local kept, dropped = string.gsub(postings, needle, ' ', 1)
          if dropped == 0 then kept = string.gsub(postings, legacy, ' ', 1) end
          redis.call('HSET', key, 't:' .. term, kept)
        end
      end
      redis.call('HDEL', key, 'd:' .. ref)
    end
  end
  redis.call('HDEL', key, 'm:' .. id)
end
