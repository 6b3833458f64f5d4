package analysis

import (
	"fmt"
	"strconv"
	"strings"
)

// Text renders the result for an LLM: the call trees with ← and →, file:line
// locations and the via: call-site lines, references grouped by category
// with counts, then notes on truncation.
func (r *Result) Text() string {
	var b strings.Builder
	switch r.Mode {
	case ModeCallers:
		r.textCallers(&b)
	case ModeCallees:
		r.textCallees(&b)
	case ModeDefinitions:
		r.textDefinitions(&b)
	case ModeHierarchy:
		r.textHierarchy(&b)
	case ModeReferences:
		r.textReferences(&b)
	case ModeDependencies:
		r.textDependencies(&b)
	case ModeExports:
		r.textExports(&b)
	}
	r.textFooter(&b)
	return b.String()
}

func loc(file string, line int) string {
	return file + ":" + strconv.Itoa(line)
}

func (r *Result) scopeName() string { return displayPath(r.Path) }

func (r *Result) textCallers(b *strings.Builder) {
	fmt.Fprintf(b, "%s()\n", r.Symbol)
	if len(r.Callers) == 0 {
		fmt.Fprintf(b, "  (no callers found in %s)\n", r.scopeName())
		if c := r.Completeness; c != nil && leftOutNote(c) != "" {
			r.textCompleteness(b, 0, "caller", "callers") // none listed, but calls on untyped values left out
		}
		return
	}
	var walk func(ns []CallNode, indent string)
	walk = func(ns []CallNode, indent string) {
		for _, n := range ns {
			name := n.Name
			if name != callerName {
				name += "()"
			}
			fmt.Fprintf(b, "%s← %s  %s%s%s\n", indent, name, loc(n.File, n.Line), mark(n.Cycle, n.Repeated), confMark(n.Confidence))
			fmt.Fprintf(b, "%s  via: %s\n", indent, n.Via)
			walk(n.Children, indent+"  ")
		}
	}
	if r.Callers[0].Def == "" {
		walk(r.Callers, "  ")
	}
	// A bare name several owners define: each definition's callers under
	// it, then those attributed to none.
	for i := 0; i < len(r.Callers) && r.Callers[0].Def != ""; {
		j := i + 1
		for j < len(r.Callers) && r.Callers[j].Def == r.Callers[i].Def {
			j++
		}
		head := r.Callers[i].Def
		if head == "" {
			head = "not attributed to one definition (name-only)"
		}
		fmt.Fprintf(b, "  %s — %s:\n", head, plural(j-i, "caller", "callers"))
		walk(r.Callers[i:j], "    ")
		i = j
	}
	total, _ := countCalls(r.Callers)
	r.textCompleteness(b, total, "caller", "callers")
}

// defMark names the definition a bare name's reference binds to.
func defMark(def string) string {
	if def == "" {
		return ""
	}
	return "  → " + def
}

// confMark marks a result matched by name only, or reached by dispatch.
func confMark(c string) string {
	switch c {
	case NameOnly:
		return "  [name-only]"
	case Dispatch:
		return "  [dispatch]"
	}
	return ""
}

// countCalls counts the nodes of call trees, and those matched by name
// only.
func countCalls(ns []CallNode) (total, nameOnly int) {
	for _, n := range ns {
		total++
		if n.Confidence == NameOnly {
			nameOnly++
		}
		t, o := countCalls(n.Children)
		total, nameOnly = total+t, nameOnly+o
	}
	return total, nameOnly
}

// textCompleteness says whether the answer is exhaustive, or how many of
// its total results were matched by name only and why. A cut answer's
// footer says so instead.
func (r *Result) textCompleteness(b *strings.Builder, total int, one, many string) {
	c := r.Completeness
	switch {
	case c == nil || r.Truncated:
	case c.Exhaustive:
		fmt.Fprintf(b, "  (exhaustive: no site left unresolved%s)\n", leftOutNote(c))
	default:
		var why []string
		for _, k := range []string{ReasonUntypedReceiver, ReasonUnboundName} {
			if n := c.Reasons[k]; n > 0 {
				why = append(why, plural(n, k, k+"s"))
			}
		}
		b.WriteString("  (not exhaustive: ")
		if c.NameOnly > 0 {
			fmt.Fprintf(b, "%d of %s matched by name only, marked [name-only]: %s", c.NameOnly, plural(total, one, many),
				strings.Join(why, ", "))
			if c.Reasons[ReasonFileNotRead] > 0 {
				b.WriteString("; ")
			}
		}
		if n := c.Reasons[ReasonFileNotRead]; n > 0 {
			fmt.Fprintf(b, "%s not read", plural(n, "file", "files"))
		}
		fmt.Fprintf(b, "%s)\n", leftOutNote(c))
	}
}

