package project

import (
	"fmt"
	"regexp"

	"github.com/loupe-dev/loupe/core/rule"
)

// Severities are the --error/--warning/--info/--hint/--off overrides: a
// severity for listed rule ids, or for every rule when All is set.
type Severities struct {
	ByID map[string]rule.Severity
	All  rule.Severity // "" when unset
}

// For returns the override for rule id, "" when there is none.
func (s Severities) For(id string) rule.Severity {
	if v, ok := s.ByID[id]; ok {
		return v
	}
	return s.All
}

// Selection picks the rules of a scan.
type Selection struct {
	// Filter keeps the rules whose ids match it (nil keeps all); a filter
	// that keeps none is an error.
	Filter *regexp.Regexp
	// Severities override the rules' severities (and the severity of the
	// unused-suppression report, by its id).
	Severities Severities
	// MinSeverity drops the rules below it.
	MinSeverity rule.Severity
}

var severityRank = map[rule.Severity]int{
	"": 0, rule.SeverityOff: 0, rule.SeverityHint: 1, rule.SeverityInfo: 2, rule.SeverityWarning: 3, rule.SeverityError: 4,
}

// Select returns the configs sel keeps, with their severities
// overridden; rules whose severity is off are dropped.
func Select(cfgs []*rule.Config, sel Selection) ([]*rule.Config, error) {
	if sel.Filter != nil {
		var keep []*rule.Config
		for _, c := range cfgs {
			if sel.Filter.MatchString(c.ID) {
				keep = append(keep, c)
			}
		}
		if len(keep) == 0 {
			return nil, fmt.Errorf("no rule matches the filter %q", sel.Filter)
		}
		cfgs = keep
	}
	var keep []*rule.Config
	for _, c := range cfgs {
		if s := sel.Severities.For(c.ID); s != "" {
			c.Severity = s
		}
		if c.Severity != rule.SeverityOff && severityRank[c.Severity] >= severityRank[sel.MinSeverity] {
			keep = append(keep, c)
		}
	}
	return keep, nil
}
