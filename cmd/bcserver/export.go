package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
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

// missionsCommand is `bcserver missions export [-force] DIR`.
func missionsCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "export" {
		fmt.Fprintln(stderr, "usage: bcserver missions export [-force] DIR")
		return 2
	}
	fs := flag.NewFlagSet("missions export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	force := fs.Bool("force", false, "overwrite files that exist")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bcserver missions export [-force] DIR\n\n"+
			"Writes the built-in game modes, lib/ (the stock rules), the LuaLS annotations (types/)\n"+
			"and a .luarc.json into DIR: a starting point for game.missions_dir.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	n, err := exportMissions(fs.Arg(0), *force)
	if err != nil {
		fmt.Fprintf(stderr, "bcserver: missions export: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %d files to %s; run them with -missions-dir %s\n", n, fs.Arg(0), fs.Arg(0))
	return 0
}

// exportMissions writes the built-in missions, lib/, the annotations and a
// .luarc.json under dir. Without force it refuses to overwrite anything
// (and writes nothing).
func exportMissions(dir string, force bool) (int, error) {
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