// leftOutNote says how many calls on untyped values, and references of
// related members, an answer leaves out.
func leftOutNote(c *Completeness) string {
	var out string
	if c.Untyped > 0 {
		out += "; " + plural(c.Untyped, "call", "calls") + " of the name on untyped values (any) not listed"
	}
	if c.Related > 0 {
		out += "; " + plural(c.Related, "call", "calls") + " through a member it overrides or implements not listed (callers lists them as dispatch)"
	}
	return out
}

func mark(cycle, repeated bool) string {
	switch {
	case cycle:
		return "  (cycle)"
	case repeated:
		return "  (already shown)"
	}
	return ""
}

func (r *Result) textCallees(b *strings.Builder) {
	if len(r.Callees) == 0 {
		fmt.Fprintf(b, "%s()\n  (no function or method named %s in %s)\n", r.Symbol, r.Symbol, r.scopeName())
		return
	}
	var walk func(ns []CallNode, indent string)
	walk = func(ns []CallNode, indent string) {
		for _, n := range ns {
			fmt.Fprintf(b, "%s→ %s  %s%s\n", indent, n.Text, loc(n.File, n.Line), mark(n.Cycle, n.Repeated))
			walk(n.Children, indent+"  ")
		}
	}
	total, nameOnly := 0, 0
	for _, root := range r.Callees {
		fmt.Fprintf(b, "%s()  %s\n", qualified(root.Container, root.Name), loc(root.File, root.Line))
		if len(root.Children) == 0 {
			b.WriteString("  (no calls)\n")
		}
		walk(root.Children, "  ")
		t, o := countCalls(root.Children)
		total, nameOnly = total+t, nameOnly+o
	}
	if nameOnly > 0 {
		fmt.Fprintf(b, "  (%d of %s resolved to their definitions through imports or scope)\n", total-nameOnly,
			plural(total, "call", "calls"))
	}
}

