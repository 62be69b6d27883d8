package modimport

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// scripts is the folder being imported, with a case-insensitive index:
// the client resolves module names on a case-insensitive Windows file
// system and stock relies on it (mods.md 3.1: "Escapepod" for
// EscapePod.py, "CardStation" for cardstation.py).
//
// The folder is not trusted (a mod tree from anywhere): the walk looks at
// every entry without following it (lstat), indexes regular files only,
// and remembers what it refused (links, pipes, devices, folders too deep)
// so a lookup that lands on one says so instead of "missing". Files are
// opened without following links out of the folder or blocking on a pipe
// (tree.open), their size is checked before reading, and reading stops at
// the limit.
type scripts struct {
	t     tree
	root  string            // the scripts folder within t ("." or "scripts")
	index map[string]string // lower-case path relative to root -> path as stored
	// refused holds the entries the walk would not read, by lower-case
	// relative path, with the reason.
	refused map[string]refusal
	// refusals lists them in walk order, for the report; used holds those
	// a lookup met (the report names them where they were needed).
	refusals []refusal
	used     map[string]bool
}

// refusal is an entry of the folder the importer will not read.
type refusal struct {
	path string // as stored, relative to the scripts folder
	why  string
	fix  string
}

// Limits on what the folder may hold. A real scripts folder (a Kobayashi
// Maru install: some ten thousand files, hardpoints of at most a few
// hundred kilobytes, folders five deep) is far inside all of them.
const (
	// maxScriptFiles bounds the entries the walk looks at.
	maxScriptFiles = 100000
	// maxDepth bounds folder nesting below the scripts folder.
	maxDepth = 32
	// maxSource bounds one script or compiled table: stock hardpoints are
	// under 100 KB; a file far beyond that is not a hand- or
	// editor-written script, and reading it is what a hostile tree wants.
	maxSource = 1 << 20
	// maxRefusals bounds the refusals listed one by one in the report.
	maxRefusals = 50
)

// tree is what the importer reads the folder through: a directory on disk
// opened as an os.Root (rootTree) or any fs.FS (fsTree, for tests and
// embedded data).
type tree interface {
	// readDir lists dir (a slash path, "." for the top) with the entries'
	// own types (a link is a link); at most limit entries, else
	// errTooMany.
	readDir(dir string, limit int) ([]fs.DirEntry, error)
	// open opens a file the walk saw as regular, for reading, and returns
	// its size. It refuses (errNotRegular) whatever is not a regular file
	// by then, without blocking on a pipe.
	open(name string) (io.ReadCloser, int64, error)
}

var (
	errTooMany    = errors.New("too many entries")
	errNotRegular = errors.New("not a regular file")
)

// fsTree reads an fs.FS. Its Open may follow links and block on a pipe, so
// only files the walk saw as regular are opened (the walk's lstat types);
// rootTree closes the window between the walk and the open as well.
type fsTree struct{ fsys fs.FS }

func (t fsTree) readDir(dir string, limit int) ([]fs.DirEntry, error) {
	ents, err := fs.ReadDir(t.fsys, dir)
	if len(ents) > limit {
		return nil, errTooMany
	}
	return ents, err
}

func (t fsTree) open(name string) (io.ReadCloser, int64, error) {
	f, err := t.fsys.Open(name)
	if err != nil {
		return nil, 0, err
	}
	return regular(f)
}

// regular returns an open file with its size if it is a regular file, and
// closes it otherwise: a FIFO, a device or a folder is never read.
func regular(f fs.File) (io.ReadCloser, int64, error) {
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, 0, errNotRegular
	}
	return f, st.Size(), nil
}

// openScripts finds the scripts folder: the top of t when it holds ships/
// (any case), else its scripts/ subfolder (an install's root).
func openScripts(t tree) (*scripts, error) {
	dirNamed := func(dir, name string) (string, bool) {
		ents, err := t.readDir(dir, maxScriptFiles)
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
			return nil, fmt.Errorf("no ships folder in %s: give the scripts folder (holding ships/ and Multiplayer/)", display(sub))
		}
		root = sub
	}
	s := &scripts{t: t, root: root, index: map[string]string{}, refused: map[string]refusal{}, used: map[string]bool{}}
	return s, s.walk()
}

