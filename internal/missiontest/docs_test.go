package missiontest

import (
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	glua "github.com/yuin/gopher-lua"

	"github.com/bcserver/bcserver/missions"
)

// Every function of test, of a game and of a bot is documented in
// docs/testing-missions.md and annotated in lua/types/test.lua, and every
// message type a bot reports is in the docs' table.
func TestTestAPIDocumented(t *testing.T) {
	docs, err := os.ReadFile("../../docs/testing-missions.md")
	if err != nil {
		t.Fatal(err)
	}
	stubs, err := os.ReadFile("../../lua/types/test.lua")
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{FS: fstest.MapFS{"m/main.lua": {Data: nil}}, LibFS: missions.FS(), Out: &strings.Builder{}}
	if err := r.load(); err != nil {
		t.Fatal(err)
	}
	L := glua.NewState(glua.Options{SkipOpenLibs: true})
	defer L.Close()
	s := &suite{r: r, file: "m/m_test.lua", mode: "m", L: L, seen: map[*Match]int{}}
	s.open()
	w, err := NewMatch(Options{Mode: "m", FS: r.FS})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	funcs := func(t *glua.LTable) []string {
		var out []string
		t.ForEach(func(k, v glua.LValue) {
			if _, ok := v.(*glua.LFunction); ok {
				out = append(out, k.String())
			}
		})
		sort.Strings(out)
		return out
	}
	for _, api := range []struct {
		t          *glua.LTable
		doc, annot string
	}{
		{L.GetGlobal("test").(*glua.LTable), "`test.%s", "function test.%s("},
		{s.gameTable(L, w), "`g:%s(", "function Game:%s("},
		{s.botTable(L, w, &Bot{w: w}), "`bot:%s(", "function Bot:%s("},
	} {
		for _, name := range funcs(api.t) {
			if d := strings.Replace(api.doc, "%s", name, 1); !strings.Contains(string(docs), d) {
				t.Errorf("docs/testing-missions.md does not document %s", strings.Trim(d, "`("))
			}
			if a := strings.Replace(api.annot, "%s", name, 1); !strings.Contains(string(stubs), a) {
				t.Errorf("lua/types/test.lua does not annotate %q", a)
			}
		}
	}
	// The message types the decoder names.
	src, err := os.ReadFile("messages.go")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?:typ = |return )"([a-z_]+)"`)
	for _, m := range re.FindAllStringSubmatch(string(src), -1) {
		if !strings.Contains(string(docs), "`"+m[1]+"`") {
			t.Errorf("docs/testing-missions.md does not list the message type %s", m[1])
		}
		if !strings.Contains(string(stubs), `"`+m[1]+`"`) {
			t.Errorf("lua/types/test.lua does not list the message type %s", m[1])
		}
	}
}

// The failing run the docs show is one the runner would print: its
// summary line agrees with its PASS and FAIL lines.
func TestDocsExampleRunIsConsistent(t *testing.T) {
	docs, err := os.ReadFile("../../docs/testing-missions.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```\n(=== .*?)```").FindAllStringSubmatch(string(docs), -1)
	if len(blocks) == 0 {
		t.Fatal("no example run in the docs")
	}
	for _, b := range blocks {
		lines := strings.Split(strings.TrimSpace(b[1]), "\n")
		files, pass, fail := 0, 0, 0
		for _, l := range lines {
			switch {
			case strings.HasPrefix(l, "=== "):
				files++
			case strings.HasPrefix(l, "--- PASS: "):
				pass++
			case strings.HasPrefix(l, "--- FAIL: "):
				fail++
			}
		}
		status := "ok"
		if fail > 0 {
			status = "FAIL"
		}
		want := status + "\t" + strconv.Itoa(files) + " files, " + strconv.Itoa(pass) + " tests passed, " + strconv.Itoa(fail) + " failed"
		if got := lines[len(lines)-1]; got != want {
			t.Errorf("the example ends %q; the runner would print %q", got, want)
		}
	}
}
