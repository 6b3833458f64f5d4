package toolspec

import (
	"fmt"
	"strings"
)

// Prompt formats tools for an agent's system prompt, grouped by category
// in the order of Categories (then any other category, in the order its
// first tool comes): a heading and the description of each category that
// has tools, then for each tool its name and title, summary, custom
// prompt (Info.CustomPrompt), permissions and approval, and its
// termination guidance. The text is Markdown.
func Prompt(tools []Info) string {
	order := append([]Category(nil), Categories...)
	byCategory := map[string][]Info{}
	for _, t := range tools {
		if _, ok := byCategory[t.Category.Name]; !ok && !known(t.Category) {
			order = append(order, t.Category)
		}
		byCategory[t.Category.Name] = append(byCategory[t.Category.Name], t)
	}
	var b strings.Builder
	for _, c := range order {
		ts := byCategory[c.Name]
		if len(ts) == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "## %s\n%s\n", c.Name, c.Description)
		for _, t := range ts {
			fmt.Fprintf(&b, "\n### %s: %s\n%s\n%s", t.Name, t.Title, t.Summary, t.CustomPrompt())
			approval := "not needed"
			if t.RequiresApproval {
				approval = "asked before a call writes"
			}
			fmt.Fprintf(&b, "Permissions: %s. Approval: %s.\n", t.Permissions, approval)
			fmt.Fprintf(&b, "When to stop: %s\n", t.Termination)
		}
	}
	return b.String()
}

func known(c Category) bool {
	for _, k := range Categories {
		if k.Name == c.Name {
			return true
		}
	}
	return false
}

// CustomPrompt is the tool's own prompt: its guide (common uses, the
// options that matter), then its example calls with their JSON
// parameters, one a line.
func (i *Info) CustomPrompt() string {
	var b strings.Builder
	if i.Guide != "" {
		b.WriteString(i.Guide + "\n")
	}
	if len(i.Examples) > 0 {
		b.WriteString("Examples:\n")
		for _, e := range i.Examples {
			fmt.Fprintf(&b, "- %s: `%s`\n", e.Use, e.Params)
		}
	}
	return b.String()
}
