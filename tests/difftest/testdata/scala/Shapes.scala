package shapes

import scala.collection.mutable

sealed trait Shape {
  def area: Double
}

case class Circle(r: Double) extends Shape {
  def area: Double = math.Pi * r * r
}

case class Rect(w: Double, h: Double) extends Shape {
  def area: Double = w * h
}

object Shapes {
  def describe(s: Shape): String = s match {
    case Circle(r) => s"circle $r"
    case Rect(w, h) if w == h => s"square $w"
    case Rect(w, h) => s"rect $w x $h"
  }

  def total(xs: Seq[Shape]): Double = xs.map(_.area).sum

  def main(args: Array[String]): Unit = {
    val all = List(Circle(1), Rect(2, 3), Rect(2, 2))
    val seen = mutable.Set[String]()
    for (s <- all) {
      println(describe(s))
      seen += describe(s)
    }
    if (total(all) > 10) {
      println("big")
    } else {
      println("small")
    }
    val big = all.filter(_.area > 3).map(describe)
    println(big.mkString(", "))
  }
}
