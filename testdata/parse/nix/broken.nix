{ a, b ? , ... }:
let
  x = 1
  y = ;
in x +
