module App
  module Named
    def name
      "tools"
    end
  end

  class BaseRegistry
    def items
      @items ||= []
    end
  end

  class ToolRegistry < BaseRegistry
    include Named

    def register(tool)
      items.push(tool)
    end

    def self.build
      new
    end
  end

  class SpecialRegistry < App::ToolRegistry
  end
end
