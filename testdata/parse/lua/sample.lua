-- A tiny event bus and inventory, to exercise the Lua grammar.
local M = {}
M.__index = M

local GREETING = "Grüße — こんにちは — 🌙"
local unpack = table.unpack or unpack

--[[ A multi-line comment:
     the bus keeps handlers per event name. ]]
local Bus = {}
Bus.__index = Bus

function Bus.new()
  return setmetatable({ handlers = {}, fired = 0 }, Bus)
end

function Bus:on(name, fn)
  local list = self.handlers[name]
  if not list then
    list = {}
    self.handlers[name] = list
  end
  list[#list + 1] = fn
  return function()
    for i = #list, 1, -1 do
      if list[i] == fn then
        table.remove(list, i)
      end
    end
  end
end

function Bus:emit(name, ...)
  local list = self.handlers[name] or {}
  for _, fn in ipairs(list) do
    local ok, err = pcall(fn, ...)
    if not ok then
      io.stderr:write(("handler for %s failed: %s\n"):format(name, err))
    end
  end
  self.fired = self.fired + 1
end

local Inventory = setmetatable({}, { __index = M })
Inventory.__index = Inventory

function Inventory.new(bus)
  local self = setmetatable({}, Inventory)
  self.items = {}
  self.bus = bus
  return self
end

function Inventory:add(name, count)
  count = count or 1
  assert(type(name) == "string", "name must be a string")
  self.items[name] = (self.items[name] or 0) + count
  self.bus:emit("added", name, count)
end

function Inventory:total()
  local sum = 0
  for _, n in pairs(self.items) do
    sum = sum + n
  end
  return sum
end

function Inventory:names()
  local names = {}
  for k in pairs(self.items) do
    names[#names + 1] = k
  end
  table.sort(names, function(a, b) return a:lower() < b:lower() end)
  return names
end

local function fib(n)
  if n < 2 then return n end
  local a, b = 0, 1
  for _ = 2, n do
    a, b = b, a + b
  end
  return b
end

local bus = Bus.new()
local inv = Inventory.new(bus)
local off = bus:on("added", function(name, n)
  print(string.format("+%d %s", n, name))
end)

inv:add("Äpfel", 3)
inv:add("Brot")
off()
inv:add("Käse", 2)

local i = 0
repeat
  i = i + 1
until fib(i) > 100

while i > 0 do
  i = i // 2
  if i == 3 then goto continue end
  ::continue::
end

local long = [[
long string with "quotes" and 'apostrophes'
]]
local t = { 1, 2, 3, x = 1.5e2, ["key with spaces"] = true, nested = { deep = { 0x1F } } }
print(GREETING, inv:total(), table.concat(inv:names(), ", "), #long, t.nested.deep[1], bus.fired, 7 % 3, 2 ^ 10, ~5 & 3)
print(select("#", unpack({ 1, 2, 3 })))
return M
