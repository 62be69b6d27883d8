package server

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/bcserver/bcserver/lua"
	"github.com/bcserver/bcserver/missions"
)

// luarc points the Lua language server at the exported annotations.
const luarc = `{
  "runtime.version": "Lua 5.1",
  "runtime.builtin": {
    "io": "disable",
    "os": "disable",
    "debug": "disable",
    "coroutine": "disable",
    "package": "disable"
  },
  "workspace.library": ["types"],
  "diagnostics.globals": ["bc", "test"]
}
`

// ExportMissions writes the built-in missions, lib/, the annotations and a
// .luarc.json under dir (`bcserver missions export`): a starting point for
// game.missions_dir. Without force it refuses to overwrite anything
// (and writes nothing).
func ExportMissions(dir string, force bool) (int, error) {
	type file struct {
		rel  string
		data []byte
	}
	var files []file
	collect := func(fsys fs.FS, prefix string) error {
		return fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := fs.ReadFile(fsys, p)
			if err != nil {
				return err
			}
			files = append(files, file{path.Join(prefix, p), b})
			return nil
		})
	}
	if err := collect(missions.FS(), ""); err != nil {
		return 0, err
	}
	if err := collect(lua.TypesFS(), ""); err != nil {
		return 0, err
	}
	files = append(files, file{".luarc.json", []byte(luarc)})
	if !force {
		var exist []string
		for _, f := range files {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f.rel))); err == nil {
				exist = append(exist, f.rel)
			}
		}
		if len(exist) > 0 {
			return 0, fmt.Errorf("%s already has %s; use -force to overwrite", dir, strings.Join(exist, ", "))
		}
	}
	var errs []error
	for _, f := range files {
		target := filepath.Join(dir, filepath.FromSlash(f.rel))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return 0, err
		}
		if err := os.WriteFile(target, f.data, 0o644); err != nil {
			errs = append(errs, err)
		}
	}
	return len(files), errors.Join(errs...)
}
