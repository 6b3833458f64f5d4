package schema_test

import (
	"encoding/json"
	"fmt"
	"log"

	"github.com/loupe-dev/loupe/tools/schema"
)

// A tool's parameters as a Go struct; its JSON Schema follows from the
// field tags.
func ExampleFor() {
	type Params struct {
		Query string `json:"query" desc:"what to look for"`
		Limit int    `json:"limit,omitempty" min:"1" max:"50" default:"10"`
	}
	b, err := json.MarshalIndent(schema.For(Params{}), "", "  ")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(b))
	// Output:
	// {
	//   "additionalProperties": false,
	//   "properties": {
	//     "limit": {
	//       "default": 10,
	//       "maximum": 50,
	//       "minimum": 1,
	//       "type": "integer"
	//     },
	//     "query": {
	//       "description": "what to look for",
	//       "type": "string"
	//     }
	//   },
	//   "required": [
	//     "query"
	//   ],
	//   "type": "object"
	// }
}
