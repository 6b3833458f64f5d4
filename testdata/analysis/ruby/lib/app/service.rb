require_relative 'registry'
require_relative 'util/log'
require 'json'

module App
  class Service
    def create_registry
      ToolRegistry.new
    end

    def init(tool)
      @tool_registry = create_registry()
      @tool_registry.register(tool)
      Util::Log.log("ready")
    end

    def reset
      again = -> { create_registry() }
      again.call
    end
  end
end
