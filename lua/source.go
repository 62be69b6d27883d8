package lua

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/bcserver/bcserver/lua/sandbox"

	glua "github.com/yuin/gopher-lua"
)

// Layout of a missions folder. Every mode is a folder holding MainFile;
// LibDir holds modules shared by the modes (the stock scoring rules), found
// by require after the mode's own folder.
const (
	MainFile  = "main.lua"
	LibDir    = "lib"
	AddonsDir = "addons"
)

// Limits on what a missions folder may hold, so a stray file cannot make a
// reload read or compile without end.
const (
	maxSourceFiles = 256
)

// source is one snapshot of a mission: the bytes of every .lua file of
// the mode's folder and of lib/, keyed by slash path relative to the
// missions root ("deathmatch/main.lua", "lib/stock.lua"). Reading is done
// off the game goroutine; main.lua is compiled there too, so a syntax error
// in it fails the load before a state is touched. Other files are compiled
// when first required: a broken file nobody requires changes nothing.
type source struct {
	mode   string
	addons []string // in load order
	main   *glua.FunctionProto
	files  map[string][]byte
	protos map[string]*glua.FunctionProto
	errs   map[string]error
	// builtin lists the lib/ files that came from the built-in library.
	builtin map[string]bool
	cache   *Protos // compiled files shared with other sources, or nil
}

// Modes lists the mission folders (those with a main.lua) in fsys.
func Modes(fsys fs.FS) ([]string, error) {
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("listing missions: %w", err)
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() || e.Name() == LibDir || e.Name() == AddonsDir {
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
	return mode != "" && mode != LibDir && mode != AddonsDir && fs.ValidPath(mode) && !strings.Contains(mode, "/") && mode != "."
}

// CheckAddon reports whether name is an addon folder (addons/name/main.lua)
// in fsys.
func CheckAddon(fsys fs.FS, name string) error {
	if !validModeName(name) {
		return fmt.Errorf("addon %q: not a folder name", name)
	}
	if st, err := fs.Stat(fsys, path.Join(AddonsDir, name, MainFile)); err != nil || st.IsDir() {
		return fmt.Errorf("addon %q: no %s/%s/%s", name, AddonsDir, name, MainFile)
	}
	return nil
}

// compileSource reads the mode's files, its addons' and lib/ (from fsys,
// then the built-in libFS for modules fsys lacks) and compiles main.lua,
// taking compiled files from cache when it has them (nil: no cache).
func compileSource(cache *Protos, fsys, libFS fs.FS, mode string, addons []string) (*source, error) {
	src, err := readSource(fsys, libFS, mode, addons)
	if err != nil {
		return nil, err
	}
	src.cache = cache
	main, err := src.compile(src.mode+"/"+MainFile, nil)
	if err != nil {
		return nil, err
	}
	src.main = main
	return src, nil
}

// readMissionFile reads p, a mission's .lua file, of at most max bytes.
// Only a regular file is opened: a FIFO would block the reader until
// someone writes to it (the game would stay loading), a link to a device
// such as /dev/zero would never end. And no more than max+1 bytes are
// read, whatever the file's size says.
func readMissionFile(fsys fs.FS, p string, max int) ([]byte, error) {
	st, err := fs.Stat(fsys, p)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", p)
	}
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, int64(max)+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if len(b) > max {
		return nil, fmt.Errorf("%s: larger than %d bytes", p, max)
	}
	return b, nil
}

// readSource reads the files compileSource compiles from.
func readSource(fsys, libFS fs.FS, mode string, addons []string) (*source, error) {
	if err := CheckMode(fsys, mode); err != nil {
		return nil, err
	}
	for _, a := range addons {
		if err := CheckAddon(fsys, a); err != nil {
			return nil, err
		}
	}
	src := &source{mode: mode, addons: addons, files: make(map[string][]byte), protos: make(map[string]*glua.FunctionProto),
		errs: make(map[string]error), builtin: make(map[string]bool)}
	read := func(fsys fs.FS, dir string, builtin bool) error {
		return fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if dir == LibDir && p == LibDir && errors.Is(err, fs.ErrNotExist) {
					return fs.SkipDir // lib/ is optional
				}
				return err
			}
			if d.IsDir() || !strings.HasSuffix(p, ".lua") {
				return nil
			}
			if _, ok := src.files[p]; ok {
				return nil // the host's own file shadows the built-in one
			}
			if len(src.files) >= maxSourceFiles {
				return fmt.Errorf("more than %d .lua files", maxSourceFiles)
			}
			b, err := readMissionFile(fsys, p, sandbox.MaxSource)
			if err != nil {
				return err
			}
			src.files[p] = b
			src.builtin[p] = builtin
			return nil
		})
	}
	dirs := []string{mode}
	for _, a := range addons {
		dirs = append(dirs, path.Join(AddonsDir, a))
	}
	for _, dir := range append(dirs, LibDir) {
		if err := read(fsys, dir, false); err != nil {
			return nil, fmt.Errorf("reading mission %q: %w", mode, err)
		}
	}
	if libFS != nil {
		if err := read(libFS, LibDir, true); err != nil {
			return nil, fmt.Errorf("reading the built-in %s/: %w", LibDir, err)
		}
	}
	if _, ok := src.files[mode+"/"+MainFile]; !ok {
		return nil, fmt.Errorf("mission %q has no %s", mode, MainFile)
	}
	return src, nil
}

// compile returns the compiled file, compiling it on first use; charge
// (if set) is called once the file passed the nesting scan.
func (s *source) compile(p string, charge func()) (*glua.FunctionProto, error) {
	if proto, ok := s.protos[p]; ok {
		return proto, nil
	}
	if err, ok := s.errs[p]; ok {
		return nil, err
	}
	proto, err := s.cache.compile(s.files[p], p, charge)
	if err != nil {
		s.errs[p] = err
		return nil, err
	}
	s.protos[p] = proto
	return proto, nil
}

// resolve maps a require name to a file: the requiring file's own folder
// (the mode's or an addon's) first, then lib/. "a.b" means a/b.lua or
// a/b/init.lua.
func (s *source) resolve(name, from string) (string, bool) {
	if name == "" || strings.Contains(name, "/") || strings.Contains(name, "\\") || strings.Contains(name, "..") {
		return "", false
	}
	rel := strings.ReplaceAll(name, ".", "/")
	own := s.mode
	for _, a := range s.addons {
		if dir := path.Join(AddonsDir, a); strings.HasPrefix(from, dir+"/") {
			own = dir
		}
	}
	for _, dir := range []string{own, LibDir} {
		for _, p := range []string{path.Join(dir, rel+".lua"), path.Join(dir, rel, "init.lua")} {
			if _, ok := s.files[p]; ok {
				return p, true
			}
		}
	}
	return "", false
}
