package missiontest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"sort"
	"strings"
	"time"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/engine/ships"
	"github.com/bcserver/bcserver/lua"
)

// TestSuffix names the files the runner runs.
const TestSuffix = "_test.lua"

// FileTimeout bounds one test file in wall time, so a test that loops
// forever ends the run instead of hanging it.
const FileTimeout = 2 * time.Minute

// Runner runs every *_test.lua of a missions folder.
type Runner struct {
	FS    fs.FS // the missions root
	LibFS fs.FS // the built-in lib/, for modules FS lacks
	Out   io.Writer
	// Match, if set, runs only the test files whose path contains it.
	Match string
	// Dir, if set, is the one folder of FS whose tests run (a mode's:
	// `bcserver test-missions missions/arena`); nothing else of FS is
	// walked.
	Dir string

	ships *ships.Registry
}

// Summary counts a run.
type Summary struct{ Files, Passed, Failed int }

// Files lists the test files: every *_test.lua below a mode's or an
// addon's folder, sorted.
func Files(fsys fs.FS) ([]string, error) { return FilesIn(fsys, ".") }

// FilesIn lists the test files below dir of fsys.
func FilesIn(fsys fs.FS, dir string) ([]string, error) {
	var out []string
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, TestSuffix) && strings.Contains(p, "/") {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// load reads the ship data the tests' bc and bots use.
func (r *Runner) load() error {
	reg, err := ships.Vanilla()
	if err != nil {
		return err
	}
	r.ships = reg
	return nil
}

// Run runs the tests and writes a report to Out.
func (r *Runner) Run() (Summary, error) {
	var sum Summary
	if err := r.load(); err != nil {
		return sum, err
	}
	dir := "."
	if r.Dir != "" {
		dir = r.Dir
	}
	files, err := FilesIn(r.FS, dir)
	if err != nil {
		return sum, fmt.Errorf("listing tests: %w", err)
	}
	for _, f := range files {
		if r.Match != "" && !strings.Contains(f, r.Match) {
			continue
		}
		sum.Files++
		p, fl := r.runFile(f)
		sum.Passed += p
		sum.Failed += fl
	}
	if sum.Files == 0 {
		fmt.Fprintf(r.Out, "no *%s files (they go in a mode's folder: my-mode/my-mode%s)\n", TestSuffix, TestSuffix)
		return sum, nil
	}
	status := "ok"
	if sum.Failed > 0 {
		status = "FAIL"
	}
	fmt.Fprintf(r.Out, "%s\t%d files, %d tests passed, %d failed\n", status, sum.Files, sum.Passed, sum.Failed)
	return sum, nil
}

// defaultMode is the mode a test file tests unless test.game names one:
// the folder it is in (addons have none).
func defaultMode(file string) string {
	top, _, _ := strings.Cut(file, "/")
	if top == lua.AddonsDir || top == lua.LibDir {
		return ""
	}
	return top
}

func (r *Runner) runFile(file string) (passed, failed int) {
	fmt.Fprintf(r.Out, "=== %s\n", file)
	src, err := fs.ReadFile(r.FS, file)
	if err != nil {
		fmt.Fprintf(r.Out, "--- FAIL: %s: %v\n", file, err)
		return 0, 1
	}
	L := glua.NewState(glua.Options{SkipOpenLibs: true, CallStackSize: 256})
	defer L.Close()
	ctx, cancel := context.WithTimeout(context.Background(), FileTimeout)
	defer cancel()
	s := &suite{r: r, file: file, mode: defaultMode(file), L: L, seen: make(map[*Match]int)}
	s.open()
	L.SetContext(ctx)
	fnc, err := L.Load(strings.NewReader(string(src)), file)
	if err == nil {
		L.Push(fnc)
		err = L.PCall(0, 0, nil)
	}
	if err != nil {
		fmt.Fprintf(r.Out, "--- FAIL: %s\n    %s\n", file, failure(err))
		return 0, 1
	}
	if len(s.cases) == 0 {
		fmt.Fprintf(r.Out, "--- FAIL: %s: no test.case\n", file)
		return 0, 1
	}
	for _, c := range s.cases {
		start := time.Now()
		err := s.runCase(c)
		took := time.Since(start).Round(time.Millisecond)
		if err != nil {
			failed++
			fmt.Fprintf(r.Out, "--- FAIL: %s (%v)\n    %s\n", c.name, took, strings.ReplaceAll(err.Error(), "\n", "\n    "))
			continue
		}
		passed++
		fmt.Fprintf(r.Out, "--- PASS: %s (%v)\n", c.name, took)
	}
	return passed, failed
}

// runCase runs one case; games it made are closed after it. Mission
// errors the case did not look at (game:errors()) fail it.
func (s *suite) runCase(c testCase) (err error) {
	s.worlds, s.careers = nil, nil
	defer func() {
		for _, w := range s.worlds {
			w.Close()
		}
		s.worlds = nil
	}()
	s.L.Push(c.fn)
	if perr := s.L.PCall(0, 0, nil); perr != nil {
		return errors.New(failure(perr))
	}
	for _, w := range s.worlds {
		if errs := w.MissionErrors(); len(errs) > s.seen[w] {
			return fmt.Errorf("%s:%d: the mission reported errors the test did not check (game:errors()):\n%s",
				s.file, c.line, strings.Join(errs[s.seen[w]:], "\n"))
		}
	}
	return nil
}

// failure is a Lua error as "file:line: message" plus the test's frames.
func failure(err error) string {
	var ae *glua.ApiError
	if errors.As(err, &ae) {
		msg := ae.Object.String()
		var frames []string
		for _, l := range strings.Split(ae.StackTrace, "\n") {
			l = strings.TrimSpace(l)
			if strings.Contains(l, TestSuffix+":") {
				frames = append(frames, "  "+l)
			}
		}
		if len(frames) > 1 {
			msg += "\n" + strings.Join(frames, "\n")
		}
		return msg
	}
	return err.Error()
}
