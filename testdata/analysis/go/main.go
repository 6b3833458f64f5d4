package main

import "example.com/fixture/service"

func main() {
	s := &service.Service{}
	s.Init("a")
	ping(3)
	s.Builder().With("x").Build()
}

func ping(n int) {
	if n > 0 {
		pong(n - 1)
	}
}

// pong calls ping(n): "ping()" here is not a call.
func pong(n int) { ping(n) }
