// A tiny shopping cart, to exercise the Scala grammar.
package example.shop

import scala.collection.mutable
import scala.concurrent.{ExecutionContext, Future}
import scala.util.{Failure, Success, Try}

sealed trait Money {
  def cents: Long
  def +(other: Money): Money = Money(cents + other.cents)
}

object Money {
  private final case class Impl(cents: Long) extends Money
  def apply(cents: Long): Money = Impl(cents)
  val zero: Money = Money(0)
  implicit val ordering: Ordering[Money] = Ordering.by(_.cents)
}

case class Product(sku: String, name: String, price: Money)

case class Line(product: Product, quantity: Int) {
  require(quantity > 0, s"quantity must be positive, got $quantity")
  def total: Money = Money(product.price.cents * quantity)
}

abstract class Discount(val label: String) {
  def apply(total: Money): Money
}

class Percent(pct: Int) extends Discount(s"$pct%") {
  override def apply(total: Money): Money = Money(total.cents * (100 - pct) / 100)
}

trait Observable[E] {
  private val listeners = mutable.ListBuffer.empty[E => Unit]
  def subscribe(f: E => Unit): Unit = listeners += f
  protected def publish(e: E): Unit = listeners.foreach(_(e))
}

class Cart extends Observable[String] {
  private val lines = mutable.LinkedHashMap.empty[String, Line]
  var größe: Int = 0

  def add(p: Product, qty: Int = 1): this.type = {
    val line = lines.get(p.sku) match {
      case Some(existing) => existing.copy(quantity = existing.quantity + qty)
      case None           => Line(p, qty)
    }
    lines.update(p.sku, line)
    größe = lines.size
    publish(s"added ${p.name} × $qty")
    this
  }

  def total(discounts: Discount*): Money = {
    val gross = lines.values.map(_.total).foldLeft(Money.zero)(_ + _)
    discounts.foldLeft(gross)((acc, d) => d(acc))
  }

  def cheapest: Option[Product] =
    if (lines.isEmpty) None else Some(lines.values.map(_.product).minBy(_.price))

  def checkout()(implicit ec: ExecutionContext): Future[String] = Future {
    if (lines.isEmpty) throw new IllegalStateException("empty cart")
    f"paid ${total().cents / 100.0}%.2f EUR"
  }
}

object Main extends App {
  import scala.concurrent.ExecutionContext.Implicits.global

  val greeting = "Grüße — こんにちは — 🛒"
  val apple = Product("A1", "Äpfel", Money(299))
  val bread = Product("B2", "Brot", Money(450))

  val cart = new Cart
  cart.subscribe(msg => println(s"event: $msg"))
  cart.add(apple, 3).add(bread)

  val names = for {
    p <- List(apple, bread)
    if p.price.cents > 300
  } yield p.name.toUpperCase

  val parsed = Try("42".toInt) match {
    case Success(n) if n > 0 => n
    case Success(_)          => 0
    case Failure(e)          => println(e.getMessage); -1
  }

  cart.checkout().onComplete {
    case Success(receipt) => println(receipt)
    case Failure(err)     => println(s"failed: ${err.getMessage}")
  }

  val pairs = (1 to 5).zip("abcde").toMap
  val total = cart.total(new Percent(10))
  println(s"$greeting ${names.mkString(",")} $parsed ${total.cents} ${cart.cheapest.map(_.name).getOrElse("-")}")
  println(pairs.collect { case (k, v) if k % 2 == 1 => s"$k=$v" }.mkString(" "))
  val tuple: (Int, String) = (1, """raw "multi" line""")
  lazy val big = BigInt(2).pow(100)
  println(tuple._2 + big + 'x' + 1.5e3 + 0xFF)
}
