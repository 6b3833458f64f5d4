package com.example.service

import com.example.registry.ToolRegistry
import com.example.util.*
import com.example.util.Log as Logger

fun createRegistry(): ToolRegistry = ToolRegistry()

class Service {
    private var toolRegistry: ToolRegistry? = null

    fun init(tool: String) {
        this.toolRegistry = createRegistry()
        toolRegistry?.register(tool)
        Logger.log("ready")
    }

    val reset = { createRegistry() }
}
