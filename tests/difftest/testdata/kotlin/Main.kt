package demo

import kotlin.math.max

data class Point(val x: Int, val y: Int) {
    operator fun plus(o: Point) = Point(x + o.x, y + o.y)
}

interface Shape {
    fun area(): Double
}

class Square(private val side: Double) : Shape {
    override fun area(): Double = side * side
}

object Registry {
    private val shapes = mutableListOf<Shape>()

    fun add(s: Shape) {
        shapes.add(s)
    }

    fun total(): Double {
        var t = 0.0
        for (s in shapes) {
            t += s.area()
        }
        return t
    }
}

fun largest(xs: List<Int>): Int {
    var best = Int.MIN_VALUE
    for (x in xs) {
        best = max(best, x)
    }
    return best
}

fun describe(n: Int): String = when {
    n < 0 -> "negative"
    n == 0 -> "zero"
    else -> "positive"
}

fun main(args: Array<String>) {
    val p = Point(1, 2) + Point(3, 4)
    println(p)
    Registry.add(Square(2.0))
    println(Registry.total())
    val xs = listOf(3, 1, 2).map { it * 2 }.filter { it > 2 }
    println(largest(xs))
    if (xs.isEmpty()) {
        println("empty")
    } else {
        println(describe(xs.size))
    }
    val name: String? = null
    println(name ?: "anon")
}
