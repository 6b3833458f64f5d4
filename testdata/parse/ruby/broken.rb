class Broken
  def f(a, b
    a +
  end

  def g
    [1, 2,
