package manifest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Gradle's build scripts are programs (Groovy or Kotlin); loupe does not
// run them. It reads the declarations nearly every build writes
// literally, token by token: in settings, rootProject.name, include
// (with or without parentheses, several paths each) and
// project(':x').projectDir = file('dir'); in a build script, the
// top-level group, version and description assignments and the top-level
// dependencies block, one declaration per statement: a configuration
// name and a 'group:name:version' string, a group:/name:/version: map,
// project(':path'), a version-catalog alias (libs.foo), kotlin("x"), any
// of these inside platform(), enforcedPlatform() or testFixtures().
// What is computed (loops, variables, plugins adding dependencies) is
// not seen.

// gtoken is one token of a Groovy or Kotlin script.
type gtoken struct {
	kind byte // 'i' identifier, 's' string, 'n' newline, 'p' punctuation
	text string
}

// gradleTokens splits src into identifiers, string literals (their
// content), newlines and single punctuation characters, dropping
// comments and blanks.
func gradleTokens(src string) ([]gtoken, error) {
	var out []gtoken
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n' || c == ';':
			out = append(out, gtoken{'n', "\n"})
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			i++
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return nil, fmt.Errorf("unterminated comment")
			}
			i += end + 4
		case c == '"' || c == '\'':
			q := string(c)
			if strings.HasPrefix(src[i:], q+q+q) {
				end := strings.Index(src[i+3:], q+q+q)
				if end < 0 {
					return nil, fmt.Errorf("unterminated string")
				}
				out = append(out, gtoken{'s', src[i+3 : i+3+end]})
				i += end + 6
				continue
			}
			var b strings.Builder
			j := i + 1
			for ; j < len(src) && src[j] != c; j++ {
				if src[j] == '\\' && j+1 < len(src) {
					j++
				}
				if src[j] == '\n' {
					return nil, fmt.Errorf("unterminated string")
				}
				b.WriteByte(src[j])
			}
			if j >= len(src) {
				return nil, fmt.Errorf("unterminated string")
			}
			out = append(out, gtoken{'s', b.String()})
			i = j + 1
		case c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80:
			j := i
			for j < len(src) && (src[j] == '_' || src[j] == '$' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= '0' && src[j] <= '9' || src[j] >= 0x80) {
				j++
			}
			out = append(out, gtoken{'i', src[i:j]})
			i = j
		default:
			out = append(out, gtoken{'p', string(c)})
			i++
		}
	}
	return out, nil
}

// gradleSettings is what settings.gradle(.kts) declares.
type gradleSettings struct {
	file, dir string
	rootName  string
	projects  []gradleProject
	// builds are the paths of the builds it includes (a composite
	// build), relative to dir as written.
	builds []string
}

// gradleProject is one included project.
type gradleProject struct {
	path string // Gradle's project path, ":a:b"
	dir  string // its directory relative to the repository root
}

func (s *gradleSettings) workspace() workspace {
	ws := workspace{file: s.file, dir: s.dir, kind: Gradle, rooted: true}
	for _, p := range s.projects {
		ws.members = append(ws.members, p.dir)
	}
	return ws
}

