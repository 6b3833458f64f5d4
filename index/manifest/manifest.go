// Package manifest finds the packages of a repository and their
// dependencies from the manifests of six ecosystems: npm (package.json,
// its workspaces, pnpm-workspace.yaml), Go (go.mod, go.work), Cargo
// (Cargo.toml and its [workspace]), Python (pyproject.toml, PEP 621 and
// Poetry), Maven (pom.xml and its modules) and Gradle (settings.gradle,
// with its included projects and builds, build.gradle and their Kotlin
// forms).
//
// Discover reads the manifests among a list of files (the repository's
// walk) through an fs.FS. A manifest that cannot be read or parsed, a
// workspace member or included build that does not exist and a workspace
// cycle are reported as a Problem of that file; everything else is still
// returned.
package manifest

import (
	"cmp"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// Kind is the ecosystem a package belongs to.
type Kind string

// The kinds of package.
const (
	NPM    Kind = "npm"
	Go     Kind = "go"
	Cargo  Kind = "cargo"
	Python Kind = "python"
	Maven  Kind = "maven"
	Gradle Kind = "gradle"
)

// Kinds lists every kind, in the order packages of one directory are
// listed.
var Kinds = []Kind{NPM, Go, Cargo, Python, Maven, Gradle}

// DepKind says when a dependency is needed.
type DepKind string

// The kinds of dependency.
const (
	Runtime  DepKind = "runtime"
	Dev      DepKind = "dev"
	Peer     DepKind = "peer"
	Build    DepKind = "build"
	Optional DepKind = "optional"
)

// Package is one package of the repository.
type Package struct {
	// Name is the package's name in its ecosystem: an npm, Cargo or
	// Python package name, a Go module path, a Maven groupId:artifactId,
	// a Gradle project name.
	Name string `json:"name"`
	// Path is the directory holding the manifest, relative to the
	// repository root with '/' ("." for the root).
	Path string `json:"path"`
	Kind Kind   `json:"kind"`
	// Version is the declared version, "" when there is none (a Go
	// module) or it is computed at build time.
	Version     string `json:"version"`
	Description string `json:"description"`
	// Metadata holds further facts of the manifest (license, private,
	// the workspace it belongs to, its members, a Go directive, …); the
	// keys depend on the kind.
	Metadata map[string]any `json:"metadata"`
	// Manifest is the manifest file, relative to the repository root.
	Manifest     string       `json:"manifest"`
	Dependencies []Dependency `json:"dependencies"`
}

// Dependency is one declared dependency of a package.
type Dependency struct {
	Name string `json:"name"`
	// Version is the version requirement as written ("^1.2.0",
	// "workspace:*", ">=2,<3", "v0.4.1"); "" when none is given.
	Version string  `json:"version"`
	Kind    DepKind `json:"kind"`
	// Internal: the dependency names another package of the repository
	// (of the same ecosystem).
	Internal bool `json:"is_internal"`
}

// Problem is a manifest Discover could not take in whole.
type Problem struct {
	// File is the manifest, relative to the repository root.
	File string
	Err  error
}

// Error renders the problem as "file: error".
func (p Problem) Error() string { return p.File + ": " + p.Err.Error() }

// Result is what Discover finds.
type Result struct {
	// Packages are sorted by path, then kind.
	Packages []Package
	// Problems are sorted by file.
	Problems []Problem
}

// names are the manifest file names Discover reads.
var names = map[string]bool{
	"package.json": true, "pnpm-workspace.yaml": true, "go.mod": true, "go.work": true,
	"Cargo.toml": true, "pyproject.toml": true, "pom.xml": true,
	"settings.gradle": true, "settings.gradle.kts": true, "build.gradle": true, "build.gradle.kts": true,
}

// IsManifest reports whether the file at rel (slash-separated) is a
// manifest Discover reads.
func IsManifest(rel string) bool { return names[path.Base(rel)] }

// maxManifest bounds the size of a manifest read (a bigger one is
// reported, not parsed).
const maxManifest = 8 << 20

// workspace is a declaration that other directories are members of the
// workspace rooted at dir.
type workspace struct {
	file    string   // the manifest declaring it
	dir     string   // its root directory
	kind    Kind     // the kind of its members
	members []string // member directories or globs, relative to dir
	exclude []string // globs of directories left out, relative to dir
	glob    bool     // members may be globs
	rooted  bool     // members are relative to the repository root, not dir
	// inherit holds what members may take from the workspace (Cargo's
	// [workspace.package] fields and [workspace.dependencies]).
	inherit *cargoInherit
}

// parsed is what one manifest gives.
type parsed struct {
	pkgs       []Package
	workspaces []workspace
}

// Discover reads the manifests among files (slash-separated paths
// relative to the root of fsys, as a walk of the repository lists them)
// and returns the packages they declare, with each dependency marked
// internal when it names another package of the same ecosystem.
// Workspace members are matched against the directories of files.
//
// rootName names the repository's root directory, which Gradle and
// unnamed packages at the root take as their name.
func Discover(fsys fs.FS, rootName string, files []string) *Result {
	res := &Result{}
	dirs := map[string]map[string]bool{} // dir → manifest names in it
	all := map[string]bool{".": true}    // every directory holding a file
	var manifests []string
	for _, f := range files {
		for d := path.Dir(f); d != "." && !all[d]; d = path.Dir(d) {
			all[d] = true
		}
		if !IsManifest(f) {
			continue
		}
		manifests = append(manifests, f)
		d := path.Dir(f)
		if dirs[d] == nil {
			dirs[d] = map[string]bool{}
		}
		dirs[d][path.Base(f)] = true
	}
	slices.SortFunc(manifests, compareFiles)
	var wss []workspace
	gradle := map[string]*gradleSettings{} // settings by directory
	for _, f := range manifests {
		src, err := readFile(fsys, f)
		if err != nil {
			res.Problems = append(res.Problems, Problem{f, err})
			continue
		}
		dir := path.Dir(f)
		var p parsed
		switch base := path.Base(f); base {
		case "package.json":
			p, err = parseNPM(f, dir, src)
		case "pnpm-workspace.yaml":
			p, err = parsePNPM(f, dir, src)
		case "go.mod":
			p, err = parseGoMod(f, dir, src)
		case "go.work":
			p, err = parseGoWork(f, dir, src)
		case "Cargo.toml":
			p, err = parseCargo(f, dir, src)
		case "pyproject.toml":
			p, err = parsePyproject(f, dir, src)
		case "pom.xml":
			p, err = parsePom(f, dir, src)
		case "settings.gradle", "settings.gradle.kts":
			var s *gradleSettings
			s, err = parseGradleSettings(f, dir, src)
			if err == nil {
				gradle[dir] = s
				p.workspaces = append(p.workspaces, s.workspace())
			}
		case "build.gradle", "build.gradle.kts":
			p, err = parseGradleBuild(f, dir, src)
		}
		if err != nil {
			res.Problems = append(res.Problems, Problem{f, err})
			continue
		}
		res.Packages = append(res.Packages, p.pkgs...)
		wss = append(wss, p.workspaces...)
	}
	res.Packages = nameGradle(res.Packages, gradle, rootName, all)
	res.Problems = append(res.Problems, linkIncludedBuilds(res.Packages, gradle, dirs)...)
	for i := range res.Packages {
		if res.Packages[i].Name == "" {
			res.Packages[i].Name = dirName(res.Packages[i].Path, rootName)
		}
	}
	res.Problems = append(res.Problems, resolveWorkspaces(res.Packages, wss, dirs, all)...)
	for i := range res.Packages {
		if res.Packages[i].Dependencies == nil {
			res.Packages[i].Dependencies = []Dependency{}
		}
	}
	markInternal(res.Packages)
	slices.SortFunc(res.Packages, func(a, b Package) int {
		return cmp.Or(compareFiles(a.Path, b.Path), cmp.Compare(slices.Index(Kinds, a.Kind), slices.Index(Kinds, b.Kind)))
	})
	slices.SortStableFunc(res.Problems, func(a, b Problem) int { return compareFiles(a.File, b.File) })
	return res
}

// compareFiles orders slash-separated paths directory by directory.
func compareFiles(a, b string) int {
	return slices.Compare(strings.Split(a, "/"), strings.Split(b, "/"))
}

func readFile(fsys fs.FS, name string) ([]byte, error) {
	fi, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("reading: %w", err)
	}
	if fi.Size() > maxManifest {
		return nil, fmt.Errorf("manifest of %d bytes is over the %d-byte limit", fi.Size(), maxManifest)
	}
	src, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("reading: %w", err)
	}
	return src, nil
}

// join joins a directory relative to the root with a relative path,
// cleaned; ok is false when the result leaves the root.
func join(dir, rel string) (string, bool) {
	p := path.Clean(path.Join(dir, rel))
	if p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(p) {
		return "", false
	}
	return p, true
}
