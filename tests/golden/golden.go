// Package golden reads and rewrites the sections of the txtar archives
// that hold golden tests (golang.org/x/tools/txtar, as gopls keeps its
// own): the comment says what to run, the files are its inputs and the
// output it must give.
package golden

import "golang.org/x/tools/txtar"

// Get returns the data of the section name and whether the archive has it.
func Get(a *txtar.Archive, name string) ([]byte, bool) {
	for _, f := range a.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// Set replaces the data of the section name, appending the section when
// the archive has none.
func Set(a *txtar.Archive, name string, data []byte) {
	for i := range a.Files {
		if a.Files[i].Name == name {
			a.Files[i].Data = data
			return
		}
	}
	a.Files = append(a.Files, txtar.File{Name: name, Data: data})
}

// Remove drops the section name, if the archive has it.
func Remove(a *txtar.Archive, name string) {
	for i, f := range a.Files {
		if f.Name == name {
			a.Files = append(a.Files[:i], a.Files[i+1:]...)
			return
		}
	}
}
