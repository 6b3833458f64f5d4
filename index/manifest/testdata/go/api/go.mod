module example.com/shop/api

go 1.22

require google.golang.org/grpc v1.64.0

require golang.org/x/net v0.25.0 // indirect
