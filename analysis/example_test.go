package analysis_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/loupe-dev/loupe/analysis"
)

// Who calls a function, two levels up: callers of callers.
func ExampleTool_Run() {
	dir, err := os.MkdirTemp("", "loupe-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	src := `package shop

func total(prices []int) int {
	sum := 0
	for _, p := range prices {
		sum += p
	}
	return sum
}

func checkout(prices []int) int { return total(prices) }

func main() { checkout([]int{1, 2}) }
`
	if err := os.WriteFile(filepath.Join(dir, "shop.go"), []byte(src), 0o644); err != nil {
		log.Fatal(err)
	}

	tool, err := analysis.New(analysis.Config{Workspace: dir})
	if err != nil {
		log.Fatal(err)
	}
	res, err := tool.Run(context.Background(), analysis.Params{Mode: analysis.ModeCallers, Language: "go", Symbol: "total", Depth: 2})
	if err != nil {
		log.Fatal(err)
	}
	var show func(nodes []analysis.CallNode, indent string)
	show = func(nodes []analysis.CallNode, indent string) {
		for _, n := range nodes {
			fmt.Printf("%s%s calls it at %s:%d: %s\n", indent, n.Name, n.File, n.ViaLine, n.Via)
			show(n.Children, indent+"  ")
		}
	}
	show(res.Callers, "")
	// Output:
	// checkout calls it at shop.go:11: func checkout(prices []int) int { return total(prices) }
	//   main calls it at shop.go:13: func main() { checkout([]int{1, 2}) }
}
