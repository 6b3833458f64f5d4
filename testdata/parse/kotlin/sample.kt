// A small inventory service, to exercise the Kotlin grammar.
package org.example.inventory

import kotlin.math.max
import kotlinx.coroutines.*

/** Something that can be stored. */
interface Storable {
    val id: String
    fun describe(): String = "item $id"
}

enum class Unit(val symbol: String) {
    PIECE("Stk"),
    KILOGRAM("kg"),
    LITRE("l");

    override fun toString() = symbol
}

data class Item(
    override val id: String,
    val name: String,
    val quantity: Int = 0,
    val unit: Unit = Unit.PIECE,
) : Storable {
    override fun describe() = "$name: $quantity $unit"
}

sealed class Event {
    data class Added(val item: Item) : Event()
    data class Removed(val id: String, val reason: String?) : Event()
    object Cleared : Event()
}

class Inventory(private val capacity: Int = 100) : Iterable<Item> {
    private val items = mutableMapOf<String, Item>()
    private val listeners = mutableListOf<(Event) -> Unit>()
    var größe: Int = 0
        private set

    val total: Int
        get() = items.values.sumOf { it.quantity }

    fun onEvent(listener: (Event) -> Unit) {
        listeners += listener
    }

    fun add(item: Item): Boolean {
        if (items.size >= capacity) return false
        items[item.id] = item
        größe = max(größe, items.size)
        emit(Event.Added(item))
        return true
    }

    fun remove(id: String, reason: String? = null): Item? =
        items.remove(id)?.also { emit(Event.Removed(it.id, reason)) }

    private fun emit(event: Event) = listeners.forEach { it(event) }

    override fun iterator(): Iterator<Item> = items.values.iterator()

    companion object {
        const val GREETING = "Grüß Gott — 你好 — 📦"

        fun of(vararg items: Item) = Inventory().apply { items.forEach { add(it) } }
    }
}

fun describe(event: Event): String = when (event) {
    is Event.Added -> "added ${event.item.describe()}"
    is Event.Removed -> "removed ${event.id} (${event.reason ?: "no reason"})"
    Event.Cleared -> "cleared"
}

inline fun <reified T> Iterable<*>.countOf(): Int = count { it is T }

suspend fun restock(inventory: Inventory, ids: List<String>): List<Item> = coroutineScope {
    ids.map { id ->
        async {
            delay(10L)
            Item(id, "Nachschub $id", quantity = 5)
        }
    }.awaitAll().filter { inventory.add(it) }
}

fun main(args: Array<String>) = runBlocking {
    val inventory = Inventory.of(
        Item("a1", "Äpfel", 12, Unit.KILOGRAM),
        Item("b2", "Brot"),
    )
    inventory.onEvent { println(describe(it)) }
    val restocked = restock(inventory, listOf("c3", "d4"))
    for ((index, item) in inventory.withIndex()) {
        println("${index + 1}. ${item.describe()}")
    }
    val heavy = inventory.filter { it.unit == Unit.KILOGRAM }.map(Item::name)
    val label = if (heavy.isEmpty()) "none" else heavy.joinToString(", ")
    println("${Inventory.GREETING} $label ${restocked.size} ${inventory.countOf<Item>()}")
    inventory.remove("b2", reason = "verkauft")
    val range = 1..10 step 2
    try {
        check(range.first == 1) { "unexpected" }
    } catch (e: IllegalStateException) {
        println(e.message)
    } finally {
        println("total: ${inventory.total}, größe: ${inventory.größe}")
    }
}
