package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/bcserver/bcserver/internal/missiontest"
	"github.com/bcserver/bcserver/lua"
	"github.com/bcserver/bcserver/missions"
)

// testMissionsCommand is `bcserver test-missions [-run TEXT] DIR`: it runs
// every *_test.lua below DIR against the real engine with scripted
// players, and exits 1 if a test failed. DIR is a missions folder, or one
// mode's folder (it holds a main.lua): then only that mode's tests run,
// with the missions folder around it (its lib/) as the root.
func testMissionsCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("test-missions", flag.ContinueOnError)
	fs.SetOutput(stderr)
	match := fs.String("run", "", "run only the test files whose path contains this")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bcserver test-missions [-run TEXT] DIR\n\n"+
			"Runs every *_test.lua of DIR — a missions folder, or one mode's folder — against the\n"+
			"engine with scripted players (docs/testing-missions.md) and prints each failure with\n"+
			"file:line.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	dir := fs.Arg(0)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		fmt.Fprintf(stderr, "bcserver: test-missions: %s is not a folder\n", dir)
		return 2
	}
	r := &missiontest.Runner{FS: os.DirFS(dir), LibFS: missions.FS(), Out: stdout, Match: *match}
	if st, err := os.Stat(filepath.Join(dir, lua.MainFile)); err == nil && !st.IsDir() {
		// A mode's folder: its tests, in the missions folder around it.
		abs, err := filepath.Abs(dir)
		if err != nil {
			fmt.Fprintf(stderr, "bcserver: test-missions: %v\n", err)
			return 2
		}
		r.FS, r.Dir = os.DirFS(filepath.Dir(abs)), filepath.Base(abs)
	}
	sum, err := r.Run()
	if err != nil {
		fmt.Fprintf(stderr, "bcserver: test-missions: %v\n", err)
		return 1
	}
	if sum.Failed > 0 || sum.Files == 0 {
		return 1
	}
	return 0
}
