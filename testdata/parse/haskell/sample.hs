{-# LANGUAGE LambdaCase #-}
-- | A tiny expression evaluator, to exercise the Haskell grammar.
module Main (main, Expr (..), eval) where

import Control.Monad (forM_, unless, when)
import Data.Char (isDigit, isSpace)
import qualified Data.Map.Strict as Map
import Data.Maybe (fromMaybe)

-- | Arithmetic expressions over named variables.
data Expr
  = Num Double
  | Var String
  | Add Expr Expr
  | Mul Expr Expr
  | Neg Expr
  | Let String Expr Expr
  deriving (Show, Eq)

newtype Env = Env (Map.Map String Double)

data EvalError = Unbound String | DivByZero
  deriving (Show)

class Pretty a where
  pretty :: a -> String
  prettyList :: [a] -> String
  prettyList xs = unwords (map pretty xs)

instance Pretty Expr where
  pretty = \case
    Num n -> show n
    Var v -> v
    Add a b -> "(" ++ pretty a ++ " + " ++ pretty b ++ ")"
    Mul a b -> pretty a ++ " * " ++ pretty b
    Neg e -> "-" ++ pretty e
    Let v e b -> "let " ++ v ++ " = " ++ pretty e ++ " in " ++ pretty b

greeting :: String
greeting = "Grüße — こんにちは — λ"

emptyEnv :: Env
emptyEnv = Env Map.empty

eval :: Env -> Expr -> Either EvalError Double
eval _ (Num n) = Right n
eval (Env m) (Var v) = maybe (Left (Unbound v)) Right (Map.lookup v m)
eval env (Add a b) = (+) <$> eval env a <*> eval env b
eval env (Mul a b) = do
  x <- eval env a
  y <- eval env b
  pure (x * y)
eval env (Neg e) = negate <$> eval env e
eval env@(Env m) (Let v e body) = do
  x <- eval env e
  eval (Env (Map.insert v x m)) body

-- | Splits input into tokens.
tokenize :: String -> [String]
tokenize [] = []
tokenize s@(c : cs)
  | isSpace c = tokenize cs
  | isDigit c = let (num, rest) = span isDigit s in num : tokenize rest
  | c `elem` "+*-()" = [c] : tokenize cs
  | otherwise = let (word, rest) = break isSpace s in word : tokenize rest

simplify :: Expr -> Expr
simplify expr = case expr of
  Add (Num 0) e -> simplify e
  Add e (Num 0) -> simplify e
  Mul (Num 1) e -> simplify e
  Mul _ (Num 0) -> Num 0
  Add a b -> Add (simplify a) (simplify b)
  Mul a b -> Mul (simplify a) (simplify b)
  other -> other

size :: Expr -> Int
size = go 0
  where
    go acc (Add a b) = go (go (acc + 1) a) b
    go acc (Mul a b) = go (go (acc + 1) a) b
    go acc (Neg e) = go (acc + 1) e
    go acc (Let _ e b) = go (go (acc + 1) e) b
    go acc _ = acc + 1

main :: IO ()
main = do
  putStrLn greeting
  let exprs =
        [ Add (Num 1) (Mul (Num 2) (Var "x"))
        , Let "y" (Num 3) (Mul (Var "y") (Var "y"))
        , Neg (Var "unbekannt")
        ]
      env = Env (Map.fromList [("x", 10)])
  forM_ (zip [1 :: Int ..] exprs) $ \(i, e) -> do
    let result = either (("error: " ++) . show) show (eval env e)
    putStrLn (show i ++ ". " ++ pretty (simplify e) ++ " => " ++ result)
    when (size e > 4) $ putStrLn "  (large)"
  let toks = tokenize "12 + x * (3 - y)"
  unless (null toks) $ print toks
  print (fromMaybe 0 (Map.lookup "x" (Map.fromList [("x", 1 :: Int)])))
