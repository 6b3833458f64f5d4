require 'app/service'

def main
  s = App::Service.new
  s.init("a")
  ping(3)
  s.builder().with("x").build()
end

def ping(n)
  pong(n - 1) if n > 0
end

# ping(n) in a comment is not a call
def pong(n)
  ping(n)
end

main()
