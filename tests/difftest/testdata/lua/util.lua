-- Utility functions.
local M = {}

local function trim(s)
  return (s:gsub("^%s+", ""):gsub("%s+$", ""))
end

function M.split(s, sep)
  local out = {}
  for part in string.gmatch(s, "([^" .. sep .. "]+)") do
    table.insert(out, trim(part))
  end
  return out
end

function M.map(t, f)
  local out = {}
  for i, v in ipairs(t) do
    out[i] = f(v)
  end
  return out
end

function M.sum(t)
  local total = 0
  for _, v in ipairs(t) do
    total = total + v
  end
  return total
end

local Stack = {}
Stack.__index = Stack

function Stack.new()
  return setmetatable({ items = {}, n = 0 }, Stack)
end

function Stack:push(v)
  self.n = self.n + 1
  self.items[self.n] = v
end

function Stack:pop()
  if self.n == 0 then
    return nil
  end
  local v = self.items[self.n]
  self.items[self.n] = nil
  self.n = self.n - 1
  return v
end

M.Stack = Stack
print(M.sum({1, 2, 3}))
print(M.sum(M.map({1, 2}, function(x) return x * 2 end)))
return M
