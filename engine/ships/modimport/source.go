package modimport

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// scripts is the folder being imported, with a case-insensitive index:
// the client resolves module names on a case-insensitive Windows file
// system and stock relies on it (mods.md 3.1: "Escapepod" for
// EscapePod.py, "CardStation" for cardstation.py).
type scripts struct {
	fsys  fs.FS
	root  string            // the scripts folder within fsys ("." or "scripts")
	index map[string]string // lower-case path relative to root -> path as stored
}

// maxScriptFiles bounds the folder walk.
const maxScriptFiles = 200000

// openScripts finds the scripts folder: the root of fsys when it holds
// ships/ (any case), else its scripts/ subfolder (an install's root).
func openScripts(fsys fs.FS) (*scripts, error) {
	dirNamed := func(dir, name string) (string, bool) {
		ents, err := fs.ReadDir(fsys, dir)
		if err != nil {
			return "", false
		}
		for _, e := range ents {
			if e.IsDir() && strings.EqualFold(e.Name(), name) {
				return e.Name(), true
			}
		}
		return "", false
	}
	root := "."
	if _, ok := dirNamed(".", "ships"); !ok {
		sub, ok := dirNamed(".", "scripts")
		if !ok {
			return nil, errors.New("no ships folder: give the scripts folder (holding ships/ and Multiplayer/) or the install holding scripts/")
		}
		if _, ok := dirNamed(sub, "ships"); !ok {
			return nil, fmt.Errorf("no ships folder in %s", sub)
		}
		root = sub
	}
	s := &scripts{fsys: fsys, root: root, index: map[string]string{}}
	return s, s.walk()
}

func (s *scripts) walk() error {
	n := 0
	return fs.WalkDir(s.fsys, s.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == s.root {
			return nil
		}
		rel := p
		if s.root != "." {
			rel = strings.TrimPrefix(p, s.root+"/")
		}
		if n++; n > maxScriptFiles {
			return fmt.Errorf("more than %d files under %s", maxScriptFiles, s.root)
		}
		key := strings.ToLower(rel)
		if prev, dup := s.index[key]; !dup || rel < prev {
			s.index[key] = rel // names differing only in case: the byte-wise first, so imports repeat exactly
		}
		return nil
	})
}

// find returns the stored path of rel (a slash path, any case).
func (s *scripts) find(rel string) (string, bool) {
	p, ok := s.index[strings.ToLower(rel)]
	return p, ok
}

// read returns the file at a stored path.
func (s *scripts) read(stored string) (string, error) {
	b, err := fs.ReadFile(s.fsys, path.Join(s.root, stored))
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// readRaw returns a file's bytes.
func (s *scripts) readRaw(stored string) ([]byte, error) {
	return fs.ReadFile(s.fsys, path.Join(s.root, stored))
}

// module finds a dotted module (ships.Akira) as a .py file, ignoring case.
func (s *scripts) module(dotted string) (string, bool) {
	return s.find(strings.ReplaceAll(dotted, ".", "/") + ".py")
}

// parse reads and parses a stored path.
func (s *scripts) parse(stored string) ([]*stmt, error) {
	src, err := s.read(stored)
	if err != nil {
		return nil, err
	}
	return parseModule(src)
}
