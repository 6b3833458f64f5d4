package outline

// markdownDefs make each heading (ATX `# Title` or setext, underlined) a
// module item named by its text.
var markdownDefs = []def{
	{id: "markdown-atx-heading", symbol: "module", nameField: "heading_content",
		rule: "rule:\n  kind: atx_heading\n  has: {field: heading_content, kind: inline}\n"},
	{id: "markdown-setext-heading", symbol: "module", nameField: "heading_content",
		rule: "rule:\n  kind: setext_heading\n  has: {field: heading_content, kind: paragraph}\n"},
}
