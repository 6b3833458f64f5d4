package printer

import (
	"fmt"
	"io"
	"strings"

	"github.com/loupe-dev/loupe/core/rule"
)

// GitHub writes findings as GitHub Actions workflow commands, one line
// each, as ast-grep's `scan --format github` does:
//
//	::error file=PATH,line=START,endLine=END,title=RULE-ID::MESSAGE
//
// Severity error is an error, warning a warning and info a notice; a
// hint prints nothing. The message is escaped as a command's data (%,
// CR and LF) and the path and rule id as its properties (also : and ,),
// the way GitHub's toolkit escapes them.
func GitHub(w io.Writer, path string, findings []rule.Finding) {
	for _, f := range findings {
		io.WriteString(w, GitHubLine(path, f))
	}
}

// GitHubLine is one finding's line of GitHub's output ("" for a hint).
func GitHubLine(path string, f rule.Finding) string {
	var level string
	switch f.Config.Severity {
	case rule.SeverityError:
		level = "error"
	case rule.SeverityWarning:
		level = "warning"
	case rule.SeverityInfo:
		level = "notice"
	default:
		return ""
	}
	return fmt.Sprintf("::%s file=%s,line=%d,endLine=%d,title=%s::%s\n", level,
		githubProperty.Replace(path), f.Node.StartPoint().Row+1, f.Node.EndPoint().Row+1,
		githubProperty.Replace(f.Config.ID), githubData.Replace(f.Config.RenderMessage(f.Node, f.Env)))
}

// The escapes of a workflow command's data and of its property values.
var (
	githubData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	githubProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// ByRule returns findings grouped by rule id, ids in order, each group in
// the order given: the order in which Report prints a file's findings,
// and the order of the GitHub and SARIF formats.
func ByRule(findings []rule.Finding) []rule.Finding {
	out := make([]rule.Finding, 0, len(findings))
	for _, g := range byRule(findings) {
		out = append(out, g...)
	}
	return out
}
