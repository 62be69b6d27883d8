package lua

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	glua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"
)

// Layout of a missions folder. Every mode is a folder holding MainFile;
// LibDir holds modules shared by the modes (the stock scoring rules), found
// by require after the mode's own folder.
const (
	MainFile = "main.lua"
	LibDir   = "lib"
)

// Limits on what a missions folder may hold, so a stray file cannot make a
// reload read or compile without end.
const (
	maxSourceFiles = 256
	maxSourceSize  = 1 << 20
)

// source is one compiled snapshot of a mission: every .lua file of the
// mode's folder and of lib/, compiled, keyed by its slash path relative to
// the missions root ("deathmatch/main.lua", "lib/stock.lua"). Compiling
// everything up front makes a syntax error anywhere fail the load before a
// state is touched, and lets reloads compile off the game goroutine.
type source struct {
	mode   string
	protos map[string]*glua.FunctionProto
}

// Modes lists the mission folders (those with a main.lua) in fsys.
func Modes(fsys fs.FS) ([]string, error) {
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("listing missions: %w", err)
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() || e.Name() == LibDir {
			continue
		}
		if st, err := fs.Stat(fsys, e.Name()+"/"+MainFile); err == nil && !st.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// CheckMode reports whether mode names a mission folder in fsys, with the
// list of valid modes in the error.
func CheckMode(fsys fs.FS, mode string) error {
	if !validModeName(mode) {
		return fmt.Errorf("mode %q: not a folder name", mode)
	}
	modes, err := Modes(fsys)
	if err != nil {
		return err
	}
	for _, m := range modes {
		if m == mode {
			return nil
		}
	}
	return fmt.Errorf("mode %q: no mission folder with a %s (have %s)", mode, MainFile, strings.Join(modes, ", "))
}

func validModeName(mode string) bool {
	return mode != "" && mode != LibDir && fs.ValidPath(mode) && !strings.Contains(mode, "/") && mode != "."
}

// compileSource reads and compiles the mode's files and the shared lib.
func compileSource(fsys fs.FS, mode string) (*source, error) {
	if err := CheckMode(fsys, mode); err != nil {
		return nil, err
	}
	src := &source{mode: mode, protos: make(map[string]*glua.FunctionProto)}
	var errs []error
	for _, dir := range []string{mode, LibDir} {
		err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if dir == LibDir && p == LibDir && errors.Is(err, fs.ErrNotExist) {
					return fs.SkipDir // lib/ is optional
				}
				return err
			}
			if d.IsDir() || !strings.HasSuffix(p, ".lua") {
				return nil
			}
			if len(src.protos) >= maxSourceFiles {
				return fmt.Errorf("more than %d .lua files", maxSourceFiles)
			}
			b, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			if len(b) > maxSourceSize {
				return fmt.Errorf("%s: larger than %d bytes", p, maxSourceSize)
			}
			proto, err := compileChunk(b, p)
			if err != nil {
				errs = append(errs, err)
				return nil
			}
			src.protos[p] = proto
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("reading mission %q: %w", mode, err)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if src.protos[mode+"/"+MainFile] == nil {
		return nil, fmt.Errorf("mission %q has no %s", mode, MainFile)
	}
	return src, nil
}

// compileChunk parses and compiles Lua source; errors carry name:line.
func compileChunk(b []byte, name string) (*glua.FunctionProto, error) {
	chunk, err := parse.Parse(bytes.NewReader(b), name)
	if err != nil {
		return nil, err // parse errors already read "name line:N(column:M) near ..."
	}
	proto, err := glua.Compile(chunk, name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return proto, nil
}

// resolve maps a require name to a compiled file: the mode's folder first,
// then lib/. "a.b" means a/b.lua or a/b/init.lua.
func (s *source) resolve(name string) (string, *glua.FunctionProto, bool) {
	if name == "" || strings.Contains(name, "/") || strings.Contains(name, "\\") || strings.Contains(name, "..") {
		return "", nil, false
	}
	rel := strings.ReplaceAll(name, ".", "/")
	for _, dir := range []string{s.mode, LibDir} {
		for _, p := range []string{path.Join(dir, rel+".lua"), path.Join(dir, rel, "init.lua")} {
			if proto, ok := s.protos[p]; ok {
				return p, proto, true
			}
		}
	}
	return "", nil, false
}
