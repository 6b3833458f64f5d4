package index_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/loupe-dev/loupe/index"
)

// Build indexes a repository's packages and symbols; Open reads the index
// (read-only) as the ten project-index tools do.
func Example() {
	repo, err := os.MkdirTemp("", "loupe-index-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(repo)
	files := map[string]string{
		"go.mod":         "module example.com/shop\n\ngo 1.22\n\nrequire github.com/google/uuid v1.6.0\n",
		"cart/cart.go":   "package cart\n\n// Total sums the prices.\nfunc Total(prices []int) int {\n\tsum := 0\n\tfor _, p := range prices {\n\t\tsum += p\n\t}\n\treturn sum\n}\n",
		"cart/coupon.go": "package cart\n\ntype Coupon struct{ Percent int }\n\nfunc (c Coupon) Apply(total int) int { return total * (100 - c.Percent) / 100 }\n",
	}
	for name, src := range files {
		p := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	ctx := context.Background()
	st, err := index.Build(ctx, index.Options{Root: repo})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("files:", st.Files)

	db, err := index.Open(index.DefaultPath(repo))
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	deps, err := db.Dependencies(ctx, "example.com/shop", false)
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range deps {
		fmt.Println("dependency:", d.Name, d.Version, d.Kind)
	}
	syms, err := db.SearchSymbols(ctx, "Apply", "", "")
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range syms {
		fmt.Printf("%s %s %s:%d %s\n", s.Kind, s.Name, s.FilePath, s.Line, s.Signature)
	}
	// Output:
	// files: 2
	// dependency: github.com/google/uuid v1.6.0 runtime
	// method Apply cart/coupon.go:5 func (c Coupon) Apply(total int) int
}
