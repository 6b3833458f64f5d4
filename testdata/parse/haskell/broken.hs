module Broken where

f :: Int -> -> Int
f x = x +

data T = A | | B
