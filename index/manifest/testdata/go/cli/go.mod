module example.com/shop/cli

go 1.22.3

toolchain go1.22.4

require (
	example.com/shop/api v0.0.0
	github.com/spf13/cobra v1.8.0
)

replace example.com/shop/api => ../api
