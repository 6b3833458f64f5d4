package rule_test

import (
	"context"
	"fmt"
	"log"

	"github.com/loupe-dev/loupe/core/rule"
)

// Compile an ast-grep YAML rule and scan a parsed file with it, the way
// `loupe scan` does for each file.
func ExampleScanner_Scan() {
	ctx := context.Background()
	configs, err := rule.ParseConfigs(ctx, []byte(`
id: no-console-log
language: typescript
severity: warning
message: console.log of $MSG left in
rule:
  pattern: console.log($MSG)
  inside:
    kind: method_definition
    stopBy: end
`), rule.Options{})
	if err != nil {
		log.Fatal(err)
	}
	src := `console.log("top level, not in a method");
class Cart {
  add(item: Item) {
    console.log(item);
    this.items.push(item);
  }
}
`
	t, err := configs[0].Language.Parse(ctx, []byte(src))
	if err != nil {
		log.Fatal(err)
	}
	findings, err := rule.NewScanner(configs).Scan(ctx, t)
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range findings {
		fmt.Printf("%d: %s (%s, %s): %s\n", f.Node.StartPoint().Row+1, f.Node.Text(),
			f.Config.ID, f.Config.Severity, f.Config.RenderMessage(f.Node, f.Env))
	}
	// Output:
	// 4: console.log(item) (no-console-log, warning): console.log of item left in
}