// walk indexes the .py and .pyc files below the root, depth first in
// byte-wise name order (so an import repeats exactly), looking at each
// entry without following it.
func (s *scripts) walk() error {
	seen := 0
	var visit func(dir, rel string, depth int) error
	visit = func(dir, rel string, depth int) error {
		ents, err := s.t.readDir(dir, maxScriptFiles-seen)
		if errors.Is(err, errTooMany) {
			return fmt.Errorf("more than %d files under %s: give the scripts folder itself", maxScriptFiles, display(s.root))
		}
		if err != nil {
			s.refuse(rel, "a folder that cannot be listed", "check its permissions")
			return nil
		}
		slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
		for _, e := range ents {
			if seen++; seen > maxScriptFiles {
				return fmt.Errorf("more than %d files under %s: give the scripts folder itself", maxScriptFiles, display(s.root))
			}
			name := e.Name()
			p, r := path.Join(dir, name), name
			if rel != "" {
				r = rel + "/" + name
			}
			mode := e.Type()
			switch {
			case mode.IsDir():
				if depth >= maxDepth {
					s.refuse(r, fmt.Sprintf("a folder more than %d levels deep", maxDepth), "no game script lives that deep; move the scripts up")
					continue
				}
				if err := visit(p, r, depth+1); err != nil {
					return err
				}
			case mode&fs.ModeSymlink != 0:
				// Any link, named like a script or not: it may stand for a
				// folder (a linked Tactical/, say) the walk does not enter.
				s.refuse(r, "a symbolic link", "links are not followed, as they can point anywhere on the host; copy the file or folder itself into the folder")
			case !isScriptName(name):
				// Models, textures, notes: never read, never reported.
			case !mode.IsRegular():
				s.refuse(r, "not a regular file ("+kindOf(mode)+")", "remove it and put the script file there")
			default:
				key := asciiLower(r)
				if prev, dup := s.index[key]; !dup || r < prev {
					s.index[key] = r // names differing only in case: the byte-wise first
				}
			}
		}
		return nil
	}
	return visit(s.root, "", 0)
}

func (s *scripts) refuse(rel, why, fix string) {
	r := refusal{path: rel, why: why, fix: fix}
	s.refused[asciiLower(rel)] = r
	s.refusals = append(s.refusals, r)
}

// isScriptName reports whether the importer could ever read a file of
// this name: Python source and the compiled tables.
func isScriptName(name string) bool {
	n := asciiLower(name)
	return strings.HasSuffix(n, ".py") || strings.HasSuffix(n, ".pyc")
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// asciiLower folds A-Z only: the stock names are ASCII, and a name in
// another code page (Latin-1 from a Windows install) must keep its bytes
// rather than become U+FFFD, as strings.ToLower would make it.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'A' && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// lookup is the result of looking a path up: found (stored path), refused
// (the walk would not read it), or absent.
type lookup struct {
	stored  string
	refused *refusal
}

func (l lookup) found() bool { return l.stored != "" }

// find looks up rel (a slash path, any case).
func (s *scripts) find(rel string) lookup {
	key := asciiLower(rel)
	if p, ok := s.index[key]; ok {
		return lookup{stored: p}
	}
	if r, ok := s.refused[key]; ok {
		s.used[key] = true
		return lookup{refused: &r}
	}
	// A refused folder on the way (a linked ships/Hardpoints, say).
	for i := strings.LastIndexByte(key, '/'); i > 0; i = strings.LastIndexByte(key[:i], '/') {
		if r, ok := s.refused[key[:i]]; ok {
			s.used[key[:i]] = true
			return lookup{refused: &r}
		}
	}
	return lookup{}
}

// module finds a dotted module (ships.Akira) as a .py file, ignoring case.
func (s *scripts) module(dotted string) lookup {
	return s.find(strings.ReplaceAll(dotted, ".", "/") + ".py")
}

// compiledOnly reports whether the folder holds a module only compiled
// (X.pyc without X.py): the importer reads source.
func (s *scripts) compiledOnly(dotted string) bool {
	return s.find(strings.ReplaceAll(dotted, ".", "/") + ".pyc").found()
}

// readError is why a file could not be read, in words for the report: the
// operating system's text (paths, errno names) stays out of it.
type readError struct {
	why, fix string
}

func (e *readError) Error() string { return e.why }

// readRaw returns a file's bytes: its size is checked before reading, and
// reading stops at the limit should the file grow meanwhile.
func (s *scripts) readRaw(stored string) ([]byte, error) {
	f, size, err := s.t.open(path.Join(s.root, stored))
	switch {
	case errors.Is(err, errNotRegular):
		return nil, &readError{"not a regular file any more", "leave the folder unchanged while importing"}
	case errors.Is(err, fs.ErrPermission):
		return nil, &readError{"no permission to read it", "make the file readable"}
	case errors.Is(err, fs.ErrNotExist):
		return nil, &readError{"gone while importing", "leave the folder unchanged while importing"}
	case err != nil:
		return nil, &readError{"cannot be opened (an escaping link, or a name this system cannot open)", "copy the file into the folder under a plain name"}
	}
	defer f.Close()
	if size > maxSource {
		return nil, &readError{fmt.Sprintf("%d bytes, more than any game script (the limit is %d)", size, maxSource), "remove it, or import a folder without it"}
	}
	b := make([]byte, 0, size+1)
	b, err = readAllInto(b, io.LimitReader(f, maxSource+1))
	if err != nil {
		return nil, &readError{"a read failed", "check the disk and import again"}
	}
	if len(b) > maxSource {
		return nil, &readError{fmt.Sprintf("grew past %d bytes while being read", maxSource), "leave the folder unchanged while importing"}
	}
	return b, nil
}

// readAllInto is io.ReadAll into b's spare capacity (sized from the stat).
func readAllInto(b []byte, r io.Reader) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// parse reads and parses a stored path.
func (s *scripts) parse(stored string) ([]*stmt, error) {
	src, err := s.readRaw(stored)
	if err != nil {
		return nil, err
	}
	return parseModule(string(src))
}
