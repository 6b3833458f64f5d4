local function broken(a, b
  return a +
end

if x then
  print("missing end"
