package wire

import (
	"io"

	"github.com/loupe-dev/loupe/core/rule"
)

// SARIFVersion is the version of SARIF that SARIFWriter writes.
const SARIFVersion = "2.1.0"

// SARIFResult is one finding as a SARIF 2.1.0 result, with the fields
// ast-grep's `scan --format sarif` gives it: the rule, the level, the
// message, one location and, for a rule with a fix, the fix.
type SARIFResult struct {
	RuleID  string
	Level   string // error, warning or note (info and hint), none (off)
	Message string
	URI     string // the file's path as printed
	Region  SARIFRegion
	Fix     *SARIFFix // nil when the rule has no fix
}

// SARIFRegion is a SARIF region: 1-based lines and character columns
// (the end column just past the last character), the byte offset and
// length, and the text it covers.
type SARIFRegion struct {
	// HasLines says whether the line and column fields are set: a fix
	// whose range was expanded beyond the matched node (expandStart,
	// expandEnd) has bytes only, as in ast-grep.
	HasLines                                   bool
	StartLine, StartColumn, EndLine, EndColumn int
	ByteOffset, ByteLength                     int
	Snippet                                    *string
}

// SARIFFix is a finding's fix: the region it deletes and the text it
// inserts there.
type SARIFFix struct {
	Deleted  SARIFRegion
	Inserted string
}

// SARIFLevel is the SARIF level of a rule severity.
func SARIFLevel(s rule.Severity) string {
	switch s {
	case rule.SeverityError:
		return "error"
	case rule.SeverityWarning:
		return "warning"
	case rule.SeverityOff:
		return "none"
	}
	return "note"
}

// NewSARIFResult describes finding f in the file printed as path, with
// the first fix of its rule when it has one.
func NewSARIFResult(path string, f rule.Finding) SARIFResult {
	c, n := f.Config, f.Node
	r := NodeRange(n)
	text := n.Text()
	region := SARIFRegion{
		HasLines:  true,
		StartLine: r.Start.Line + 1, StartColumn: r.Start.Column + 1,
		EndLine: r.End.Line + 1, EndColumn: r.End.Column + 1,
		ByteOffset: r.ByteOffset.Start, ByteLength: r.ByteOffset.End - r.ByteOffset.Start,
		Snippet: &text,
	}
	res := SARIFResult{
		RuleID:  c.ID,
		Level:   SARIFLevel(c.Severity),
		Message: c.RenderMessage(n, f.Env),
		URI:     path,
		Region:  region,
	}
	if len(c.Fixes) > 0 {
		e := c.Fixes[0].Edit(n, f.Env)
		deleted := SARIFRegion{ByteOffset: e.Start, ByteLength: e.End - e.Start}
		if e.Start == r.ByteOffset.Start && e.End == r.ByteOffset.End {
			deleted = region
			deleted.Snippet = nil
		}
		res.Fix = &SARIFFix{Deleted: deleted, Inserted: string(e.Text)}
	}
	return res
}

// resultDepth is the nesting of a result in the log: the log object,
// runs, the run, results.
const resultDepth = 4

// Encode renders r as an element of the log's results array, pretty
// printed at its depth there, keys in the order serde-sarif writes them.
func (r *SARIFResult) Encode() string {
	e := newEncoder(Pretty)
	e.depth = resultDepth
	e.open('{')
	if r.Fix != nil {
		e.key("fixes")
		e.open('[')
		e.item()
		e.open('{')
		e.key("artifactChanges")
		e.open('[')
		e.item()
		e.open('{')
		e.key("artifactLocation")
		e.sarifLocation(r.URI)
		e.key("replacements")
		e.open('[')
		e.item()
		e.open('{')
		e.key("deletedRegion")
		e.sarifRegion(r.Fix.Deleted)
		e.key("insertedContent")
		e.sarifText(r.Fix.Inserted)
		e.close('}')
		e.close(']')
		e.close('}')
		e.close(']')
		e.key("description")
		e.sarifText("Apply suggested fix")
		e.close('}')
		e.close(']')
	}
	e.key("level")
	e.str(r.Level)
	e.key("locations")
	e.open('[')
	e.item()
	e.open('{')
	e.key("physicalLocation")
	e.open('{')
	e.key("artifactLocation")
	e.sarifLocation(r.URI)
	e.key("region")
	e.sarifRegion(r.Region)
	e.close('}')
	e.close('}')
	e.close(']')
	e.key("message")
	e.sarifText(r.Message)
	e.key("ruleId")
	e.str(r.RuleID)
	e.close('}')
	return e.b.String()
}

func (e *encoder) sarifLocation(uri string) {
	e.open('{')
	e.key("uri")
	e.str(uri)
	e.close('}')
}

// sarifText writes a message or artifact content: {"text": s}.
func (e *encoder) sarifText(s string) {
	e.open('{')
	e.key("text")
	e.str(s)
	e.close('}')
}

func (e *encoder) sarifRegion(r SARIFRegion) {
	e.open('{')
	e.key("byteLength")
	e.int(r.ByteLength)
	e.key("byteOffset")
	e.int(r.ByteOffset)
	if r.HasLines {
		e.key("endColumn")
		e.int(r.EndColumn)
		e.key("endLine")
		e.int(r.EndLine)
	}
	if r.Snippet != nil {
		e.key("snippet")
		e.sarifText(*r.Snippet)
	}
	if r.HasLines {
		e.key("startColumn")
		e.int(r.StartColumn)
		e.key("startLine")
		e.int(r.StartLine)
	}
	e.close('}')
}

// SARIFWriter writes one SARIF 2.1.0 log with one run, as ast-grep's
// `scan --format sarif` prints it: serde_json's pretty printing, keys in
// alphabetical order, the results in the order written. Results may be
// encoded on several goroutines and written in order from one.
type SARIFWriter struct {
	w                   io.Writer
	toolName, toolVer   string
	written, headerDone bool
}

// NewSARIFWriter starts a log on w whose run was made by the tool named
// name, at version.
func NewSARIFWriter(w io.Writer, name, version string) *SARIFWriter {
	return &SARIFWriter{w: w, toolName: name, toolVer: version}
}

func (s *SARIFWriter) header() {
	if !s.headerDone {
		io.WriteString(s.w, "{\n  \"runs\": [\n    {\n      \"results\": [")
		s.headerDone = true
	}
}

// Write writes one result that SARIFResult.Encode rendered.
func (s *SARIFWriter) Write(result string) {
	s.header()
	if s.written {
		io.WriteString(s.w, ",")
	}
	io.WriteString(s.w, "\n        ")
	io.WriteString(s.w, result)
	s.written = true
}

// Close ends the log: the tool that made the run and the SARIF version.
func (s *SARIFWriter) Close() {
	s.header()
	if s.written {
		io.WriteString(s.w, "\n      ")
	}
	e := newEncoder(Pretty)
	e.depth = 3
	e.open('{')
	e.key("driver")
	e.open('{')
	e.key("name")
	e.str(s.toolName)
	e.key("version")
	e.str(s.toolVer)
	e.close('}')
	e.close('}')
	io.WriteString(s.w, "],\n      \"tool\": "+e.b.String()+"\n    }\n  ],\n  \"version\": \""+SARIFVersion+"\"\n}\n")
}