func parseGradleSettings(file, dir string, src []byte) (*gradleSettings, error) {
	toks, err := gradleTokens(string(src))
	if err != nil {
		return nil, fmt.Errorf("settings script: %w", err)
	}
	s := &gradleSettings{file: file, dir: dir}
	custom := map[string]string{} // project path → directory
	var paths []string
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind != 'i' || i > 0 && toks[i-1].text == "." {
			continue
		}
		switch t.text {
		case "pluginManagement":
			if i+1 < len(toks) && toks[i+1].text == "{" {
				i = closing(toks, i+1)
			}
		case "includeBuild":
			// includeBuild("dir"), includeBuild 'dir', either with a
			// configuration closure after it.
			j := i + 1
			if j < len(toks) && toks[j].text == "(" {
				j++
			}
			if j < len(toks) && toks[j].kind == 's' {
				s.builds = append(s.builds, toks[j].text)
			}
		case "rootProject":
			// rootProject.name = 'x'
			if seq(toks[i:], ".", "name", "=") && i+4 < len(toks) && toks[i+4].kind == 's' {
				s.rootName = toks[i+4].text
			}
		case "include":
			j := i + 1
			paren := j < len(toks) && toks[j].text == "("
			if paren {
				j++
			}
			// Inside parentheses the list may span lines and end with a
			// comma (Kotlin's trailing comma).
		list:
			for j < len(toks) {
				switch {
				case toks[j].kind == 's':
					paths = append(paths, toks[j].text)
					j++
				case toks[j].text == ",":
					j++
					for j < len(toks) && toks[j].kind == 'n' {
						j++
					}
				case paren && toks[j].kind == 'n':
					j++
				default:
					break list
				}
			}
			i = j - 1
		case "project":
			// project(':x').projectDir = file('dir') (or new File(settingsDir, 'dir'))
			if i+3 < len(toks) && toks[i+1].text == "(" && toks[i+2].kind == 's' && toks[i+3].text == ")" {
				rest := toks[i+4:]
				if seq(rest, ".", "projectDir", "=") {
					for _, x := range rest[3:min(len(rest), 12)] {
						if x.kind == 's' {
							custom[normGradlePath(toks[i+2].text)] = x.text
							break
						}
						if x.kind == 'n' {
							break
						}
					}
				}
			}
		}
	}
	for _, p := range paths {
		gp := normGradlePath(p)
		d, ok := join(dir, strings.ReplaceAll(strings.TrimPrefix(gp, ":"), ":", "/"))
		if c, has := custom[gp]; has {
			d, ok = join(dir, c)
		}
		if !ok {
			return nil, fmt.Errorf("project %s lies outside the repository", gp)
		}
		s.projects = append(s.projects, gradleProject{path: gp, dir: d})
	}
	return s, nil
}

// normGradlePath spells a project path with its leading colon.
func normGradlePath(p string) string {
	if !strings.HasPrefix(p, ":") {
		return ":" + p
	}
	return p
}

// seq reports whether toks continue with the given texts.
func seq(toks []gtoken, texts ...string) bool {
	if len(toks) < len(texts)+1 {
		return false
	}
	for i, t := range texts {
		if toks[i+1].text != t {
			return false
		}
	}
	return true
}

// gradleProjectDep marks a dependency on a project of the build (its
// Name is the project path until nameGradle resolves it).
const gradleProjectDep = "project"

func parseGradleBuild(file, dir string, src []byte) (parsed, error) {
	toks, err := gradleTokens(string(src))
	if err != nil {
		return parsed{}, fmt.Errorf("build script: %w", err)
	}
	p := Package{Path: dir, Kind: Gradle, Manifest: file, Metadata: map[string]any{}}
	depth := 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.text {
		case "{", "(", "[":
			depth++
			continue
		case "}", ")", "]":
			depth--
			continue
		}
		if depth != 0 || t.kind != 'i' || i > 0 && toks[i-1].text == "." {
			continue
		}
		switch t.text {
		case "group", "version", "description":
			if i+2 < len(toks) && toks[i+1].text == "=" && toks[i+2].kind == 's' {
				switch t.text {
				case "group":
					p.Metadata["group"] = toks[i+2].text
				case "version":
					p.Version = toks[i+2].text
				case "description":
					p.Description = toks[i+2].text
				}
			}
		case "dependencies":
			if i+1 < len(toks) && toks[i+1].text == "{" {
				end := closing(toks, i+1)
				p.Dependencies = append(p.Dependencies, gradleDeps(toks[i+2:end])...)
				i = end
			}
		}
	}
	return parsed{pkgs: []Package{p}}, nil
}