func qualified(container, name string) string {
	if container == "" {
		return name
	}
	return container + "." + name
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func (r *Result) textDefinitions(b *strings.Builder) {
	fmt.Fprintf(b, "%s — %s\n", r.Symbol, plural(len(r.Definitions), "definition", "definitions"))
	if len(r.Definitions) == 0 {
		fmt.Fprintf(b, "  (no definition found in %s)\n", r.scopeName())
	}
	for _, d := range r.Definitions {
		fmt.Fprintf(b, "  %s %s  %s\n    %s\n", d.Kind, qualified(d.Container, d.Name), loc(d.File, d.Line), d.Text)
	}
}

func (r *Result) textHierarchy(b *strings.Builder) {
	h := r.Hierarchy
	if h == nil {
		return
	}
	b.WriteString(r.Symbol)
	if len(h.Definitions) > 0 {
		d := h.Definitions[0]
		fmt.Fprintf(b, "  (%s, %s", d.Kind, loc(d.File, d.Line))
		if len(h.Definitions) > 1 {
			fmt.Fprintf(b, ", +%d more definitions", len(h.Definitions)-1)
		}
		b.WriteString(")")
	}
	b.WriteString("\n")
	var walk func(ns []TypeNode, indent, arrow string)
	walk = func(ns []TypeNode, indent, arrow string) {
		for _, n := range ns {
			where := "not defined in scope"
			if n.File != "" {
				where = loc(n.File, n.Line)
			}
			fmt.Fprintf(b, "%s%s %s  %s  (%s)%s%s\n", indent, arrow, n.Name, where, n.Relation, mark(n.Cycle, n.Repeated), confMark(n.Confidence))
			walk(n.Children, indent+"  ", arrow)
		}
	}
	walk(h.Supertypes, "  ", "→")
	walk(h.Subtypes, "  ", "←")
	fmt.Fprintf(b, "  %s, %s\n", plural(countTypes(h.Supertypes), "supertype", "supertypes"),
		plural(countTypes(h.Subtypes), "subtype", "subtypes"))
}

func countTypes(ns []TypeNode) int {
	n := 0
	for _, x := range ns {
		if !x.Cycle && !x.Repeated {
			n++
		}
		n += countTypes(x.Children)
	}
	return n
}

func (r *Result) textReferences(b *strings.Builder) {
	refs := r.References
	if refs == nil {
		return
	}
	fmt.Fprintf(b, "%s — %s", r.Symbol, plural(refs.Total, "reference", "references"))
	if refs.Total > 0 {
		fmt.Fprintf(b, ": %d resolved, %d name-only", refs.Resolved, refs.NameOnly)
		if h := refs.Total - refs.Resolved - refs.NameOnly; h > 0 {
			fmt.Fprintf(b, ", %d heuristic", h)
		}
	}
	b.WriteString("\n")
	if refs.Total == 0 {
		fmt.Fprintf(b, "  (no references found in %s)\n", r.scopeName())
	}
	for _, c := range refs.Categories {
		if c.Count == 0 {
			continue
		}
		label := fmt.Sprintf("%s (%d)", c.Label, c.Count)
		switch {
		case c.Heuristic:
			_, name := splitQualified(r.Symbol)
			label += fmt.Sprintf(" [heuristic: receiver name contains the words of %q; not counted as resolved]", name)
		case c.NameOnly > 0:
			label = fmt.Sprintf("%s (%d, %d name-only)", c.Label, c.Count, c.NameOnly)
		}
		fmt.Fprintf(b, "  %s:\n", label)
		width := 0
		for _, it := range c.Items {
			width = max(width, len(loc(it.File, it.Line)))
		}
		for _, it := range c.Items {
			fmt.Fprintf(b, "    %-*s  %s%s%s\n", width, loc(it.File, it.Line), it.Text, confMark(it.Confidence), defMark(it.Def))
		}
		if more := c.Count - len(c.Items); more > 0 {
			fmt.Fprintf(b, "    ... %d more\n", more)
		}
	}
	r.textCompleteness(b, refs.Resolved+refs.NameOnly, "reference", "references")
}

func (r *Result) textDependencies(b *strings.Builder) {
	if len(r.Dependencies) == 0 {
		fmt.Fprintf(b, "%s\n  (no %s files)\n", displayPath(r.Target), r.Language)
	}
	for _, fd := range r.Dependencies {
		fmt.Fprintf(b, "%s — %s\n", fd.File, plural(len(fd.Imports), "import", "imports"))
		for _, imp := range fd.Imports {
			fmt.Fprintf(b, "  → %s  %s", imp.Source, imp.Kind)
			if len(imp.Names) > 0 {
				fmt.Fprintf(b, " { %s }", strings.Join(imp.Names, ", "))
			}
			fmt.Fprintf(b, "  :%d", imp.Line)
			if imp.Resolved != "" {
				fmt.Fprintf(b, "  = %s", imp.Resolved)
			}
			b.WriteString("\n")
		}
	}
	if r.ImportedBy == nil {
		return
	}
	fmt.Fprintf(b, "Imported by (%d):\n", len(r.ImportedBy))
	if len(r.ImportedBy) == 0 {
		fmt.Fprintf(b, "  (no file in %s imports %s)\n", r.scopeName(), displayPath(r.Target))
	}
	for _, im := range r.ImportedBy {
		fmt.Fprintf(b, "  ← %s  %s", loc(im.File, im.Line), im.Text)
		if im.Imports != r.Target {
			fmt.Fprintf(b, "  = %s", im.Imports)
		}
		b.WriteString("\n")
	}
}

func (r *Result) textExports(b *strings.Builder) {
	if len(r.Exports) == 0 {
		fmt.Fprintf(b, "%s — 0 exports\n", displayPath(r.Target))
		return
	}
	file := ""
	for i, e := range r.Exports {
		if e.File != file {
			file = e.File
			n := 0
			for _, x := range r.Exports[i:] {
				if x.File == file {
					n++
				}
			}
			fmt.Fprintf(b, "%s — %s\n", file, plural(n, "export", "exports"))
		}
		if e.Kind == e.Name {
			fmt.Fprintf(b, "  %s", e.Kind)
		} else {
			fmt.Fprintf(b, "  %s %s", e.Kind, qualified(e.Container, e.Name))
		}
		if e.Default {
			b.WriteString(" (default)")
		}
		if e.Source != "" {
			fmt.Fprintf(b, " from %q", e.Source)
		}
		if e.Detail != "" {
			fmt.Fprintf(b, " = %s", e.Detail)
		}
		fmt.Fprintf(b, "  :%d\n", e.Line)
	}
}

func (r *Result) textFooter(b *strings.Builder) {
	switch {
	case r.Partial:
		fmt.Fprintf(b, "[partial: stopped by %s; results found so far are shown]\n", r.Reason)
	case r.Truncated:
		b.WriteString("[truncated: maxNodes reached; raise maxNodes or narrow path for more]\n")
	}
	for _, n := range r.Notes {
		fmt.Fprintf(b, "note: %s\n", n)
	}
}
