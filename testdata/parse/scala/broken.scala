object Broken {
  def f(x: Int = {
    x +
  }
  val y: = 3