// closing returns the index of the bracket closing the one at open (or
// len(toks) when it is not closed).
func closing(toks []gtoken, open int) int {
	depth := 0
	for i := open; i < len(toks); i++ {
		switch toks[i].text {
		case "{", "(", "[":
			depth++
		case "}", ")", "]":
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return len(toks)
}

// gradleDeps reads the declarations of a dependencies block's body.
func gradleDeps(toks []gtoken) []Dependency {
	var out []Dependency
	for i := 0; i < len(toks); {
		// One statement: up to a newline at depth 0.
		j, depth := i, 0
		for ; j < len(toks); j++ {
			switch toks[j].text {
			case "{", "(", "[":
				depth++
			case "}", ")", "]":
				depth--
			}
			if depth <= 0 && toks[j].kind == 'n' {
				// A trailing comma or an open parenthesis continues it.
				if j > i && toks[j-1].text == "," {
					continue
				}
				break
			}
		}
		stmt := toks[i:j]
		i = j + 1
		if len(stmt) < 2 || stmt[0].kind != 'i' {
			continue
		}
		kind := gradleKind(stmt[0].text)
		args := stmt[1:]
		if args[0].text == "(" {
			args = args[1:closing(stmt, 1)]
		} else if args[0].text == "{" {
			continue
		}
		// Drop a trailing configuration closure.
		for k, a := range args {
			if a.text == "{" {
				args = args[:k]
				break
			}
		}
		if d, ok := gradleDep(args); ok {
			d.Kind = kind
			out = append(out, d)
		}
	}
	return out
}

// gradleKind maps a configuration name to a dependency kind.
func gradleKind(conf string) DepKind {
	lc := strings.ToLower(conf)
	switch {
	case strings.Contains(lc, "test"), lc == "developmentonly":
		return Dev
	case lc == "compileonly", lc == "compileonlyapi", lc == "annotationprocessor", lc == "kapt", lc == "ksp":
		return Build
	}
	return Runtime
}

// gradleDep reads one dependency notation.
func gradleDep(args []gtoken) (Dependency, bool) {
	if len(args) == 0 {
		return Dependency{}, false
	}
	a := args[0]
	switch {
	case a.kind == 's':
		parts := strings.Split(a.text, ":")
		if len(parts) < 2 {
			return Dependency{}, false
		}
		d := Dependency{Name: parts[0] + ":" + parts[1]}
		if len(parts) > 2 {
			d.Version = strings.Join(parts[2:], ":")
		}
		return d, true
	case a.kind != 'i':
		return Dependency{}, false
	}
	inner := func() []gtoken {
		if len(args) > 2 && args[1].text == "(" {
			return args[2:closing(args, 1)]
		}
		return nil
	}
	switch a.text {
	case "platform", "enforcedPlatform", "testFixtures":
		return gradleDep(inner())
	case "project":
		for _, x := range inner() {
			if x.kind == 's' {
				return Dependency{Name: normGradlePath(x.text), Version: gradleProjectDep}, true
			}
		}
		return Dependency{}, false
	case "kotlin":
		in := inner()
		if len(in) > 0 && in[0].kind == 's' {
			d := Dependency{Name: "org.jetbrains.kotlin:kotlin-" + in[0].text}
			for k := 1; k+1 < len(in); k++ {
				if in[k].kind == 's' {
					d.Version = in[k].text
				}
			}
			return d, true
		}
		return Dependency{}, false
	case "group":
		// group: 'g', name: 'a', version: 'v' (or = in Kotlin).
		m := map[string]string{}
		for k := 0; k+2 < len(args); k++ {
			if args[k].kind == 'i' && (args[k+1].text == ":" || args[k+1].text == "=") && args[k+2].kind == 's' {
				m[args[k].text] = args[k+2].text
			}
		}
		if m["name"] == "" {
			return Dependency{}, false
		}
		return Dependency{Name: m["group"] + ":" + m["name"], Version: m["version"]}, true
	case "files", "fileTree", "gradleApi", "localGroovy", "gradleTestKit":
		return Dependency{}, false
	}
	// A version-catalog alias: libs.foo.bar.
	var b strings.Builder
	for k, x := range args {
		if k%2 == 0 && x.kind == 'i' || k%2 == 1 && x.text == "." {
			b.WriteString(x.text)
			continue
		}
		break
	}
	if s := b.String(); strings.Contains(s, ".") {
		return Dependency{Name: s, Version: "catalog"}, true
	}
	return Dependency{}, false
}

// nameGradle names the Gradle packages from their settings: the root
// project by rootProject.name (else its directory), an included project
// by the last element of its path, with its path in gradle_path; it adds
// the included projects that have no build script, and resolves project
// dependencies to the projects' names.
func nameGradle(pkgs []Package, settings map[string]*gradleSettings, rootName string, all map[string]bool) []Package {
	type proj struct {
		name, path string
		s          *gradleSettings
	}
	byDir := map[string]proj{}
	for _, s := range settings {
		root := s.rootName
		if root == "" {
			root = dirName(s.dir, rootName)
		}
		byDir[s.dir] = proj{root, ":", s}
		for _, p := range s.projects {
			byDir[p.dir] = proj{p.path[strings.LastIndexByte(p.path, ':')+1:], p.path, s}
		}
	}
	have := map[string]bool{}
	for i := range pkgs {
		p := &pkgs[i]
		if p.Kind != Gradle {
			continue
		}
		have[p.Path] = true
		if pr, ok := byDir[p.Path]; ok {
			p.Name = pr.name
			p.Metadata["gradle_path"] = pr.path
		}
	}
	for dir, pr := range byDir {
		if !have[dir] && all[dir] {
			pkgs = append(pkgs, Package{Name: pr.name, Path: dir, Kind: Gradle, Manifest: pr.s.file,
				Metadata: map[string]any{"gradle_path": pr.path}})
		}
	}
	// Resolve project(':x') to the name of the project at that path in
	// the same build.
	for i := range pkgs {
		p := &pkgs[i]
		if p.Kind != Gradle {
			continue
		}
		s := byDir[p.Path].s
		for j := range p.Dependencies {
			d := &p.Dependencies[j]
			if d.Version != gradleProjectDep {
				continue
			}
			d.Version = ""
			if s == nil {
				continue
			}
			dir, ok := join(s.dir, strings.ReplaceAll(strings.TrimPrefix(d.Name, ":"), ":", "/"))
			for _, sp := range s.projects {
				if sp.path == d.Name {
					dir, ok = sp.dir, true
				}
			}
			if pr, found := byDir[dir]; ok && found {
				d.Name, d.Internal = pr.name, true
			}
		}
	}
	return pkgs
}

// gradleBuildFiles are the files one of which makes a directory a Gradle
// build.
var gradleBuildFiles = []string{"settings.gradle", "settings.gradle.kts", "build.gradle", "build.gradle.kts"}

// linkIncludedBuilds applies the builds each settings file includes
// (includeBuild, a composite build): Gradle substitutes a dependency's
// group:name coordinates with a project of an included build (or of a
// build that one includes in turn) of that name and, when its build
// script sets one, that group, so such a dependency is marked internal.
// The including build's root project lists them in included_builds;
// an included build that is missing, or lies outside the repository, is
// reported for the settings file.
func linkIncludedBuilds(pkgs []Package, settings map[string]*gradleSettings, dirs map[string]map[string]bool) []Problem {
	var problems []Problem
	buildOf := map[string]string{} // project directory → its build's directory
	for dir, s := range settings {
		buildOf[dir] = dir
		for _, p := range s.projects {
			buildOf[p.dir] = dir
		}
	}
	for _, p := range pkgs {
		if _, ok := buildOf[p.Path]; !ok && p.Kind == Gradle {
			buildOf[p.Path] = p.Path // a build script without settings
		}
	}
	includes := map[string][]string{} // build directory → directories of the builds it includes
	for _, dir := range slices.Sorted(maps.Keys(settings)) {
		s := settings[dir]
		for _, b := range s.builds {
			d, ok := join(dir, b)
			switch {
			case !ok:
				problems = append(problems, Problem{s.file, fmt.Errorf("included build %q leaves the repository", b)})
				continue
			case !slices.ContainsFunc(gradleBuildFiles, func(f string) bool { return dirs[d][f] }):
				problems = append(problems, Problem{s.file, fmt.Errorf("included build %q is missing: no settings.gradle or build.gradle in %s", b, d)})
				continue
			}
			if !slices.Contains(includes[dir], d) {
				includes[dir] = append(includes[dir], d)
			}
		}
	}
	// Each build's included builds, followed transitively.
	composite := func(dir string) map[string]bool {
		seen := map[string]bool{}
		stack := slices.Clone(includes[dir])
		for len(stack) > 0 {
			d := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !seen[d] && d != dir {
				seen[d] = true
				stack = append(stack, includes[d]...)
			}
		}
		return seen
	}
	for i := range pkgs {
		p := &pkgs[i]
		if p.Kind != Gradle {
			continue
		}
		build := buildOf[p.Path]
		if len(includes[build]) == 0 {
			continue
		}
		if p.Path == build {
			p.Metadata["included_builds"] = includes[build]
		}
		in := composite(build)
		for j := range p.Dependencies {
			d := &p.Dependencies[j]
			group, name, ok := strings.Cut(d.Name, ":")
			if !ok || d.Internal {
				continue
			}
			for _, q := range pkgs {
				g, _ := q.Metadata["group"].(string)
				if q.Kind == Gradle && in[buildOf[q.Path]] && q.Name == name && (g == "" || g == group) {
					d.Internal = true
					break
				}
			}
		}
	}
	return problems
}
