package rule

import (
	"context"
	"fmt"

	"github.com/loupe-dev/loupe/core/language"
	"github.com/loupe-dev/loupe/core/match"
	"github.com/loupe-dev/loupe/core/tree"
)

// Injection is one entry of an sgconfig.yml's languageInjections, as
// ast-grep reads it: a rule core (rule, constraints, utils, transform)
// over files of a host language whose matches bind $CONTENT, the region
// of injected code, and, for an entry whose injected language is a list
// of candidates, $LANG, the text naming the region's language (a match
// without them injects nothing). It implements language.Injector.
type Injection struct {
	// Host is the language of the files it looks in.
	Host *language.Language
	core *Core
	// static is the injected language of an entry that names one, ""
	// for a list of candidates.
	static string
	langs  []string
}

// ParseInjection compiles one languageInjections entry: hostLanguage,
// injected (a language name, or a list of candidates) and the rule-core
// keys (other keys are ignored, as ast-grep ignores them).
func ParseInjection(ctx context.Context, obj map[string]any) (*Injection, error) {
	hostName, ok := obj["hostLanguage"].(string)
	if !ok {
		return nil, &Error{Msg: "hostLanguage: a language name is required"}
	}
	host, err := language.Lookup(hostName)
	if err != nil {
		return nil, &Error{Path: "hostLanguage", Msg: err.Error()}
	}
	inj := &Injection{Host: host}
	switch v := obj["injected"].(type) {
	case string:
		inj.static, inj.langs = v, []string{v}
	case []any:
		for i, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, &Error{Path: fmt.Sprintf("injected[%d]", i), Msg: "a language name is required"}
			}
			inj.langs = append(inj.langs, s)
		}
	default:
		return nil, &Error{Path: "injected", Msg: "a language name or a list of language names is required"}
	}
	core := map[string]any{}
	for _, k := range coreKeys {
		if v, ok := obj[k]; ok {
			core[k] = v
		}
	}
	if inj.core, err = ParseCore(ctx, host, core, nil); err != nil {
		return nil, err
	}
	return inj, nil
}

// Languages returns the names of the languages the entry injects.
func (inj *Injection) Languages() []string { return inj.langs }

// Regions returns the regions the entry's rule finds in t, a tree of a
// file of Host, in document order of the matches: each match's $CONTENT,
// in the language its $LANG names, else the entry's injected language.
func (inj *Injection) Regions(ctx context.Context, t *tree.Tree) ([]language.Region, error) {
	kinds := inj.core.Kinds()
	budget := match.NewBudget(ctx)
	env := match.NewEnv(budget)
	done := ctx.Done()
	var out []language.Region
	records := t.Nodes()
	for i := range records {
		if i%checkEvery == checkEvery-1 && done != nil {
			select {
			case <-done:
				return nil, fmt.Errorf("languageInjections: %w", ctx.Err())
			default:
			}
		}
		if !kinds.Has(records[i].Symbol) {
			continue
		}
		n := t.Node(i)
		budget.Begin()
		matched := inj.core.Match(n, env)
		if err := budget.Err(); err != nil {
			return nil, fmt.Errorf("languageInjections: rule at line %d: %w", n.StartPoint().Row+1, err)
		}
		if !matched {
			continue
		}
		content, ok := env.Single("CONTENT")
		lang := inj.static
		if l, found := env.Single("LANG"); found {
			lang = l.Text()
		}
		if ok && lang != "" {
			out = append(out, language.Region{Lang: lang, Start: content.StartByte(), End: content.EndByte()})
		}
		env.Reset()
	}
	return out, nil
}
