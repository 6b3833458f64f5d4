package com.example.registry

interface Named {
    fun name(): String
}

interface Registry : Named {
    fun register(tool: String)
}

abstract class BaseRegistry {
    protected val items = mutableListOf<String>()
}

open class ToolRegistry : BaseRegistry(), Registry {
    override fun register(tool: String) {
        items.add(tool)
    }

    override fun name(): String = "tools"

    private fun count(): Int = items.size
}

class SpecialRegistry : ToolRegistry()

internal const val VERSION = "1.0"
