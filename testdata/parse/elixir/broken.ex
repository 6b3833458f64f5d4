defmodule Broken do
  def f(x do
    x +
  end

  def g(, do: :ok
