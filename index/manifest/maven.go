package manifest

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// pom is what pom.xml says of a module.
type pom struct {
	GroupID     string `xml:"groupId"`
	ArtifactID  string `xml:"artifactId"`
	Version     string `xml:"version"`
	Name        string `xml:"name"`
	Description string `xml:"description"`
	Packaging   string `xml:"packaging"`
	Parent      struct {
		GroupID      string `xml:"groupId"`
		ArtifactID   string `xml:"artifactId"`
		Version      string `xml:"version"`
		RelativePath string `xml:"relativePath"`
	} `xml:"parent"`
	Modules      []string `xml:"modules>module"`
	Dependencies []struct {
		GroupID    string `xml:"groupId"`
		ArtifactID string `xml:"artifactId"`
		Version    string `xml:"version"`
		Scope      string `xml:"scope"`
		Optional   string `xml:"optional"`
	} `xml:"dependencies>dependency"`
}

func parsePom(file, dir string, src []byte) (parsed, error) {
	var x pom
	dec := xml.NewDecoder(bytes.NewReader(src))
	dec.CharsetReader = charsetReader
	if err := dec.Decode(&x); err != nil {
		return parsed{}, fmt.Errorf("invalid XML: %w", err)
	}
	if x.ArtifactID == "" {
		return parsed{}, fmt.Errorf("pom.xml has no artifactId")
	}
	group := x.GroupID
	if group == "" {
		group = x.Parent.GroupID
	}
	version := x.Version
	if version == "" {
		version = x.Parent.Version
	}
	p := Package{Name: group + ":" + x.ArtifactID, Path: dir, Kind: Maven, Version: version,
		Description: strings.Join(strings.Fields(x.Description), " "), Manifest: file, Metadata: map[string]any{}}
	if x.Name != "" {
		p.Metadata["display_name"] = strings.TrimSpace(x.Name)
	}
	if x.Packaging != "" {
		p.Metadata["packaging"] = x.Packaging
	}
	if x.Parent.ArtifactID != "" {
		p.Metadata["parent"] = x.Parent.GroupID + ":" + x.Parent.ArtifactID
	}
	for _, d := range x.Dependencies {
		kind := Runtime
		switch strings.TrimSpace(d.Scope) {
		case "test":
			kind = Dev
		case "provided", "system":
			kind = Build
		}
		if strings.TrimSpace(d.Optional) == "true" {
			kind = Optional
		}
		p.Dependencies = append(p.Dependencies, Dependency{Name: strings.TrimSpace(d.GroupID) + ":" + strings.TrimSpace(d.ArtifactID),
			Version: strings.TrimSpace(d.Version), Kind: kind})
	}
	out := parsed{pkgs: []Package{p}}
	if len(x.Modules) > 0 {
		ws := workspace{file: file, dir: dir, kind: Maven}
		for _, m := range x.Modules {
			m = strings.TrimSpace(m)
			// A module may name its pom file rather than its directory.
			if strings.HasSuffix(m, ".xml") {
				m = m[:max(strings.LastIndexByte(m, '/'), 0)]
				if m == "" {
					m = "."
				}
			}
			ws.members = append(ws.members, m)
		}
		out.workspaces = append(out.workspaces, ws)
	}
	return out, nil
}

// charsetReader decodes the 8-bit encodings a pom.xml may declare besides
// UTF-8: ISO-8859-1 (and its superset windows-1252, read as ISO-8859-1)
// and US-ASCII.
func charsetReader(label string, in io.Reader) (io.Reader, error) {
	switch strings.ToLower(label) {
	case "utf-8", "utf8", "us-ascii", "ascii":
		return in, nil
	case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "windows-1252", "cp1252":
		b, err := io.ReadAll(in)
		if err != nil {
			return nil, err
		}
		r := make([]rune, len(b))
		for i, c := range b {
			r[i] = rune(c)
		}
		return strings.NewReader(string(r)), nil
	}
	return nil, fmt.Errorf("unsupported encoding %q", label)
}
