module App
  module Util
    class Log
      def self.log(msg)
        puts(msg)
      end
    end
  end
end
