package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/bcserver/bcserver/internal/missiontest"
	"github.com/bcserver/bcserver/missions"
)

// testMissionsCommand is `bcserver test-missions [-run TEXT] DIR`: it runs
// every *_test.lua below DIR (a missions folder) against the real engine
// with scripted players, and exits 1 if a test failed.
func testMissionsCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("test-missions", flag.ContinueOnError)
	fs.SetOutput(stderr)
	match := fs.String("run", "", "run only the test files whose path contains this")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bcserver test-missions [-run TEXT] DIR\n\n"+
			"Runs every *_test.lua of the missions folder DIR against the engine with scripted\n"+
			"players (docs/testing-missions.md) and prints each failure with file:line.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
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
